"""GPU tests of the operator library (kernels/ops; run on a GPU machine, see gpu-run.sh).

Each module tests/gpu/ops/<family>.py defines `run(t)`; `t` gives the CUDA and CPU builds of
the library (`t.cuda`, `t.cpu`) and `t.check(name, out, ref, atol, rtol)` (one line per check;
infinities and NaNs of the reference must be matched exactly). Operators are checked against PyTorch in float64 and against the CPU
backend, at shapes with tails. Prints `N passed, M failed` last; exit status 1 on a failure.
Usage: python3 check_ops.py <libops_cuda.so> <libops_cpu.so> [family ...]
"""
import importlib
import pathlib
import sys

import torch

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here.parents[1] / "tools" / "python"))
sys.path.insert(0, str(here))
from ntc_dlpack import Library  # noqa: E402


class Tester:
    """What an operator family's run() uses: the two builds and the checks."""

    def __init__(self, cuda_path, cpu_path):
        self.cuda = Library(cuda_path)
        self.cpu = Library(cpu_path)
        self.passed = self.failed = 0

    def check(self, name, out, ref, atol, rtol):
        """Passes when shapes agree, out equals ref wherever ref is infinite, is NaN exactly where
        ref is NaN, and |out - ref| <= atol + rtol |ref| elsewhere."""
        out64, ref64 = out.double().cpu(), ref.double().cpu()
        ok = out64.shape == ref64.shape
        err = float("nan")
        if ok:
            finite = torch.isfinite(ref64)
            nan_ok = torch.isnan(out64) == torch.isnan(ref64)
            inf_ok = torch.isinf(ref64) <= (out64 == ref64)
            diff = (out64 - ref64).abs()
            close = diff.le(atol + rtol * ref64.abs()) | ~finite
            ok = bool((close & nan_ok & inf_ok).all())
            if finite.any():
                err = diff[finite].nan_to_num(float("inf")).max().item()
        print(f"{'ok  ' if ok else 'FAIL'} {name}: max |err| = {err:.3g}", flush=True)
        self.passed, self.failed = self.passed + ok, self.failed + (not ok)


def main():
    t = Tester(sys.argv[1], sys.argv[2])
    torch.manual_seed(20261202)
    families = sys.argv[3:] or sorted(p.stem for p in (here / "ops").glob("*.py"))
    for family in families:
        print(f"== {family}", flush=True)
        try:
            importlib.import_module(f"ops.{family}").run(t)
        except Exception as e:  # a crash in one family is a failure, not the end of the run
            print(f"FAIL {family}: {type(e).__name__}: {e}", flush=True)
            t.failed += 1
    print(f"{t.passed} passed, {t.failed} failed")
    sys.exit(1 if t.failed else 0)


if __name__ == "__main__":
    main()
