"""GPU tests of the stock kernels (run on a GPU machine; see tools/scripts/gpu-run.sh).

Every kernel of kernels/ compiled for CUDA is checked against a float64 PyTorch
reference and against the same kernel compiled for the CPU backend, on fresh random
inputs with tails in every dimension and non-contiguous views; matmul also against
cuBLAS (torch.matmul). Prints one line per check and `N passed, M failed` last.
Usage: python3 check_kernels.py <libkernels_cuda.so> <libkernels_cpu.so>
"""
import math
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from ntc_dlpack import Library  # noqa: E402

cuda = Library(sys.argv[1])
cpu = Library(sys.argv[2])
torch.manual_seed(20261129)
passed = failed = 0


def check(name, out, ref, atol, rtol):
    global passed, failed
    out64, ref64 = out.double().cpu(), ref.double().cpu()
    ok = bool(torch.isfinite(out64).all()) and bool(
        (out64 - ref64).abs().le(atol + rtol * ref64.abs()).all())
    err = (out64 - ref64).abs().max().item() if out64.numel() else 0.0
    print(f"{'ok  ' if ok else 'FAIL'} {name}: max |err| = {err:.3g}")
    passed, failed = passed + ok, failed + (not ok)


def both(kernel, make_args, out_index):
    """Run `kernel` on the GPU and on the CPU backend; return both outputs."""
    args = make_args()
    gpu_args = [a.cuda() if isinstance(a, torch.Tensor) else a for a in args]
    gpu_out = gpu_args[out_index]
    gpu_out.fill_(float("nan") if gpu_out.is_floating_point() else -12345)
    cuda.call(kernel, *gpu_args)
    torch.cuda.synchronize()
    cpu_args = list(args)
    cpu.call(kernel, *cpu_args)
    return gpu_out.cpu(), cpu_args[out_index], args


for n in (98432, 10, 1):
    for dt, kernel in ((torch.float32, "add_f32"), (torch.float16, "add_f16")):
        x, y = torch.randn(n, dtype=dt), torch.randn(n, dtype=dt)
        g, c, _ = both(kernel, lambda: [x, y, torch.empty(n, dtype=dt)], 2)
        ref = x.double() + y.double()
        tol = 1e-6 if dt == torch.float32 else 1e-3
        check(f"{kernel} n={n} vs reference", g, ref, tol, tol)
        check(f"{kernel} n={n} vs cpu backend", g, c, 0, 0)
x = torch.randn(2 * 5000)[::2]
g, c, _ = both("add_f32", lambda: [x, x, torch.empty(5000)], 2)
check("add_f32 strided view", g, 2 * x.double(), 1e-6, 1e-6)
# A pointer off 16-byte alignment: the dispatcher must take the element-by-element variant.
x = torch.randn(3001)[1:]
g, c, _ = both("add_f32", lambda: [x, x, torch.empty(3000)], 2)
check("add_f32 misaligned view", g, 2 * x.double(), 1e-6, 1e-6)

for rows, cols in ((1823, 781), (1, 16384), (7, 33), (256, 4096), (128, 1000)):
    x = torch.randn(rows, cols)
    g, c, _ = both("softmax", lambda: [x, torch.empty(rows, cols)], 1)
    ref = torch.softmax(x.double(), dim=-1)
    check(f"softmax {rows}x{cols} vs reference", g, ref, 1e-6, 1e-5)
    check(f"softmax {rows}x{cols} vs cpu backend", g, c, 1e-7, 1e-5)
# Aligned rows (stride 1024) whose last chunk is partly outside the row (1003 columns).
xw = torch.randn(64, 1024)[:, :1003]
g, c, _ = both("softmax", lambda: [xw, torch.empty(64, 1003)], 1)
check("softmax 64x1003 in rows of 1024", g, torch.softmax(xw.double(), dim=-1), 1e-6, 1e-5)
xt = torch.randn(781, 300).t()  # a non-contiguous (300, 781) view
g, c, _ = both("softmax", lambda: [xt, torch.empty(300, 781)], 1)
check("softmax transposed view", g, torch.softmax(xt.double(), dim=-1), 1e-6, 1e-5)

# The layout cases (tests/gpu/kernels/layout_cases.cpp): aligned inputs take the vector
# program, a misaligned view and a strided view the element-by-element one (cyclic layout).
def layout_inputs(shape, dtype, kind):
    n = math.prod(shape)
    if dtype in (torch.int32,):
        make = lambda m: torch.randint(-1000, 1000, (m,), dtype=dtype)  # noqa: E731
    else:
        make = lambda m: torch.randn(m).to(dtype)  # noqa: E731
    if kind == "aligned":
        return make(n).reshape(shape)
    if kind == "misaligned":
        return make(n + 1)[1:].reshape(shape)
    return make(2 * n)[::2].reshape(shape)


