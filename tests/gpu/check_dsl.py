"""GPU tests of the DSL test kernels of tests/cpu/kernels (run on a GPU machine; see gpu-run.sh).

The Catch2 tests of tests/cpu run these kernels on the CPU backend only; here every kernel of
tests/cpu/kernels, compiled for CUDA (libdsl_cuda.so) and for the CPU backend (libdsl_cpu.so),
runs on the same random inputs (outputs poisoned with NaN, or -12345 for integers, first) and
the GPU result is compared with the CPU backend's and with a PyTorch or plain-Python reference,
at shapes with tails in every dimension. One group per kernel source:

  add_block4       sizes around the block of 4, a strided view, in place (output aliases lhs).
  int_ops          add_one_i32 stays int32 (16777217 + 1 exact), tails of 64, a strided view.
  dropout          x.offsets(0) and ntl::rand: GPU == CPU within 2 ulp (the GPU divides floats
                   as Triton does, div.full.f32), the mask == a Python
                   Philox-4x64-10 reference (Triton's rand for int64 offsets), kept fraction,
                   repeatable; 64-bit and negative seeds, a strided view (same mask).
  linear_offsets   element_offsets: x.offsets() = sum of index * stride of a strided view with a
                   storage offset (int64 output); dropout2d on a strided view against Philox.
  dot_precision    mm_ieee and mm_tf32x3 close to float64 (tighter than tf32 could be), mm_tf32
                   within the tf32 tolerance and different from mm_ieee (its operands are
                   rounded to tf32 on the tensor cores), all exact on small integers, transposed
                   rhs, K = 0 (zeros); a `note` line says how far the GPU's tf32 is from ieee.
  constexpr_arrangement  every listed window x stride of max_pool_constexpr and dilation of
                   dilated_max_constexpr; an unlisted value is NTC_ERROR_INVALID_ARGUMENT naming
                   the parameter, output untouched.
  rank_generic     minus_max_2d / _3d / _dim0_3d at extents 1..64 and a transposed view; an
                   extent over the declared upper bound is a failing status. The kernel declares
                   no .other(-inf): masked lanes of a padded tile read 0 and enter ntl::max, so
                   every row gets a positive element; rows of negative values only are reported
                   on `note` lines (GPU vs CPU), not counted.
  scalar_tiles     row_max (0-d ntl::full carrying a running max): tails of 64, all-negative rows.
  cxx_semantics    lambda_captures, copy_then_write (in place), conditional_ops (float16 in).
  hygiene          the three GEMMs named like generated names, hygiene_args*, pid0, and
                   scale_by_constexpr (a double nt::Constexpr: passed as ctypes.c_double, since
                   ntc_dlpack makes Python floats C floats) with its unlisted values rejected.
  named_compose    named_addmm (float16, float32 beta/alpha) with tails, a transposed rhs, and
                   mismatched k rejected.
  filter           filter3, and a weight vector whose size is not 3 rejected.
  extent_checks    every kernel at sizes that fit (with tails) and at sizes that violate the
                   check: failing status naming the parameter / sizes, output untouched.
  empty_sizes      flatten_pad_add_one and whole_tile_dilated_add_one at size 0 and beyond, and
                   zero-size launches of the other kernels: success, nothing written (outputs
                   are empty views of poisoned buffers; 0-element GPU tensors have null data);
                   a GEMM with K = 0 writes zeros, row_max of empty rows -inf.
  inferred_axes    the kernels of inferred_axes.cpp (axes(nt::inferred)): matmul, linear, bmm
                   with a batch and a broadcast one (float16), softmax, layer norm and
                   attention causal and not (float32), tails in every dimension.
  composed         the kernels of composed.cpp (kernel functions called by other kernels):
                   linear composed from the GEMM and written by hand, a GEMM of gelu(x * s),
                   two products in one program, softmax of a product (float32 rows), tails in
                   every dimension.
  jagged_dim2      to_padded_dim2: values a (channels, total) strided view (column-major, first
                   offset 3, spare columns), offsets int64 on the device, empty and long
                   sequences, a misaligned output (the scalar program); masked elements read -1;
                   decreasing offsets and offsets past the values rejected.

No kernel of tests/cpu/kernels is CPU-only: all compile for CUDA and all are compared. Not
compared: the CPU test's named_addmm == addmm (kernels/addmm.cpp lives in libkernels, not here:
only the float64 reference and the CPU backend are compared); conditional_ops' float32 path is
not instantiated (the kernel takes float16 only).

Every group is a function below; the GPU side is only ever compared, never skipped.
Usage: python3 check_dsl.py <libdsl_cuda.so> <libdsl_cpu.so> [group ...]
Prints one `ok  `/`FAIL` line per check and `N passed, M failed` last; exit status 1 on a failure
(an exception in a group is one failure and the next group runs). NTC_CHECK_DEVICE=cpu runs the
"GPU" side on the CPU (give the CPU library twice): a dry run of this script without a GPU.
"""
import ctypes
import math
import os
import pathlib
import sys

import torch

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here.parents[1] / "tools" / "python"))
from ntc_dlpack import Library  # noqa: E402

F16, F32, F64, I32, I64 = torch.float16, torch.float32, torch.float64, torch.int32, torch.int64
INF = float("inf")
INVALID_ARGUMENT, UNSUPPORTED = 1, 2  # ntc_status_t (runtime/include/ntc/runtime.h)
GPU = os.environ.get("NTC_CHECK_DEVICE", "cuda")
SENTINEL = -12345


def poison(x):
    x.fill_(float("nan") if x.is_floating_point() else SENTINEL)
    return x


def poisoned(x):
    """True when every element of x still holds the poison."""
    x = x.cpu()
    return bool((x.isnan() if x.is_floating_point() else x == SENTINEL).all())


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def uniform(shape, lo=-1.0, hi=1.0, dtype=F32):
    return (torch.rand(shape, dtype=F64) * (hi - lo) + lo).to(dtype)


def view(base, size, stride, offset=0):
    return base.as_strided(size, stride, offset)


def storage_for(size, stride, offset=0):
    """Elements a base needs for the view (size, stride, offset)."""
    return offset + 1 + sum((n - 1) * s for n, s in zip(size, stride) if n > 0)


