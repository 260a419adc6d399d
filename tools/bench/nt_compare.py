"""ntc against NineToothed (0.25, on Triton) and PyTorch on the GPU, in one run.

NineToothed's kernels are written here as its own tests write them (tests/test_attention.py,
test_matmul.py, test_softmax.py): the same arrangements as kernels/*.cpp, with Triton's
autotuning over the meta-parameters. Every implementation is timed the same way (gpu_bench.py's
CUDA graph over rotating buffers, median of replays, the implementations' graphs replayed in
turn so that all run in the same power and clock state), and checked
once against PyTorch before timing. Without the ninetoothed package its column is left out.
Usage: python3 nt_compare.py <libkernels_cuda.so> [attention|matmul|softmax ...] (default: all)
"""
import math
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gpu_bench import lib, sets_for, timed_interleaved  # noqa: E402

try:
    import ninetoothed
    import ninetoothed.language as ntl
    from ninetoothed import Tensor
except ImportError:  # the comparison still runs against PyTorch
    ninetoothed = None

torch.manual_seed(2)


def report(name, work, unit, times):
    """One row, printed at once (a run cut short by a time limit keeps the rows it finished):
    each implementation's rate and ntc's ratio against the others."""
    ours = times["ntc"]
    cells = [f"{k} {work / t / 1e12:7.1f}" for k, t in times.items()]
    ratios = [f"{t / ours:5.2f}x vs {k}" for k, t in times.items() if k != "ntc"]
    print(f"{name:<34} {unit:<8} " + "  ".join(cells) + "   " + ", ".join(ratios), flush=True)


