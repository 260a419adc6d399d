"""Times attention_f16 built several ways against PyTorch's scaled_dot_product_attention on data
whose running row maximum rises at almost every key block (keys that grow along the sequence),
the worst case for skip-unit-factors (docs/decisions.md, thirtieth session), at 4×32×4096 with
head dimensions 128 and 64. Prints the share of 64-key blocks that raise a row's maximum, and
checks each build against SDPA once before timing (gpu_bench.py's interleaved replays).
Usage: python3 attention_rising_max.py <label>=<lib.so> [<label>=<lib.so> ...]
"""
import sys

import torch

builds = [a.split("=", 1) for a in sys.argv[1:]]
sys.argv = [sys.argv[0], builds[0][1]]  # gpu_bench loads its library from argv[1]
sys.path.insert(0, __file__.rsplit("/", 1)[0])
sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from gpu_bench import timed_interleaved  # noqa: E402
from ntc_dlpack import Library  # noqa: E402

torch.manual_seed(7)
libs = [(label, Library(path)) for label, path in builds]
print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
b, h, s = 4, 32, 4096
for d in (128, 64):
    q = (0.1 + 0.02 * torch.randn(b, h, s, d, device="cuda")).half()
    ramp = torch.arange(s, device="cuda", dtype=torch.float32).view(1, 1, s, 1) / s
    k = (2.0 * ramp + 0.01 * torch.randn(b, h, s, d, device="cuda")).half()
    v = torch.randn(b, h, s, d, device="cuda", dtype=torch.float16)
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=1.0)
    scores = (q[0, 0].float() @ k[0, 0].float().T).view(s, s // 64, 64).amax(-1)
    raised = (scores[:, 1:] > scores.cummax(-1).values[:, :-1]).float().mean().item()
    o = torch.empty_like(q)
    checked = []
    for _, lib in libs:
        o.zero_()
        lib.call("attention_f16", q, k, v, 0, o)
        torch.cuda.synchronize()
        checked.append(bool(((o - ref).abs() <= 0.03 + 0.03 * ref.abs()).all()))
    times = timed_interleaved(
        [lambda i, st: torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=1.0)] +
        [lambda i, st, lib=lib: lib.call("attention_f16", q, k, v, 0, o, stream=st)
         for _, lib in libs], 1, reps=5, runs=9)
    flops = 4 * b * h * s * s * d
    print(f"{b}x{h}x{s}x{d} rising maximum ({raised:.2f} of the blocks raise a row's): SDPA "
          f"{flops / times[0] / 1e12:6.1f} TFLOP/s")
    for (label, _), ok, t in zip(libs, checked, times[1:]):
        print(f"  {label:<24} {flops / t / 1e12:6.1f} TFLOP/s  {times[0] / t:5.2f}x SDPA"
              f"{'' if ok else '  WRONG'}", flush=True)
