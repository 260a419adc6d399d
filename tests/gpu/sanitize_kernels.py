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
# Rows that are not 16-byte aligned: the element-by-element program in the cyclic layout.
s = torch.randn(5, 781, device=dev)
lib.call("softmax", s, torch.empty(5, 781, device=dev))
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
for causal in (0, 1):
    q = torch.randn(1, 2, 37, 64, device=dev, dtype=torch.float16)
    lib.call("attention_f16", q, q, q, causal, torch.empty_like(q))
    q = torch.randn(1, 1, 1, 32, device=dev)
    lib.call("attention_f32", q, q, q, causal, torch.empty_like(q))
# Causal with fewer and more keys than queries: loops that end early (skip-masked-iterations).
for sq, skv in ((150, 70), (70, 150)):
    q = torch.randn(1, 2, sq, 64, device=dev, dtype=torch.float16)
    kv = torch.randn(1, 2, skv, 64, device=dev, dtype=torch.float16)
    lib.call("attention_f16", q, kv, kv, 1, torch.empty_like(q))
# GEMM-like kernels at tails: M, N, K not multiples of any tile, K below one tile, one row.
h = torch.float16
for m, k, n in ((65, 130, 97), (1, 7, 33), (3, 200, 1)):
    a = torch.randn(m, k, device=dev, dtype=h)
    b = torch.randn(k, n, device=dev, dtype=h)
    lib.call("matmul", a, b, torch.empty(m, n, device=dev, dtype=h))
    lib.call("addmm", torch.randn(m, n, device=dev, dtype=h), a, b, 0.5, 2.0,
             torch.empty(m, n, device=dev, dtype=h))
    lib.call("linear", a, b, torch.randn(n, device=dev, dtype=h),
             torch.randn(m, n, device=dev, dtype=h), torch.empty(m, n, device=dev, dtype=h))
    lhs = torch.randn(3, m, k, device=dev, dtype=h)
    lib.call("bmm", lhs, torch.randn(3, k, n, device=dev, dtype=h),
             torch.empty(3, m, n, device=dev, dtype=h))
    lib.call("bmm_shared_rhs", lhs, b, torch.empty(3, m, n, device=dev, dtype=h))
# The Hopper configurations of the H200 table at tails: attention at head dimension 128 (its
# entry overlaps the products and copies by TMA) and matmul near 2048³ (128×256 tiles by TMA;
# rows of 16-byte multiples, so that the TMA program runs, but no size a multiple of a tile).
for causal in (0, 1):
    q = torch.randn(1, 2, 77, 128, device=dev, dtype=h)
    lib.call("attention_f16", q, q, q, causal, torch.empty_like(q))
a = torch.randn(1500, 1496, device=dev, dtype=h)
b = torch.randn(1496, 1504, device=dev, dtype=h)
lib.call("matmul", a, b, torch.empty(1500, 1504, device=dev, dtype=h))
# The rest of the GEMM family near 4096³, where the table takes TMA programs, at tails.
m, k, n = 3000, 3000, 2992
a = torch.randn(m, k, device=dev, dtype=h)
b = torch.randn(k, n, device=dev, dtype=h)
lib.call("addmm", torch.randn(m, n, device=dev, dtype=h), a, b, 0.5, 2.0,
         torch.empty(m, n, device=dev, dtype=h))
lib.call("linear", a, b, torch.randn(n, device=dev, dtype=h), torch.randn(m, n, device=dev, dtype=h),
         torch.empty(m, n, device=dev, dtype=h))
lib.call("matmul_bf16", a.bfloat16(), b.bfloat16(), torch.empty(m, n, device=dev, dtype=torch.bfloat16))
for n in (1, 31, 1023):
    x = torch.randn(n, device=dev, dtype=h)
    lib.call("add_f16", x, x, torch.empty(n, device=dev, dtype=h))
    s = torch.randn(2, n, device=dev)
    lib.call("softmax", s, torch.empty(2, n, device=dev))
# In place (the wrappers allow exact aliasing of an elementwise input).
x = torch.randn(777, device=dev)
lib.call("add_f32", x, x, x)
torch.cuda.synchronize()
print("sanitize_kernels: done")