class Tester:
    def __init__(self, cuda_path, cpu_path):
        self.gpu = Library(cuda_path)
        self.cpu = Library(cpu_path)
        self.libs = ((self.gpu, GPU), (self.cpu, "cpu"))
        self.passed = self.failed = 0

    def record(self, name, ok, detail):
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
        self.passed, self.failed = self.passed + bool(ok), self.failed + (not ok)

    def check(self, name, out, ref, atol=0.0, rtol=0.0):
        """Passes when the shapes agree and |out - ref| <= atol + rtol |ref| everywhere (NaN
        never passes; equal infinities do)."""
        out64, ref64 = out.double().cpu(), ref.double().cpu()
        if out64.shape != ref64.shape:
            self.record(name, False, f"shape {tuple(out64.shape)}, expected {tuple(ref64.shape)}")
            return
        same_inf = torch.isinf(ref64) & (out64 == ref64)
        close = (out64 - ref64).abs().le(atol + rtol * ref64.abs()) | same_inf
        ok = bool(close.all())
        err = (out64 - ref64)[~same_inf].abs().nan_to_num(INF)
        err = err.max().item() if err.numel() else 0.0
        detail = f"max |err| = {err:.3g}"
        if not ok:
            bad = (~close).nonzero()[0].tolist()
            detail += (f"; {int((~close).sum())} of {close.numel()} bad, first at {bad}: "
                       f"got {out64[tuple(bad)].item()!r}, expected {ref64[tuple(bad)].item()!r}")
        self.record(name, ok, detail)

    def run(self, kernel, args_of, outs=()):
        """Runs `kernel` with args_of(device) on the GPU and on the CPU backend, args[i] for i in
        `outs` poisoned first. Returns both argument lists, tensors copied to the CPU."""
        results = []
        for lib, device in self.libs:
            args = args_of(device)
            for i in outs:
                poison(args[i])
            lib.call(kernel, *args)
            sync(device)
            results.append([a.cpu() if isinstance(a, torch.Tensor) else a for a in args])
        return results

    def rejects(self, name, kernel, args_of, status, parts, outs=()):
        """Each backend returns `status` with a message containing every string of `parts`, and
        leaves the poisoned args[i] (i in `outs`) untouched."""
        for lib, device in self.libs:
            args = args_of(device)
            for i in outs:
                poison(args[i])
            try:
                lib.call(kernel, *args)
                message = "accepted (status 0)"
            except RuntimeError as e:
                message = str(e)
            sync(device)
            untouched = all(poisoned(args[i]) for i in outs)
            ok = f": status {status}: " in message and all(p in message for p in parts)
            detail = message + ("" if untouched else "; BUT AN OUTPUT WAS WRITTEN")
            self.record(f"{name} rejected ({device})", ok and untouched, detail)

    def empty_launch(self, name, kernel, args_of):
        """A launch with zero-size tensors: args_of(device) returns (args, guards); the call
        succeeds on each backend and the poisoned guard buffers stay untouched."""
        for lib, device in self.libs:
            args, guards = args_of(device)
            for g in guards:
                poison(g)
            try:
                lib.call(kernel, *args)
                message = "success"
            except RuntimeError as e:
                message = str(e)
            sync(device)
            untouched = all(poisoned(g) for g in guards)
            self.record(f"{name} ({device})", message == "success" and untouched,
                        message + ("" if untouched else "; BUT SOMETHING WAS WRITTEN"))


def guarded(shape, dtype, device):
    """A zero-size view of `shape` into a 4-element buffer (poisoned by empty_launch)."""
    buffer = torch.empty(4, dtype=dtype, device=device)
    return buffer[:0].reshape(shape), buffer


def empties(*specs):
    """args_of for Tester.empty_launch: each spec is a shape (a zero-size float32 view of a
    guarded buffer), a (shape, dtype) pair (the same of that dtype), a tensor (an input with
    elements, copied to the device) or a scalar."""
    def args_of(d):
        args, guards = [], []
        for s in specs:
            if not isinstance(s, tuple):
                args.append(s.to(d, copy=True) if isinstance(s, torch.Tensor) else s)
                continue
            v, b = guarded(*s, d) if s and isinstance(s[0], tuple) else guarded(s, F32, d)
            args.append(v)
            guards.append(b)
        return args, guards
    return args_of


# --- add_block4 -------------------------------------------------------------------------------
def add_block4(t):
    for n in (1, 3, 4, 5, 10, 17, 10007):
        x, y = uniform(n), uniform(n)
        g, c = t.run("add_block4", lambda d: [x.to(d), y.to(d), torch.empty(n, device=d)], [2])
        t.check(f"add_block4 n={n} vs torch", g[2], x + y)
        t.check(f"add_block4 n={n} vs cpu backend", g[2], c[2])
    # Strided views (stride 3 with a storage offset, output stride 2).
    n = 37
    bx, by = uniform(storage_for((n,), (3,), 1)), uniform(n)
    g, c = t.run("add_block4", lambda d: [view(bx.to(d), (n,), (3,), 1), by.to(d),
                                          view(torch.empty(2 * n, device=d), (n,), (2,))], [2])
    t.check("add_block4 strided views vs torch", g[2], view(bx, (n,), (3,), 1) + by)
    t.check("add_block4 strided views vs cpu backend", g[2], c[2])
    # In place: output is lhs.
    x, y = uniform(10), uniform(10)

    def in_place(d):
        lhs = x.to(d, copy=True)
        return [lhs, y.to(d), lhs]

    g, c = t.run("add_block4", in_place)
    t.check("add_block4 in place (output = lhs) vs torch", g[0], x + y)
    t.check("add_block4 in place vs cpu backend", g[0], c[0])


# --- int_ops ----------------------------------------------------------------------------------
def int_ops(t):
    for n in (200, 1000, 1):
        x = torch.randint(-(1 << 30), 1 << 30, (n,), dtype=I32)
        x[0] = 16777217
        if n > 1:
            x[1] = -16777219
        g, c = t.run("add_one_i32", lambda d: [x.to(d), torch.empty(n, dtype=I32, device=d)], [1])
        t.check(f"add_one_i32 n={n} vs torch (exact int32)", g[1], x + 1)
        t.check(f"add_one_i32 n={n} vs cpu backend", g[1], c[1])
        t.record(f"add_one_i32 n={n}: 16777217 + 1", g[1][0].item() == 16777218,
                 f"got {g[1][0].item()}")
    base = torch.randint(-(1 << 30), 1 << 30, (301,), dtype=I32)
    g, c = t.run("add_one_i32", lambda d: [view(base.to(d), (150,), (2,), 1),
                                           torch.empty(150, dtype=I32, device=d)], [1])
    t.check("add_one_i32 strided view vs torch", g[1], view(base, (150,), (2,), 1) + 1)
    t.check("add_one_i32 strided view vs cpu backend", g[1], c[1])


# --- dropout (ntl::rand on x.offsets) ---------------------------------------------------------
# Two float32 ulps, relative: x / (1 - p) is div.full.f32 on the GPU, IEEE on the CPU backend.
ULP2 = 2.0 ** -22
M64 = (1 << 64) - 1


def philox_uniform(seed, offsets):
    """ntc::cpu::rand / Triton's tl.rand for int64 offsets: Philox-4x64-10 keyed by (seed, 0)
    on the counter (offset, 0, 0, 0); the first word to a float in [0, 1), in float32."""
    words = []
    for offset in offsets:
        c0, c1, c2, c3 = offset & M64, 0, 0, 0
        k0, k1 = seed & M64, 0
        for _ in range(10):
            p0, p2 = 0xD2E7470EE14C6C93 * c0, 0xCA5A826395121157 * c2
            c0, c1, c2, c3 = (p2 >> 64) ^ c1 ^ k0, p2 & M64, (p0 >> 64) ^ c3 ^ k1, p0 & M64
            k0, k1 = (k0 + 0x9E3779B97F4A7C15) & M64, (k1 + 0xBB67AE8584CAA73B) & M64
        x = c0 - (1 << 64) if c0 >> 63 else c0
        words.append(~x if x < 0 else x)
    return torch.tensor(words, dtype=I64).to(F32) * torch.tensor(1.0842020432385337e-19, dtype=F32)


