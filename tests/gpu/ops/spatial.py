"""GPU checks of the spatial and attention operators of kernels/ops.

conv2d_{f32,f16} (stride, padding, dilation at launch; no bias = a stride-0 view of one 0),
max_pool2d_{f32,f16} and avg_pool2d_{f32,f16} (window, stride, padding at launch; the output's
size picks ceil or floor mode), rotary_{interleaved,half_split}_{f32,f16} and sdpa_masked_f16.
Every kernel runs on the GPU and on the CPU backend, on inputs with tails in every dimension and
on strided views built on each device from the same contiguous bases (so the GPU sees the
strides too), and is compared with torch.nn.functional in float64 and with the CPU result.
"""
import math

import torch
import torch.nn.functional as F

F32, F16 = torch.float32, torch.float16
SUFFIX = {F32: "f32", F16: "f16"}


def run_views(t, kernel, bases, build, out_index):
    """Runs `kernel` on the GPU and on the CPU backend. `bases` are contiguous CPU tensors;
    `build(bases)` returns the kernel's arguments (views of the bases, and scalars), applied to
    copies of the bases on each device. The output (argument `out_index`) is poisoned with NaN
    first. Returns (GPU output, CPU output, CPU arguments)."""
    outs = []
    for lib, device in ((t.cuda, "cuda"), (t.cpu, "cpu")):
        args = build([b.to(device, copy=True) for b in bases])
        args[out_index].fill_(float("nan"))
        lib.call(kernel, *args)
        if device == "cuda":
            torch.cuda.synchronize()
        outs.append((args[out_index].cpu(), args))
    (gpu_out, _), (cpu_out, cpu_args) = outs
    return gpu_out, cpu_out, cpu_args


def check_both(t, name, gpu, cpu, ref, tol, cpu_tol):
    t.check(name + " vs reference", gpu, ref, *tol)
    t.check(name + " vs cpu backend", gpu, cpu, *cpu_tol)


# --- conv2d -------------------------------------------------------------------------------------

def conv_extent(size, kernel, stride, padding, dilation):
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def check_conv2d(t, dtype, n, c, h, w, k, r, s, stride, padding, dilation, channels_last=False):
    p = conv_extent(h, r, stride, padding, dilation)
    q = conv_extent(w, s, stride, padding, dilation)
    # randn inputs: |out| grows as √(C·R·S); float32 is IEEE with float32 accumulation, float16
    # products are exact in float32 and rounded once to float16.
    scale = math.sqrt(c * r * s)
    tol = (2e-5 * scale, 1e-5) if dtype == F32 else (2e-3 * scale, 2e-3)
    cpu_tol = tol
    if channels_last:  # NHWC buffers seen as NCHW, every other bias element
        bases = [torch.randn(n, h, w, c, dtype=dtype), torch.randn(k, r, s, c, dtype=dtype),
                 torch.randn(2 * k, dtype=dtype), torch.empty(n, p, q, k, dtype=dtype)]

        def views(b):
            return [b[0].permute(0, 3, 1, 2), b[1].permute(0, 3, 1, 2), b[2][::2],
                    b[3].permute(0, 3, 1, 2)]
    else:
        bases = [torch.randn(n, c, h, w, dtype=dtype), torch.randn(k, c, r, s, dtype=dtype),
                 torch.randn(k, dtype=dtype), torch.empty(n, k, p, q, dtype=dtype)]

        def views(b):
            return list(b)

    shape = f"{n}x{c}x{h}x{w} * {k}x{c}x{r}x{s} stride={stride} padding={padding} " \
            f"dilation={dilation}{' channels-last' if channels_last else ''}"
    kernel = f"conv2d_{SUFFIX[dtype]}"
    g, cpu, args = run_views(t, kernel, bases,
                             lambda b: views(b) + [stride, padding, dilation], 3)
    x, weight, bias = (a.double() for a in args[:3])
    ref = F.conv2d(x, weight, bias, stride=stride, padding=padding, dilation=dilation)
    check_both(t, f"{kernel} {shape}", g, cpu, ref, tol, cpu_tol)

    # Without a bias: a (K,) view of a single zero (stride 0).
    def no_bias_views(b):
        v = views(b[:4])
        return v[:2] + [b[4].expand(k), v[3], stride, padding, dilation]

    g, cpu, args = run_views(t, kernel, bases + [torch.zeros(1, dtype=dtype)], no_bias_views, 3)
    ref = F.conv2d(args[0].double(), args[1].double(), None, stride=stride, padding=padding,
                   dilation=dilation)
    check_both(t, f"{kernel} {shape} without bias", g, cpu, ref, tol, cpu_tol)


