"""Times addmm, linear and bmm (the GEMM family beside matmul) built several ways against
PyTorch, in one run, interleaved per shape.

The references: torch.addmm (cuBLAS with beta), relu(addmm(bias) + residual) for linear (what
PyTorch runs for the fused kernel: cuBLAS and elementwise kernels), torch.bmm; and, as the
floor every member of the family is held to, cuBLAS's plain product of the same shape
(torch.matmul / torch.bmm into a preallocated output). Every build is checked once against a
float32 reference before timing; the timing is gpu_bench.py's (CUDA graphs over rotating
buffers, medians, all replayed in turn).
Usage: python3 gemm_family_sweep.py [--shapes MxNxK,...] <kernel> <label>=<lib.so> ...
(kernel: addmm, linear or bmm; bmm's shapes are BxMxNxK)
"""
import sys

import torch

listed = None
if sys.argv[1] == "--shapes":
    listed = [tuple(int(x) for x in s.split("x")) for s in sys.argv[2].split(",")]
    del sys.argv[1:3]
kernel, builds = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
sys.argv = [sys.argv[0], builds[0][1]]  # gpu_bench loads its library from argv[1]
sys.path.insert(0, __file__.rsplit("/", 1)[0])
sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from gpu_bench import sets_for, timed_interleaved  # noqa: E402
from ntc_dlpack import Library  # noqa: E402

torch.manual_seed(5)
libs = [(label, Library(path)) for label, path in builds]
print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
defaults = {
    "addmm": ((4096, 4096, 4096), (8192, 8192, 8192), (4096, 4096, 512)),
    "linear": ((4096, 4096, 4096), (8192, 8192, 8192), (4096, 4096, 512)),
    "bmm": ((4, 2048, 2048, 2048), (8, 1024, 1024, 1024), (16, 4096, 4096, 512)),
}
f16 = dict(device="cuda", dtype=torch.float16)
BETA, ALPHA = 0.5, 1.25


def problem(shape):
    """(sets, arguments of the ntc call per set, reference call per set, floor call per set,
    float32 reference of set 0, flops)."""
    if kernel == "bmm":
        b, m, n, k = shape
        per_set = 2 * b * (m * k + k * n + m * n)
        sets = sets_for(per_set)
        x = [torch.randn(b, m, k, **f16) for _ in range(sets)]
        y = [torch.randn(b, k, n, **f16) for _ in range(sets)]
        out = [torch.empty(b, m, n, **f16) for _ in range(sets)]
        args = [(x[i], y[i], out[i]) for i in range(sets)]
        ref = [lambda i, s: torch.bmm(x[i], y[i], out=out[i])] * 2
        return sets, args, ref[0], ref[1], x[0].float() @ y[0].float(), 2 * b * m * n * k
    m, n, k = shape
    per_set = 2 * (m * k + k * n + 3 * m * n)
    sets = sets_for(per_set)
    x = [torch.randn(m, k, **f16) for _ in range(sets)]
    y = [torch.randn(k, n, **f16) for _ in range(sets)]
    out = [torch.empty(m, n, **f16) for _ in range(sets)]
    plain = [torch.empty(m, n, **f16) for _ in range(sets)]
    floor = lambda i, s: torch.matmul(x[i], y[i], out=plain[i])  # noqa: E731
    product = x[0].float() @ y[0].float()
    if kernel == "addmm":
        c = [torch.randn(m, n, **f16) for _ in range(sets)]
        args = [(c[i], x[i], y[i], BETA, ALPHA, out[i]) for i in range(sets)]
        ref = lambda i, s: torch.addmm(c[i], x[i], y[i], beta=BETA, alpha=ALPHA, out=out[i])  # noqa
        want = BETA * c[0].float() + ALPHA * product.half().float()
        return sets, args, ref, floor, want, 2 * m * n * k
    bias = [torch.randn(n, **f16) for _ in range(sets)]
    res = [torch.randn(m, n, **f16) for _ in range(sets)]
    args = [(x[i], y[i], bias[i], res[i], out[i]) for i in range(sets)]

    def ref(i, s):
        torch.addmm(bias[i], x[i], y[i], out=out[i]).add_(res[i]).relu_()

    want = torch.relu(product + bias[0].float() + res[0].float())
    return sets, args, ref, floor, want, 2 * m * n * k


for shape in listed or defaults[kernel]:
    sets, args, ref, floor, want, flops = problem(shape)
    checked = []
    for label, lib in libs:
        out = args[0][-1]
        out.zero_()
        lib.call(kernel, *args[0])
        torch.cuda.synchronize()
        checked.append(bool(((out.float() - want).abs() <= 0.05 + 0.02 * want.abs()).all()))
    reps = 3 if flops >= 2 * 8192**3 else 10
    times = timed_interleaved(
        [ref, floor] +
        [lambda i, s, lib=lib: lib.call(kernel, *args[i], stream=s) for _, lib in libs],
        sets, reps=reps, runs=9)
    name = "x".join(str(d) for d in shape)
    print(f"{kernel} {name}: PyTorch {flops / times[0] / 1e12:6.1f} TFLOP/s, "
          f"cuBLAS product {flops / times[1] / 1e12:6.1f}")
    for (label, _), ok, t in zip(libs, checked, times[2:]):
        print(f"  {label:<24} {flops / t / 1e12:6.1f} TFLOP/s  {times[0] / t:5.2f}x PyTorch  "
              f"{times[1] / t:5.2f}x cuBLAS product{'' if ok else '  WRONG'}")