def dropout_reference(x, p, u):
    """where(u > p, x / (1 - p), 0) in float32, and the mask."""
    p32 = torch.tensor(p, dtype=F32)
    keep = u > p32
    kept = x / (torch.tensor(1.0, dtype=F32) - p32)
    return torch.where(keep, kept, torch.zeros((), dtype=F32)), keep


def dropout(t):
    masks = {}
    for n, p, seed, strided in ((10007, 0.3, 20261129, False), (10007, 0.3, 20261129, True),
                                (1000, 0.9, -3, False), (257, 0.5, (1 << 40) + 5, False),
                                (1, 0.3, 7, False)):
        name = f"dropout n={n} p={p} seed={seed}{' strided' if strided else ''}"
        if strided:
            base = uniform(storage_for((n,), (2,), 1), 1.0, 2.0)
            x = view(base, (n,), (2,), 1)
            args_of = lambda d: [view(base.to(d), (n,), (2,), 1), p, seed,  # noqa: E731
                                 torch.empty(n, device=d)]
        else:
            x = uniform(n, 1.0, 2.0)  # never 0: an output of 0 means dropped
            args_of = lambda d: [x.to(d), p, seed, torch.empty(n, device=d)]  # noqa: E731
        g, c = t.run("dropout", args_of, [3])
        t.check(f"{name}: gpu == cpu backend (2 ulp)", g[3], c[3], 0, ULP2)
        ref, keep = dropout_reference(x, p, philox_uniform(seed, range(n)))
        t.record(f"{name}: mask == Philox reference", bool(((g[3] != 0) == keep).all()),
                 f"{int(((g[3] != 0) != keep).sum())} of {n} differ")
        t.check(f"{name}: vs reference", g[3], ref, 0, 1e-6)
        if n >= 1000:
            kept = (g[3] != 0).double().mean().item()
            t.record(f"{name}: kept fraction", abs(kept - (1 - p)) < 0.02,
                     f"{kept:.4f}, expected {1 - p:.2f}")
        masks[(n, p, seed, strided)] = g[3] != 0
    same = masks[(10007, 0.3, 20261129, False)] == masks[(10007, 0.3, 20261129, True)]
    t.record("dropout: a strided view draws the same mask (offsets(0) is the index)",
             bool(same.all()), f"{int((~same).sum())} differ")
    x = uniform(5000, 1.0, 2.0)
    g1, _ = t.run("dropout", lambda d: [x.to(d), 0.3, 11, torch.empty(5000, device=d)], [3])
    g2, _ = t.run("dropout", lambda d: [x.to(d), 0.3, 11, torch.empty(5000, device=d)], [3])
    t.check("dropout: the same seed twice gives the same result", g1[3], g2[3])
    g3, _ = t.run("dropout", lambda d: [x.to(d), 0.3, 12, torch.empty(5000, device=d)], [3])
    differ = int(((g1[3] != 0) != (g3[3] != 0)).sum())
    t.record("dropout: another seed gives another mask", differ > 0, f"{differ} of 5000 differ")


# --- linear_offsets ---------------------------------------------------------------------------
def linear_offsets(t):
    # x.offsets(): Σ index·stride of the view (not counting its storage offset).
    for rows, cols, stride, offset in ((37, 45, (3, 120), 0), (37, 45, (45, 1), 0),
                                       (16, 32, (1, 16), 0), (5, 70, (80, 1), 7),
                                       (1, 1, (1, 1), 0)):
        n = storage_for((rows, cols), stride, offset)
        name = f"element_offsets {rows}x{cols} strides {stride} offset {offset}"
        g, c = t.run("element_offsets", lambda d: [
            view(torch.zeros(n, device=d), (rows, cols), stride, offset),
            torch.empty(rows, cols, dtype=I64, device=d)], [1])
        ref = (torch.arange(rows)[:, None] * stride[0] + torch.arange(cols)[None, :] * stride[1])
        t.check(name + " vs reference", g[1], ref)
        t.check(name + " vs cpu backend", g[1], c[1])
    # dropout2d on a (33, 70) view with strides (76, 1) at offset 2: random numbers drawn from
    # each element's source offset i·76 + j.
    for rows, cols, row_stride, p, seed in ((33, 70, 76, 0.4, 7), (16, 32, 32, 0.5, 1 << 35),
                                            (50, 3, 5, 0.2, -1)):
        n = storage_for((rows, cols), (row_stride, 1), 2)
        base = uniform(n, 1.0, 2.0)
        name = f"dropout2d {rows}x{cols} row stride {row_stride} seed {seed}"
        g, c = t.run("dropout2d", lambda d: [view(base.to(d), (rows, cols), (row_stride, 1), 2), p,
                                             seed, torch.empty(rows, cols, device=d)], [3])
        t.check(name + ": gpu == cpu backend (2 ulp)", g[3], c[3], 0, ULP2)
        offsets = [i * row_stride + j for i in range(rows) for j in range(cols)]
        u = philox_uniform(seed, offsets).reshape(rows, cols)
        ref, keep = dropout_reference(view(base, (rows, cols), (row_stride, 1), 2), p, u)
        t.record(name + ": mask == Philox reference", bool(((g[3] != 0) == keep).all()),
                 f"{int(((g[3] != 0) != keep).sum())} of {rows * cols} differ")
        t.check(name + " vs reference", g[3], ref, 0, 1e-6)


# --- dot_precision ----------------------------------------------------------------------------
def dot_precision(t):
    for m, n, k, kind in ((70, 90, 75, "uniform"), (129, 257, 65, "uniform"),
                          (300, 200, 500, "uniform"), (64, 64, 32, "uniform"), (1, 1, 1, "uniform"),
                          (65, 97, 130, "rhs transposed"), (70, 90, 75, "integers"),
                          (5, 7, 0, "K=0")):
        if kind == "integers":  # exactly representable in tf32, sums exact in float32
            a = torch.randint(-4, 5, (m, k)).to(F32)
            b = torch.randint(-4, 5, (k, n)).to(F32)
        else:
            a, b = uniform((m, k)), uniform((k, n))
        transposed = kind == "rhs transposed"
        bt = b.t().contiguous()

        def args_of(d):
            rhs = bt.to(d).t() if transposed else b.to(d)
            return [a.to(d), rhs, torch.empty(m, n, device=d)]

        ref = a.double() @ b.double()
        name = f"{m}x{k}x{n} {kind}"
        exact = kind in ("integers", "K=0")
        outs = {}
        for kernel in ("mm_ieee", "mm_tf32", "mm_tf32x3"):
            g, c = t.run(kernel, args_of, [2])
            outs[kernel] = g[2]
            if exact:
                t.check(f"{kernel} {name} vs float64 (exact)", g[2], ref)
            elif kernel in ("mm_ieee", "mm_tf32x3"):  # three tf32 products: float32's accuracy
                t.check(f"{kernel} {name} vs float64", g[2], ref, 1e-4, 1e-5)
                t.check(f"{kernel} {name} vs cpu backend", g[2], c[2], 1e-4, 1e-5)
            else:  # tf32 operands: 10-bit mantissas, errors ~ 1e-3 per product, ~√K in a sum
                tol = 2e-3 * math.sqrt(k)
                t.check(f"{kernel} {name} vs float64 (tf32 tolerance)", g[2], ref, tol, 1e-3)
                t.check(f"{kernel} {name} vs cpu backend (tf32 tolerance)", g[2], c[2], tol, 1e-3)
        if not exact:
            diff = (outs["mm_tf32"].double() - outs["mm_ieee"].double()).abs().max().item()
            print(f"note mm_tf32 {name}: max |tf32 - ieee| on the GPU = {diff:.3g} "
                  f"(0: tf32 ran at full float32 precision)", flush=True)
            # "tf32" is honoured: the products ran on tf32 operands (10-bit mantissas), so they
            # differ from the IEEE ones (random operands have more bits).
            t.check(f"mm_tf32 {name} rounds its operands to tf32 (differs from ieee)",
                    torch.tensor(float(diff > 0)), torch.tensor(1.0))