for kernel, shape, types, tol in (
        ("layout_mixed", (3000,), (torch.float32,) * 3, 2e-3),
        ("layout_ints", (2500,), (torch.int32,) * 3, 0),
        ("layout_halves", (1500,), (torch.float16, torch.bfloat16, torch.float16), 4e-3),
        ("layout_3d", (3, 6, 70), (torch.float32,) * 3, 0)):
    for kind in ("aligned", "misaligned", "strided"):
        a = layout_inputs(shape, types[0], kind)
        b = layout_inputs(shape, types[1], kind)
        g, c, _ = both(kernel, lambda: [a, b, torch.zeros(shape, dtype=types[2])], 2)
        check(f"{kernel} {kind} vs cpu backend", g, c, tol, tol)


def matmul_case(m, k, n, ones=False, transposed=False):
    a = torch.ones(m, k, dtype=torch.float16) if ones else torch.randn(m, k, dtype=torch.float16)
    if transposed:
        b = torch.randn(n, k, dtype=torch.float16).t()
    else:
        b = torch.ones(k, n, dtype=torch.float16) if ones else torch.randn(k, n, dtype=torch.float16)
    g, c, _ = both("matmul", lambda: [a, b, torch.empty(m, n, dtype=torch.float16)], 2)
    ref = a.double() @ b.double()
    name = f"matmul {m}x{k}x{n}{' ones' if ones else ''}{' rhs transposed' if transposed else ''}"
    check(name + " vs reference", g, ref, 0.025, 0.025)
    check(name + " vs cpu backend", g, c, 0.025, 0.025)
    cublas = (a.cuda() @ b.cuda()).cpu()
    check(name + " vs cuBLAS", g, cublas, 0.025, 0.025)


matmul_case(65, 130, 97, ones=True)
matmul_case(65, 130, 97)
matmul_case(512, 512, 512)
matmul_case(65, 130, 97, transposed=True)
matmul_case(1024, 1024, 1024)
matmul_case(128, 200, 136)  # aligned rows, tails in K and N: vector copies and masked chunks
matmul_case(96, 256, 80)
matmul_case(2181, 96, 700)  # 18 row tiles: one whole band of the grouped order and a partial one

for m, k, n in ((65, 130, 97), (512, 512, 512)):
    a, b = torch.randn(m, k, dtype=torch.bfloat16), torch.randn(k, n, dtype=torch.bfloat16)
    g, c, _ = both("matmul_bf16", lambda: [a, b, torch.empty(m, n, dtype=torch.bfloat16)], 2)
    ref = a.double() @ b.double()
    check(f"matmul_bf16 {m}x{k}x{n} vs reference", g, ref, 0.1, 0.02)
    check(f"matmul_bf16 {m}x{k}x{n} vs cpu backend", g, c, 0.1, 0.02)

for m, k, n in ((512, 512, 512), (65, 130, 97)):
    inp = torch.randn(m, n, dtype=torch.float16)
    a, b = torch.randn(m, k, dtype=torch.float16), torch.randn(k, n, dtype=torch.float16)
    beta, alpha = 0.7, 0.3
    g, c, _ = both("addmm", lambda: [inp, a, b, beta, alpha, torch.empty(m, n, dtype=torch.float16)], 5)
    mm = (a.double() @ b.double()).half().double()
    ref = beta * inp.double() + alpha * mm
    check(f"addmm {m}x{k}x{n} vs reference", g, ref, 0.075, 0.025)
    check(f"addmm {m}x{k}x{n} vs cpu backend", g, c, 0.02, 0.02)

# Every compiled head dim (the padded extent's 16/32/64/128 variants, and 40 padded to 64) and a
# sequence that is not a multiple of the key block.
attention_shapes = [(2, 4, seq, 64) for seq in (1024, 1)] + [
    (1, 2, 1000, d) for d in (16, 32, 40, 128)]
for dt, kernel, tol in ((torch.float16, "attention_f16", 0.01), (torch.float32, "attention_f32", 0.025)):
    for shape in attention_shapes:
        for causal in (0, 1):
            q, k, v = (torch.randn(shape, dtype=dt) for _ in range(3))
            g, c, _ = both(kernel, lambda: [q, k, v, causal, torch.empty(shape, dtype=dt)], 4)
            ref = torch.nn.functional.scaled_dot_product_attention(
                q.double(), k.double(), v.double(), is_causal=bool(causal), scale=1.0)
            name = f"{kernel} {'x'.join(map(str, shape))} causal={causal}"
            check(name + " vs reference", g, ref, tol, tol)
            check(name + " vs cpu backend", g, c, tol, tol)

