"""GPU checks of the jagged-tensor operators of kernels/ops (jagged.cpp).

to_padded_{f32,f16}, jagged_sum_{f32,f16} and jagged_broadcast_{f32,f16} on PyTorch nested
tensors with the jagged layout (their values() and offsets() are what the kernels take), with
sequences of length 0, 1, shorter and longer than a block and features with tails; compared with
to_padded_tensor's result, sums of each sequence in float64, and with the CPU backend.
NineToothed's test_jagged shapes: batches of 2, 3, 7 and 16 with random lengths up to 1024.
"""
import torch

F32, F16 = torch.float32, torch.float16
SUFFIX = {F32: "f32", F16: "f16"}


def sequences(lengths, features, dtype, use_nested):
    """(values, offsets, parts) of random sequences of the given lengths (CPU): from a PyTorch
    nested tensor with the jagged layout when `use_nested`, else concatenated by hand (the
    layout is the same; by hand also allows empty sequences)."""
    parts = [torch.randn(n, features, dtype=dtype) for n in lengths]
    if use_nested:
        x = torch.nested.nested_tensor(parts, layout=torch.jagged)
        return x.values(), x.offsets(), list(x.unbind())
    offsets = torch.zeros(len(lengths) + 1, dtype=torch.int64)
    offsets[1:] = torch.tensor(lengths).cumsum(0)
    return torch.cat(parts), offsets, parts


def run_on_both(t, kernel, args_of, out_index):
    """Runs `kernel` with args_of(device) on the GPU and on the CPU; output poisoned first.
    Returns (GPU output, CPU output) on the CPU."""
    outs = []
    for lib, device in ((t.cuda, "cuda"), (t.cpu, "cpu")):
        args = args_of(device)
        args[out_index].fill_(float("nan"))
        lib.call(kernel, *args)
        if device == "cuda":
            torch.cuda.synchronize()
        outs.append(args[out_index].cpu())
    return outs


def check_case(t, dtype, lengths, features, use_nested=True):
    sfx = SUFFIX[dtype]
    values, offsets, parts = sequences(lengths, features, dtype, use_nested)
    batch, longest = len(lengths), max(lengths)
    name = f"{sfx} lengths={lengths if len(lengths) <= 8 else str(len(lengths)) + ' seqs'} f={features}"
    tol = (0, 0)

    # to_padded (zeros after each sequence).
    padded = torch.zeros(batch, longest, features, dtype=dtype)
    for b, p in enumerate(parts):
        padded[b, :p.shape[0]] = p
    gpu, cpu = run_on_both(t, f"to_padded_{sfx}", lambda d: [
        values.to(d), offsets.to(d), torch.empty(batch, longest, features, dtype=dtype, device=d)], 2)
    t.check(f"to_padded_{name} vs torch", gpu, padded, *tol)
    t.check(f"to_padded_{name} vs cpu backend", gpu, cpu, *tol)

    # jagged_sum (float32 accumulation).
    sums = torch.stack([p.double().sum(0) for p in parts])
    gpu, cpu = run_on_both(t, f"jagged_sum_{sfx}", lambda d: [
        values.to(d), offsets.to(d), torch.empty(batch, features, dtype=dtype, device=d)], 2)
    scale = max(lengths) ** 0.5
    sum_tol = (1e-5 * scale, 1e-5) if dtype == F32 else (2e-3 * scale, 2e-3)
    t.check(f"jagged_sum_{name} vs float64", gpu, sums, *sum_tol)
    t.check(f"jagged_sum_{name} vs cpu backend", gpu, cpu, *sum_tol)

    # jagged_broadcast: row b of a dense tensor along sequence b.
    dense = torch.randn(batch, features, dtype=dtype)
    expected = torch.cat([dense[b].expand(n, features) for b, n in enumerate(lengths)])
    gpu, cpu = run_on_both(t, f"jagged_broadcast_{sfx}", lambda d: [
        dense.to(d), torch.empty_like(values, device=d), offsets.to(d)], 1)
    t.check(f"jagged_broadcast_{name} vs torch", gpu, expected, *tol)
    t.check(f"jagged_broadcast_{name} vs cpu backend", gpu, cpu, *tol)


def check_bad_offsets(t):
    """Decreasing offsets are a status with a message, not a launch."""
    values = torch.randn(10, 8, device="cuda")
    offsets = torch.tensor([0, 6, 5], device="cuda")
    out = torch.full((2, 6, 8), float("nan"), device="cuda")
    try:
        t.cuda.call("to_padded_f32", values, offsets, out)
        ok = False
    except RuntimeError as e:
        ok = "decreases at entry 2" in str(e) and bool(out.isnan().all())
    print(f"{'ok  ' if ok else 'FAIL'} to_padded_f32 with decreasing offsets is rejected", flush=True)
    t.passed, t.failed = t.passed + ok, t.failed + (not ok)


def run(t):
    generator = torch.Generator().manual_seed(7)
    for dtype in (F32, F16):
        check_case(t, dtype, [3, 1, 17, 40, 16], 70)
        check_case(t, dtype, [0, 65, 2], 64, use_nested=False)
        for batch in (2, 3, 7, 16):  # NineToothed's test_jagged shapes
            lengths = torch.randint(1, 1025, (batch,), generator=generator).tolist()
            check_case(t, dtype, lengths, 33)
    check_bad_offsets(t)
