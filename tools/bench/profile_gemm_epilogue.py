"""Profiling aid (not a benchmark): calls the stock matmul at one shape a few times so that ncu
can profile one launch. Usage: python3 profile_gemm_epilogue.py <libkernels_cuda.so> M N K"""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from ntc_dlpack import Library  # noqa: E402

lib = Library(sys.argv[1])
m, n, k = (int(v) for v in sys.argv[2:5])
a = torch.randn(m, k, device="cuda", dtype=torch.float16)
b = torch.randn(k, n, device="cuda", dtype=torch.float16)
c = torch.empty(m, n, device="cuda", dtype=torch.float16)
for _ in range(4):
    lib.call("matmul", a, b, c)
torch.cuda.synchronize()
print("config:", lib.config_for("matmul", a, b, c))