def run_conv2d(t):
    for dtype in (F32, F16):
        for stride in (1, 2):
            for padding in (0, 1):
                for dilation in (1, 2):
                    check_conv2d(t, dtype, 2, 5, 11, 9, 37, 3, 2, stride, padding, dilation)
        check_conv2d(t, dtype, 2, 6, 10, 12, 35, 3, 3, 2, 1, 1, channels_last=True)
        check_conv2d(t, dtype, 3, 19, 13, 10, 70, 3, 3, 1, 1, 2)
        check_conv2d(t, dtype, 4, 64, 16, 16, 512, 3, 3, 1, 1, 1)  # NineToothed's test shape
        check_conv2d(t, dtype, 2, 40, 7, 6, 33, 1, 1, 2, 0, 1)


# --- max_pool2d, avg_pool2d ---------------------------------------------------------------------

def check_pool(t, dtype, n, c, h, w, window, stride, padding, strided=False):
    if strided:  # channels last, every other column
        bases = [torch.randn(n, h, 2 * w, c, dtype=dtype)]

        def input_view(b):
            return b.permute(0, 3, 1, 2)[:, :, :, ::2]
    else:
        bases = [torch.randn(n, c, h, w, dtype=dtype)]

        def input_view(b):
            return b

    x = input_view(bases[0]).double()
    for pool in ("max", "avg"):
        for ceil_mode in (True, False):
            if pool == "max":
                ref = F.max_pool2d(x, window, stride, padding, ceil_mode=ceil_mode)
                tol = cpu_tol = (0, 0)
            else:
                ref = F.avg_pool2d(x, window, stride, padding, ceil_mode=ceil_mode,
                                   count_include_pad=True)
                tol = (1e-6, 1e-6) if dtype == F32 else (1e-4, 1e-3)
                cpu_tol = (1e-6, 1e-6) if dtype == F32 else (1e-4, 2e-3)
            out_shape = tuple(ref.shape)
            kernel = f"{pool}_pool2d_{SUFFIX[dtype]}"
            g, cpu, _ = run_views(
                t, kernel, bases + [torch.empty(out_shape, dtype=dtype)],
                lambda b: [input_view(b[0]), b[1], window, stride, padding], 1)
            name = (f"{kernel} {n}x{c}x{h}x{w}{' strided' if strided else ''} window={window} "
                    f"stride={stride} padding={padding} ceil_mode={ceil_mode}")
            check_both(t, name, g, cpu, ref, tol, cpu_tol)


def run_pool(t):
    for dtype in (F32, F16):
        for window in (2, 3):
            for stride in (1, 2):
                for padding in (0, 1):
                    check_pool(t, dtype, 2, 3, 11, 8, window, stride, padding)
        check_pool(t, dtype, 2, 2, 5, 5, 2, 2, 1)  # PyTorch's ceil rule drops the 4th window
        check_pool(t, dtype, 3, 7, 10, 9, 3, 2, 1, strided=True)
        check_pool(t, dtype, 32, 3, 64, 64, 3, 2, 1)  # 32·3·32·32 outputs


# --- rotary embedding ---------------------------------------------------------------------------

def rotary_tables(seq_len, emb_dim, dtype, extra_columns=0):
    """cos and sin (S, D/2) of the angles s·10000^(−2i/D), in (S, D/2 + extra) buffers."""
    theta = 10000.0 ** (-2 * torch.arange(emb_dim // 2, dtype=torch.float64) / emb_dim)
    angles = torch.arange(seq_len, dtype=torch.float64)[:, None] * theta
    pad = torch.zeros(seq_len, extra_columns, dtype=torch.float64)
    return (torch.cat((torch.cos(angles), pad), 1).to(dtype),
            torch.cat((torch.sin(angles), pad), 1).to(dtype))


def rotary_reference(x, cos, sin, interleaved):
    """ntops' test reference, in float64: tables broadcast as [None, :, None, :]."""
    cos, sin = cos[None, :, None, :], sin[None, :, None, :]
    if interleaved:
        x0, x1 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), -1).flatten(-2)
    half = x.shape[-1] // 2
    x0, x1 = x[..., :half], x[..., half:]
    return torch.cat((x0 * cos - x1 * sin, x0 * sin + x1 * cos), -1)


