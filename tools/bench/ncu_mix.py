"""Summarizes Nsight Compute's per-instruction page of one or more kernels: executed instructions
by opcode and warp-stall samples by reason, side by side (e.g. ntc's attention against SDPA's).

Make the input on the GPU machine from a report of `--set full` (the source counters):
  ncu -i REPORT.ncu-rep --page source --csv --print-source sass > SOURCE.csv
Usage: python3 ncu_mix.py SOURCE.csv[.gz] [--top N] [--hot MIN_EXECUTIONS]
--top: how many opcodes to list (default 30, ordered by the largest difference between the first
two kernels); --hot: also print, per kernel, every instruction executed at least that many times
(a loop body), with its stall samples.
"""
import collections
import csv
import gzip
import re
import sys


def read_kernels(path):
    """[(kernel name, header, rows)] in the order of the report."""
    opener = gzip.open if path.endswith(".gz") else open
    kernels, current = [], None
    with opener(path, "rt") as f:
        for row in csv.reader(f):
            if row and row[0] == "Kernel Name":
                current = [row[1], None, []]
                kernels.append(current)
            elif current is not None and current[1] is None and row and row[0] == "Address":
                current[1] = row
            elif current is not None and current[1] is not None:
                current[2].append(row)
    return kernels


def number(text):
    try:
        return int(text.replace(",", ""))
    except ValueError:
        return None


def opcode(source):
    """The opcode of a SASS line without its predicate; .FTZ folded (the same work)."""
    return re.sub(r"^@!?U?P\w+\s+", "", source.strip()).split(" ")[0].replace(".FTZ", "")


def executed_rows(header, rows):
    """(row, times executed) of every instruction row (the page's other rows carry no count)."""
    executed = header.index("Instructions Executed")
    for row in rows:
        count = number(row[executed]) if len(row) > executed else None
        if count is not None:
            yield row, count


def summarize(header, rows):
    source = header.index("Source")
    reasons = [(i, h[len("stall_"):]) for i, h in enumerate(header)
               if h.startswith("stall_") and "Not Issued" not in h]
    ops, stalls = collections.Counter(), collections.Counter()
    for row, count in executed_rows(header, rows):
        ops[opcode(row[source])] += count
        for i, reason in reasons:
            stalls[reason] += (number(row[i]) or 0) if i < len(row) else 0
    return ops, stalls


def main():
    args = sys.argv[1:]
    top = int(args[args.index("--top") + 1]) if "--top" in args else 30
    hot = int(args[args.index("--hot") + 1]) if "--hot" in args else None
    kernels = read_kernels(args[0])
    if not kernels:
        sys.exit(f"{args[0]}: no kernel (was it made with --page source --csv?)")
    summaries = [summarize(header, rows) for _, header, rows in kernels]
    for k, (name, _, _) in enumerate(kernels):
        print(f"[{k}] {name[:100]}: {sum(summaries[k][0].values()) / 1e6:.1f} M instructions")
    first = summaries[0][0]
    second = summaries[1][0] if len(summaries) > 1 else collections.Counter()
    names = sorted(set().union(*(s[0] for s in summaries)),
                   key=lambda o: -abs(first[o] - second[o]))
    print("\nexecuted instructions, millions\n" + f"{'opcode':34s}" +
          "".join(f"{'[' + str(k) + ']':>10s}" for k in range(len(kernels))))
    for o in names[:top]:
        print(f"{o:34s}" + "".join(f"{s[0][o] / 1e6:10.1f}" for s in summaries))
    print("\nwarp-stall samples, percent\n" + f"{'reason':34s}" +
          "".join(f"{'[' + str(k) + ']':>10s}" for k in range(len(kernels))))
    reasons = sorted(summaries[0][1], key=lambda r: -summaries[0][1][r])
    for r in reasons:
        print(f"{r:34s}" + "".join(
            f"{100 * s[1][r] / max(1, sum(s[1].values())):10.1f}" for s in summaries))
    if hot is not None:
        for (name, header, rows) in kernels:
            print(f"\n{name[:100]}: instructions executed at least {hot} times")
            source = header.index("Source")
            samples = header.index("Warp Stall Sampling (All Samples)")
            for row, count in executed_rows(header, rows):
                if count >= hot:
                    print(f"  {row[0][-6:]} {count:>10d} {row[samples]:>7s}  {row[source]}")


if __name__ == "__main__":
    main()
