"""Softmax builds against torch.softmax on the GPU, one run: correctness first, then timing.

Usage: python3 softmax_builds.py LABEL=libsoftmax.so [LABEL=lib.so ...]

Each library is a CUDA build of kernels/softmax.cpp (for instance before and after a compiler
change). Every build is first checked against torch.softmax at shapes from 1x1 to 1823x3000 (row
counts that are not multiples of four, strided rows; |out - ref| <= 1e-6 + 1e-4 |ref|); a build
that disagrees is reported WRONG. Then each shape is timed with CUDA events around 20 launches
over six rotating input/output pairs (random inputs), medians of 25 repetitions, three rounds
interleaving torch and the builds; the launch overhead is included (use gpu_bench.py or
nt_compare.py for CUDA-graph numbers). Ratios are torch time / build time.
"""
import statistics
import sys
import pathlib

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
from ntc_dlpack import Library  # noqa: E402

SHAPES = [(1823, 781), (8192, 1000), (32768, 512), (65536, 128), (16384, 250), (4096, 4096)]


def correct(lib):
    for m in (1, 2, 3, 4, 5, 7, 9, 130, 1823):
        for n in (1, 7, 16, 33, 100, 128, 250, 256, 512, 781, 1000, 1024, 3000):
            for strided in (False, True):
                x = torch.randn(m, n + (3 if strided else 0), device="cuda")[:, :n] * 4
                y = torch.full((m, n), float("nan"), device="cuda")
                lib.call("softmax", x, y)
                torch.cuda.synchronize()
                if not torch.allclose(y, torch.softmax(x, -1), atol=1e-6, rtol=1e-4):
                    return f"WRONG at {m}x{n} strided={strided}"
    return "ok"


def bench(fn, sets, reps=25, inner=20):
    for _ in range(3):
        for s in sets:
            fn(*s)
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record()
        for i in range(inner):
            fn(*sets[i % len(sets)])
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / inner * 1e3)
    return statistics.median(times)


def main():
    builds = [(a.split("=", 1)[0], Library(a.split("=", 1)[1])) for a in sys.argv[1:]]
    print(torch.cuda.get_device_name(), flush=True)
    for label, lib in builds:
        print(f"{label}: {correct(lib)}", flush=True)
    for m, n in SHAPES:
        sets = [(torch.randn(m, n, device="cuda"), torch.empty(m, n, device="cuda"))
                for _ in range(6)]
        fns = [lambda x, y: torch.softmax(x, -1)] + [
            (lambda lib: (lambda x, y: lib.call("softmax", x, y)))(lib) for _, lib in builds]
        rounds = [[bench(f, sets) for f in fns] for _ in range(3)]
        med = [statistics.median(r[i] for r in rounds) for i in range(len(fns))]
        tb = 2 * m * n * 4 / 1e6
        cols = " | ".join(f"{label} {tb / t:.2f} TB/s ({med[0] / t:.2f}x)"
                          for (label, _), t in zip(builds, med[1:]))
        print(f"softmax {m}x{n}: torch {tb / med[0]:.2f} TB/s | {cols}", flush=True)


if __name__ == "__main__":
    main()
