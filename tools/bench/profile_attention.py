"""Profiling aid (not a benchmark): one launch each of ntc's attention_f16, PyTorch's
scaled_dot_product_attention (FlashAttention-3/cuDNN on sm_90) and, when the ninetoothed package
is present, NineToothed's (after Triton's autotuning), per shape, between cudaProfilerStart and
cudaProfilerStop, so that `ncu --profile-from-start off` sees exactly those launches, ntc's
first (tools/bench/ncu_mix.py compares their instruction mixes and stalls).
Usage: python3 profile_attention.py <libkernels_cuda.so> BxHxSxD...
"""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import nt_compare  # noqa: E402  (loads the library named by argv[1])

shapes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[2:]]
calls = []
for b, h, s, d in shapes:
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    calls.append(lambda q=q, k=k, v=v, o=o: nt_compare.lib.call("attention_f16", q, k, v, 0, o))
    calls.append(lambda q=q, k=k, v=v: torch.nn.functional.scaled_dot_product_attention(
        q, k, v, scale=1.0))
    if nt_compare.ninetoothed is not None:
        calls.append(lambda q=q, k=k, v=v, o=o: nt_compare.nt_attention(q, k, v, 0, o))
for call in calls:  # warm-up, and Triton's autotuning
    call()
    call()
torch.cuda.synchronize()
torch.cuda.profiler.start()
for call in calls:
    call()
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("profiled", len(calls), "launches")
