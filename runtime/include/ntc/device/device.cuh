// The whole device tile library (namespace ntc::dev): element types and conversions, tiles and
// their elementwise and shape operations, reductions, dot and the GEMM main loop, masked loads and
// stores, and counter-based random numbers. Generated cuda-backend code includes this header.
#pragma once

#include <ntc/device/dot.cuh>
#include <ntc/device/gemm.cuh>
#include <ntc/device/layouts.cuh>
#include <ntc/device/memory.cuh>
#include <ntc/device/persistent.cuh>
#include <ntc/device/random.cuh>
#include <ntc/device/reduce.cuh>
#include <ntc/device/tile.cuh>
#include <ntc/device/tma.cuh>
#include <ntc/device/types.cuh>
