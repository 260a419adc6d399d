"""Call ntc-generated kernels from Python: PyTorch tensors become DLPack DLTensors.

A generated library exports one C function per kernel,
`ntc_status_t name(const DLTensor *..., <scalars>, ntc_stream_t ntc_stream)`, and
`ntc_last_error()`. This module describes DLTensor with ctypes, builds one from any
torch.Tensor (CPU or CUDA, any strides), and calls a kernel, raising on a failed status.
"""
import ctypes

import torch


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


_CODES = {
    torch.float16: (2, 16), torch.bfloat16: (4, 16), torch.float32: (2, 32),
    torch.float64: (2, 64), torch.int8: (0, 8), torch.int16: (0, 16), torch.int32: (0, 32),
    torch.int64: (0, 64), torch.uint8: (1, 8), torch.bool: (6, 8),
}


def dltensor(t: torch.Tensor):
    """A DLTensor viewing `t` (kept alive by the returned tuple)."""
    shape = (ctypes.c_int64 * max(t.dim(), 1))(*t.shape)
    strides = (ctypes.c_int64 * max(t.dim(), 1))(*t.stride())
    code, bits = _CODES[t.dtype]
    device = DLDevice(2 if t.is_cuda else 1, t.device.index or 0)
    dl = DLTensor(t.data_ptr(), device, t.dim(), DLDataType(code, bits, 1), shape, strides, 0)
    return dl, shape, strides, t


class ParamInfo(ctypes.Structure):
    """ntc_param_info_t."""
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("flags", ctypes.c_uint32)]


_ConfigFor = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
                              ctypes.POINTER(ctypes.c_char_p))


class KernelInfo(ctypes.Structure):
    """ntc_kernel_info_t."""
    _fields_ = [("name", ctypes.c_char_p), ("num_params", ctypes.c_int32),
                ("params", ctypes.POINTER(ParamInfo)), ("target", ctypes.c_char_p),
                ("call", ctypes.c_void_p), ("config_for", _ConfigFor),
                ("num_configs", ctypes.c_int32), ("configs", ctypes.POINTER(ctypes.c_char_p))]


class Library:
    """A generated kernel library loaded with ctypes (symbols stay local to it)."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
        self.lib.ntc_last_error.restype = ctypes.c_char_p

    def config_for(self, name, *tensors):
        """The id of the configuration that `name` would run for these tensor arguments
        (ntc_<name>_info()->config_for; tensors only)."""
        info_fn = getattr(self.lib, f"ntc_{name}_info")
        info_fn.restype = ctypes.POINTER(KernelInfo)
        views = [dltensor(t) for t in tensors]
        argv = (ctypes.c_void_p * len(views))(*[ctypes.addressof(v[0]) for v in views])
        chosen = ctypes.c_char_p()
        if info_fn().contents.config_for(argv, ctypes.byref(chosen)) != 0:
            raise RuntimeError(self.lib.ntc_last_error().decode())
        return chosen.value.decode()

    def call(self, name, *args, stream=None):
        keep, cargs = [], []
        for a in args:
            if isinstance(a, torch.Tensor):
                d = dltensor(a)
                keep.append(d)
                cargs.append(ctypes.byref(d[0]))
            elif isinstance(a, float):
                cargs.append(ctypes.c_float(a))
            elif isinstance(a, int):
                cargs.append(ctypes.c_int64(a))
            else:
                cargs.append(a)
        cargs.append(ctypes.c_void_p(stream))
        fn = getattr(self.lib, name)
        fn.restype = ctypes.c_int
        status = fn(*cargs)
        if status != 0:
            raise RuntimeError(f"{name}: status {status}: {self.lib.ntc_last_error().decode()}")
