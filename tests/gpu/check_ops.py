"""GPU tests of the operator library (kernels/ops; run on a GPU machine, see gpu-run.sh).

Each module tests/gpu/ops/<family>.py defines `run(t)`; `t` gives the CUDA and CPU builds of
the library (`t.cuda`, `t.cpu`), `t.both(kernel, make_args, out_index)` (run a kernel on the
GPU and on the CPU backend, outputs poisoned first) and `t.check(name, out, ref, atol, rtol)`
(one line per check). Operators are checked against PyTorch in float64 and against the CPU
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
        """Passes when out is finite where ref is, and |out - ref| <= atol + rtol |ref|."""
        out64, ref64 = out.double().cpu(), ref.double().cpu()
        same_inf = torch.isinf(ref64) & (out64 == ref64)
        close = (out64 - ref64).abs().le(atol + rtol * ref64.abs()) | same_inf
        ok = out64.shape == ref64.shape and bool(close.all())
        err = (out64 - ref64)[~same_inf].abs().max().item() if out64.numel() and ok else float("nan")
        if out64.shape == ref64.shape and out64.numel() and not ok:
            err = (out64 - ref64)[~same_inf].abs().nan_to_num(float("inf")).max().item()
        print(f"{'ok  ' if ok else 'FAIL'} {name}: max |err| = {err:.3g}", flush=True)
        self.passed, self.failed = self.passed + ok, self.failed + (not ok)

    def both(self, kernel, make_args, out_index):
        """Runs `kernel` on the GPU and on the CPU backend; returns (gpu out, cpu out, args)."""
        args = make_args()
        gpu_args = [a.cuda() if isinstance(a, torch.Tensor) else a for a in args]
        outs = out_index if isinstance(out_index, (list, tuple)) else [out_index]
        for i in outs:
            o = gpu_args[i]
            o.fill_(float("nan") if o.is_floating_point() else -12345)
        self.cuda.call(kernel, *gpu_args)
        torch.cuda.synchronize()
        cpu_args = list(args)
        self.cpu.call(kernel, *cpu_args)
        if isinstance(out_index, (list, tuple)):
            return [gpu_args[i].cpu() for i in outs], [cpu_args[i] for i in outs], args
        return gpu_args[out_index].cpu(), cpu_args[out_index], args


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
