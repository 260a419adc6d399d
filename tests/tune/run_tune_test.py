#!/usr/bin/env python3
"""Runs ntc-tune once or several times and checks what it did (tests/tune/CMakeLists.txt).

run_tune_test.py --ntc-tune PATH --ntc PATH [--status N] [--stderr TEXT]... [--stdout TEXT]...
                 [--seed-table FILE] [--check-table] [--source FILE] [--entries N]
                 [--rejected TEXT] [--kept-kernel NAME] [--check-dispatch]
                 -- ARGS... [::: ARGS...]...

Each ARGS list is one ntc-tune run, in order; every run but the last must succeed, the last
must exit with N (default 0), with each TEXT in its stderr (or stdout). `@OUT@` in the
arguments is an empty scratch folder, `@NTC@` the ntc to use, `@SRC@` the source tree.
--seed-table copies FILE to @OUT@/table.json first. --check-table checks @OUT@/table.json:
exactly the documented keys, the winner the fastest candidate, candidates fastest first, the
buckets the next powers of two of the sizes, the hash the one `ntc --list-configs` prints for
--source, N entries, a rejected configuration whose reason contains TEXT, an entry of kernel
NAME kept from the seed table. --check-dispatch compiles the table into --source's kernels
(`ntc --tuning-table`, the CPU backend) and checks that the dispatcher picks each entry's
winner for the entry's own shape (`ntc_<kernel>_info()->config_for`). Exit status 0 when all
holds, 77 when ntc has no --list-configs (skipped), 1 otherwise.
"""
import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile

TOP_KEYS = ["format", "version", "entries"]
ENTRY_KEYS = ["kernel", "hash", "target", "arch", "dtypes", "alignment", "shape", "scalars",
              "bucket", "config", "time_us", "default", "candidates", "rejected", "provenance"]
PROVENANCE_KEYS = ["tool", "ntc_version", "date", "device", "driver", "runtime", "host"]


def fail(message):
    print("run_tune_test.py: " + message, file=sys.stderr)
    sys.exit(1)


def bucket(n):
    b = 1
    while b < n:
        b *= 2
    return b if n > 0 else 0


def list_hashes(ntc, source, target):
    out = subprocess.run([ntc, "--list-configs", source, "--target", target],
                         capture_output=True, text=True)
    if out.returncode != 0:
        fail("ntc --list-configs failed:\n" + out.stderr)
    hashes = {}
    for line in out.stdout.splitlines():
        words = line.split()
        if words and words[0] == "kernel":
            hashes[words[1]] = words[words.index("hash") + 1]
    return hashes


def check_table(path, args):
    with open(path) as f:
        table = json.load(f)
    if list(table) != TOP_KEYS:
        fail(f"table keys {list(table)}, expected {TOP_KEYS}")
    if table["format"] != "ntc-tuning-table" or table["version"] != 1:
        fail("wrong format or version")
    entries = table["entries"]
    if args.entries is not None and len(entries) != args.entries:
        fail(f"{len(entries)} entries, expected {args.entries}")
    hashes = list_hashes(args.ntc, args.source, "cpu") if args.source else {}
    rejected_found = args.rejected is None
    kept_found = args.kept_kernel is None
    for e in entries:
        if e["kernel"] == args.kept_kernel:
            kept_found = True
            continue
        if list(e) != ENTRY_KEYS:
            fail(f"entry keys {list(e)}, expected {ENTRY_KEYS}")
        where = f"entry {e['kernel']} {e['shape']}"
        if e["kernel"] in hashes and e["hash"] != hashes[e["kernel"]]:
            fail(f"{where}: hash {e['hash']}, ntc --list-configs says {hashes[e['kernel']]}")
        if e["target"] != "cpu" or e["arch"] != "cpu":
            fail(f"{where}: target {e['target']} arch {e['arch']}")
        if e["alignment"] not in ("aligned16", "any"):
            fail(f"{where}: alignment {e['alignment']}")
        for name, sizes in e["shape"].items():
            if e["bucket"][name] != [bucket(n) for n in sizes]:
                fail(f"{where}: bucket {e['bucket'][name]} of {name} {sizes}")
            if name not in e["dtypes"]:
                fail(f"{where}: no dtype for {name}")
        candidates = e["candidates"]
        times = [c["time_us"] for c in candidates]
        if not candidates or times != sorted(times):
            fail(f"{where}: candidates not fastest first: {times}")
        if e["config"] != candidates[0]["config"] or e["time_us"] != times[0]:
            fail(f"{where}: the winner {e['config']} is not the fastest candidate")
        if e["config"] not in [c["config"] for c in candidates]:
            fail(f"{where}: the winner is not among the candidates")
        if e["default"]["config"] not in [c["config"] for c in candidates]:
            fail(f"{where}: the default is not among the candidates")
        if not all(t > 0 for t in times):
            fail(f"{where}: a time is not positive: {times}")
        if list(e["provenance"]) != PROVENANCE_KEYS or e["provenance"]["tool"] != "ntc-tune":
            fail(f"{where}: provenance {e['provenance']}")
        for r in e["rejected"]:
            if list(r) != ["config", "reason"]:
                fail(f"{where}: rejected entry {r}")
            if args.rejected is not None and args.rejected in r["reason"]:
                rejected_found = True
    if not rejected_found:
        fail(f"no rejected configuration with a reason containing '{args.rejected}'")
    if not kept_found:
        fail(f"the entry of kernel {args.kept_kernel} was not kept")


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("flags", ctypes.c_uint32)]


