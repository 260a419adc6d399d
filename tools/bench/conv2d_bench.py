"""Times conv2d of the operator library (kernels/ops/conv2d.cpp: im2col arrangement with a dot)
against torch.nn.functional.conv2d (cuDNN) on the GPU, in one run, interleaved per shape, as
gpu_bench.py times (CUDA graph over rotating buffers, median of replays); every ntc output is
checked against a float64 reference first.
Usage: python3 conv2d_bench.py <libops_cuda.so>
"""
import math
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, __file__.rsplit("/", 1)[0])
sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/tools/python")
from gpu_bench import sets_for, timed  # noqa: E402
from ntc_dlpack import Library  # noqa: E402

lib = Library(sys.argv[1])
torch.manual_seed(5)
print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
print(f"{'conv2d':<44} {'ntc us':>9} {'torch us':>9} {'torch/ntc':>9} {'ntc TFLOP/s':>11}")
SHAPES = (  # n, c, h, w, k, r, s, stride, padding, dilation
    (32, 64, 56, 56, 64, 3, 3, 1, 1, 1),  # a ResNet-50 stage-1 3x3
    (32, 128, 28, 28, 128, 3, 3, 1, 1, 1),
    (32, 256, 14, 14, 256, 3, 3, 2, 1, 1),
    (4, 64, 16, 16, 512, 3, 3, 1, 1, 1),  # NineToothed's test shape
)
for dtype, suffix in ((torch.float16, "f16"), (torch.float32, "f32")):
    for n, c, h, w, k, r, s, stride, padding, dilation in SHAPES:
        p = (h + 2 * padding - dilation * (r - 1) - 1) // stride + 1
        q = (w + 2 * padding - dilation * (s - 1) - 1) // stride + 1
        per_set = (n * c * h * w + k * c * r * s + k + n * k * p * q) * (2 if suffix == "f16" else 4)
        sets = sets_for(per_set)
        xs = [torch.randn(n, c, h, w, device="cuda", dtype=dtype) for _ in range(sets)]
        ws = [torch.randn(k, c, r, s, device="cuda", dtype=dtype) for _ in range(sets)]
        bs = [torch.randn(k, device="cuda", dtype=dtype) for _ in range(sets)]
        outs = [torch.empty(n, k, p, q, device="cuda", dtype=dtype) for _ in range(sets)]
        outs[0].fill_(float("nan"))
        kernel = f"conv2d_{suffix}"
        lib.call(kernel, xs[0], ws[0], bs[0], outs[0], stride, padding, dilation)
        torch.cuda.synchronize()
        ref = F.conv2d(xs[0].double(), ws[0].double(), bs[0].double(), stride, padding, dilation)
        scale = math.sqrt(c * r * s)
        atol, rtol = (2e-3 * scale, 2e-3) if suffix == "f16" else (2e-4 * scale, 1e-4)
        ok = bool(((outs[0].double() - ref).abs() <= atol + rtol * ref.abs()).all())
        ours = timed(lambda i, st: lib.call(kernel, xs[i], ws[i], bs[i], outs[i], stride, padding,
                                            dilation, stream=st), sets)
        theirs = timed(lambda i, st: F.conv2d(xs[i], ws[i], bs[i], stride, padding, dilation), sets)
        flops = 2 * n * k * p * q * c * r * s
        name = f"{suffix} {n}x{c}x{h}x{w} * {k}x{c}x{r}x{s} s{stride} p{padding} d{dilation}"
        print(f"{name:<44} {ours * 1e6:9.1f} {theirs * 1e6:9.1f} {theirs / ours:9.2f} "
              f"{flops / ours / 1e12:11.1f}{'' if ok else '  WRONG'}", flush=True)
