#!/usr/bin/env python3
"""ntc-tune's CUDA path without a GPU (tests/tune/CMakeLists.txt).

run_mock_cuda_test.py --ntc-tune PATH --nvcc PATH

--nvcc is the mock nvcc (mock/nvcc) in a folder whose ../lib64 holds the mock libcudart.so
(mock/cudart.cpp). Writes a work folder by hand (a manifest and one mock_kernel.cu per
configuration: a fast one, the default, a slower one and a wrong one), runs
`ntc-tune --resume` on it, and checks the table: the wrong configuration rejected with its
first mismatch, the fastest the winner, the device, arch and versions the mock runtime reports.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# id, factor (2 is right), delay in microseconds
CONFIGS = [("slow-default", 2, 300), ("fast", 2, 20), ("wrong", 3, 20), ("middle", 2, 120)]


def fail(message):
    print("run_mock_cuda_test.py: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ntc-tune", required=True)
    parser.add_argument("--nvcc", required=True)
    args = parser.parse_args()
    with open(os.path.join(HERE, "mock", "mock_kernel.cu")) as f:
        template = f.read()
    out = tempfile.mkdtemp(prefix="ntc-tune-mock-")
    try:
        work = os.path.join(out, "work")
        lines = ["ntc-tune-manifest 1", "target cuda", "cuda-arch 90a", "ntc-version mock",
                 "source mock.cpp", "stem mock", "kernel scale 0123456789abcdef sm_90a"]
        for n, (cid, factor, delay) in enumerate(CONFIGS):
            folder = os.path.join(work, "scale", str(n))
            os.makedirs(folder)
            source = (template.replace("@ID@", cid).replace("@FACTOR@", str(factor))
                      .replace("@DELAY_US@", str(delay)))
            with open(os.path.join(folder, "mock.cu"), "w") as f:
                f.write(source)
            lines.append(f"config scale scale/{n} {'default' if n == 0 else '-'} {cid}")
        lines.append("shape\tmock.shapes:1\tscale input=1000 output=1000 dtype=float32")
        with open(os.path.join(work, "manifest.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        table_path = os.path.join(out, "table.json")
        argv = [args.ntc_tune, "--resume", work, "-o", table_path, "--nvcc", args.nvcc,
                "--rounds", "5", "--jobs", "2"]
        result = subprocess.run(argv, capture_output=True, text=True)
        sys.stderr.write(result.stderr)
        sys.stdout.write(result.stdout)
        if result.returncode != 0:
            fail(f"exit status {result.returncode}: {' '.join(argv)}")
        with open(table_path) as f:
            table = json.load(f)
        entries = table["entries"]
        if len(entries) != 1:
            fail(f"{len(entries)} entries")
        e = entries[0]
        expect = {"kernel": "scale", "hash": "0123456789abcdef", "target": "cuda", "arch": "sm_90",
                  "alignment": "aligned16", "config": "fast", "scalars": {},
                  "shape": {"input": [1000], "output": [1000]},
                  "bucket": {"input": [1024], "output": [1024]},
                  "dtypes": {"input": "float32", "output": "float32"}}
        for key, value in expect.items():
            if e[key] != value:
                fail(f"{key} is {e[key]!r}, expected {value!r}")
        if [c["config"] for c in e["candidates"]] != ["fast", "middle", "slow-default"]:
            fail(f"candidates {e['candidates']}")
        if e["default"]["config"] != "slow-default":
            fail(f"default {e['default']}")
        if not 15 <= e["time_us"] <= 200 or not e["default"]["time_us"] >= 250:
            fail(f"times {e['time_us']} and {e['default']['time_us']}")
        rejected = e["rejected"]
        if len(rejected) != 1 or rejected[0]["config"] != "wrong" or not rejected[0][
                "reason"].startswith("output differs from the default at output[0]: "):
            fail(f"rejected {rejected}")
        p = e["provenance"]
        if (p["device"], p["runtime"], p["ntc_version"]) != ("Mock GPU", "13.0", "mock") or \
                not p["driver"].startswith("13.0"):
            fail(f"provenance {p}")
        if "wrong rejected: output differs" not in result.stderr:
            fail("the rejection is not reported on stderr")
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
