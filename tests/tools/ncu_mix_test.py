"""tools/bench/ncu_mix.py on a two-kernel source page written as `ncu --page source --csv`
writes it: instruction counts summed by opcode (predicates dropped, .FTZ folded), stall samples
by reason as shares of each kernel's samples, and the hot instructions. Usage: ncu_mix_test.py
<ncu_mix.py>"""
import os
import subprocess
import sys
import tempfile

HEADER = ('"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed",'
          '"stall_wait","stall_barrier","stall_wait (Not Issued)"\n')
PAGE = (
    '"Kernel Name","ntc_attention"\n' + HEADER +
    '"0x10","FADD R1, R2, R3","30","1,000","20","10","5"\n'
    '"0x20","@!P0 FADD R1, R2, R3","10","500","10","0","0"\n'
    '"0x30","MUFU.EX2 R4, R4","60","1,000","0","60","0"\n'
    '"Kernel Name","sdpa"\n' + HEADER +
    '"0x10","FADD.FTZ R1, R2, R3","5","2,000","5","0","0"\n'
    '"0x20","MUFU.EX2 R4, R4","15","250","5","10","0"\n')


def main():
    with tempfile.TemporaryDirectory() as work:
        page = os.path.join(work, "source.csv")
        with open(page, "w") as f:
            f.write(PAGE)
        out = subprocess.run([sys.executable, sys.argv[1], page, "--hot", "1000"],
                             capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    expect = [
        "[0] ntc_attention: 0.0 M instructions",
        "[1] sdpa: 0.0 M instructions",
        # FADD: 1000 + 500 (predicated) against 2000 (.FTZ folded); MUFU.EX2 1000 against 250.
        f"{'FADD':34s}{0.0015:10.1f}{0.002:10.1f}",
        f"{'wait':34s}{100 * 30 / 100:10.1f}{100 * 10 / 20:10.1f}",
        f"{'barrier':34s}{100 * 70 / 100:10.1f}{100 * 10 / 20:10.1f}",
        "  0x10       1000      30  FADD R1, R2, R3",
        "  0x30       1000      60  MUFU.EX2 R4, R4",
        "  0x10       2000       5  FADD.FTZ R1, R2, R3",
    ]
    missing = [e for e in expect if e not in lines]
    # The opcode table is ordered by the largest difference between the two kernels: MUFU.EX2
    # (750) before FADD (500).
    table = [l.split()[0] for l in lines if l.startswith(("FADD", "MUFU"))]
    if table != ["MUFU.EX2", "FADD"]:
        missing.append(f"opcode order {table}")
    # Instructions executed fewer times than --hot are not listed; "Not Issued" columns are not
    # reasons of their own.
    if any("0x20       500" in l for l in lines) or any("Not Issued" in l for l in lines):
        missing.append("a line that --hot or the reasons should leave out")
    if missing:
        print(out)
        sys.exit("ncu_mix.py: missing or wrong: " + "; ".join(missing))
    print("ncu_mix.py: ok")


if __name__ == "__main__":
    main()
