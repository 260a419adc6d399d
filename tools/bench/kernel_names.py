"""Prints the names of the GPU kernels that one call of attention_f16 or matmul launches from each
given library (torch.profiler), to show which program the dispatcher chose (e.g. the `_tma`
twin rather than a fallback). Usage: python3 kernel_names.py <label>=<lib.so> [...]
"""
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from ntc_dlpack import Library  # noqa: E402

for label, path in (a.split("=", 1) for a in sys.argv[1:]):
    lib = Library(path)
    calls = []
    try:
        getattr(lib.lib, "attention_f16")
        q, k, v = (torch.randn(1, 2, 256, 64, device="cuda", dtype=torch.float16) for _ in range(3))
        o = torch.empty_like(q)
        calls.append(("attention_f16 1x2x256x64", lambda: lib.call("attention_f16", q, k, v, 0, o)))
    except AttributeError:
        pass
    try:
        getattr(lib.lib, "matmul")
        a = torch.randn(512, 256, device="cuda", dtype=torch.float16)
        b = torch.randn(256, 512, device="cuda", dtype=torch.float16)
        c = torch.empty(512, 512, device="cuda", dtype=torch.float16)
        calls.append(("matmul 512x512x256", lambda: lib.call("matmul", a, b, c)))
    except AttributeError:
        pass
    for what, call in calls:
        call()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            call()
            torch.cuda.synchronize()
        names = sorted({e.name for e in prof.events() if e.device_type.name == "CUDA"})
        print(f"{label}: {what}: {', '.join(names)}")
