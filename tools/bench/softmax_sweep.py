"""Times softmax built several ways against torch.softmax on the GPU, in one run, interleaved per
shape, under CUDA graphs (gpu_bench.py's timing: graph of replays over rotating buffers, median).

Each build is a shared library exporting softmax (a CUDA build of kernels/softmax.cpp); each is
checked once per shape against torch.softmax before timing. The order of builds is repeated
twice per shape so that drift shows. Usage:
python3 softmax_sweep.py [--shapes MxN,MxN...] <label>=<lib.so> ...
(rows whose width is not a multiple of four floats are of the "any" alignment class).
"""
import sys

import torch

shapes = ((1823, 781), (8192, 1000), (32768, 512), (4096, 4096))
if len(sys.argv) > 2 and sys.argv[1] == "--shapes":
    shapes = [tuple(int(x) for x in s.split("x")) for s in sys.argv[2].split(",")]
    del sys.argv[1:3]
builds = [a.split("=", 1) for a in sys.argv[1:]]
sys.argv = [sys.argv[0], builds[0][1]]  # gpu_bench loads its library from argv[1]
sys.path.insert(0, __file__.rsplit("/", 1)[0])
sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from gpu_bench import sets_for, timed  # noqa: E402
from ntc_dlpack import Library  # noqa: E402

torch.manual_seed(5)
libs = [(label, Library(path)) for label, path in builds]
print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
for m, n in shapes:
    sets = sets_for(2 * m * n * 4)
    xs = [torch.randn(m, n, device="cuda") * 4 for _ in range(sets)]
    ys = [torch.empty(m, n, device="cuda") for _ in range(sets)]
    ref = torch.softmax(xs[0], -1)
    work = 2 * m * n * 4
    correct = {}
    for label, lib in libs:
        ys[0].fill_(float("nan"))
        lib.call("softmax", xs[0], ys[0])
        torch.cuda.synchronize()
        correct[label] = torch.allclose(ys[0], ref, atol=1e-6, rtol=1e-4)
    for round_ in range(2):
        base = timed(lambda i, st: torch.softmax(xs[i], -1), sets, reps=20, runs=15)
        print(f"{m}x{n} round {round_}: torch {work / base / 1e12:5.2f} TB/s")
        for label, lib in libs:
            t = timed(lambda i, st: lib.call("softmax", xs[i], ys[i], stream=st), sets, reps=20,
                      runs=15)
            print(f"  {label:<16} {work / t / 1e12:5.2f} TB/s  {base / t:5.2f}x torch"
                  f"{'' if correct[label] else '  WRONG'}", flush=True)
