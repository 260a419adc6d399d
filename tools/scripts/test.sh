#!/usr/bin/env bash
# README command 2: install the dependencies, build everything and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/scripts/install-deps.sh
tools/scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
