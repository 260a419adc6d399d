"""GPU benchmark of the operator library (kernels/ops, libops_cuda.so) against PyTorch.

Every operator of the CUDA build (tools/scripts/gpu-run.sh builds libops_cuda.so; conv2d has its
own script, conv2d_bench.py) is timed against the PyTorch call it stands for, at sizes that stream far
more than the L2 of an H200, in float32 and float16. The method is gpu_bench.py's:

* inputs are random (the distributions of tests/gpu/ops), never zeros;
* each row cycles through several buffer sets (inputs and outputs; together at least three L2s,
  at least two sets), so no call finds its data in the cache;
* each implementation is captured in a CUDA graph of `reps` calls over the sets (`reps` chosen so
  that a replay lasts about 2 ms) after a warm-up; a PyTorch call that cannot be captured is
  launched eagerly instead, and its row says so;
* ntc's and PyTorch's replays alternate in the same run (which goes first alternates too), timed
  with CUDA events; the median of the replays, divided by `reps`, is the time of one call;
* every ntc call's status is checked: ntc_dlpack.Library raises with ntc_last_error()'s message,
  which aborts the run;
* before timing, ntc's output (poisoned with NaN first) is compared once with a PyTorch reference
  in float64 (float32 for attention): |out - ref| <= atol + rtol |ref|, infinities and NaN equal.
  The tolerances are looser than tests/gpu/check_ops.py's (that is the precision test; this is a
  sanity check at large sizes). A row that disagrees is still timed and marked WRONG.

torch/ntc above 1 means ntc is faster. GB/s is the bytes the operator must move, each tensor read
or written once, divided by ntc's time (attention adds TFLOP/s). PyTorch runs eagerly (no
torch.compile); the notes say where the two sides differ in kind: rotary embedding is composed
of several PyTorch operations (it has no fused one), cross_entropy_mean is ntc's two launches
(per-row losses, then their mean) against one F.cross_entropy call, dropout draws other random
numbers. NineToothed's ntops is not installed on the GPU machine, so there is no NineToothed
column. The default run is sized to stay under three minutes on an H200; --quick times one shape
per operator. The exit status is 1 when a row is WRONG.

Usage: python3 ops_bench.py <libops_cuda.so> [--quick] [--only NAME[,NAME...]]
       (--only keeps the operators whose name contains one of the NAMEs, e.g. norm,pool)
"""
import argparse
import datetime
import functools
import math
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "python"))
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
from ntc_dlpack import Library  # noqa: E402
from ops.reductions import rms_norm_reference  # noqa: E402
from ops.spatial import rotary_reference, rotary_tables  # noqa: E402

F32, F16 = torch.float32, torch.float16
SUFFIX = {F32: "f32", F16: "f16"}
DEVICE = "cuda"

REPLAY_SECONDS = 2e-3   # the graph of one row holds about this much work
MIN_REPS, MAX_REPS = 3, 50
RUNS = 15               # replays of each implementation per row
WARMUP = 3
L2_FALLBACK = 60 * 2**20  # gpu_bench.py's, when torch does not say

# The sizes (the first of each list is --quick's).
ELEMENTWISE_SHAPES = [(2**24,), (2**26,), (32, 64, 128, 128)]  # rank 4: <op>_<dtype>_4d
DIM_SHAPES = [((4096, 4096), 1), ((8192, 1000), 1), ((4096, 4096), 0)]  # (rows, cols), reduced dim
NORM_SHAPES = [(8192, 4096), (4096, 4096), (8192, 1000)]
ROW_SHAPES = [(4096, 32000), (4096, 4096), (8192, 1000)]   # log-sum-exp family, cross-entropy
ADDMV_SHAPES = [(8192, 8192), (11008, 4096)]              # (M, K)
POOL_CASES = [((32, 64, 112, 112), 3, 2, 1), ((32, 64, 112, 112), 2, 2, 0)]  # window, stride, pad
ROTARY_SHAPES = [(4, 4096, 32, 128)]                      # (B, S, H, D)
SDPA_CASES = [((4, 32, 2048, 64), False), ((4, 32, 2048, 64), True)]  # (B, H, S, D), shared mask

