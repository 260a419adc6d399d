"""GPU checks of the elementwise and activation operators of kernels/ops.

gelu, gelu_tanh, silu, sigmoid, relu, exp, abs, neg, rsqrt, pow, clamp, threshold, where and
dropout, each as <op>_f32 / <op>_f16 (rank 1) and <op>_f32_4d / <op>_f16_4d (rank 4, lower
ranks given with leading size-1 dimensions). Every kernel runs on the GPU and on the CPU backend
and is compared with torch / torch.nn.functional in float64 and with the CPU result, at lengths
with tails, on strided, transposed and misaligned views (built on each device from the same
contiguous base, so the GPU sees the strides too), and once into a strided output whose gaps
must stay untouched. Dropout: the mask must equal the CPU backend's (the same Philox numbers),
be the same on a second run, keep about 1 - p and scale the kept elements by 1 / (1 - p).
"""
import math

import torch
import torch.nn.functional as F

F32, F16 = torch.float32, torch.float16
SUFFIX = {F32: "f32", F16: "f16"}
# Against float64 PyTorch: float32 math is a few ulps off, float16 results are rounded once.
# The absolute part covers gelu's 1 + erf(x) (and 1 + tanh) near 0 for x around -9, where an
# ulp of erf (6e-8) times x / 2 is up to 5e-7.
REF_TOL = {F32: (2e-6, 1e-5), F16: (1e-5, 2e-3)}
# Against the CPU backend: the float32 math libraries may differ by a few ulps, and a float16
# result may then round the other way (one float16 ulp, at most 2^-10 relative).
CPU_TOL = {F32: (2e-6, 4e-6), F16: (1e-5, 1e-3)}


def identity(x):
    return x


def views(rank4):
    """(name, contiguous base shape, view of the base) for the rank-1 or the rank-4 kernels."""
    if not rank4:
        return [
            ("n=98437", (98437,), identity),
            ("n=1000", (1000,), identity),
            ("n=1", (1,), identity),
            ("n=4097 stride 3", (3 * 4097,), lambda x: x[::3]),
            ("misaligned n=3000", (3001,), lambda x: x[1:]),
        ]
    return [
        ("rank 1 (1x1x1x4099)", (1, 1, 1, 4099), identity),
        ("rank 2 (1x1x37x45)", (1, 1, 37, 45), identity),
        ("rank 3 (1x3x29x17)", (1, 3, 29, 17), identity),
        ("rank 4 (2x3x37x41)", (2, 3, 37, 41), identity),
        ("transposed (2x3x41x37)", (2, 3, 37, 41), lambda x: x.transpose(-1, -2)),
        ("sliced (3x2x5x40)", (3, 2, 9, 50), lambda x: x[:, :, ::2, 3:43]),
    ]


def strided_output(rank4):
    """(name, base shape, view) of an output with gaps between its elements."""
    if not rank4:
        return ("n=777 into a stride-2 output", (2 * 777,), lambda x: x[::2])
    return ("2x3x9x14 into a spaced output", (2, 4, 9, 27), lambda x: x[:, 1:, :, ::2])


def run_both(t, kernel, bases, build, out_index, gaps_view=None):
    """Runs `kernel` on the GPU and on the CPU backend. `bases` are contiguous CPU tensors, the
    last one the output's base; `build(bases)` returns the kernel's arguments (views of the
    bases and scalars), applied to copies of the bases on each device. The output base is
    poisoned with NaN first; with `gaps_view` (the output's view), the GPU's elements outside
    the view are checked to be still NaN. Returns (GPU output, CPU output, CPU arguments)."""
    gpu_bases = [b.cuda() for b in bases]
    cpu_bases = [b.clone() for b in bases]
    gpu_bases[-1].fill_(float("nan"))
    cpu_bases[-1].fill_(float("nan"))
    gpu_args, cpu_args = build(gpu_bases), build(cpu_bases)
    t.cuda.call(kernel, *gpu_args)
    torch.cuda.synchronize()
    t.cpu.call(kernel, *cpu_args)
    if gaps_view is not None:
        inside = torch.zeros(bases[-1].shape, dtype=torch.bool)
        gaps_view(inside).fill_(True)
        untouched = bool(torch.isnan(gpu_bases[-1].cpu()[~inside]).all())
        t.check(f"{kernel}: the gaps of its strided output untouched",
                torch.tensor([float(untouched)]), torch.tensor([1.0]), 0, 0)
    return gpu_args[out_index].cpu(), cpu_args[out_index], cpu_args


