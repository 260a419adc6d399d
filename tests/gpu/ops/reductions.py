"""GPU checks of the reduction and normalization operators of kernels/ops.

sum_dim, mean_dim and max_dim (a rank-3 (outer, reduced, inner) input reduced over dimension 1),
layer_norm, rms_norm, logsumexp, log_softmax, cross_entropy and cross_entropy_mean (over the last
dimension of (rows, C) tensors) and addmv, each as <op>_f32 and <op>_f16. Every kernel runs on the
GPU and on the CPU backend and is compared with torch in float64 and with the CPU result: rows
shorter than a block, of several blocks with a tail, transposed and sliced views (built on each
device from the same contiguous base, so the GPU sees the strides too), strided outputs whose
gaps must stay untouched, large values and infinities for the log-sum-exp family.
"""
import torch
import torch.nn.functional as F

F32, F16 = torch.float32, torch.float16
SUFFIX = {F32: "f32", F16: "f16"}
INF = float("inf")


def poison(b):
    b.fill_(float("nan") if b.is_floating_point() else -12345)


def run_both(t, kernel, bases, outputs, build):
    """Runs `kernel` on the GPU and on the CPU backend. `bases` are contiguous CPU tensors, the
    last `outputs` of them the outputs' bases (poisoned with NaN first); `build(bases)` returns
    the kernel's arguments (views of the bases and scalars), applied to copies of the bases on
    each device. Returns (GPU arguments, CPU arguments, GPU bases): outputs are read from the
    arguments, the inputs of the references from the CPU arguments."""
    gpu_bases = [b.cuda() for b in bases]
    cpu_bases = [b.clone() for b in bases]
    for b in gpu_bases[len(bases) - outputs:] + cpu_bases[len(bases) - outputs:]:
        poison(b)
    gpu_args, cpu_args = build(gpu_bases), build(cpu_bases)
    t.cuda.call(kernel, *gpu_args)
    torch.cuda.synchronize()
    t.cpu.call(kernel, *cpu_args)
    return gpu_args, cpu_args, gpu_bases


def check_gaps(t, name, gpu_base, view):
    """The elements of the GPU output base outside `view` (a function of a tensor) are NaN."""
    inside = torch.zeros(gpu_base.shape, dtype=torch.bool)
    view(inside).fill_(True)
    untouched = bool(torch.isnan(gpu_base.cpu()[~inside]).all())
    t.check(f"{name}: the output's gaps untouched", torch.tensor([float(untouched)]),
            torch.tensor([1.0]), 0, 0)


def identity(x):
    return x


def both_checks(t, name, gpu, cpu, ref, tol, cpu_tol):
    t.check(f"{name} vs torch", gpu, ref, *tol)
    t.check(f"{name} vs cpu backend", gpu, cpu, *cpu_tol)


# ---------------------------------------------------------------------------------------------
# sum_dim, mean_dim, max_dim: (outer, reduced, inner) -> (outer, inner)

# (name, base shape, view giving the (outer, reduced, inner) input)
DIM_CASES = [
    ("5x700x3", (5, 700, 3), identity),
    ("dim 0 of 1500x37", (1, 1500, 37), identity),
    ("last dim of 37x1500", (37, 1500, 1), identity),
    ("reduced length 1", (6, 1, 5), identity),
    ("reduced length 256", (3, 256, 2), identity),
    ("permuted 4x600x5", (600, 5, 4), lambda x: x.permute(2, 0, 1)),
    ("sliced 3x1200x4", (6, 1300, 8), lambda x: x[::2, 100:, 1::2]),
]


