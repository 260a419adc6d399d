#!/usr/bin/env bash
# inferred_matches_named.sh NTC SOURCE...: for each kernel source written with named axes,
# replaces every `.axes("m", "k", ...)` by `.axes(nt::inferred)` and requires `ntc --dump-layout`
# to print the same arranged tensors (the extra `inferred axes:` lines aside): the names the
# compiler derives from the application arrange the tensors as the user's names do.
set -euo pipefail
ntc=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for source in "$@"; do
  inferred="$work/$(basename "$source")"
  sed -E 's/\.axes\(("[a-z_]+"(, )?)+\)/.axes(nt::inferred)/g' "$root/$source" >"$inferred"
  if ! grep -q 'nt::inferred' "$inferred"; then
    echo "FAIL $source: no named axes to replace"
    status=1
    continue
  fi
  "$ntc" --dump-layout "$root/$source" -- -I"$root/kernels" >"$work/named.txt"
  "$ntc" --dump-layout "$inferred" -- -I"$root/kernels" | grep -v 'inferred axes:' >"$work/inferred.txt"
  if diff -u "$work/named.txt" "$work/inferred.txt"; then
    echo "ok   $source"
  else
    echo "FAIL $source: the inferred arrangement differs from the named one"
    status=1
  fi
done
exit $status