ConfigFor = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
                             ctypes.POINTER(ctypes.c_char_p))


class KernelInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("num_params", ctypes.c_int32),
                ("params", ctypes.POINTER(ParamInfo)), ("target", ctypes.c_char_p),
                ("call", ctypes.c_void_p), ("config_for", ConfigFor),
                ("num_configs", ctypes.c_int32), ("configs", ctypes.POINTER(ctypes.c_char_p))]


def check_dispatch(table_path, args, out):
    """Compiles the table in and checks that the dispatcher picks every entry's winner."""
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    folder = os.path.join(out, "dispatch")
    os.makedirs(folder)
    generate = [args.ntc, "-o", folder, "--target", "cpu", "--tuning-table", table_path,
                args.source]
    result = subprocess.run(generate, capture_output=True, text=True)
    if result.returncode != 0:
        fail("ntc --tuning-table failed:\n" + result.stderr)
    stem = os.path.splitext(os.path.basename(args.source))[0]
    library = os.path.join(folder, "lib.so")
    compile_ = ["c++", "-std=c++17", "-O1", "-fPIC", "-shared", "-fopenmp",
                "-I" + os.path.join(src, "runtime", "include"), os.path.join(folder, stem + ".cpp"),
                os.path.join(src, "runtime", "src", "errors.cpp"),
                os.path.join(src, "runtime", "src", "validate.cpp"), "-o", library]
    result = subprocess.run(compile_, capture_output=True, text=True)
    if result.returncode != 0:
        fail("the tuned library does not compile:\n" + result.stderr[:3000])
    lib = ctypes.CDLL(library)
    with open(table_path) as f:
        entries = json.load(f)["entries"]
    checked = 0
    for e in entries:
        try:
            info_fn = getattr(lib, "ntc_%s_info" % e["kernel"])
        except AttributeError:
            continue
        info_fn.restype = ctypes.POINTER(KernelInfo)
        info = info_fn().contents
        keep = []  # buffers and arrays that must outlive the call
        argv = (ctypes.c_void_p * info.num_params)()
        for i in range(info.num_params):
            p = info.params[i]
            sizes = e["shape"][p.name.decode()]
            count = 1
            for n in sizes:
                count *= n
            nbytes = count * (p.dtype.bits // 8)
            raw = ctypes.create_string_buffer(nbytes + 64)
            address = (ctypes.addressof(raw) + 63) // 64 * 64
            shape = (ctypes.c_int64 * len(sizes))(*sizes)
            strides = [1] * len(sizes)
            for d in range(len(sizes) - 2, -1, -1):
                strides[d] = strides[d + 1] * sizes[d + 1]
            strides = (ctypes.c_int64 * len(sizes))(*strides)
            t = DLTensor(address, DLDevice(1, 0), len(sizes), p.dtype, shape, strides, 0)
            keep += [raw, shape, strides, t]
            argv[i] = ctypes.addressof(t)
        chosen = ctypes.c_char_p()
        status = info.config_for(argv, ctypes.byref(chosen))
        if status != 0:
            fail(f"config_for failed with status {status} for {e['shape']}")
        if chosen.value.decode() != e["config"]:
            fail(f"the dispatcher picks {chosen.value.decode()} for {e['shape']}, the table's "
                 f"winner is {e['config']}")
        checked += 1
    if checked == 0:
        fail("no entry of the table's kernels in the tuned library")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ntc-tune", required=True)
    parser.add_argument("--ntc", required=True)
    parser.add_argument("--status", type=int, default=0)
    parser.add_argument("--stderr", action="append", default=[])
    parser.add_argument("--stdout", action="append", default=[])
    parser.add_argument("--seed-table")
    parser.add_argument("--check-table", action="store_true")
    parser.add_argument("--source")
    parser.add_argument("--entries", type=int)
    parser.add_argument("--rejected")
    parser.add_argument("--kept-kernel")
    parser.add_argument("--check-dispatch", action="store_true")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    runs = [[]]
    for word in command:
        if word == ":::":
            runs.append([])
        else:
            runs[-1].append(word)

    probe = subprocess.run([args.ntc, "--help"], capture_output=True, text=True)
    if "--list-configs" not in probe.stdout:
        print("run_tune_test.py: this ntc has no --list-configs: skipped", file=sys.stderr)
        sys.exit(77)

    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = tempfile.mkdtemp(prefix="ntc-tune-test-")
    try:
        if args.seed_table:
            shutil.copy(args.seed_table, os.path.join(out, "table.json"))
        for i, run in enumerate(runs):
            argv = [args.ntc_tune] + [w.replace("@OUT@", out).replace("@NTC@", args.ntc)
                                      .replace("@SRC@", src) for w in run]
            result = subprocess.run(argv, capture_output=True, text=True)
            sys.stderr.write(result.stderr)
            sys.stdout.write(result.stdout)
            last = i == len(runs) - 1
            want = args.status if last else 0
            if result.returncode != want:
                fail(f"exit status {result.returncode}, expected {want}: {' '.join(argv)}")
            if last:
                for text in args.stderr:
                    if text.replace("@OUT@", out) not in result.stderr:
                        fail(f"stderr lacks '{text}'")
                for text in args.stdout:
                    if text not in result.stdout:
                        fail(f"stdout lacks '{text}'")
        if args.check_table:
            check_table(os.path.join(out, "table.json"), args)
        if args.check_dispatch:
            check_dispatch(os.path.join(out, "table.json"), args, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
