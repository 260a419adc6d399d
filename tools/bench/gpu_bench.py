"""GPU benchmark of the stock kernels against PyTorch, a device copy and cuBLAS.

Each operation is captured in a CUDA graph of `reps` calls over rotating buffer sets
(inputs larger than the L2 in total), the graph is replayed after a warm-up, and the
median of `runs` replays (timed with CUDA events) divided by `reps` is reported, ours and
the reference replayed in turn (timed_interleaved); every result is checked once before timing. Inputs are random, never zeros. Prints one table.
Usage: python3 gpu_bench.py <libkernels_cuda.so>
"""
import statistics
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from ntc_dlpack import Library  # noqa: E402

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from graphs import captured  # noqa: E402

lib = Library(sys.argv[1])
torch.manual_seed(1)
L2_BYTES = 60 * 2**20


def timed(fn_for_set, nsets, reps=20, runs=15):
    """Median seconds per call of fn_for_set(i % nsets), captured in a graph of reps calls."""
    return timed_interleaved([fn_for_set], nsets, reps, runs)[0]


def timed_interleaved(fns_for_set, nsets, reps=20, runs=15):
    """Median seconds per call of each fn_for_set(i % nsets), each captured in a graph of reps
    calls, the graphs replayed in turn (one replay of each per run), so that every function
    runs in the same power and clock state (a power-limited GPU lowers its clock under a long
    run: timed one after the other, the first function would run on a cooler GPU)."""
    stream = torch.cuda.Stream()
    graphs = [captured(fn_for_set, nsets, reps, stream) for fn_for_set in fns_for_set]
    for graph in graphs:
        for _ in range(3):
            graph.replay()
    torch.cuda.synchronize()
    times = [[] for _ in graphs]
    for _ in range(runs):
        for g, graph in enumerate(graphs):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            end.synchronize()
            times[g].append(start.elapsed_time(end) / 1e3 / reps)
    return [statistics.median(t) for t in times]


def sets_for(bytes_per_set):
    return max(1, min(16, -(-3 * L2_BYTES // bytes_per_set)))


rows = []


def row(name, ours, theirs, what, work=None, unit=""):
    rate = f"{work / ours / 1e12:8.1f} {unit}" if work else ""
    rows.append(f"{name:<28} {ours * 1e6:10.1f} {theirs * 1e6:10.1f} {theirs / ours:8.2f}  {what:<14} {rate}")


def main():
    for n in (2**20, 2**28):
        k = sets_for(12 * n)
        xs = [torch.rand(n, device="cuda") for _ in range(k)]
        ys = [torch.rand(n, device="cuda") for _ in range(k)]
        outs = [torch.empty(n, device="cuda") for _ in range(k)]
        lib.call("add_f32", xs[0], ys[0], outs[0])
        torch.cuda.synchronize()
        assert torch.allclose(outs[0], xs[0] + ys[0])
        ours, torch_add, copy = timed_interleaved(
            [lambda i, s: lib.call("add_f32", xs[i], ys[i], outs[i], stream=s),
             lambda i, s: torch.add(xs[i], ys[i], out=outs[i]),
             lambda i, s: outs[i].copy_(xs[i])], k)
        row(f"add f32 2^{n.bit_length() - 1}", ours, torch_add, "torch.add", 12 * n, "TB/s")
        row(f"add f32 2^{n.bit_length() - 1}", ours, copy, "d2d copy*", 12 * n, "TB/s")

    for r, c in ((4096, 4096), (1823, 781)):
        k = sets_for(8 * r * c)
        xs = [torch.randn(r, c, device="cuda") for _ in range(k)]
        outs = [torch.empty(r, c, device="cuda") for _ in range(k)]
        lib.call("softmax", xs[0], outs[0])
        torch.cuda.synchronize()
        assert torch.allclose(outs[0], torch.softmax(xs[0], -1), atol=1e-6, rtol=1e-5)
        ours, theirs = timed_interleaved(
            [lambda i, s: lib.call("softmax", xs[i], outs[i], stream=s),
             lambda i, s: torch.softmax(xs[i], -1)], k)
        row(f"softmax f32 {r}x{c}", ours, theirs, "torch.softmax", 8 * r * c, "TB/s")

    for n in (1024, 4096, 8192):
        k = sets_for(6 * n * n)
        a = [torch.randn(n, n, device="cuda", dtype=torch.float16) for _ in range(k)]
        b = [torch.randn(n, n, device="cuda", dtype=torch.float16) for _ in range(k)]
        c = [torch.empty(n, n, device="cuda", dtype=torch.float16) for _ in range(k)]
        lib.call("matmul", a[0], b[0], c[0])
        torch.cuda.synchronize()
        ref = (a[0].float() @ b[0].float())
        assert ((c[0].float() - ref).abs() <= 0.05 + 0.02 * ref.abs()).all()
        reps = 3 if n == 8192 else 10
        ours, theirs = timed_interleaved(
            [lambda i, s: lib.call("matmul", a[i], b[i], c[i], stream=s),
             lambda i, s: torch.matmul(a[i], b[i], out=c[i])], k, reps=reps, runs=7)
        row(f"matmul f16 {n}^3", ours, theirs, "cuBLAS", 2 * n**3, "TFLOP/s")

    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    print(f"{'operation':<28} {'ours(us)':>10} {'theirs(us)':>10} {'ratio':>8}  {'vs':<14} rate(ours)")
    print("\n".join(rows))
    print("ratio = their time / our time (above 1: ours is faster). *d2d copy moves 8n bytes, add 12n.")


if __name__ == "__main__":
    main()