DROPOUT_P, DROPOUT_SEED = 0.1, 20261202
EPS = 1e-5
IGNORE = -100
ADDMV_BETA, ADDMV_ALPHA = 0.75, -1.5

# (atol, rtol) against float64 PyTorch: float32 math is a few ulps off; float16 results are
# rounded once (half an ulp is 2^-11 relative).
ELEMENTWISE_TOL = {F32: (1e-5, 1e-5), F16: (1e-4, 2e-3)}
ROW_TOL = {F32: (1e-4, 1e-4), F16: (8e-3, 2e-3)}      # norms, log-sum-exp family, cross-entropy
POOL_TOL = {F32: (1e-5, 1e-5), F16: (1e-4, 2e-3)}
ROTARY_TOL = {F32: (2e-5, 2e-5), F16: (4e-3, 4e-3)}
SDPA_TOL = (1e-2, 1e-2)

lib = None       # the Library, loaded by main()
options = None   # the parsed command line
results = SimpleNamespace(rows=0, ratios=[], wrong=[], eager=0, missing=[])


# --- inputs ---------------------------------------------------------------------------------

def randn(shape, scale=1.0, shift=0.0):
    return torch.randn(shape, device=DEVICE) * scale + shift


def rand(shape, scale=1.0, shift=0.0):
    return torch.rand(shape, device=DEVICE) * scale + shift


def empty(shape, dtype):
    return torch.empty(shape, dtype=dtype, device=DEVICE)


def set_bytes(s):
    """The bytes of a buffer set's tensors, each storage once (an expanded view counts once)."""
    storages = {}
    for t in s.ins + s.outs:
        storages[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
    return sum(storages.values())


@functools.cache
def l2_bytes():
    return getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0) or L2_FALLBACK