def check_unary(t, op, reference, make_input):
    """A unary operator: every kernel, every view, against `reference` (float64) and the CPU."""
    for dtype in (F32, F16):
        for rank4 in (False, True):
            kernel = f"{op}_{SUFFIX[dtype]}" + ("_4d" if rank4 else "")
            # (name, input base shape, input view, output base shape, output view)
            cases = [(name, shape, view, None, identity) for name, shape, view in views(rank4)]
            name, out_shape, out_view = strided_output(rank4)
            cases.append((name, tuple(out_view(torch.empty(out_shape)).shape), identity,
                          out_shape, out_view))
            for name, shape, view, out_shape, out_view in cases:
                x_base = make_input(shape).to(dtype)
                if out_shape is None:
                    out_shape = tuple(view(x_base).shape)
                g, c, args = run_both(
                    t, kernel, [x_base, torch.empty(out_shape, dtype=dtype)],
                    lambda b, view=view, out_view=out_view: [view(b[0]), out_view(b[1])], 1,
                    None if out_view is identity else out_view)
                ref = reference(args[0].double())
                t.check(f"{kernel} {name} vs torch", g, ref, *REF_TOL[dtype])
                t.check(f"{kernel} {name} vs cpu backend", g, c, *CPU_TOL[dtype])


def check_special_values(t):
    """relu, clamp, threshold, sigmoid, rsqrt, abs and neg on ±0, ±inf and NaN (float32)."""
    inf, nan = math.inf, math.nan
    x = torch.tensor([-inf, -2.0, -0.5, -0.0, 0.0, 0.25, 0.5, 2.0, inf, nan])
    n = x.numel()
    cases = [
        ("relu_f32", [], F.relu),
        ("clamp_f32", [-0.5, 0.25], lambda v: torch.clamp(v, -0.5, 0.25)),
        ("threshold_f32", [0.25, -7.0], lambda v: F.threshold(v, 0.25, -7.0)),
        ("sigmoid_f32", [], torch.sigmoid),
        ("rsqrt_f32", [], torch.rsqrt),
        ("abs_f32", [], torch.abs),
        ("neg_f32", [], torch.neg),
    ]
    for kernel, scalars, reference in cases:
        g, c, _ = run_both(t, kernel, [x, torch.empty(n)],
                           lambda b, s=scalars: [b[0], *s, b[1]], 1 + len(scalars))
        ref = reference(x.double())
        finite = ~torch.isnan(ref)
        t.check(f"{kernel} special values vs torch", g[finite], ref[finite], 1e-7, 1e-6)
        t.check(f"{kernel} special values: NaN where torch has NaN", torch.isnan(g).double(),
                torch.isnan(ref).double(), 0, 0)
        t.check(f"{kernel} special values vs cpu backend", g[finite], c[finite], *CPU_TOL[F32])


def check_scalar_pair(t, op, a, b, reference):
    """clamp or threshold with two float32 scalars (values representable in float16, so the
    selected results are exact)."""
    for dtype in (F32, F16):
        for rank4 in (False, True):
            kernel = f"{op}_{SUFFIX[dtype]}" + ("_4d" if rank4 else "")
            for name, shape, view in views(rank4):
                x_base = (torch.randn(shape) * 1.5).to(dtype)
                flat = x_base.view(-1)
                flat[::5] = a  # values on the bounds: strict and non-strict comparisons differ
                flat[1::7] = b
                out_base = torch.empty(view(x_base).shape, dtype=dtype)
                g, c, args = run_both(t, kernel, [x_base, out_base],
                                      lambda bs, view=view: [view(bs[0]), a, b, bs[1]], 3)
                ref = reference(args[0].double(), a, b)
                t.check(f"{kernel}({a}, {b}) {name} vs torch", g, ref, 0, 0)
                t.check(f"{kernel}({a}, {b}) {name} vs cpu backend", g, c, 0, 0)


def check_where(t):
    for dtype in (F32, F16):
        for rank4 in (False, True):
            kernel = f"where_{SUFFIX[dtype]}" + ("_4d" if rank4 else "")
            for name, shape, view in views(rank4):
                x_base, y_base = torch.randn(shape).to(dtype), torch.randn(shape).to(dtype)
                shape_v = view(x_base).shape
                cond = torch.rand(shape_v) < 0.4
                out_base = torch.empty(shape_v, dtype=dtype)
                g, c, args = run_both(
                    t, kernel, [cond, x_base, y_base, out_base],
                    lambda b, view=view: [b[0], view(b[1]), view(b[2]), b[3]], 3)
                ref = torch.where(args[0], args[1].double(), args[2].double())
                t.check(f"{kernel} {name} vs torch", g, ref, 0, 0)
                t.check(f"{kernel} {name} vs cpu backend", g, c, 0, 0)