def check_dim_reductions(t):
    for dtype in (F32, F16):
        sfx = SUFFIX[dtype]
        for case, shape, view in DIM_CASES:
            base = torch.randn(shape).to(dtype)
            outer, length, inner = view(base).shape
            # The rounding of any summation order is bounded by |x| summed over a row.
            magnitude = view(base).double().abs().sum(1).max().item()
            rtol = 1e-6 if dtype == F32 else 1e-3
            for op, ref_of in (("sum", lambda x: x.sum(1)), ("mean", lambda x: x.mean(1))):
                kernel = f"{op}_dim_{sfx}"
                scale = 1.0 if op == "sum" else 1.0 / length
                tol = (magnitude * scale * 2e-6 + 1e-6, rtol)
                g, c, _ = run_both(t, kernel, [base, torch.empty(outer, inner, dtype=dtype)], 1,
                                   lambda b: [view(b[0]), b[1]])
                both_checks(t, f"{kernel} {case}", g[1], c[1], ref_of(c[0].double()), tol, tol)

            kernel = f"max_dim_{sfx}"
            out_bases = [torch.empty(outer, inner, dtype=dtype),
                         torch.empty(outer, inner, dtype=torch.int64)]
            g, c, _ = run_both(t, kernel, [base] + out_bases, 2, lambda b: [view(b[0]), b[1], b[2]])
            ref_values, ref_indices = torch.max(c[0].double(), 1)
            both_checks(t, f"{kernel} {case} values", g[1], c[1], ref_values, (0, 0), (0, 0))
            # torch returns the first of equal maxima, as the kernels do.
            both_checks(t, f"{kernel} {case} indices", g[2], c[2], ref_indices, (0, 0), (0, 0))

    # Ties across blocks, -inf rows, the maximum in the last block only.
    x = torch.full((1, 600, 3), -INF)
    x[0, 300, 0] = x[0, 520, 0] = 9.0
    x[0, :, 1] = torch.where(torch.arange(600) >= 512, 5.0, -1.0)
    outs = [torch.empty(1, 3), torch.empty(1, 3, dtype=torch.int64)]
    g, c, _ = run_both(t, "max_dim_f32", [x] + outs, 2, identity)
    t.check("max_dim_f32 ties / last block / -inf row: indices", g[2],
            torch.tensor([[300, 512, 0]]), 0, 0)
    t.check("max_dim_f32 ties / last block / -inf row: values", g[1],
            torch.tensor([[9.0, 5.0, -INF]]), 0, 0)

    # A strided output: (outer, inner) elements 11 and 2 apart in a larger base.
    base = torch.randn(4, 900, 5)
    out_view = lambda o: o[::3, ::2]  # noqa: E731
    g, c, gb = run_both(t, "sum_dim_f32", [base, torch.empty(12, 10)], 1,
                        lambda b: [b[0], out_view(b[1])])
    both_checks(t, "sum_dim_f32 into a strided output", g[1], c[1], base.double().sum(1),
                (2e-3, 1e-6), (2e-3, 1e-6))
    check_gaps(t, "sum_dim_f32", gb[1], out_view)


# ---------------------------------------------------------------------------------------------
# layer_norm, rms_norm: (rows, C) over the last dimension

# (name, base shape, view giving the (rows, C) input)
ROW_CASES = [
    ("37x2500", (37, 2500), identity),
    ("64x1024", (64, 1024), identity),
    ("300x4097", (300, 4097), identity),
    ("5x1", (5, 1), identity),
    ("7x33", (7, 33), identity),
    ("transposed 23x1500", (1500, 23), lambda x: x.t()),
    ("sliced 20x1200", (40, 1300), lambda x: x[::2, 50:1250]),
]


