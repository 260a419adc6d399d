"""Small calls of the stock kernels on tail shapes, to run under compute-sanitizer
(memcheck: out-of-bounds accesses; racecheck: shared-memory races in reductions and dot).
Usage: compute-sanitizer --tool memcheck python3 sanitize_kernels.py <libkernels_cuda.so>
"""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from ntc_dlpack import Library  # noqa: E402

lib = Library(sys.argv[1])
dev = "cuda"
x = torch.randn(10, device=dev)
lib.call("add_f32", x, x, torch.empty(10, device=dev))
s = torch.randn(7, 33, device=dev)
lib.call("softmax", s, torch.empty(7, 33, device=dev))
a = torch.randn(65, 130, device=dev, dtype=torch.float16)
b = torch.randn(130, 97, device=dev, dtype=torch.float16)
lib.call("matmul", a, b, torch.empty(65, 97, device=dev, dtype=torch.float16))
# Vector variants (aligned rows) with tails: partial chunks and a pipelined GEMM with masks.
w = torch.randn(9, 1024, device=dev)[:, :1003]
lib.call("softmax", w, torch.empty(9, 1003, device=dev))
x = torch.randn(1000, device=dev)
lib.call("add_f32", x, x, torch.empty(1000, device=dev))
a = torch.randn(136, 200, device=dev, dtype=torch.float16)
b = torch.randn(200, 72, device=dev, dtype=torch.float16)
lib.call("matmul", a, b, torch.empty(136, 72, device=dev, dtype=torch.float16))
q = torch.randn(1, 2, 37, 64, device=dev, dtype=torch.float16)
lib.call("attention_f16", q, q, q, 1, torch.empty_like(q))
torch.cuda.synchronize()
print("sanitize_kernels: done")