def sets_for(bytes_per_set):
    """Buffer sets to cycle through: together at least three L2s; at least 2, at most 16."""
    return max(2, min(16, -(-3 * l2_bytes() // bytes_per_set)))


# --- checks ---------------------------------------------------------------------------------

def close(out, ref, atol, rtol):
    """(ok, max |err|) of out against ref rounded to out's type (so a float16 overflow is inf in
    both): |out - ref| <= atol + rtol |ref| where ref is finite; where it is infinite or NaN, out
    must be the same. (An infinite ref is not "within rtol |ref|" of every finite out.)"""
    if out.is_floating_point():
        ref = ref.to(out.dtype)
    out, ref = out.double(), ref.double()
    if out.shape != ref.shape:
        return False, math.inf
    same = (out == ref) | (torch.isnan(out) & torch.isnan(ref))
    diff = (out - ref).abs()
    ok = same | (torch.isfinite(ref) & (diff <= atol + rtol * ref.abs()))
    err = torch.where(same, torch.zeros_like(diff), diff.nan_to_num(math.inf))
    return bool(ok.all()), (err.max().item() if err.numel() else 0.0)


def all_of(*checks):
    """All of several (ok, err) checks."""
    return all(ok for ok, _ in checks), max(err for _, err in checks)


def poison(t):
    t.fill_(float("nan") if t.is_floating_point() else -12345)


# --- timing ---------------------------------------------------------------------------------

class Replay:
    """fn(i, stream) for i in 0..reps-1 (set i % nsets) captured in one CUDA graph, after a
    warm-up on the capturing stream; or, when `eager_ok` and the capture fails, the same calls
    launched eagerly on each run."""

    def __init__(self, fn, nsets, reps, eager_ok):
        self.fn, self.nsets, self.reps, self.graph = fn, nsets, reps, None
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for i in range(WARMUP):
                fn(i % nsets, stream.cuda_stream)
        stream.synchronize()
        graph = torch.cuda.CUDAGraph()
        try:
            with torch.cuda.graph(graph, stream=stream):
                for i in range(reps):
                    fn(i % nsets, stream.cuda_stream)
            self.graph = graph
        except RuntimeError:
            if not eager_ok:
                raise
            torch.cuda.synchronize()

    def run(self):
        if self.graph is not None:
            self.graph.replay()
        else:
            stream = torch.cuda.current_stream().cuda_stream
            for i in range(self.reps):
                self.fn(i % self.nsets, stream)

    def seconds(self):
        """Seconds per call of one run."""
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        self.run()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3 / self.reps


def eager_seconds(fn, nsets, calls=4):
    """Seconds per eager call of fn (after one more), to size the graphs."""
    stream = torch.cuda.current_stream().cuda_stream
    fn(0, stream)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for i in range(calls):
        fn(i % nsets, stream)
    end.record()
    end.synchronize()
    return max(start.elapsed_time(end) / 1e3 / calls, 1e-7)


def time_pair(ours_fn, theirs_fn, nsets):
    """(ntc's seconds per call, PyTorch's, whether PyTorch ran eagerly): both captured with the
    same number of calls, their replays alternating."""
    reps = round(REPLAY_SECONDS / eager_seconds(ours_fn, nsets))
    reps = max(MIN_REPS, min(MAX_REPS, reps))
    replays = [Replay(ours_fn, nsets, reps, eager_ok=False),
               Replay(theirs_fn, nsets, reps, eager_ok=True)]
    for replay in replays:
        for _ in range(WARMUP):
            replay.run()
    torch.cuda.synchronize()
    samples = [[], []]
    for run in range(RUNS):
        for j in ((0, 1) if run % 2 == 0 else (1, 0)):
            samples[j].append(replays[j].seconds())
    eager = replays[1].graph is None
    return statistics.median(samples[0]), statistics.median(samples[1]), eager


# --- one row --------------------------------------------------------------------------------

def selected(op):
    return not options.only or any(name in op for name in options.only)


def has_kernels(*kernels):
    missing = [k for k in kernels if not hasattr(lib.lib, k)]
    results.missing += missing
    return not missing


def bench(op, dtype, shape, kernels, make_set, ntc, baseline, check, note="", flops=None):
    """Times one operator at one shape and prints its row.

    make_set() builds one buffer set: a namespace with lists `ins` and `outs` of tensors (and
    whatever else ntc, baseline and check use); ntc(s, stream) calls the library on set s
    (stream None: the default stream), baseline(s) runs PyTorch on it; check(s) compares the
    outputs just written by ntc with a reference and returns (ok, max |err|). With flops (per
    call), the notes give ntc's TFLOP/s."""
    if not selected(op) or not has_kernels(*kernels):
        return
    torch.cuda.empty_cache()  # the previous row's buffers and graph pools
    first = make_set()
    nbytes = set_bytes(first)
    sets = [first] + [make_set() for _ in range(sets_for(nbytes) - 1)]
    for out in first.outs:
        poison(out)
    ntc(first, None)
    torch.cuda.synchronize()
    ok, err = check(first)
    ours, theirs, eager = time_pair(lambda i, stream: ntc(sets[i], stream),
                                    lambda i, stream: baseline(sets[i]), len(sets))
    torch.cuda.synchronize()  # an asynchronous CUDA error surfaces here
    notes = ([] if ok else [f"**WRONG** (max err {err:.3g})"]) + \
        (["torch eager"] if eager else []) + ([note] if note else []) + \
        ([f"ntc {flops / ours / 1e12:.0f} TFLOP/s, torch {flops / theirs / 1e12:.0f}"]
         if flops else [])
    print(f"| {op} | {SUFFIX[dtype]} | {shape} | {ours * 1e6:.1f} | {theirs * 1e6:.1f} "
          f"| {theirs / ours:.2f} | {nbytes / ours / 1e9:.0f} | {'; '.join(notes)} |", flush=True)
    results.rows += 1
    results.ratios.append(theirs / ours)
    results.eager += eager
    if not ok:
        results.wrong.append(f"{op} {SUFFIX[dtype]} {shape}")


def shapes(cases):
    return cases[:1] if options.quick else cases


def dims(shape):
    return "x".join(str(d) for d in shape)


def elements(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


# --- elementwise (element_wise.hpp) -----------------------------------------------------------

def dropout_torch(x):
    return F.dropout(x, DROPOUT_P, training=True)


# (operator, input makers (float32 or bool; floating ones are converted to the dtype), scalar
# arguments, PyTorch); the inputs are tests/gpu/ops/activations.py's.
ELEMENTWISE = [
    ("gelu", [lambda s: randn(s, 3)], (), F.gelu),
    ("gelu_tanh", [lambda s: randn(s, 3)], (), lambda x: F.gelu(x, approximate="tanh")),
    ("silu", [lambda s: randn(s, 4)], (), F.silu),
    ("sigmoid", [lambda s: randn(s, 4)], (), torch.sigmoid),
    ("relu", [randn], (), F.relu),
    ("exp", [lambda s: randn(s, 2)], (), torch.exp),
    ("abs", [randn], (), torch.abs),
    ("neg", [randn], (), torch.neg),
    ("rsqrt", [lambda s: rand(s, 5, 0.01)], (), torch.rsqrt),
    ("pow", [lambda s: rand(s, 2.9, 0.1), lambda s: rand(s, 5, -2.5)], (), torch.pow),
    ("clamp", [lambda s: randn(s, 1.5)], (-0.5, 0.75), lambda x: torch.clamp(x, -0.5, 0.75)),
    ("threshold", [lambda s: randn(s, 1.5)], (0.25, -1.5), lambda x: F.threshold(x, 0.25, -1.5)),
    ("where", [lambda s: rand(s) < 0.4, randn, randn], (), torch.where),
    ("dropout", [lambda s: rand(s, 1, 1)], (DROPOUT_P, DROPOUT_SEED), dropout_torch),
]


def check_dropout(s, tol):
    """Kept elements (never 0: the inputs are in [1, 2)) are x / (1 - p); about 1 - p are kept."""
    out, x = s.out.double(), s.ins[0].double()
    kept = out != 0
    scaled = close(out[kept], x[kept] / (1 - DROPOUT_P), *tol)
    fraction = kept.double().mean().item()
    return scaled[0] and abs(fraction - (1 - DROPOUT_P)) < 0.01, scaled[1]


def run_elementwise():
    for op, makers, scalars, torch_fn in ELEMENTWISE:
        for dtype in (F32, F16):
            for shape in shapes(ELEMENTWISE_SHAPES):
                kernel = f"{op}_{SUFFIX[dtype]}" + ("_4d" if len(shape) == 4 else "")

                def make_set(shape=shape, dtype=dtype, makers=makers):
                    ins = [m(shape) for m in makers]
                    ins = [t.to(dtype) if t.is_floating_point() else t for t in ins]
                    out = empty(shape, dtype)
                    return SimpleNamespace(ins=ins, out=out, outs=[out])

                def check(s, dtype=dtype, torch_fn=torch_fn, op=op):
                    if op == "dropout":
                        return check_dropout(s, ELEMENTWISE_TOL[dtype])
                    ref = torch_fn(*(t.double() if t.is_floating_point() else t for t in s.ins))
                    return close(s.out, ref, *ELEMENTWISE_TOL[dtype])

                label = f"{dims(shape)} (_4d)" if len(shape) == 4 else elements(shape[0])
                bench(op, dtype, label, [kernel], make_set,
                      lambda s, st, kernel=kernel, scalars=scalars:
                          lib.call(kernel, *s.ins, *scalars, s.out, stream=st),
                      lambda s, torch_fn=torch_fn: torch_fn(*s.ins), check,
                      "different random stream" if op == "dropout" else "")


# --- reductions over a dimension (reduction.hpp) ------------------------------------------------

def run_dim_reductions():
    for op in ("sum", "mean", "max"):
        for dtype in (F32, F16):
            kernel = f"{op}_dim_{SUFFIX[dtype]}"
            for (rows, cols), dim in shapes(DIM_SHAPES):
                # The kernels take an (outer, reduced, inner) view and give (outer, inner).
                view = (rows, cols, 1) if dim == 1 else (1, rows, cols)
                out_shape = (view[0], view[2])

                def make_set(rows=rows, cols=cols, view=view, out_shape=out_shape, dtype=dtype,
                             op=op):
                    x = randn((rows, cols)).to(dtype)
                    outs = [empty(out_shape, dtype)]
                    if op == "max":
                        outs.append(empty(out_shape, torch.int64))
                    return SimpleNamespace(x=x, ins=[x.view(view)], outs=outs)

                def check(s, dim=dim, dtype=dtype, op=op, out_shape=out_shape):
                    x = s.x.double()
                    if op == "max":
                        values, indices = s.outs
                        ok_values = close(values, x.amax(dim).view(out_shape), 0, 0)
                        in_range = bool(((indices >= 0) & (indices < x.shape[dim])).all())
                        if not in_range:
                            return False, math.inf
                        # indices of a maximum (the first on ties, as torch; not checked here)
                        return all_of(ok_values, close(x.gather(dim, indices), values, 0, 0))
                    ref = x.sum(dim) if op == "sum" else x.mean(dim)
                    scale = 1.0 if op == "sum" else 1.0 / x.shape[dim]
                    magnitude = x.abs().sum(dim).max().item() * scale  # bounds any order's rounding
                    rtol = 1e-5 if dtype == F32 else 2e-3
                    return close(s.outs[0], ref.view(out_shape), magnitude * 4e-6 + 1e-6, rtol)

                if op == "max":
                    baseline = lambda s, dim=dim: torch.max(s.x, dim)  # noqa: E731
                else:
                    baseline = lambda s, dim=dim, op=op: getattr(s.x, op)(dim)  # noqa: E731
                bench(f"{op}_dim", dtype, f"{rows}x{cols} dim {dim}", [kernel], make_set,
                      lambda s, st, kernel=kernel: lib.call(kernel, *s.ins, *s.outs, stream=st),
                      baseline, check)


# --- layer_norm, rms_norm ---------------------------------------------------------------------

def run_norms():
    has_rms_norm = hasattr(F, "rms_norm")
    for op in ("layer_norm", "rms_norm"):
        for dtype in (F32, F16):
            kernel = f"{op}_{SUFFIX[dtype]}"
            for rows, cols in shapes(NORM_SHAPES):

                def make_set(rows=rows, cols=cols, dtype=dtype, op=op):
                    x = randn((rows, cols), 2, 0.5).to(dtype)
                    weight = rand(cols, 1, 0.5).to(dtype)
                    ins = [x, weight]
                    if op == "layer_norm":
                        ins.append(randn(cols).to(dtype))
                    out = empty((rows, cols), dtype)
                    return SimpleNamespace(ins=ins, out=out, outs=[out])

                def check(s, op=op, cols=cols, dtype=dtype):
                    x, weight, *bias = (t.double() for t in s.ins)
                    if op == "layer_norm":
                        ref = F.layer_norm(x, (cols,), weight, bias[0], EPS)
                    else:
                        ref = rms_norm_reference(x, weight, EPS)
                    return close(s.out, ref, *ROW_TOL[dtype])

                if op == "layer_norm":
                    baseline = lambda s, cols=cols: F.layer_norm(  # noqa: E731
                        s.ins[0], (cols,), s.ins[1], s.ins[2], EPS)
                elif has_rms_norm:
                    baseline = lambda s, cols=cols: F.rms_norm(  # noqa: E731
                        s.ins[0], (cols,), s.ins[1], EPS)
                else:
                    baseline = lambda s: rms_norm_reference(s.ins[0], s.ins[1], EPS)  # noqa: E731
                bench(op, dtype, f"{rows}x{cols}", [kernel], make_set,
                      lambda s, st, kernel=kernel: lib.call(kernel, *s.ins, EPS, s.out, stream=st),
                      baseline, check,
                      "" if op == "layer_norm" or has_rms_norm else "torch: composed")


# --- logsumexp, log_softmax, cross_entropy ----------------------------------------------------

def ce_mean(sfx):
    """ntc's reduction="mean": the per-row losses, then their mean (two launches)."""
    def call(s, stream):
        lib.call(f"cross_entropy_{sfx}", *s.ins, IGNORE, s.outs[0], stream=stream)
        lib.call(f"cross_entropy_mean_{sfx}", s.outs[0], s.ins[1], IGNORE, s.outs[1],
                 stream=stream)
    return call


def ce_reference(s, reduction):
    return F.cross_entropy(s.ins[0].double(), s.ins[1], ignore_index=IGNORE, reduction=reduction)


# (operator, kernels, logits scale, with targets, output shapes of (rows, cols), ntc of the
# suffix, PyTorch, reference (float64); every one over the last dimension of (rows, cols)
ROW_OPS = [
    ("logsumexp", ["logsumexp"], 4, False, lambda r, c: [(r,)],
     lambda sfx: lambda s, st: lib.call(f"logsumexp_{sfx}", s.ins[0], s.outs[0], stream=st),
     lambda s: torch.logsumexp(s.ins[0], -1),
     lambda s: [torch.logsumexp(s.ins[0].double(), -1)]),
    ("log_softmax", ["log_softmax"], 4, False, lambda r, c: [(r, c)],
     lambda sfx: lambda s, st: lib.call(f"log_softmax_{sfx}", s.ins[0], s.outs[0], stream=st),
     lambda s: torch.log_softmax(s.ins[0], -1),
     lambda s: [torch.log_softmax(s.ins[0].double(), -1)]),
    ("cross_entropy", ["cross_entropy"], 3, True, lambda r, c: [(r,)],
     lambda sfx: lambda s, st: lib.call(f"cross_entropy_{sfx}", *s.ins, IGNORE, s.outs[0],
                                        stream=st),
     lambda s: F.cross_entropy(s.ins[0], s.ins[1], ignore_index=IGNORE, reduction="none"),
     lambda s: [ce_reference(s, "none")]),
    # reduction="mean": ntc's two launches against PyTorch's one call (the losses are not checked)
    ("cross_entropy_mean", ["cross_entropy", "cross_entropy_mean"], 3, True,
     lambda r, c: [(r,), (1,)], ce_mean,
     lambda s: F.cross_entropy(s.ins[0], s.ins[1], ignore_index=IGNORE),
     lambda s: [None, ce_reference(s, "mean").reshape(1)]),
]


def run_row_reductions():
    for op, kernels, scale, with_targets, out_shapes, ntc, baseline, reference in ROW_OPS:
        for dtype in (F32, F16):
            sfx = SUFFIX[dtype]
            for rows, cols in shapes(ROW_SHAPES):

                def make_set(rows=rows, cols=cols, dtype=dtype, scale=scale,
                             with_targets=with_targets, out_shapes=out_shapes):
                    # logits, and targets: class indices, every 20th one ignore_index
                    ins = [randn((rows, cols), scale).to(dtype)]
                    if with_targets:
                        targets = torch.randint(0, cols, (rows,), device=DEVICE)
                        targets[::20] = IGNORE
                        ins.append(targets)
                    return SimpleNamespace(ins=ins, outs=[empty(shape, dtype)
                                                          for shape in out_shapes(rows, cols)])

                def check(s, reference=reference, tol=ROW_TOL[dtype]):
                    return all_of(*(close(out, ref, *tol)
                                    for out, ref in zip(s.outs, reference(s)) if ref is not None))

                bench(op, dtype, f"{rows}x{cols}", [f"{k}_{sfx}" for k in kernels], make_set,
                      ntc(sfx), baseline, check,
                      "ntc: cross_entropy + cross_entropy_mean" if len(kernels) == 2 else "")


# --- addmv ------------------------------------------------------------------------------------

def run_addmv():
    for dtype in (F32, F16):
        kernel = f"addmv_{SUFFIX[dtype]}"
        for m, k in shapes(ADDMV_SHAPES):

            def make_set(m=m, k=k, dtype=dtype):
                ins = [randn(m).to(dtype), randn((m, k)).to(dtype), randn(k).to(dtype)]
                out = empty(m, dtype)
                return SimpleNamespace(ins=ins, out=out, outs=[out])

            def check(s, dtype=dtype):
                inp, mat, vec = (t.double() for t in s.ins)
                ref = torch.addmv(inp, mat, vec, beta=ADDMV_BETA, alpha=ADDMV_ALPHA)
                # float32 accumulation over K: bounded by the sum of |products|
                magnitude = (mat.abs() @ vec.abs()).max().item() * abs(ADDMV_ALPHA)
                tol = (magnitude * 1e-5, 1e-5) if dtype == F32 else (magnitude * 2e-4, 2e-3)
                return close(s.out, ref, *tol)

            bench("addmv", dtype, f"{m}x{k}", [kernel], make_set,
                  lambda s, st, kernel=kernel: lib.call(kernel, *s.ins, ADDMV_BETA, ADDMV_ALPHA,
                                                        s.out, stream=st),
                  lambda s: torch.addmv(*s.ins, beta=ADDMV_BETA, alpha=ADDMV_ALPHA), check)


# --- max_pool2d, avg_pool2d (spatial.hpp) -------------------------------------------------------

def run_pools():
    for op in ("max_pool2d", "avg_pool2d"):
        torch_fn = getattr(F, op)  # floor mode; avg: count_include_pad=True, as the kernel
        for dtype in (F32, F16):
            kernel = f"{op}_{SUFFIX[dtype]}"
            for (n, c, h, w), window, stride, padding in shapes(POOL_CASES):
                # The output's size selects floor mode (PyTorch's default).
                p = (h + 2 * padding - window) // stride + 1
                q = (w + 2 * padding - window) // stride + 1

                def make_set(n=n, c=c, h=h, w=w, p=p, q=q, dtype=dtype):
                    x = randn((n, c, h, w)).to(dtype)
                    out = empty((n, c, p, q), dtype)
                    return SimpleNamespace(ins=[x], out=out, outs=[out])

                def check(s, torch_fn=torch_fn, window=window, stride=stride, padding=padding,
                          tol=(0, 0) if op == "max_pool2d" else POOL_TOL[dtype]):
                    ref = torch_fn(s.ins[0].double(), window, stride, padding)
                    return close(s.out, ref, *tol)

                bench(op, dtype, f"{n}x{c}x{h}x{w} {window}x{window}/{stride} pad {padding}",
                      [kernel], make_set,
                      lambda s, st, kernel=kernel, window=window, stride=stride, padding=padding:
                          lib.call(kernel, s.ins[0], s.out, window, stride, padding, stream=st),
                      lambda s, torch_fn=torch_fn, window=window, stride=stride, padding=padding:
                          torch_fn(s.ins[0], window, stride, padding),
                      check)


# --- rotary embedding -------------------------------------------------------------------------

def run_rotary():
    for layout in ("interleaved", "half_split"):
        interleaved = layout == "interleaved"
        for dtype in (F32, F16):
            kernel = f"rotary_{layout}_{SUFFIX[dtype]}"
            for b, s_len, h, d in shapes(ROTARY_SHAPES):

                def make_set(b=b, s_len=s_len, h=h, d=d, dtype=dtype):
                    cos, sin = (t.to(DEVICE) for t in rotary_tables(s_len, d, dtype))
                    x = randn((b, s_len, h, d)).to(dtype)
                    out = empty((b, s_len, h, d), dtype)
                    return SimpleNamespace(ins=[x, cos, sin], out=out, outs=[out])

                def check(s, interleaved=interleaved, dtype=dtype):
                    ref = rotary_reference(*(t.double() for t in s.ins), interleaved)
                    return close(s.out, ref, *ROTARY_TOL[dtype])

                bench(f"rotary_{layout}", dtype, f"{b}x{s_len}x{h}x{d}", [kernel], make_set,
                      lambda s, st, kernel=kernel: lib.call(kernel, *s.ins, s.out, stream=st),
                      lambda s, interleaved=interleaved: rotary_reference(*s.ins, interleaved),
                      check, "torch: composed (tests/gpu/ops/spatial.py's reference)")


# --- scaled_dot_product_attention ---------------------------------------------------------------

def run_sdpa():
    for (b, h, s_len, d), shared in shapes(SDPA_CASES):
        scale = 1 / math.sqrt(d)

        def make_set(b=b, h=h, s_len=s_len, d=d, shared=shared):
            q, k, v = (randn((b, h, s_len, d)).to(F16) for _ in range(3))
            # An additive mask in [-2, 2) with a tenth of the keys excluded (-inf).
            mask = rand((b, 1 if shared else h, s_len, s_len), 4, -2)
            mask[rand(mask.shape) < 0.1] = float("-inf")
            mask = mask.to(F16)
            out = empty((b, h, s_len, d), F16)
            # The kernel takes the (B, H, S, S) view (stride 0 over heads when shared).
            return SimpleNamespace(ins=[q, k, v, mask.expand(b, h, s_len, s_len)], mask=mask,
                                   out=out, outs=[out])

        def check(s, scale=scale):
            q, k, v = (t.float() for t in s.ins[:3])
            ref = F.scaled_dot_product_attention(q, k, v, attn_mask=s.mask.float(), scale=scale)
            return close(s.out, ref, *SDPA_TOL)

        flops = 4 * b * h * s_len * s_len * d
        bench("sdpa_masked", F16, f"{b}x{h}x{s_len}x{d} mask {'B1SS' if shared else 'BHSS'}",
              ["sdpa_masked_f16"], make_set,
              lambda s, st, scale=scale: lib.call("sdpa_masked_f16", *s.ins, scale, s.out,
                                                  stream=st),
              lambda s, scale=scale: F.scaled_dot_product_attention(
                  *s.ins[:3], attn_mask=s.mask, scale=scale),
              check, flops=flops)


FAMILIES = [run_elementwise, run_dim_reductions, run_norms, run_row_reductions, run_addmv,
            run_pools, run_rotary, run_sdpa]


def main():
    global lib, options
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("library", help="libops_cuda.so")
    parser.add_argument("--quick", action="store_true", help="one shape per operator")
    parser.add_argument("--only", type=lambda s: [n for n in s.split(",") if n], default=[],
                        help="operators whose name contains one of these (comma-separated)")
    options = parser.parse_args()
    lib = Library(options.library)
    torch.manual_seed(20261203)
    started = time.monotonic()

    print(f"# ntc operator library vs PyTorch ({'quick' if options.quick else 'full'} run)\n")
    print(f"GPU: {torch.cuda.get_device_name()} · torch {torch.__version__} "
          f"(CUDA {torch.version.cuda}) · {datetime.datetime.now().isoformat(' ', 'seconds')}\n")
    print("| operator | dtype | shape | ntc (µs) | torch (µs) | torch/ntc | ntc GB/s | notes |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |", flush=True)
    for family in FAMILIES:
        family()

    print()
    if results.ratios:
        geomean = math.exp(statistics.fmean(math.log(r) for r in results.ratios))
        print(f"{results.rows} rows; geometric mean of torch/ntc {geomean:.2f} "
              f"(above 1: ntc faster); {results.eager} with PyTorch eager (not capturable).")
    if results.missing:
        print(f"Not in the library (skipped): {', '.join(sorted(set(results.missing)))}.")
    if results.wrong:
        print(f"WRONG ({len(results.wrong)}): {'; '.join(results.wrong)}")
    print("ntc outputs checked once against PyTorch before timing; times: median over "
          f"{RUNS} CUDA-graph replays per implementation, interleaved. "
          f"{time.monotonic() - started:.0f} s.")
    sys.exit(1 if results.wrong else 0)


if __name__ == "__main__":
    main()