def check_rotary(t, dtype, b, s, h, d, strided=False):
    extra = 3 if strided else 0
    cos, sin = rotary_tables(s, d, dtype, extra)
    if strided:  # (B, H, S, D) buffers seen as (B, S, H, D), column-sliced tables
        bases = [torch.randn(b, h, s, d, dtype=dtype), cos, sin,
                 torch.empty(b, h, s, d, dtype=dtype)]

        def views(bs):
            return [bs[0].transpose(1, 2), bs[1][:, :d // 2], bs[2][:, :d // 2],
                    bs[3].transpose(1, 2)]
    else:
        bases = [torch.randn(b, s, h, d, dtype=dtype), cos, sin,
                 torch.empty(b, s, h, d, dtype=dtype)]

        def views(bs):
            return list(bs)

    tol = (1e-5, 1e-5) if dtype == F32 else (2e-3, 2e-3)
    for interleaved in (True, False):
        kernel = f"rotary_{'interleaved' if interleaved else 'half_split'}_{SUFFIX[dtype]}"
        g, cpu, args = run_views(t, kernel, bases, views, 3)
        ref = rotary_reference(args[0].double(), args[1].double(), args[2].double(), interleaved)
        name = f"{kernel} {b}x{s}x{h}x{d}{' strided' if strided else ''}"
        check_both(t, name, g, cpu, ref, tol, tol)


def run_rotary(t):
    for dtype in (F32, F16):
        for b, s, h, d in ((2, 5, 3, 64), (1, 7, 2, 6), (2, 3, 4, 100), (1, 2, 2, 256),
                           (4, 128, 8, 64), (1, 1, 1, 32)):
            check_rotary(t, dtype, b, s, h, d)
        check_rotary(t, dtype, 2, 6, 3, 48, strided=True)


# --- scaled_dot_product_attention ---------------------------------------------------------------

def check_sdpa(t, b, h, sq, skv, d, scale, bshd=False, shared_mask=False, masked_share=0.1,
               fully_masked=False):
    """sdpa_masked_f16 against F.scaled_dot_product_attention(attn_mask=, scale=) in float64. A
    fully masked query row (every mask entry −∞) must give 0 (the kernel's definition, and
    PyTorch's math backend since 2.5)."""
    f16 = torch.float16
    if bshd:  # (B, S, H, D) buffers seen as (B, H, S, D)
        bases = [torch.randn(b, sq, h, d, dtype=f16), torch.randn(b, skv, h, d, dtype=f16),
                 torch.randn(b, skv, h, d, dtype=f16)]

        def qkv(bs):
            return [x.transpose(1, 2) for x in bs[:3]]
    else:
        bases = [torch.randn(b, h, sq, d, dtype=f16), torch.randn(b, h, skv, d, dtype=f16),
                 torch.randn(b, h, skv, d, dtype=f16)]

        def qkv(bs):
            return list(bs[:3])

    mask = torch.rand(b, 1 if shared_mask else h, sq, skv, dtype=torch.float64) * 4 - 2
    mask[torch.rand(mask.shape) < masked_share] = float("-inf")
    if fully_masked:
        mask[:, :, 0, :] = float("-inf")
    bases += [mask.to(f16), torch.empty(bases[0].shape, dtype=f16)]

    def views(bs):
        m = bs[3].expand(b, h, sq, skv)  # stride 0 over heads when shared
        o = bs[4].transpose(1, 2) if bshd else bs[4]
        return qkv(bs) + [m, float(scale), o]

    g, cpu, args = run_views(t, "sdpa_masked_f16", bases, views, 5)
    q, k, v, m = (a.double() for a in args[:4])
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=m, scale=scale)
    if fully_masked:
        ref[:, :, 0, :] = 0
    ref = torch.nan_to_num(ref, nan=0.0)  # rows masked at random everywhere (PyTorch < 2.5)
    name = (f"sdpa_masked_f16 {b}x{h}x{sq}x{skv}x{d} scale={scale:.3g}"
            f"{' bshd' if bshd else ''}{' shared mask' if shared_mask else ''}"
            f"{' fully masked row' if fully_masked else ''}")
    check_both(t, name, g, cpu, ref, (5e-3, 5e-3), (5e-3, 5e-3))


def run_sdpa(t):
    check_sdpa(t, 2, 3, 100, 77, 64, 1 / math.sqrt(64))
    check_sdpa(t, 1, 2, 65, 130, 48, 0.3, masked_share=0.0)
    check_sdpa(t, 1, 1, 1, 1, 16, 1.0, masked_share=0.0)
    check_sdpa(t, 2, 4, 1024, 1024, 64, 1 / math.sqrt(64), masked_share=0.3)
    check_sdpa(t, 1, 2, 1000, 1000, 128, 1 / math.sqrt(128))
    check_sdpa(t, 2, 3, 70, 90, 32, 1 / math.sqrt(32), bshd=True, shared_mask=True,
               masked_share=0.2)
    check_sdpa(t, 1, 2, 40, 33, 64, 0.125, masked_share=0.0, fully_masked=True)


def run(t):
    # conv2d is in the CPU library only for now (kernels/ops/CMakeLists.txt says why).
    if hasattr(t.cuda.lib, "conv2d_f32"):
        run_conv2d(t)
    else:
        print("skip conv2d: not in the CUDA library", flush=True)
    run_pool(t)
    run_rotary(t)
    run_sdpa(t)
