"""Composed kernels against the same fusion written by hand and against two kernels in a row.

The kernels are those of tests/cpu/kernels/composed.cpp: `composed_linear` is
relu(matmul(x, w) + b + r) with matmul.hpp's GEMM called as a kernel function, `fused_linear`
the same fusion written by hand, and `matmul` (the stock kernel, with its tuning table) followed
by `bias_residual_relu` the unfused pair; likewise `gelu_matmul` against `scaled_gelu` followed
by `matmul`. Timed as gpu_bench.py times everything (CUDA graph over rotating buffers, median of
replays), interleaved per shape, each result checked once before timing.
Usage: python3 composed_bench.py <libkernels_cuda.so> <libdsl_cuda.so>
"""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gpu_bench import lib, sets_for, timed  # noqa: E402
from ntc_dlpack import Library  # noqa: E402  (gpu_bench put tools/python on the path)

dsl = Library(sys.argv[2])
torch.manual_seed(3)
rows = []


def report(name, flops, times):
    ours = times["composed"]
    cells = [f"{k} {flops / t / 1e12:6.1f}" for k, t in times.items()]
    ratios = [f"{t / ours:5.3f}x vs {k}" for k, t in times.items() if k != "composed"]
    rows.append(f"{name:<30} TFLOP/s " + "  ".join(cells) + "   " + ", ".join(ratios))


def linear(m, n, kk):
    k = sets_for(2 * (m * kk + kk * n + 3 * m * n))
    xs = [torch.randn(m, kk, device="cuda", dtype=torch.float16) for _ in range(k)]
    ws = [torch.randn(kk, n, device="cuda", dtype=torch.float16) / kk ** 0.5 for _ in range(k)]
    bs = [torch.randn(n, device="cuda", dtype=torch.float16) for _ in range(k)]
    rs = [torch.randn(m, n, device="cuda", dtype=torch.float16) for _ in range(k)]
    ys = [torch.empty(m, n, device="cuda", dtype=torch.float16) for _ in range(k)]
    outs = [torch.empty(m, n, device="cuda", dtype=torch.float16) for _ in range(k)]
    ref = (xs[0].float() @ ws[0].float() + bs[0].float() + rs[0].float()).clamp(min=0)
    for kernel in ("composed_linear", "fused_linear"):
        outs[0].fill_(float("nan"))
        dsl.call(kernel, xs[0], ws[0], bs[0], rs[0], outs[0])
        torch.cuda.synchronize()
        assert ((outs[0].float() - ref).abs() <= 0.05 + 0.02 * ref.abs()).all(), kernel

    def two_kernels(i, st):
        lib.call("matmul", xs[i], ws[i], ys[i], stream=st)
        dsl.call("bias_residual_relu", ys[i], bs[i], rs[i], outs[i], stream=st)

    impls = {
        "composed": lambda i, st: dsl.call("composed_linear", xs[i], ws[i], bs[i], rs[i], outs[i],
                                           stream=st),
        "by_hand": lambda i, st: dsl.call("fused_linear", xs[i], ws[i], bs[i], rs[i], outs[i],
                                          stream=st),
        "two_kernels": two_kernels,
    }
    report(f"linear f16 {m}x{n}x{kk}", 2 * m * n * kk,
           {name: timed(fn, k, reps=5, runs=9) for name, fn in impls.items()})


def gelu_matmul(m, n, kk):
    k = sets_for(2 * (2 * m * kk + kk * n + m * n))
    xs = [torch.randn(m, kk, device="cuda", dtype=torch.float16) for _ in range(k)]
    ss = [torch.rand(m, kk, device="cuda", dtype=torch.float16) for _ in range(k)]
    ws = [torch.randn(kk, n, device="cuda", dtype=torch.float16) / kk ** 0.5 for _ in range(k)]
    acts = [torch.empty(m, kk, device="cuda", dtype=torch.float16) for _ in range(k)]
    outs = [torch.empty(m, n, device="cuda", dtype=torch.float16) for _ in range(k)]
    xs0 = xs[0].float() * ss[0].float()
    ref = torch.nn.functional.gelu(xs0, approximate="tanh") @ ws[0].float()
    dsl.call("gelu_matmul", xs[0], ss[0], ws[0], outs[0])
    torch.cuda.synchronize()
    assert ((outs[0].float() - ref).abs() <= 0.05 + 0.02 * ref.abs()).all()

    def two_kernels(i, st):
        dsl.call("scaled_gelu", xs[i], ss[i], acts[i], stream=st)
        lib.call("matmul", acts[i], ws[i], outs[i], stream=st)

    impls = {
        "composed": lambda i, st: dsl.call("gelu_matmul", xs[i], ss[i], ws[i], outs[i], stream=st),
        "two_kernels": two_kernels,
    }
    report(f"matmul(gelu(x*s)) f16 {m}x{n}x{kk}", 2 * m * n * kk,
           {name: timed(fn, k, reps=5, runs=9) for name, fn in impls.items()})


if __name__ == "__main__":
    for shape in ((4096, 4096, 4096), (8192, 8192, 2048), (2048, 2048, 2048), (4096, 4096, 512)):
        linear(*shape)
    for shape in ((4096, 4096, 4096), (4096, 4096, 512)):
        gelu_matmul(*shape)
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    print("\n".join(rows))