# --- constexpr_arrangement --------------------------------------------------------------------
def pooled(n, window, stride):
    return (n - window + stride - 1) // stride + 1


def pool_reference(x, window, stride, dilation, rows, cols):
    """Max over window × window elements from (i·stride, j·stride), `dilation` apart, clipped
    at the edges (ceil mode)."""
    h = max((rows - 1) * stride + (window - 1) * dilation + 1, x.shape[0])
    w = max((cols - 1) * stride + (window - 1) * dilation + 1, x.shape[1])
    padded = torch.full((h, w), -INF, dtype=x.dtype)
    padded[:x.shape[0], :x.shape[1]] = x
    out = torch.full((rows, cols), -INF, dtype=x.dtype)
    for a in range(window):
        for b in range(window):
            r, c = a * dilation, b * dilation
            out = torch.maximum(out, padded[r:r + (rows - 1) * stride + 1:stride,
                                            c:c + (cols - 1) * stride + 1:stride])
    return out


def constexpr_arrangement(t):
    for r, cl in ((11, 14), (37, 50)):
        x = uniform((r, cl))
        for window in (2, 3):
            for stride in (1, 2, 3):
                rows, cols = pooled(r, window, stride), pooled(cl, window, stride)
                name = f"max_pool_constexpr {r}x{cl} window={window} stride={stride}"
                g, c = t.run("max_pool_constexpr", lambda d: [
                    x.to(d), torch.empty(rows, cols, device=d), window, stride], [1])
                ref = pool_reference(x, window, stride, 1, rows, cols)
                t.check(name + " vs reference", g[1], ref)
                t.check(name + " vs cpu backend", g[1], c[1])
        for dilation in (1, 2):
            rows, cols = r - dilation, cl - dilation
            name = f"dilated_max_constexpr {r}x{cl} dilation={dilation}"
            g, c = t.run("dilated_max_constexpr", lambda d: [
                x.to(d), torch.empty(rows, cols, device=d), dilation], [1])
            t.check(name + " vs reference", g[1], pool_reference(x, 2, 1, dilation, rows, cols))
            t.check(name + " vs cpu backend", g[1], c[1])
    x = uniform((8, 8))
    t.rejects("max_pool_constexpr stride=4 (not listed)", "max_pool_constexpr",
              lambda d: [x.to(d), torch.empty(2, 2, device=d), 2, 4], INVALID_ARGUMENT,
              ["'stride'"], [1])
    t.rejects("max_pool_constexpr window=4 (not listed)", "max_pool_constexpr",
              lambda d: [x.to(d), torch.empty(5, 5, device=d), 4, 1], INVALID_ARGUMENT,
              ["'window'"], [1])
    t.rejects("dilated_max_constexpr dilation=3 (not listed)", "dilated_max_constexpr",
              lambda d: [x.to(d), torch.empty(5, 5, device=d), 3], INVALID_ARGUMENT,
              ["'dilation'"], [1])