if ninetoothed is not None:
    BM = ninetoothed.block_size(64, 128)
    BN = ninetoothed.block_size(32, 64)

    def arrange_q_or_o(input):
        arranged = input.tile((1, 1, BM, -1))
        arranged.dtype = arranged.dtype.squeeze((0, 1))
        return arranged

    def arrange_k_or_v(input, q_arranged):
        arranged = input.tile((1, 1, BN, -1)).tile((1, 1, -1, -1))
        arranged = arranged.expand((-1, -1, q_arranged.shape[-2], -1))
        arranged.dtype = arranged.dtype.squeeze((0, 1, 3))
        arranged.dtype.dtype = arranged.dtype.dtype.squeeze((0, 1))
        return arranged

    def attention_arrangement(q, k, v, is_causal, o):
        q_arranged = arrange_q_or_o(q)
        return (q_arranged, arrange_k_or_v(k, q_arranged), arrange_k_or_v(v, q_arranged),
                is_causal, arrange_q_or_o(o))

    def attention_application(q, k, v, is_causal, o):
        q_loaded = (q * 1.44269504089).to(q.dtype)
        acc = ntl.zeros((q.shape[-2], q.shape[-1]), dtype=ntl.float32)
        l_i = ntl.full((q.shape[-2],), 1, dtype=ntl.float32)
        m_i = ntl.full((q.shape[-2],), float("-inf"), dtype=ntl.float32)
        for i in range(k.shape[0]):
            qk = ntl.dot(q_loaded, ntl.trans(k[i]))
            qk = ntl.where(k[i].offsets(-2) < k.source.shape[-2], qk, float("-inf"))
            if is_causal:
                mask = q.offsets(-2)[:, None] >= k[i].offsets(-2)[None, :]
                qk = ntl.where(mask, qk, float("-inf"))
            m_ij = ntl.maximum(m_i, ntl.max(qk, 1))
            p = ntl.exp2(qk - m_ij[:, None])
            l_ij = ntl.sum(p, 1)
            alpha = ntl.exp2(m_i - m_ij)
            acc = acc * alpha[:, None] + ntl.dot(p.to(ntl.float16), v[i])
            m_i = m_ij
            l_i = l_i * alpha + l_ij
        acc /= l_i[:, None]
        o = acc  # noqa: F841

    shape_options = (None, None, {"constexpr": True}, {"constexpr": True, "upper_bound": 128})
    nt_attention = ninetoothed.make(
        attention_arrangement, attention_application,
        tuple(Tensor(4, shape_options=shape_options) for _ in range(3))
        + (Tensor(0, constexpr=True), Tensor(4, shape_options=shape_options)))

    MM, MN, MK = (ninetoothed.block_size() for _ in range(3))

    def matmul_arrangement(lhs, rhs, output):
        output_arranged = output.tile((MM, MN))
        lhs_arranged = lhs.tile((MM, MK)).tile((1, -1)).expand((-1, output_arranged.shape[1]))
        lhs_arranged.dtype = lhs_arranged.dtype.squeeze(0)
        rhs_arranged = rhs.tile((MK, MN)).tile((-1, 1)).expand((output_arranged.shape[0], -1))
        rhs_arranged.dtype = rhs_arranged.dtype.squeeze(1)
        return lhs_arranged, rhs_arranged, output_arranged

    def matmul_application(lhs, rhs, output):
        accumulator = ntl.zeros(output.shape, dtype=ntl.float32)
        for k in range(lhs.shape[0]):
            accumulator += ntl.dot(lhs[k], rhs[k])
        output = accumulator.to(ntl.float16)  # noqa: F841

    def matmul_bf16_application(lhs, rhs, output):
        accumulator = ntl.zeros(output.shape, dtype=ntl.float32)
        for k in range(lhs.shape[0]):
            accumulator += ntl.dot(lhs[k], rhs[k])
        output = accumulator.to(ntl.bfloat16)  # noqa: F841

    nt_matmul = {
        torch.float16: ninetoothed.make(matmul_arrangement, matmul_application,
                                        (Tensor(2), Tensor(2), Tensor(2))),
        torch.bfloat16: ninetoothed.make(matmul_arrangement, matmul_bf16_application,
                                         (Tensor(2), Tensor(2), Tensor(2))),
    }

    SB = ninetoothed.Symbol("BLOCK_SIZE", constexpr=True)

    @ninetoothed.jit
    def nt_softmax(input: Tensor(2, other=float("-inf")).tile((1, SB)),
                   output: Tensor(2).tile((1, SB))):
        row_minus_max = input - ntl.max(input)
        numerator = ntl.exp(row_minus_max)
        output = numerator / ntl.sum(numerator)  # noqa: F841


def interleaved(impls, nsets, **kw):
    """Each implementation's median seconds per call, their graphs replayed in turn
    (gpu_bench.timed_interleaved: all run in the same power and clock state)."""
    return dict(zip(impls, timed_interleaved(list(impls.values()), nsets, **kw)))


def attention(b, h, s, d, causal):
    k = sets_for(4 * 2 * b * h * s * d)
    qs, ks, vs, os_ = ([torch.randn(b, h, s, d, device="cuda", dtype=torch.float16)
                        for _ in range(k)] for _ in range(4))
    ref = torch.nn.functional.scaled_dot_product_attention(qs[0], ks[0], vs[0],
                                                           is_causal=bool(causal), scale=1.0)
    lib.call("attention_f16", qs[0], ks[0], vs[0], causal, os_[0])
    torch.cuda.synchronize()
    assert torch.allclose(os_[0], ref, atol=0.03, rtol=0.03), (os_[0] - ref).abs().max()
    impls = {"ntc": lambda i, st: lib.call("attention_f16", qs[i], ks[i], vs[i], causal, os_[i],
                                           stream=st),
             "sdpa": lambda i, st: torch.nn.functional.scaled_dot_product_attention(
                 qs[i], ks[i], vs[i], is_causal=bool(causal), scale=1.0)}
    if ninetoothed is not None:
        nt_attention(qs[0], ks[0], vs[0], causal, os_[0])
        assert torch.allclose(os_[0], ref, atol=0.03, rtol=0.03)
        impls["ninetoothed"] = lambda i, st: nt_attention(qs[i], ks[i], vs[i], causal, os_[i])
    flops = 4 * b * h * s * s * d * (0.5 if causal else 1)
    report(f"attention f16 {b}x{h}x{s}x{d}{' causal' if causal else ''}", flops, "TFLOP/s",
           interleaved(impls, k, reps=5, runs=9))


