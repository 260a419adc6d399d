"""Times attention_f16 (or attention_f32) built several ways (e.g. under different --define
meta-parameters) against PyTorch's scaled_dot_product_attention on the GPU, in one run,
interleaved per shape.

Each build is a shared library exporting the kernel; the timing is gpu_bench.py's (CUDA graph
over rotating buffers, median of replays) and every build is checked once against SDPA before
timing. Usage: python3 attention_sweep.py [--f32] <label>=<lib.so> [<label>=<lib.so> ...]
--f32: attention_f32 on float32 tensors, at smaller shapes (its products run on the CUDA cores).
"""
import sys

import torch

f32 = "--f32" in sys.argv[1:]
kernel, dtype = ("attention_f32", torch.float32) if f32 else ("attention_f16", torch.float16)
shapes = (((2, 8, 1024, 64, 0), (2, 8, 1024, 128, 0), (2, 8, 1024, 128, 1)) if f32 else
          ((4, 32, 4096, 128, 0), (4, 32, 4096, 64, 0), (16, 16, 1024, 64, 0),
           (4, 32, 4096, 128, 1), (4, 32, 4096, 64, 1)))
builds = [a.split("=", 1) for a in sys.argv[1:] if a != "--f32"]
sys.argv = [sys.argv[0], builds[0][1]]  # gpu_bench loads its library from argv[1]
sys.path.insert(0, __file__.rsplit("/", 1)[0])
sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from gpu_bench import sets_for, timed_interleaved  # noqa: E402
from ntc_dlpack import Library  # noqa: E402

torch.manual_seed(4)
libs = [(label, Library(path)) for label, path in builds]
print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
for b, h, s, d, causal in shapes:
    sets = sets_for(4 * b * h * s * d * dtype.itemsize)
    qs, ks, vs = ([torch.randn(b, h, s, d, device="cuda", dtype=dtype) for _ in range(sets)]
                  for _ in range(3))
    os_ = [torch.empty_like(qs[0]) for _ in range(sets)]
    ref = torch.nn.functional.scaled_dot_product_attention(qs[0], ks[0], vs[0], scale=1.0,
                                                           is_causal=bool(causal))
    flops = 4 * b * h * s * s * d // (2 if causal else 1)
    checked = []
    for label, lib in libs:
        os_[0].zero_()
        lib.call(kernel, qs[0], ks[0], vs[0], causal, os_[0])
        torch.cuda.synchronize()
        checked.append(bool(((os_[0] - ref).abs() <= 0.03 + 0.03 * ref.abs()).all()))
    # SDPA and every build replayed in turn, run after run (gpu_bench.timed_interleaved).
    times = timed_interleaved(
        [lambda i, st: torch.nn.functional.scaled_dot_product_attention(
            qs[i], ks[i], vs[i], scale=1.0, is_causal=bool(causal))] +
        [lambda i, st, lib=lib: lib.call(kernel, qs[i], ks[i], vs[i], causal, os_[i],
                                         stream=st) for _, lib in libs],
        sets, reps=5, runs=9)
    sdpa = times[0]
    print(f"{b}x{h}x{s}x{d}{' causal' if causal else ''}: SDPA {flops / sdpa / 1e12:6.1f} TFLOP/s")
    for (label, _), ok, t in zip(libs, checked, times[1:]):
        print(f"  {label:<24} {flops / t / 1e12:6.1f} TFLOP/s  {sdpa / t:5.2f}x SDPA"
              f"{'' if ok else '  WRONG'}", flush=True)
