"""Times one kernel built several ways (e.g. matmul under different --define meta-parameters)
against cuBLAS on the GPU, in one run, interleaved per shape.

Each build is a shared library exporting the kernel; the timing is gpu_bench.py's (CUDA graph
over rotating buffers, median of replays; cuBLAS and the builds replayed in turn, so that all run
in the same power and clock state) and every build is checked once against a float32 product
before timing. The precursor of a tuning run: it prints one line per build and shape.
Usage: python3 gemm_sweep.py [--table T.json | --shapes MxNxK,...] <kernel> <label>=<lib.so> ...
(--table: the shapes of the kernel's entries in a tuning table instead of the fixed list;
--shapes: these; a kernel whose name ends in bf16 gets bfloat16 operands, the others float16)
"""
import json
import sys

import torch

table = None
listed = None
if sys.argv[1] == "--table":
    table = json.load(open(sys.argv[2]))
    del sys.argv[1:3]
elif sys.argv[1] == "--shapes":
    listed = [tuple(int(x) for x in s.split("x")) for s in sys.argv[2].split(",")]
    del sys.argv[1:3]
kernel, builds = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
dtype = torch.bfloat16 if kernel.endswith("bf16") else torch.float16  # matmul_bf16: bfloat16
sys.argv = [sys.argv[0], builds[0][1]]  # gpu_bench loads its library from argv[1]
sys.path.insert(0, __file__.rsplit("/", 1)[0])
sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from gpu_bench import sets_for, timed_interleaved  # noqa: E402
from ntc_dlpack import Library  # noqa: E402

torch.manual_seed(3)
libs = [(label, Library(path)) for label, path in builds]
print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
shapes = ((4096, 4096, 4096), (8192, 8192, 8192), (2048, 2048, 2048), (4096, 4096, 512))
if table:
    shapes = [(e["shape"]["lhs"][0], e["shape"]["rhs"][1], e["shape"]["lhs"][1])
              for e in table["entries"] if e["kernel"] == kernel]
if listed:
    shapes = listed
for m, n, k in shapes:
    sets = sets_for(2 * (m * k + k * n + m * n))
    a = [torch.randn(m, k, device="cuda", dtype=dtype) for _ in range(sets)]
    b = [torch.randn(k, n, device="cuda", dtype=dtype) for _ in range(sets)]
    c = [torch.empty(m, n, device="cuda", dtype=dtype) for _ in range(sets)]
    ref = a[0].float() @ b[0].float()
    reps = 3 if m * n * k >= 8192**3 else 10
    flops = 2 * m * n * k
    checked = []
    for label, lib in libs:
        if table:  # which configuration the library's dispatcher takes for the shape
            print(f"  {label:<24} takes {lib.config_for(kernel, a[0], b[0], c[0])}")
        c[0].zero_()
        lib.call(kernel, a[0], b[0], c[0])
        torch.cuda.synchronize()
        checked.append(bool(((c[0].float() - ref).abs() <= 0.05 + 0.02 * ref.abs()).all()))
    # cuBLAS and every build replayed in turn, run after run (gpu_bench.timed_interleaved).
    times = timed_interleaved(
        [lambda i, s: torch.matmul(a[i], b[i], out=c[i])] +
        [lambda i, s, lib=lib: lib.call(kernel, a[i], b[i], c[i], stream=s) for _, lib in libs],
        sets, reps=reps, runs=9)
    cublas = times[0]
    print(f"{m}x{n}x{k}: cuBLAS {flops / cublas / 1e12:6.1f} TFLOP/s")
    for (label, _), ok, t in zip(libs, checked, times[1:]):
        print(f"  {label:<24} {flops / t / 1e12:6.1f} TFLOP/s  {cublas / t:5.2f}x cuBLAS"
              f"{'' if ok else '  WRONG'}")
