"""CUDA-graph capture shared by the benchmark scripts (gpu_bench.py, gemm_clocks.py)."""
import torch


def captured(fn_for_set, nsets, reps, stream):
    """A CUDA graph of reps calls of fn_for_set(i % nsets) on `stream`, after 3 warm-up calls."""
    with torch.cuda.stream(stream):
        for i in range(3):
            fn_for_set(i % nsets, stream.cuda_stream)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        for i in range(reps):
            fn_for_set(i % nsets, stream.cuda_stream)
    return graph
