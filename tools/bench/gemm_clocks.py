"""Sustained GEMM runs with the SM clock and power the GPU reports during each: tells a kernel
that runs slower per cycle from one that runs at a lower clock (power or thermal throttling).

For one shape, cuBLAS and each build run back to back for `seconds` each (a CUDA graph of
calls over rotating buffers, replayed), while nvidia-smi samples the SM clock, power and
temperature every 100 ms; each phase prints its TFLOP/s and the medians of its samples. Every
build is checked once against a float32 product first; inputs are random.
Usage: python3 gemm_clocks.py <kernel> MxNxK <label>=<lib.so> [<label>=<lib.so> ...]
(NTC_CLOCKS_SECONDS: seconds per phase, default 3)
"""
import os
import statistics
import subprocess
import sys
import time

import torch

kernel, shape = sys.argv[1], sys.argv[2]
builds = [a.split("=", 1) for a in sys.argv[3:]]
m, n, k = (int(x) for x in shape.split("x"))
dtype = torch.bfloat16 if kernel.endswith("bf16") else torch.float16
sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from ntc_dlpack import Library  # noqa: E402

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from graphs import captured  # noqa: E402

SECONDS = float(os.environ.get("NTC_CLOCKS_SECONDS", "3"))  # per phase
torch.manual_seed(5)
sets = 4
a = [torch.randn(m, k, device="cuda", dtype=dtype) for _ in range(sets)]
b = [torch.randn(k, n, device="cuda", dtype=dtype) for _ in range(sets)]
c = [torch.empty(m, n, device="cuda", dtype=dtype) for _ in range(sets)]
ref = a[0].float() @ b[0].float()
flops = 2 * m * n * k


def sustained(call):
    """TFLOP/s of `call(i, stream)` replayed in a graph for SECONDS, and the phase's times."""
    reps = 8
    graph = captured(call, sets, reps, torch.cuda.Stream())
    graph.replay()
    torch.cuda.synchronize()
    begin = time.time()
    calls = 0
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    while time.time() - begin < SECONDS:
        for _ in range(4):
            graph.replay()
        calls += 4 * reps
        torch.cuda.synchronize()
    end.record()
    end.synchronize()
    return flops * calls / (start.elapsed_time(end) / 1e3) / 1e12, begin, time.time()


smi = subprocess.Popen(
    ["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu",
     "--format=csv,noheader,nounits", "-lms", "100"],
    stdout=subprocess.PIPE, text=True)
phases = []
print(f"GPU: {torch.cuda.get_device_name()}  {m}x{n}x{k} {dtype}")
phases.append(("cuBLAS",) + sustained(lambda i, s: torch.matmul(a[i], b[i], out=c[i])))
for label, path in builds:
    lib = Library(path)
    c[0].zero_()
    lib.call(kernel, a[0], b[0], c[0])
    torch.cuda.synchronize()
    ok = bool(((c[0].float() - ref).abs() <= 0.05 + 0.02 * ref.abs()).all())
    phases.append((label + ("" if ok else " WRONG"),) +
                  sustained(lambda i, s, lib=lib: lib.call(kernel, a[i], b[i], c[i], stream=s)))
time.sleep(0.3)
smi.terminate()
samples = []
for line in smi.stdout.read().splitlines():
    stamp, clock, power, temp = (x.strip() for x in line.split(","))
    t = time.mktime(time.strptime(stamp.split(".")[0], "%Y/%m/%d %H:%M:%S"))
    t += float("0." + stamp.split(".")[1]) if "." in stamp else 0.0
    samples.append((t, float(clock), float(power), float(temp)))
for label, tflops, begin, finish in phases:
    inside = [s for s in samples if begin + min(0.5, SECONDS / 4) <= s[0] <= finish]
    if inside:
        clock = statistics.median(s[1] for s in inside)
        power = statistics.median(s[2] for s in inside)
        temp = statistics.median(s[3] for s in inside)
        print(f"  {label:<12} {tflops:6.1f} TFLOP/s  SM clock {clock:6.0f} MHz  power "
              f"{power:5.0f} W  {temp:3.0f} C  {tflops / clock * 1e3:6.3f} TFLOP/s per GHz "
              f"({len(inside)} samples)")
    else:
        print(f"  {label:<12} {tflops:6.1f} TFLOP/s  (no clock samples)")