def check_pow(t):
    for dtype in (F32, F16):
        for rank4 in (False, True):
            kernel = f"pow_{SUFFIX[dtype]}" + ("_4d" if rank4 else "")
            for name, shape, view in views(rank4):
                for negative in (False, True):
                    if negative:  # negative bases, integral exponents: the sign of odd powers
                        x_base = -(torch.rand(shape) * 1.5 + 0.5)
                        e_base = torch.randint(-3, 4, shape).float()
                    else:
                        x_base = torch.rand(shape) * 2.9 + 0.1
                        e_base = torch.rand(shape) * 5 - 2.5
                    x_base, e_base = x_base.to(dtype), e_base.to(dtype)
                    out_base = torch.empty(view(x_base).shape, dtype=dtype)
                    g, c, args = run_both(
                        t, kernel, [x_base, e_base, out_base],
                        lambda b, view=view: [view(b[0]), view(b[1]), b[2]], 2)
                    ref = torch.pow(args[0].double(), args[1].double())
                    label = f"{kernel} {name}" + (" negative bases" if negative else "")
                    t.check(f"{label} vs torch", g, ref, *REF_TOL[dtype])
                    t.check(f"{label} vs cpu backend", g, c, *CPU_TOL[dtype])


# x / (1 - p) on the GPU is Triton's div.full.f32 (within 2 ulp), IEEE on the CPU backend; a
# float16 quotient is rounded from it, so it may land one float16 ulp away.
DIV_RTOL = {F32: 2.0 ** -22, F16: 2.0 ** -10}


def check_dropout(t):
    for dtype in (F32, F16):
        for rank4 in (False, True):
            kernel = f"dropout_{SUFFIX[dtype]}" + ("_4d" if rank4 else "")
            for p, seed in ((0.3, 20261202), (0.75, 987654321987654321)):
                for name, shape, view in views(rank4):
                    x_base = (torch.rand(shape) + 1).to(dtype)  # never 0: 0 means "dropped"
                    out_base = torch.empty(view(x_base).shape, dtype=dtype)
                    build = lambda b, view=view: [view(b[0]), p, seed, b[1]]  # noqa: E731
                    g, c, args = run_both(t, kernel, [x_base, out_base], build, 3)
                    again, _, _ = run_both(t, kernel, [x_base, out_base], build, 3)
                    label = f"{kernel} p={p} {name}"
                    t.check(f"{label} vs cpu backend (same Philox mask)", g, c, 0,
                            DIV_RTOL[dtype])
                    t.check(f"{label} same output on a second run", again, g, 0, 0)
                    x = args[0].double()
                    ref = torch.where(g != 0, x / (1 - p), torch.zeros_like(x))
                    t.check(f"{label} kept elements scaled by 1/(1-p)", g, ref, *REF_TOL[dtype])
                    if g.numel() >= 2000:
                        kept = (g != 0).double().mean().reshape(1)
                        t.check(f"{label} kept fraction", kept, torch.tensor([1 - p]), 0.03, 0)


def run(t):
    check_unary(t, "gelu", F.gelu, lambda s: torch.randn(s) * 3)
    check_unary(t, "gelu_tanh", lambda x: F.gelu(x, approximate="tanh"),
                lambda s: torch.randn(s) * 3)
    check_unary(t, "silu", F.silu, lambda s: torch.randn(s) * 4)
    check_unary(t, "sigmoid", torch.sigmoid, lambda s: torch.randn(s) * 4)
    check_unary(t, "relu", F.relu, torch.randn)
    check_unary(t, "exp", torch.exp, lambda s: torch.randn(s) * 2)
    check_unary(t, "abs", torch.abs, torch.randn)
    check_unary(t, "neg", torch.neg, torch.randn)
    check_unary(t, "rsqrt", torch.rsqrt, lambda s: torch.rand(s) * 5 + 0.01)
    check_special_values(t)
    check_scalar_pair(t, "clamp", -0.5, 0.75, lambda x, a, b: torch.clamp(x, a, b))
    check_scalar_pair(t, "clamp", 0.5, -0.25, lambda x, a, b: torch.clamp(x, a, b))
    check_scalar_pair(t, "threshold", 0.25, -1.5, F.threshold)
    check_scalar_pair(t, "threshold", -1.0, 3.0, F.threshold)
    check_where(t)
    check_pow(t)
    check_dropout(t)