# Causal with more or fewer keys than queries (top-left aligned, as torch's is_causal): the key
# blocks after a program's last query are skipped (passes/SkipMaskedIterations.cpp).
for dt, kernel, tol in ((torch.float16, "attention_f16", 0.01), (torch.float32, "attention_f32", 0.025)):
    for sq, skv, d in ((100, 300, 64), (300, 77, 32), (129, 200, 128)):
        q = torch.randn(1, 2, sq, d, dtype=dt)
        k, v = (torch.randn(1, 2, skv, d, dtype=dt) for _ in range(2))
        g, c, _ = both(kernel, lambda: [q, k, v, 1, torch.empty(1, 2, sq, d, dtype=dt)], 4)
        ref = torch.nn.functional.scaled_dot_product_attention(
            q.double(), k.double(), v.double(), is_causal=True, scale=1.0)
        name = f"{kernel} 1x2x{sq}x{d} with {skv} keys causal=1"
        check(name + " vs reference", g, ref, tol, tol)
        check(name + " vs cpu backend", g, c, tol, tol)

for m, n, k in ((65, 97, 130), (256, 128, 64)):
    lhs, rhs = torch.randn(m, k, dtype=torch.float16), torch.randn(k, n, dtype=torch.float16)
    bias, residual = torch.randn(n, dtype=torch.float16), torch.randn(m, n, dtype=torch.float16)
    g, c, _ = both("linear", lambda: [lhs, rhs, bias, residual, torch.empty(m, n, dtype=torch.float16)], 4)
    ref = torch.relu(lhs.double() @ rhs.double() + bias.double() + residual.double())
    check(f"linear (named axes) {m}x{k}x{n} vs reference", g, ref, 0.025, 0.025)
    check(f"linear (named axes) {m}x{k}x{n} vs cpu backend", g, c, 0.02, 0.02)

for shared, (b, m, n, k) in ((False, (3, 65, 97, 40)), (True, (3, 65, 97, 40)),
                              (False, (2, 2181, 300, 40))):  # bands across a batch
    lhs = torch.randn(b, m, k, dtype=torch.float16)
    rhs = torch.randn(k, n, dtype=torch.float16) if shared else torch.randn(b, k, n, dtype=torch.float16)
    kernel = "bmm_shared_rhs" if shared else "bmm"
    g, c, _ = both(kernel, lambda: [lhs, rhs, torch.empty(b, m, n, dtype=torch.float16)], 2)
    ref = lhs.double() @ rhs.double()
    check(f"{kernel} (named axes) {b}x{m}x{k}x{n} vs reference", g, ref, 0.025, 0.025)
    check(f"{kernel} (named axes) {b}x{m}x{k}x{n} vs cpu backend", g, c, 0.02, 0.02)

# Aliasing: in-place elementwise calls work; outputs overlapping inputs are rejected.
def record(name, ok, detail=""):
    global passed, failed
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}")
    passed, failed = passed + ok, failed + (not ok)


def status_of(kernel, *args):
    """'ok' or the message of the failed status."""
    try:
        cuda.call(kernel, *args)
        torch.cuda.synchronize()
        return "ok"
    except RuntimeError as e:
        return str(e)


x = torch.randn(1000, device="cuda")
y = torch.randn(1000, device="cuda")
expected = (x + y).cpu()
r = status_of("add_f32", x, y, x)
record("add_f32 in place (output is lhs)", r == "ok" and torch.equal(x.cpu(), expected), r)
buf = torch.randn(1100, device="cuda")
r = status_of("add_f32", buf[:1000], y, buf[100:1100])
record("add_f32 with an output overlapping lhs is rejected", "overlaps" in r, r)
sq = torch.randn(64, 64, device="cuda", dtype=torch.float16)
r = status_of("matmul", sq, sq.clone(), sq)
record("matmul with output == lhs is rejected", "overlaps" in r, r)
if torch.cuda.device_count() > 1:
    a0 = torch.randn(100, device="cuda:0")
    a1 = torch.randn(100, device="cuda:1")
    r = status_of("add_f32", a0, a1, torch.empty(100, device="cuda:0"))
    record("tensors on two GPUs are rejected", "device" in r, r)
    b1 = torch.randn(100, device="cuda:1")
    out1 = torch.empty(100, device="cuda:1")
    torch.cuda.set_device(0)
    r = status_of("add_f32", a1, b1, out1)
    record("tensors on the second GPU run there and the current device is kept",
           r == "ok" and torch.equal(out1, a1 + b1) and torch.cuda.current_device() == 0, r)
else:
    print("skipped: two-GPU checks (one GPU on this machine)")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
