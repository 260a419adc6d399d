#!/usr/bin/env bash
# Front-end benchmark: whole-process wall time of `ntc --dump-layout` per kernel source,
# median of N runs (default 21) after one warm-up run. Usage: tools/bench/frontend.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-21}
ntc=build/tools/ntc
printf '%-28s %10s %10s %10s\n' source median_s min_s max_s
for src in kernels/*.cpp; do
  "$ntc" --dump-layout "$src" >/dev/null
  times=()
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$ntc" --dump-layout "$src" >/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  n=${#sorted[@]}
  fmt() { awk -v us="$1" 'BEGIN { printf "%.3f", us / 1e6 }'; }
  printf '%-28s %10s %10s %10s\n' "$src" "$(fmt "${sorted[$((n / 2))]}")" \
    "$(fmt "${sorted[0]}")" "$(fmt "${sorted[$((n - 1))]}")"
done
