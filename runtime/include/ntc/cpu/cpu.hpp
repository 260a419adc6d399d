// The whole CPU tile library: storage types, tiles and their operations, masked loads and
// stores, and counter-based random numbers. Generated cpu-backend code includes this header.
#pragma once

#include <ntc/cpu/half.hpp>
#include <ntc/cpu/memory.hpp>
#include <ntc/cpu/random.hpp>
#include <ntc/cpu/tile.hpp>
#include <ntc/cpu/types.hpp>
