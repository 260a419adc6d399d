#!/usr/bin/env python3
"""Scale tests of ntc: deep expressions and long arrangements compile in linear time.

Each case writes kernel sources of growing size n, runs `ntc -o DIR --target cpu|cuda` on
them, and checks that every run finishes within LIMIT_S seconds and that the generated
source grows at most linearly with n (the size at the largest n is at most
GROWTH x (largest n / smallest n) times the size at the smallest n).
"""
import argparse
import os
import subprocess
import sys
import time

LIMIT_S = 10.0
GROWTH = 2.0  # slack over exact proportionality (fixed parts of the file shrink the ratio)

HEADER = """#include <ntc/dsl.hpp>
constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 64);
NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({BLOCK}), y.tile({BLOCK}));
}
"""
FOOTER = """NT_KERNEL(deep, arrangement, application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
"""


def nested_statement(n):
    """One statement: a Horner polynomial of degree n (n nested binary operations)."""
    e = "x"
    for _ in range(n):
        e = f"({e} * x + x)"
    return HEADER + f"NT_APPLICATION void application(nt::Tile x, nt::Tile y) {{ y = {e}; }}\n" + FOOTER


def nested_exp(n):
    """n nested ntl::exp on a float16 tile (each level casts to float32 and back)."""
    e = "x"
    for _ in range(n):
        e = f"ntl::exp({e})"
    return HEADER + f"NT_APPLICATION void application(nt::Tile x, nt::Tile y) {{ y = {e}; }}\n" + FOOTER


def shared_helper(n):
    """A helper using its by-value parameter twice, applied n times: the IR is a DAG whose
    tree form would double with every level."""
    e = "x"
    for _ in range(n):
        e = f"twice({e})"
    return (HEADER + "nt::Tile twice(nt::Tile a) { return a * a + a; }\n" +
            f"NT_APPLICATION void application(nt::Tile x, nt::Tile y) {{ y = {e}; }}\n" + FOOTER)


def arrangement_chain(n):
    """An arrangement applying tile({1}) n times (n + 1 levels)."""
    chain = "x" + ".tile({1})" * n
    return f"""#include <ntc/dsl.hpp>
NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {{
  auto long_chain = {chain};
  return nt::arrange(x.tile({{16}}), y.tile({{16}}));
}}
NT_APPLICATION void application(nt::Tile x, nt::Tile y) {{ y = x; }}
""" + FOOTER


CASES = {
    "nested_statement": (nested_statement, [8, 16, 32]),
    "nested_exp": (nested_exp, [8, 16, 32]),
    "shared_helper": (shared_helper, [8, 16, 32]),
    "arrangement_chain": (arrangement_chain, [250, 500, 1000]),
}


def run(ntc, source, out_dir, target):
    os.makedirs(out_dir, exist_ok=True)
    start = time.monotonic()
    try:
        proc = subprocess.run([ntc, "-o", out_dir, "--target", target, source],
                              capture_output=True, text=True, timeout=LIMIT_S * 3)
    except subprocess.TimeoutExpired:
        sys.exit(f"FAIL: ntc on {source} ({target}) ran past {LIMIT_S * 3:.0f} s")
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"FAIL: ntc on {source} ({target}) exited {proc.returncode}:\n{proc.stderr}")
    if seconds > LIMIT_S:
        sys.exit(f"FAIL: ntc on {source} ({target}) took {seconds:.1f} s (limit {LIMIT_S} s)")
    ext = ".cu" if target == "cuda" else ".cpp"
    size = os.path.getsize(os.path.join(out_dir, "deep" + ext))
    return seconds, size


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ntc", required=True)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    make, sizes = CASES[args.case]
    os.makedirs(args.work, exist_ok=True)
    for target in ("cpu", "cuda"):
        measured = []
        for n in sizes:
            source = os.path.join(args.work, f"deep.cpp")
            with open(source, "w") as f:
                f.write(make(n))
            seconds, size = run(args.ntc, source, os.path.join(args.work, f"{target}{n}"), target)
            print(f"{args.case} n={n} {target}: {seconds:.2f} s, {size} bytes")
            measured.append(size)
        allowed = measured[0] * GROWTH * sizes[-1] / sizes[0]
        if measured[-1] > allowed:
            sys.exit(f"FAIL: generated {target} source grows faster than linearly: {measured} "
                     f"bytes for n = {sizes}")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
