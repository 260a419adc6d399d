#!/usr/bin/env bash
# Configure and build ntc, its runtime and its tests into ./build (Release, Ninja).
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j"$(nproc)"