def rms_norm_reference(x, weight, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def check_norms(t):
    eps = 1e-5
    for dtype in (F32, F16):
        sfx = SUFFIX[dtype]
        tol = (2e-5, 1e-5) if dtype == F32 else (2e-3, 1e-3)
        for case, shape, view in ROW_CASES:
            base = (torch.randn(shape) * 2 + 0.5).to(dtype)
            rows, cols = view(base).shape
            weight = (torch.rand(cols) + 0.5).to(dtype)
            bias = torch.randn(cols).to(dtype)

            kernel = f"layer_norm_{sfx}"
            output = torch.empty(rows, cols, dtype=dtype)
            g, c, _ = run_both(t, kernel, [base, weight, bias, output], 1,
                               lambda b: [view(b[0]), b[1], b[2], eps, b[3]])
            ref = F.layer_norm(c[0].double(), (cols,), weight.double(), bias.double(), eps)
            both_checks(t, f"{kernel} {case}", g[4], c[4], ref, tol, tol)

            kernel = f"rms_norm_{sfx}"
            g, c, _ = run_both(t, kernel, [base, weight, torch.empty(rows, cols, dtype=dtype)], 1,
                               lambda b: [view(b[0]), b[1], eps, b[2]])
            ref = rms_norm_reference(c[0].double(), weight.double(), eps)
            both_checks(t, f"{kernel} {case}", g[3], c[3], ref, tol, tol)

    # A large mean: the variance must be that of the centred values.
    x = torch.rand(6, 2500) * 0.1 + 300
    ones, zeros = torch.ones(2500), torch.zeros(2500)
    g, c, _ = run_both(t, "layer_norm_f32", [x, ones, zeros, torch.empty(6, 2500)], 1,
                       lambda b: [b[0], b[1], b[2], 1e-6, b[3]])
    both_checks(t, "layer_norm_f32 mean 300, spread 0.1", g[4], c[4],
                F.layer_norm(x.double(), (2500,), eps=1e-6), (3e-3, 1e-3), (3e-3, 1e-3))

    # A strided output whose gaps stay untouched.
    x = torch.randn(9, 1100)
    out_view = lambda o: o[1::2, ::2]  # noqa: E731
    weight, bias = torch.rand(1100) + 0.5, torch.randn(1100)
    g, c, gb = run_both(t, "layer_norm_f32", [x, weight, bias, torch.empty(18, 2200)], 1,
                        lambda b: [b[0], b[1], b[2], eps, out_view(b[3])])
    both_checks(t, "layer_norm_f32 into a strided output", g[4], c[4],
                F.layer_norm(x.double(), (1100,), weight.double(), bias.double(), eps),
                (2e-5, 1e-5), (2e-5, 1e-5))
    check_gaps(t, "layer_norm_f32", gb[3], out_view)


# ---------------------------------------------------------------------------------------------
# logsumexp, log_softmax: (rows, C) over the last dimension

def special_rows(cols):
    """Rows with infinities and large values (float32), in a (7, cols) tensor."""
    x = torch.randn(7, cols)
    x[0] = -INF                                   # logsumexp -inf (log_softmax NaN: not checked)
    x[1, :2048] = -INF                            # whole blocks of -inf before the finite values
    x[2, ::3] = -INF                              # scattered -inf
    x[3] = torch.rand(cols) * 20 + 80             # exp overflows float32
    x[4] = torch.linspace(-50, 100, cols)         # the maximum grows block by block
    x[5, 1024:] = -200                            # the first block holds the maximum
    x[6, 1500] = INF                              # logsumexp +inf (log_softmax NaN: not checked)
    return x


def check_logsumexp_family(t):
    for dtype in (F32, F16):
        sfx = SUFFIX[dtype]
        tol = (1e-5, 1e-5) if dtype == F32 else (2e-3, 1e-3)
        cases = ROW_CASES + [("1x16385", (1, 16385), identity)]
        for case, shape, view in cases:
            base = (torch.randn(shape) * 4).to(dtype)
            rows, cols = view(base).shape

            kernel = f"logsumexp_{sfx}"
            g, c, _ = run_both(t, kernel, [base, torch.empty(rows, dtype=dtype)], 1,
                               lambda b: [view(b[0]), b[1]])
            both_checks(t, f"{kernel} {case}", g[1], c[1], torch.logsumexp(c[0].double(), -1),
                        tol, tol)

            kernel = f"log_softmax_{sfx}"
            g, c, _ = run_both(t, kernel, [base, torch.empty(rows, cols, dtype=dtype)], 1,
                               lambda b: [view(b[0]), b[1]])
            both_checks(t, f"{kernel} {case}", g[1], c[1], torch.log_softmax(c[0].double(), -1),
                        tol, tol)

        x = special_rows(2100).to(dtype)
        g, c, _ = run_both(t, f"logsumexp_{sfx}", [x, torch.empty(7, dtype=dtype)], 1, identity)
        both_checks(t, f"logsumexp_{sfx} infinities and large values", g[1], c[1],
                    torch.logsumexp(x.double(), -1), tol, tol)
        finite_rows = x[1:6]  # log_softmax of rows 0 and 6 is NaN in places
        output = torch.empty(5, 2100, dtype=dtype)
        g, c, _ = run_both(t, f"log_softmax_{sfx}", [finite_rows, output], 1, identity)
        both_checks(t, f"log_softmax_{sfx} infinities and large values", g[1], c[1],
                    torch.log_softmax(finite_rows.double(), -1), tol, tol)

    # A strided output whose gaps stay untouched.
    x = torch.randn(9, 1500)
    out_view = lambda o: o[::2, 3:1503]  # noqa: E731
    g, c, gb = run_both(t, "log_softmax_f32", [x, torch.empty(17, 1510)], 1,
                        lambda b: [b[0], out_view(b[1])])
    both_checks(t, "log_softmax_f32 into a strided output", g[1], c[1],
                torch.log_softmax(x.double(), -1), (1e-5, 1e-5), (1e-5, 1e-5))
    check_gaps(t, "log_softmax_f32", gb[1], out_view)


# ---------------------------------------------------------------------------------------------
# cross_entropy (per row), cross_entropy_mean

def check_cross_entropy(t):
    ignore = -100
    cases = [
        ("37x3001", (37, 3001), identity),
        ("2500x40 transposed", (40, 2500), lambda x: x.t()),
        ("1x5", (1, 5), identity),
    ]
    for dtype in (F32, F16):
        sfx = SUFFIX[dtype]
        tol = (2e-5, 1e-5) if dtype == F32 else (4e-3, 1e-3)
        for case, shape, view in cases:
            logits = (torch.randn(shape) * 3).to(dtype)
            rows, cols = view(logits).shape
            targets = torch.randint(0, cols, (2 * rows,))
            targets[::2][torch.arange(rows) % 5 == 2] = ignore
            edges = [e for e in (0, 1023, 1024, 2047, 2048, cols - 1) if e < cols]
            targets[:2 * len(edges):2][:rows] = torch.tensor(edges)[:rows]

            kernel = f"cross_entropy_{sfx}"
            g, c, _ = run_both(t, kernel, [logits, targets, torch.empty(rows, dtype=dtype)], 1,
                               lambda b: [view(b[0]), b[1][::2], ignore, b[2]])
            ref = F.cross_entropy(c[0].double(), c[1], ignore_index=ignore, reduction="none")
            both_checks(t, f"{kernel} {case}", g[3], c[3], ref, tol, tol)

            kernel = f"cross_entropy_mean_{sfx}"
            losses = c[3].clone()  # the CPU backend's per-row losses, on both devices
            g, c, _ = run_both(t, kernel, [losses, targets, torch.empty(1, dtype=dtype)], 1,
                               lambda b: [b[0], b[1][::2], ignore, b[2]])
            ref = F.cross_entropy(view(logits).double(), targets[::2], ignore_index=ignore)
            both_checks(t, f"{kernel} {case}", g[3], c[3], ref.reshape(1), tol, tol)

    # Large logits and a -inf target logit (loss +inf).
    x = torch.rand(3, 1500) * 10 + 90
    x[2, 4] = -INF
    targets = torch.tensor([1400, 3, 4])
    g, c, _ = run_both(t, "cross_entropy_f32", [x, targets, torch.empty(3)], 1,
                       lambda b: [b[0], b[1], ignore, b[2]])
    both_checks(t, "cross_entropy_f32 large logits, a -inf target", g[3], c[3],
                F.cross_entropy(x.double(), targets, reduction="none"), (2e-5, 1e-5), (2e-5, 1e-5))


# ---------------------------------------------------------------------------------------------
# addmv

def check_addmv(t):
    cases = [
        # (name, M, K, mat view (of a base of shape given), vec stride, beta, alpha)
        ("200x1100", 200, 1100, False, 1, 0.75, -1.5),
        ("77x130 transposed mat, strided vectors", 77, 130, True, 3, 2.0, 0.5),
        ("1x1", 1, 1, False, 1, 1.0, 1.0),
        ("64x4096", 64, 4096, False, 1, 1.0, 1.0),
    ]
    for dtype in (F32, F16):
        sfx = SUFFIX[dtype]
        kernel = f"addmv_{sfx}"
        for case, M, K, transposed, step, beta, alpha in cases:
            mat = torch.randn((K, M) if transposed else (M, K)).to(dtype)
            vec = torch.randn(K * step).to(dtype)
            inp = torch.randn(2 * M).to(dtype)

            def build(b, transposed=transposed, step=step, beta=beta, alpha=alpha):
                return [b[0][::2], b[1].t() if transposed else b[1], b[2][::step], beta, alpha,
                        b[3]]

            g, c, _ = run_both(t, kernel, [inp, mat, vec, torch.empty(M, dtype=dtype)], 1, build)
            ref = torch.addmv(c[0].double(), c[1].double(), c[2].double(), beta=beta, alpha=alpha)
            magnitude = (c[1].double().abs() @ c[2].double().abs()).max().item() * abs(alpha)
            tol = (magnitude * 2e-6 + 1e-6, 1e-5) if dtype == F32 else (magnitude * 1e-4, 1e-3)
            both_checks(t, f"{kernel} {case}", g[5], c[5], ref, tol, tol)

    # beta = 0 ignores NaN in input.
    mat, vec = torch.randn(70, 65), torch.randn(65)
    inp = torch.full((70,), float("nan"))
    g, c, _ = run_both(t, "addmv_f32", [inp, mat, vec, torch.empty(70)], 1,
                       lambda b: [b[0], b[1], b[2], 0.0, 1.0, b[3]])
    both_checks(t, "addmv_f32 beta=0 ignores NaN input", g[5], c[5], mat.double() @ vec.double(),
                (1e-4, 1e-5), (1e-4, 1e-5))


def run(t):
    check_dim_reductions(t)
    check_norms(t)
    check_logsumexp_family(t)
    check_cross_entropy(t)
    check_addmv(t)
