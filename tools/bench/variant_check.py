"""Checks a library built from one configuration of matmul, matmul_bf16, addmm, linear,
attention_f16 or attention_f32 (a "variant", see tools/scripts/variant-bundle.sh) against PyTorch at tail shapes:
sizes that are not multiples of any tile, K shorter than one tile, one-row outputs, and tensors
whose rows are not 16-byte aligned (the dispatcher then launches another program than the TMA
or vector one); matmul also with an even and an odd number of row tiles (a program in clusters
of two launches only on the former) and with more tiles than SMs (persistent blocks running
several programs). Small, so that it also runs under compute-sanitizer. Prints one line per
call and "variant check: N passed, M failed"; exits 1 on a failure.
Usage: python3 variant_check.py <lib.so>
"""
import ctypes
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from ntc_dlpack import Library  # noqa: E402

lib = Library(sys.argv[1])
torch.manual_seed(7)
passed = failed = 0


def exported(name):
    try:
        getattr(lib.lib, name)
        return True
    except AttributeError:
        return False


def report(what, ok, detail=""):
    global passed, failed
    passed += ok
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {what} {detail}", flush=True)


for kernel, dtype in (("matmul", torch.float16), ("matmul_bf16", torch.bfloat16)):
    if not exported(kernel):
        continue
    for m, n, k, pad in ((65, 97, 130, 0), (136, 72, 200, 0), (1, 256, 64, 0), (256, 256, 8, 0),
                         (300, 520, 777, 0), (128, 256, 512, 0), (64, 64, 100, 3),
                         (1000, 776, 1032, 0), (256, 1024, 200, 0),
                         # More 128×256 tiles than an H200 has SMs: persistent blocks run
                         # several programs, each storing while the next multiplies (K of
                         # three steps, one step, less than one tile).
                         (2200, 2100, 136, 0), (1500, 4000, 64, 0), (2100, 2400, 40, 0)):
        # pad > 0: rows of k + pad elements, so that strides are not multiples of 16 bytes.
        a = torch.randn(m, k + pad, device="cuda", dtype=dtype)[:, :k]
        b = torch.randn(k, n + pad, device="cuda", dtype=dtype)[:, :n]
        out = torch.empty(m, n, device="cuda", dtype=dtype)
        lib.call(kernel, a, b, out)
        torch.cuda.synchronize()
        ref = (a.float() @ b.float())
        err = ((out.float() - ref).abs() / (1 + ref.abs())).max().item()
        report(f"{kernel} {m}x{n}x{k}{' unaligned' if pad else ''}", err < 2e-2,
               f"max error {err:.3g}")

# addmm and linear: the epilogue reads tiles of other (M, N) tensors (and linear a bias row)
# in the accumulator's layout, by fragment rows where the rows are aligned.
for m, n, k, pad in ((65, 97, 130, 0), (1, 256, 64, 0), (300, 520, 777, 0), (256, 1024, 200, 0),
                     (64, 64, 100, 3), (2200, 2100, 136, 0), (1500, 4000, 64, 0)):
    def matrix(rows, cols):
        return torch.randn(rows, cols + pad, device="cuda", dtype=torch.float16)[:, :cols]
    a, b = matrix(m, k), matrix(k, n)
    product = (a.float() @ b.float())
    if exported("addmm"):
        c, out = matrix(m, n), torch.empty(m, n, device="cuda", dtype=torch.float16)
        lib.call("addmm", c, a, b, 0.5, 1.25, out)
        torch.cuda.synchronize()
        ref = 0.5 * c.float() + 1.25 * product.half().float()
        err = ((out.float() - ref).abs() / (1 + ref.abs())).max().item()
        report(f"addmm {m}x{n}x{k}{' unaligned' if pad else ''}", err < 2e-2,
               f"max error {err:.3g}")
    if exported("linear"):
        bias = torch.randn(n, device="cuda", dtype=torch.float16)
        res, out = matrix(m, n), torch.empty(m, n, device="cuda", dtype=torch.float16)
        lib.call("linear", a, b, bias, res, out)
        torch.cuda.synchronize()
        ref = torch.relu(product + bias.float() + res.float())
        err = ((out.float() - ref).abs() / (1 + ref.abs())).max().item()
        report(f"linear {m}x{n}x{k}{' unaligned' if pad else ''}", err < 2e-2,
               f"max error {err:.3g}")

# float32 attention is compared more tightly: its products are IEEE float32 on the CUDA cores.
for kernel, dtype, tolerance in (("attention_f16", torch.float16, 3e-2),
                                 ("attention_f32", torch.float32, 1e-3)):
    if not exported(kernel):
        continue
    # 1000 keys: eight 128-key steps, so that a ring of three or four stages is refilled (the
    # released stages of overlap=2 loops); 190 at d = 16, the narrowest program. (4, 8, 1000),
    # (3, 16, 520), (2, 80, 100) and (3, 12, 1100) have more programs than SMs (persistent blocks
    # running several, of one to nine steps); the last two causal ones have 36 and 5 heads, bands
    # of persistent causal programs that are not whole (passes/OrderPrograms.cpp).
    for b, h, s, d, causal, pad in ((1, 2, 100, 64, 0, 0), (2, 2, 65, 32, 1, 0), (1, 1, 1, 64, 0, 0),
                                    (1, 2, 300, 128, 1, 0), (2, 4, 256, 64, 0, 0),
                                    (1, 1, 77, 64, 0, 8), (1, 2, 1000, 128, 1, 0),
                                    (1, 2, 1000, 64, 0, 0), (1, 2, 190, 16, 0, 0),
                                    (4, 8, 1000, 128, 1, 0), (3, 16, 520, 64, 0, 0),
                                    (2, 80, 100, 64, 0, 0), (3, 12, 1100, 64, 1, 0),
                                    (1, 5, 700, 128, 1, 0)):
        def make():
            x = torch.randn(b, h, s, d + pad, device="cuda", dtype=dtype)
            return x[..., :d]
        q, k, v = make(), make(), make()
        out = torch.empty(b, h, s, d, device="cuda", dtype=dtype)
        lib.call(kernel, q, k, v, causal, out)
        torch.cuda.synchronize()
        # The reference by plain products and softmax (not SDPA, whose memory-efficient kernel
        # compute-sanitizer's racecheck reports hazards in).
        scores = q.float() @ k.float().transpose(-1, -2)
        if causal:
            scores = scores.masked_fill(
                torch.ones(s, s, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
        ref = torch.softmax(scores, -1) @ v.float()
        err = (out.float() - ref).abs().max().item()
        report(f"{kernel} {b}x{h}x{s}x{d}{' causal' if causal else ''}"
               f"{' unaligned' if pad else ''}", err < tolerance, f"max error {err:.3g}")

print(f"variant check: {passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