def matmul(m, n, kk, dtype=torch.float16):
    k = sets_for(2 * (m * kk + kk * n + m * n))
    a = [torch.randn(m, kk, device="cuda", dtype=dtype) for _ in range(k)]
    b = [torch.randn(kk, n, device="cuda", dtype=dtype) for _ in range(k)]
    c = [torch.empty(m, n, device="cuda", dtype=dtype) for _ in range(k)]
    kernel, name = ("matmul", "f16") if dtype == torch.float16 else ("matmul_bf16", "bf16")
    ref = a[0].float() @ b[0].float()
    lib.call(kernel, a[0], b[0], c[0])
    torch.cuda.synchronize()
    assert ((c[0].float() - ref).abs() <= 0.05 + 0.02 * ref.abs()).all()
    impls = {"ntc": lambda i, st: lib.call(kernel, a[i], b[i], c[i], stream=st),
             "cublas": lambda i, st: torch.matmul(a[i], b[i], out=c[i])}
    if ninetoothed is not None:
        nt_matmul[dtype](a[0], b[0], c[0])
        impls["ninetoothed"] = lambda i, st: nt_matmul[dtype](a[i], b[i], c[i])
    report(f"matmul {name} {m}x{n}x{kk}", 2 * m * n * kk, "TFLOP/s",
           interleaved(impls, k, reps=5, runs=9))


def softmax(r, c):
    k = sets_for(8 * r * c)
    xs = [torch.randn(r, c, device="cuda") for _ in range(k)]
    outs = [torch.empty(r, c, device="cuda") for _ in range(k)]
    lib.call("softmax", xs[0], outs[0])
    torch.cuda.synchronize()
    assert torch.allclose(outs[0], torch.softmax(xs[0], -1), atol=1e-6, rtol=1e-5)
    impls = {"ntc": lambda i, st: lib.call("softmax", xs[i], outs[i], stream=st),
             "torch": lambda i, st: torch.softmax(xs[i], -1)}
    if ninetoothed is not None:
        block = 2 ** math.ceil(math.log2(c))
        nt_softmax(xs[0], outs[0], BLOCK_SIZE=block)
        impls["ninetoothed"] = lambda i, st: nt_softmax(xs[i], outs[i], BLOCK_SIZE=block)
    report(f"softmax f32 {r}x{c}", 8 * r * c, "TB/s",
           interleaved(impls, k))


if __name__ == "__main__":
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  ninetoothed "
          f"{'0.25 (present)' if ninetoothed else 'absent'}", flush=True)
    groups = sys.argv[2:] or ["attention", "matmul", "softmax"]
    if "attention" in groups:
        for shape in ((4, 32, 4096, 128, 0), (4, 32, 4096, 64, 0), (16, 16, 1024, 64, 0),
                      (4, 32, 4096, 128, 1), (4, 32, 4096, 64, 1)):
            attention(*shape)
    if "matmul" in groups:
        for shape in ((4096, 4096, 4096), (8192, 8192, 8192), (2048, 2048, 2048),
                      (4096, 4096, 512)):
            matmul(*shape)
        for shape in ((4096, 4096, 4096), (8192, 8192, 8192), (1024, 1024, 1024),
                      (4096, 4096, 512)):
            matmul(*shape, dtype=torch.bfloat16)
    if "softmax" in groups:
        for shape in ((4096, 4096), (1823, 781), (8192, 1000), (32768, 512)):
            softmax(*shape)
