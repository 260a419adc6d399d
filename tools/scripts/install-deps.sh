#!/usr/bin/env bash
# Install the Debian 12 packages ntc needs to build and test (idempotent).
set -euo pipefail
# llvm-19-tools: FileCheck (/usr/lib/llvm-19/bin/FileCheck) for tests/filecheck.
# libclang-rt-19-dev: the sanitizer runtimes and libFuzzer (tools/scripts/robustness.sh).
packages=(llvm-19-dev llvm-19-tools libclang-19-dev libclang-cpp19-dev clang-19 libzstd-dev
          libcli11-dev catch2 libdlpack-dev cmake ninja-build g++ python3 libclang-rt-19-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
