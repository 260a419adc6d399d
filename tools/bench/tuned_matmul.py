"""Times, on the GPU and in one run, each tuned matmul shape of a tuning table three ways,
interleaved: cuBLAS, ntc's default configuration and the configuration the table chose. The
two ntc builds are the candidate libraries ntc-tune built (its work folder), so this needs no
ntc on the GPU machine; every result is checked against a float32 product before timing.
Timing as gpu_bench.py (CUDA graph over rotating buffers, median of replays).
Usage: python3 tuned_matmul.py <table.json> <ntc-tune work folder of kernels/matmul.cpp>
"""
import json
import sys

import torch

table_path, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, __file__.rsplit("/", 1)[0])
sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
libs_dir = {}  # configuration id -> candidate folder
default_id = None
for line in open(f"{work}/manifest.txt"):
    words = line.split()
    if words[:2] == ["config", "matmul"]:
        libs_dir[words[4]] = words[2]
        default_id = words[4] if words[3] == "default" else default_id
sys.argv = [sys.argv[0], f"{work}/{libs_dir[default_id]}/lib.so"]
from gpu_bench import sets_for, timed  # noqa: E402
from ntc_dlpack import Library  # noqa: E402

torch.manual_seed(3)
print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
print(f"{'M x N x K':<18} {'cuBLAS':>8} {'default':>8} {'tuned':>8} {'tuned/default':>14}"
      f" {'tuned/cuBLAS':>13}  configuration (TFLOP/s)")
for entry in json.load(open(table_path))["entries"]:
    if entry["kernel"] != "matmul":
        continue
    (m, k), (_, n) = entry["shape"]["lhs"], entry["shape"]["rhs"]
    default = Library(f"{work}/{libs_dir[default_id]}/lib.so")
    tuned = Library(f"{work}/{libs_dir[entry['config']]}/lib.so")
    sets = sets_for(2 * (m * k + k * n + m * n))
    a = [torch.randn(m, k, device="cuda", dtype=torch.float16) for _ in range(sets)]
    b = [torch.randn(k, n, device="cuda", dtype=torch.float16) for _ in range(sets)]
    c = [torch.empty(m, n, device="cuda", dtype=torch.float16) for _ in range(sets)]
    ref = a[0].float() @ b[0].float()
    for lib in (default, tuned):
        c[0].zero_()
        lib.call("matmul", a[0], b[0], c[0])
        torch.cuda.synchronize()
        assert bool(((c[0].float() - ref).abs() <= 0.05 + 0.02 * ref.abs()).all()), entry["config"]
    reps = 3 if m * n * k >= 8192**3 else 20
    times = {"cublas": [], "default": [], "tuned": []}
    for _ in range(3):  # interleaved rounds; the best median of each
        times["cublas"].append(timed(lambda i, s: torch.matmul(a[i], b[i], out=c[i]), sets, reps))
        times["default"].append(
            timed(lambda i, s: default.call("matmul", a[i], b[i], c[i], stream=s), sets, reps))
        times["tuned"].append(
            timed(lambda i, s: tuned.call("matmul", a[i], b[i], c[i], stream=s), sets, reps))
    t = {key: min(v) for key, v in times.items()}
    flops = 2 * m * n * k
    rate = {key: flops / v / 1e12 for key, v in t.items()}
    print(f"{m}x{n}x{k:<10} {rate['cublas']:8.1f} {rate['default']:8.1f} {rate['tuned']:8.1f}"
          f" {t['default'] / t['tuned']:14.2f} {t['cublas'] / t['tuned']:13.2f}  {entry['config']}")