# --- rank_generic and scalar_tiles ------------------------------------------------------------
def rank_generic(t):
    for kernel, dim, shapes in (
            ("minus_max_2d", 1, ((7, 37), (100, 64), (3, 1), (1000, 50), (5, 16), (4, 17))),
            ("minus_max_3d", 1, ((3, 29, 5), (4, 64, 7), (2, 1, 3), (5, 33, 40))),
            ("minus_max_dim0_3d", 0, ((19, 4, 6), (64, 3, 33), (1, 2, 3), (40, 9, 70)))):
        for shape in shapes:
            # Every row has a positive element: masked lanes of a padded tile read 0 (the
            # kernel declares no .other(-inf)), which must not be the maximum (see below).
            x = uniform(shape)
            x.select(dim, shape[dim] // 2).abs_().add_(0.01)
            g, c = t.run(kernel, lambda d: [x.to(d), torch.empty(shape, device=d)], [1])
            name = f"{kernel} {'x'.join(map(str, shape))}"
            t.check(name + " vs torch", g[1], x.double() - x.double().amax(dim, keepdim=True), 1e-6)
            t.check(name + " vs cpu backend", g[1], c[1])
        # All-negative rows: where the tile is padded its masked lanes (0) win the maximum, on
        # the CPU backend too; not counted, only reported.
        shape = shapes[0][:dim] + (1,) + shapes[0][dim + 1:]
        x = uniform(shape, -9.0, -1.0)
        g, c = t.run(kernel, lambda d: [x.to(d), torch.empty(shape, device=d)], [1])
        print(f"note {kernel} {'x'.join(map(str, shape))} all negative: gpu == cpu backend: "
              f"{bool((g[1] == c[1]).all())}; result == x - max(x) (all 0): "
              f"{bool((g[1] == 0).all())} (False: masked lanes read 0 and won the max)", flush=True)
    # A transposed input view.
    base = uniform((37, 7))
    g, c = t.run("minus_max_2d", lambda d: [base.to(d).t(), torch.empty(7, 37, device=d)], [1])
    x = base.t().double()
    t.check("minus_max_2d transposed view vs torch", g[1], x - x.amax(1, keepdim=True), 1e-6)
    t.check("minus_max_2d transposed view vs cpu backend", g[1], c[1])
    x = uniform((3, 65))
    t.rejects("minus_max_2d 3x65 (over the upper bound 64)", "minus_max_2d",
              lambda d: [x.to(d), torch.empty(3, 65, device=d)], UNSUPPORTED, ["upper bound"], [1])


def scalar_tiles(t):
    # All negative: a masked lane that read 0 instead of -inf would win.
    for rows, cols in ((5, 150), (3, 64), (2, 1), (4, 129), (7, 1000)):
        x = uniform((rows, cols), -9.0, -1.0)
        g, c = t.run("row_max", lambda d: [x.to(d), torch.empty(rows, device=d)], [1])
        t.check(f"row_max {rows}x{cols} vs torch", g[1], x.amax(1))
        t.check(f"row_max {rows}x{cols} vs cpu backend", g[1], c[1])
    base = uniform((150, 6), -9.0, -1.0)
    g, c = t.run("row_max", lambda d: [base.to(d).t(), torch.empty(6, device=d)], [1])
    t.check("row_max transposed view vs torch", g[1], base.t().amax(1))


# --- cxx_semantics ----------------------------------------------------------------------------
def cxx_semantics(t):
    for n in (45, 1000, 16):
        x = uniform(n, dtype=F64)
        g, c = t.run("lambda_captures", lambda d: [x.to(d), torch.empty(n, dtype=F64, device=d)],
                     [1])
        ref = (x + 1) * 100 + (x + 1) * 10000 + (x + 1) + (x + 8) + (x + 2) * 3
        t.check(f"lambda_captures n={n} vs reference", g[1], ref, 1e-9, 1e-12)
        t.check(f"lambda_captures n={n} vs cpu backend", g[1], c[1], 1e-12, 1e-12)

        x0 = uniform(n, dtype=F64)
        g, c = t.run("copy_then_write", lambda d: [x0.to(d, copy=True),
                                                   torch.empty(n, dtype=F64, device=d)], [1])
        t.check(f"copy_then_write n={n}: x = 3·(2·x0)", g[0], 3 * (2 * x0), 1e-12, 1e-12)
        t.check(f"copy_then_write n={n}: y = x0 + 2·x0", g[1], x0 + 2 * x0, 1e-12, 1e-12)
        t.check(f"copy_then_write n={n}: x vs cpu backend", g[0], c[0], 1e-12, 1e-12)
        t.check(f"copy_then_write n={n}: y vs cpu backend", g[1], c[1], 1e-12, 1e-12)

        h = uniform(n, dtype=F16)
        g, c = t.run("conditional_ops", lambda d: [h.to(d), torch.empty(n, device=d)], [1])
        v = h.double()
        t.check(f"conditional_ops n={n} vs reference", g[1], torch.where(v > 0, v, 2 * v) + 1,
                1e-6, 1e-6)
        t.check(f"conditional_ops n={n} vs cpu backend", g[1], c[1], 1e-7, 1e-7)


# --- hygiene ----------------------------------------------------------------------------------
def hygiene(t):
    for kernel in ("gemm_named_like_generated", "gemm_loop_named_size", "gemm_loop_named_meta"):
        for m, n, k in ((37, 45, 70), (16, 16, 8), (100, 33, 129)):
            a, b = uniform((m, k)), uniform((k, n))
            g, c = t.run(kernel, lambda d: [a.to(d), b.to(d), torch.empty(m, n, device=d)], [2])
            t.check(f"{kernel} {m}x{k}x{n} vs float64", g[2], a.double() @ b.double(), 1e-4, 1e-4)
            t.check(f"{kernel} {m}x{k}x{n} vs cpu backend", g[2], c[2], 1e-4, 1e-4)
    for kernel, added in (("hygiene_args", 1), ("hygiene_args_args", 2),
                          ("hygiene_args_program0", 3)):
        x = uniform(100)
        g, c = t.run(kernel, lambda d: [x.to(d), torch.empty(100, device=d)], [1])
        t.check(f"{kernel} (+{added}) vs torch", g[1], x + added)
        t.check(f"{kernel} vs cpu backend", g[1], c[1])
    x = uniform(50, dtype=F64)
    for value in (0.1234567, 1e-9):
        # `c` is a C double: a Python float would go as a C float (ntc_dlpack).
        g, c = t.run("scale_by_constexpr", lambda d: [
            x.to(d), ctypes.c_double(value), torch.empty(50, dtype=F64, device=d)], [2])
        t.check(f"scale_by_constexpr c={value} vs torch", g[2], x * value, 0, 1e-15)
        t.check(f"scale_by_constexpr c={value} vs cpu backend", g[2], c[2], 0, 1e-15)
    for value in (0.123457, 0.0, 1e-10):
        t.rejects(f"scale_by_constexpr c={value} (not listed)", "scale_by_constexpr",
                  lambda d: [x.to(d), ctypes.c_double(value), torch.empty(50, dtype=F64, device=d)],
                  INVALID_ARGUMENT, ["expected one of 0.1234567, 1e-09"], [2])
    for rows, cols in ((5, 37), (3, 1000)):
        x = uniform((rows, cols))
        g, c = t.run("pid0", lambda d: [x.to(d), torch.empty(rows, cols, device=d)], [1])
        t.check(f"pid0 {rows}x{cols} vs reference", g[1], (x * 2).double() + 1, 1e-6, 1e-6)
        t.check(f"pid0 {rows}x{cols} vs cpu backend", g[1], c[1], 1e-6, 1e-6)


# --- named_compose ----------------------------------------------------------------------------
def named_compose(t):
    beta, alpha = 0.75, 0.5
    for m, n, k, transposed in ((65, 97, 130, False), (1, 1, 1, False), (128, 64, 64, False),
                                (200, 300, 129, False), (65, 97, 130, True)):
        inp, a = uniform((m, n), dtype=F16), uniform((m, k), dtype=F16)
        b = uniform((k, n), dtype=F16)
        bt = b.t().contiguous()

        def args_of(d):
            rhs = bt.to(d).t() if transposed else b.to(d)
            return [inp.to(d), a.to(d), rhs, beta, alpha, torch.empty(m, n, dtype=F16, device=d)]

        g, c = t.run("named_addmm", args_of, [5])
        product = (a.double() @ b.double()).half().double()  # mm_application stores float16
        name = f"named_addmm {m}x{k}x{n}{' rhs transposed' if transposed else ''}"
        t.check(name + " vs reference", g[5], beta * inp.double() + alpha * product, 0.025, 0.025)
        t.check(name + " vs cpu backend", g[5], c[5], 0.02, 0.02)
    t.rejects("named_addmm k mismatch (lhs 4x5, rhs 6x3)", "named_addmm",
              lambda d: [torch.zeros(4, 3, dtype=F16, device=d),
                         torch.zeros(4, 5, dtype=F16, device=d),
                         torch.zeros(6, 3, dtype=F16, device=d), beta, alpha,
                         torch.empty(4, 3, dtype=F16, device=d)],
              INVALID_ARGUMENT, ["lhs.shape[1]", "rhs.shape[0]"], [5])


# --- inferred_axes ----------------------------------------------------------------------------
def inferred_axes(t):
    for m, n, k in ((65, 97, 130), (1, 1, 1), (128, 256, 64), (200, 300, 129)):
        a, b = uniform((m, k), dtype=F16), uniform((k, n), dtype=F16)
        bias, residual = uniform((n,), dtype=F16), uniform((m, n), dtype=F16)
        product = a.double() @ b.double()
        g, c = t.run("inferred_matmul", lambda d: [a.to(d), b.to(d),
                                                   torch.empty(m, n, dtype=F16, device=d)], [2])
        t.check(f"inferred_matmul {m}x{k}x{n} vs reference", g[2], product, 0.025, 0.025)
        t.check(f"inferred_matmul {m}x{k}x{n} vs cpu backend", g[2], c[2], 0.02, 0.02)
        g, c = t.run("inferred_linear", lambda d: [a.to(d), b.to(d), bias.to(d), residual.to(d),
                                                   torch.empty(m, n, dtype=F16, device=d)], [4])
        ref = (product + bias.double() + residual.double()).clamp(min=0)
        t.check(f"inferred_linear {m}x{k}x{n} vs reference", g[4], ref, 0.025, 0.025)
        t.check(f"inferred_linear {m}x{k}x{n} vs cpu backend", g[4], c[4], 0.02, 0.02)
    for batch, m, n, k, shared in ((3, 65, 97, 40, False), (3, 65, 97, 40, True),
                                   (1, 1, 1, 1, True)):
        a = uniform((batch, m, k), dtype=F16)
        b = uniform((k, n) if shared else (batch, k, n), dtype=F16)
        kernel = "inferred_bmm_shared_rhs" if shared else "inferred_bmm"
        g, c = t.run(kernel, lambda d: [a.to(d), b.to(d),
                                        torch.empty(batch, m, n, dtype=F16, device=d)], [2])
        t.check(f"{kernel} {batch}x{m}x{k}x{n} vs reference", g[2], a.double() @ b.double(),
                0.025, 0.025)
        t.check(f"{kernel} {batch}x{m}x{k}x{n} vs cpu backend", g[2], c[2], 0.02, 0.02)
    for rows, cols in ((37, 781), (1, 1), (5, 64), (300, 1000)):
        x = uniform((rows, cols), -4, 4)
        weight, shift = uniform((cols,)), uniform((cols,))
        g, c = t.run("inferred_softmax", lambda d: [x.to(d), torch.empty_like(x, device=d)], [1])
        t.check(f"inferred_softmax {rows}x{cols} vs reference", g[1],
                torch.softmax(x.double(), 1), 1e-6, 1e-5)
        t.check(f"inferred_softmax {rows}x{cols} vs cpu backend", g[1], c[1], 1e-6, 1e-5)
        eps = 1e-5
        g, c = t.run("inferred_layer_norm", lambda d: [x.to(d), weight.to(d), shift.to(d), eps,
                                                       torch.empty_like(x, device=d)], [4])
        ref = torch.nn.functional.layer_norm(x.double(), (cols,), weight.double(), shift.double(),
                                             eps)
        t.check(f"inferred_layer_norm {rows}x{cols} vs reference", g[4], ref, 1e-4, 1e-4)
        t.check(f"inferred_layer_norm {rows}x{cols} vs cpu backend", g[4], c[4], 1e-5, 1e-5)
    for sq, skv, dim in ((100, 300, 64), (129, 77, 40), (1, 1, 16)):
        q, k_, v = (uniform((2, 3, s, dim)) for s in (sq, skv, skv))
        for causal in (0, 1):
            g, c = t.run("inferred_attention",
                         lambda d: [q.to(d), k_.to(d), v.to(d), causal,
                                    torch.empty(2, 3, sq, dim, device=d)], [4])
            scores = q.double() @ k_.double().transpose(-1, -2)
            if causal:
                keep = torch.ones(sq, skv, dtype=torch.bool).tril()
                scores = scores.masked_fill(~keep, -INF)
            ref = torch.softmax(scores, -1) @ v.double()
            name = f"inferred_attention 2x3x{sq}x{skv}x{dim} causal={causal}"
            t.check(name + " vs reference", g[4], ref.nan_to_num(0), 1e-4, 1e-4)
            t.check(name + " vs cpu backend", g[4], c[4], 1e-4, 1e-4)


# --- composed ---------------------------------------------------------------------------------
def composed(t):
    for m, n, k in ((65, 97, 130), (1, 1, 1), (128, 256, 64), (200, 300, 129)):
        x, w = uniform((m, k), dtype=F16), uniform((k, n), dtype=F16)
        s = uniform((m, k), dtype=F16)
        b, r = uniform((n,), dtype=F16), uniform((m, n), dtype=F16)
        product = x.double() @ w.double()
        ref = (product + b.double() + r.double()).clamp(min=0)
        for kernel in ("composed_linear", "fused_linear"):
            g, c = t.run(kernel, lambda d: [x.to(d), w.to(d), b.to(d), r.to(d),
                                            torch.empty(m, n, dtype=F16, device=d)], [4])
            t.check(f"{kernel} {m}x{k}x{n} vs reference", g[4], ref, 0.03, 0.03)
            t.check(f"{kernel} {m}x{k}x{n} vs cpu backend", g[4], c[4], 0.02, 0.02)
        xs = x.double() * s.double()
        activated = 0.5 * xs * (1 + torch.tanh(0.7978845608 * (xs + 0.044715 * xs ** 3)))
        g, c = t.run("gelu_matmul", lambda d: [x.to(d), s.to(d), w.to(d),
                                               torch.empty(m, n, dtype=F16, device=d)], [3])
        t.check(f"gelu_matmul {m}x{k}x{n} vs reference", g[3], activated @ w.double(), 0.03, 0.03)
        t.check(f"gelu_matmul {m}x{k}x{n} vs cpu backend", g[3], c[3], 0.02, 0.02)
        g, c = t.run("two_products", lambda d: [x.to(d), w.to(d), s.to(d), w.to(d), 1.5,
                                                torch.empty(m, n, device=d)], [5])
        t.check(f"two_products {m}x{k}x{n} vs reference", g[5],
                1.5 * product - s.double() @ w.double(), 0.05, 0.03)
        t.check(f"two_products {m}x{k}x{n} vs cpu backend", g[5], c[5], 0.02, 0.02)
    for m, n, k in ((37, 100, 70), (1, 1, 1), (64, 128, 32), (300, 77, 129)):
        x, w = uniform((m, k), dtype=F16), uniform((k, n), dtype=F16)
        g, c = t.run("matmul_softmax", lambda d: [x.to(d), w.to(d),
                                                  torch.empty(m, n, device=d)], [2])
        # The product is rounded to float16 (mm_application's .to), so a logit may differ by
        # one float16 step between accumulation orders: 2^-6 = 0.016 for logits in [16, 32)
        # (K = 129 products of values in (-1, 1) reach them), which moves a probability p by
        # p(1 - p) times that, at most 0.004 (measured: 0.00195 at a logit in [8, 16)).
        ref = torch.softmax((x.double() @ w.double()).half().double(), 1)
        t.check(f"matmul_softmax {m}x{k}x{n} vs reference", g[2], ref, 5e-3, 1e-3)
        t.check(f"matmul_softmax {m}x{k}x{n} vs cpu backend", g[2], c[2], 5e-3, 1e-3)


# --- filter -----------------------------------------------------------------------------------
def filter_reference(x, w, n):
    x, w = x.double(), w.double()
    return sum(x[2 * j:2 * j + n] * w[j] for j in range(3))


def filter_group(t):
    for size in (20, 1000, 5):
        n = size - 4
        x, w = uniform(size), uniform(3)
        g, c = t.run("filter3", lambda d: [x.to(d), w.to(d), torch.empty(n, device=d)], [2])
        t.check(f"filter3 x={size} vs float64", g[2], filter_reference(x, w, n), 1e-6, 1e-6)
        t.check(f"filter3 x={size} vs cpu backend", g[2], c[2], 1e-6, 1e-6)
    base = uniform(120)
    g, c = t.run("filter3", lambda d: [view(base.to(d), (40,), (3,)), w.to(d),
                                       torch.empty(36, device=d)], [2])
    t.check("filter3 strided x vs float64", g[2], filter_reference(view(base, (40,), (3,)), w, 36),
            1e-6, 1e-6)
    x = uniform(20)
    t.rejects("filter3 w of 4", "filter3",
              lambda d: [x.to(d), torch.zeros(4, device=d), torch.empty(16, device=d)],
              INVALID_ARGUMENT, ["w_size_0 is 4", "must be 3"], [2])


# --- extent_checks ----------------------------------------------------------------------------
def extent_checks(t):
    e = lambda *s: lambda d: torch.empty(*s, device=d)  # noqa: E731

    for shape in ((4, 8), (3, 13), (1, 1)):
        x = uniform(shape)
        g, c = t.run("squeeze_tile_rows", lambda d: [x.to(d), e(*shape)(d)], [1])
        t.check(f"squeeze_tile_rows {shape} vs torch", g[1], x)
        t.check(f"squeeze_tile_rows {shape} vs cpu backend", g[1], c[1])
    x = uniform((8, 8))
    t.rejects("squeeze_tile_rows 8x8", "squeeze_tile_rows", lambda d: [x.to(d), e(8, 8)(d)],
              INVALID_ARGUMENT, ["parameter 'x': squeeze(0)", "is 2; it must be 1"], [1])

    for nx, ny in ((10, 4), (3, 3), (37, 2)):
        x, y = uniform(nx), uniform(ny)
        g, c = t.run("expand_tile_vector", lambda d: [x.to(d), y.to(d), e(nx)(d)], [2])
        yy = torch.cat([y, torch.zeros(4 - ny)])  # masked lanes of y's one tile read 0
        t.check(f"expand_tile_vector x={nx} y={ny} vs torch", g[2], x + yy[torch.arange(nx) % 4])
        t.check(f"expand_tile_vector x={nx} y={ny} vs cpu backend", g[2], c[2])
    x = uniform(10)
    t.rejects("expand_tile_vector y of 100", "expand_tile_vector",
              lambda d: [x.to(d), torch.zeros(100, device=d), e(10)(d)], INVALID_ARGUMENT,
              ["parameter 'y': expand(0)", "⌈y_size_0/4⌉ is 25"], [2])

    for n in (300, 101, 1000):
        x = uniform(n)
        g, c = t.run("tile_by_size_minus_100", lambda d: [x.to(d), e(n)(d)], [1])
        t.check(f"tile_by_size_minus_100 n={n} vs torch", g[1], x)
        t.check(f"tile_by_size_minus_100 n={n} vs cpu backend", g[1], c[1])
    for n in (100, 50, 0):
        t.rejects(f"tile_by_size_minus_100 n={n}", "tile_by_size_minus_100",
                  lambda d: [torch.zeros(n, device=d), e(n)(d)], INVALID_ARGUMENT,
                  [f"tile(0): the tile size x_size_0 - 100 is {n - 100}; it must be at least 1"],
                  [1])

    for nx, ny in ((10, 12), (10, 11), (3, 40)):
        y = uniform(ny)
        g, c = t.run("third_tile_of_y", lambda d: [e(nx)(d), y.to(d)], [0])
        third = torch.cat([y, torch.zeros(12)])[8:12]  # y[2]: elements 8..11, masked ones 0
        t.check(f"third_tile_of_y x={nx} y={ny} vs torch", g[0], third[torch.arange(nx) % 4])
        t.check(f"third_tile_of_y x={nx} y={ny} vs cpu backend", g[0], c[0])
    t.rejects("third_tile_of_y y of 8", "third_tile_of_y",
              lambda d: [e(10)(d), torch.zeros(8, device=d)], INVALID_ARGUMENT,
              ["'y[2]'", "⌈y_size_0/4⌉ is 2; it must be at least 3"], [0])

    x = uniform((5, 24))
    for cols in (24, 17):
        g, c = t.run("rows_tiled_by_x", lambda d: [x.to(d), e(5, cols)(d)], [1])
        t.check(f"rows_tiled_by_x y 5x{cols} vs torch", g[1], (x * 2)[:, :cols])
        t.check(f"rows_tiled_by_x y 5x{cols} vs cpu backend", g[1], c[1])
    t.rejects("rows_tiled_by_x y 5x50", "rows_tiled_by_x", lambda d: [x.to(d), e(5, 50)(d)],
              INVALID_ARGUMENT, ["level 0 of 'x' (dimension 1) is 1 but level 0 of 'y' "
                                 "(dimension 1) is 3"], [1])

    for shape in ((3, 100), (2, 64), (4, 1), (7, 300)):
        x = uniform(shape)
        g, c = t.run("copy_row_blocks", lambda d: [x.to(d), e(*shape)(d)], [1])
        t.check(f"copy_row_blocks {shape} vs torch", g[1], x + 1)
        t.check(f"copy_row_blocks {shape} vs cpu backend", g[1], c[1])
    x = uniform((3, 100))
    for cols in (150, 120):
        t.rejects(f"copy_row_blocks y 3x{cols}", "copy_row_blocks",
                  lambda d: [x.to(d), e(3, cols)(d)], INVALID_ARGUMENT,
                  [f"x.shape[1] is 100 but y.shape[1] is {cols}"], [1])

    for rows, cols in ((2, 3), (5, 7), (1, 1)):
        x = uniform(rows * cols)
        g, c = t.run("flattened_copy", lambda d: [x.to(d), e(rows, cols)(d)], [1])
        t.check(f"flattened_copy {rows}x{cols} vs torch", g[1], x.reshape(rows, cols))
        t.check(f"flattened_copy {rows}x{cols} vs cpu backend", g[1], c[1])
    t.rejects("flattened_copy x of 7, y 2x3", "flattened_copy",
              lambda d: [torch.zeros(7, device=d), e(2, 3)(d)], INVALID_ARGUMENT,
              ["x.shape[0] is 7 but y.shape[0]*y.shape[1] is 6"], [1])

    for nx, ny in ((8, 3), (7, 4), (1001, 500)):
        x = uniform(nx)
        g, c = t.run("pair_sums", lambda d: [x.to(d), e(ny)(d)], [1])
        xx = torch.cat([x, torch.zeros(1)]).double()  # the last pair of an odd x is masked
        t.check(f"pair_sums x={nx} y={ny} vs float64", g[1], xx[0:2 * ny:2] + xx[1:2 * ny:2],
                1e-6, 1e-6)
        t.check(f"pair_sums x={nx} y={ny} vs cpu backend", g[1], c[1], 1e-6, 1e-6)
    x = uniform(8)
    t.rejects("pair_sums x of 8, y of 6", "pair_sums", lambda d: [x.to(d), e(6)(d)],
              INVALID_ARGUMENT, ["y"], [1])


# --- empty_sizes ------------------------------------------------------------------------------
def empty_sizes(t):
    g, c = t.run("flatten_pad_add_one",
                 lambda d: [torch.empty(3, 0, device=d), torch.empty(2, device=d)], [1])
    t.check("flatten_pad_add_one x 3x0: the padding + 1", g[1], torch.ones(2))
    t.check("flatten_pad_add_one x 3x0 vs cpu backend", g[1], c[1])
    for rows, cols in ((2, 3), (5, 7)):
        x = uniform((rows, cols))
        n = rows * cols + 2
        g, c = t.run("flatten_pad_add_one", lambda d: [x.to(d), torch.empty(n, device=d)], [1])
        ref = torch.cat([torch.zeros(1), x.flatten(), torch.zeros(1)]) + 1
        t.check(f"flatten_pad_add_one x {rows}x{cols} vs torch", g[1], ref)
        t.check(f"flatten_pad_add_one x {rows}x{cols} vs cpu backend", g[1], c[1])

    t.empty_launch("whole_tile_dilated_add_one x of 0: success, nothing written",
                   "whole_tile_dilated_add_one", empties((0,)))
    for x in (torch.arange(5, dtype=F32), uniform(8), uniform(1)):
        g, c = t.run("whole_tile_dilated_add_one", lambda d: [x.to(d, copy=True)])
        ref = x.clone()
        ref[0::2] += 1
        t.check(f"whole_tile_dilated_add_one x of {x.numel()} vs torch", g[0], ref)
        t.check(f"whole_tile_dilated_add_one x of {x.numel()} vs cpu backend", g[0], c[0])

    # Zero-size launches of the other kernels: success, nothing written.
    for name, kernel, specs in (
            ("add_block4 n=0", "add_block4", ((0,), (0,), (0,))),
            ("add_one_i32 n=0", "add_one_i32", (((0,), I32), ((0,), I32))),
            ("dropout n=0", "dropout", ((0,), 0.3, 7, (0,))),
            ("element_offsets 0x5", "element_offsets", ((0, 5), ((0, 5), I64))),
            ("element_offsets 4x0", "element_offsets", ((4, 0), ((4, 0), I64))),
            ("dropout2d 0x70", "dropout2d", ((0, 70), 0.4, 7, (0, 70))),
            ("mm_ieee M=0", "mm_ieee", ((0, 8), torch.ones(8, 5), (0, 5))),
            ("mm_tf32 N=0", "mm_tf32", (torch.ones(6, 8), (8, 0), (6, 0))),
            ("minus_max_2d 0x10", "minus_max_2d", ((0, 10), (0, 10))),
            ("minus_max_3d 2x5x0", "minus_max_3d", ((2, 5, 0), (2, 5, 0))),
            ("minus_max_dim0_3d 0x3x4", "minus_max_dim0_3d", ((0, 3, 4), (0, 3, 4))),
            ("row_max 0x150", "row_max", ((0, 150), (0,))),
            ("lambda_captures n=0", "lambda_captures", (((0,), F64), ((0,), F64))),
            ("conditional_ops n=0", "conditional_ops", (((0,), F16), (0,))),
            ("hygiene_args n=0", "hygiene_args", ((0,), (0,))),
            ("named_addmm M=0", "named_addmm", (((0, 3), F16), ((0, 4), F16),
                                                torch.ones(4, 3, dtype=F16), 0.75, 0.5,
                                                ((0, 3), F16))),
            ("copy_row_blocks 0x100", "copy_row_blocks", ((0, 100), (0, 100))),
            ("pair_sums x=0 y=0", "pair_sums", ((0,), (0,)))):
        t.empty_launch(f"{name}: success, nothing written", kernel, empties(*specs))
    # K = 0 of a GEMM is not empty: the output is zeros (dot_precision checks it too).
    g, c = t.run("gemm_named_like_generated", lambda d: [torch.empty(3, 0, device=d),
                                                         torch.empty(0, 5, device=d),
                                                         torch.empty(3, 5, device=d)], [2])
    t.check("gemm_named_like_generated K=0 gives zeros", g[2], torch.zeros(3, 5))
    # Rows of no element: the running maximum stays -inf.
    g, c = t.run("row_max", lambda d: [torch.empty(3, 0, device=d), torch.empty(3, device=d)], [1])
    t.check("row_max 3x0: -inf (no block)", g[1], torch.full((3,), -INF))
    t.check("row_max 3x0 vs cpu backend", g[1], c[1])


# --- jagged_dim2 ------------------------------------------------------------------------------
def jagged_dim2(t):
    cases = (([5, 0, 33, 16, 1], 11, 3, "column-major", False),
             ([100, 17, 0, 64, 1, 40], 20, 0, "row-major", False),
             ([5, 0, 33, 16, 1], 11, 3, "column-major", True),
             ([7], 1, 2, "row-major", False),
             ([0, 0], 9, 0, "row-major", False))
    for lengths, channels, first, layout, misaligned in cases:
        batch, longest = len(lengths), max(lengths)
        offsets = torch.tensor([first] + lengths, dtype=I64).cumsum(0)
        columns = int(offsets[-1]) + 2  # two spare columns after the last sequence
        stride = (1, channels) if layout == "column-major" else (columns, 1)
        base = uniform(channels * columns)
        values = view(base, (channels, columns), stride)
        ref = torch.full((batch, channels, longest), -1.0)
        for b, n in enumerate(lengths):
            ref[b, :, :n] = values[:, offsets[b]:offsets[b] + n]
        out_shape = (batch, channels, longest)
        out_stride = (channels * (longest + 1), longest + 1, 1)

        def args_of(d):
            out = (view(torch.empty(batch * channels * (longest + 1) + 1, device=d), out_shape,
                        out_stride, 1) if misaligned else torch.empty(out_shape, device=d))
            return [view(base.to(d), (channels, columns), stride), offsets.to(d), out]

        name = (f"to_padded_dim2 lengths={lengths} channels={channels} first={first} {layout}"
                f"{' misaligned output' if misaligned else ''}")
        g, c = t.run("to_padded_dim2", args_of, [2])
        t.check(name + " vs torch", g[2], ref)
        t.check(name + " vs cpu backend", g[2], c[2])
    values = uniform((4, 10))
    t.rejects("to_padded_dim2 decreasing offsets", "to_padded_dim2",
              lambda d: [values.to(d), torch.tensor([0, 6, 5], device=d),
                         torch.empty(2, 4, 6, device=d)],
              INVALID_ARGUMENT, ["'input_offsets'", "decreases"], [2])
    t.rejects("to_padded_dim2 offsets past the values", "to_padded_dim2",
              lambda d: [values.to(d), torch.tensor([0, 12], device=d),
                         torch.empty(1, 4, 12, device=d)],
              INVALID_ARGUMENT, ["'input_offsets'", "ends at 12"], [2])


# One group per source of tests/cpu/kernels, named after it.
GROUPS = {g.__name__: g for g in (
    add_block4, int_ops, dropout, linear_offsets, dot_precision, constexpr_arrangement,
    rank_generic, scalar_tiles, cxx_semantics, hygiene, named_compose, inferred_axes, composed,
    extent_checks, empty_sizes, jagged_dim2)}
GROUPS["filter"] = filter_group


def main():
    t = Tester(sys.argv[1], sys.argv[2])
    torch.manual_seed(20261203)
    wanted = sys.argv[3:]
    for name, group in GROUPS.items():
        if wanted and name not in wanted:
            continue
        print(f"== {name}", flush=True)
        try:
            group(t)
        except Exception as e:  # a crash in one group is a failure, not the end of the run
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
            t.failed += 1
    print(f"{t.passed} passed, {t.failed} failed")
    sys.exit(1 if t.failed else 0)


if __name__ == "__main__":
    main()
