#!/usr/bin/env bash
# run_filecheck.sh NTC FILECHECK SOURCE WORKDIR: the driver of the FileCheck tests (one CTest
# test per tests/filecheck/*.cpp).
#
#   ntc --emit ir [ARGS] SOURCE | FileCheck SOURCE                         (the CHECK lines)
#   ntc -o WORKDIR/gen --target cpu [ARGS] SOURCE, then
#     FileCheck --check-prefix=CPP SOURCE < WORKDIR/gen/<stem>.cpp          (if there are CPP lines)
#     FileCheck --check-prefix=HDR SOURCE < WORKDIR/gen/<stem>.h            (if there are HDR lines)
#   ntc -o WORKDIR/cu --target cuda [ARGS] SOURCE, then
#     FileCheck --check-prefix=CU SOURCE < WORKDIR/cu/<stem>.cu             (if there are CU lines)
#   ntc -o WORKDIR/gir --target cuda --print-ir-after-all [ARGS] SOURCE, then
#     FileCheck --check-prefix=GIR SOURCE < the printed IR                  (if there are GIR lines:
#                                                    the GPU tile IR after layout assignment)
#
# ARGS: the words after `// NTC-ARGS:` lines of SOURCE (e.g. `// NTC-ARGS: --kernel foo`).
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: $0 NTC FILECHECK SOURCE WORKDIR" >&2
  exit 2
fi
ntc=$1 filecheck=$2 source=$3 work=$4
stem=$(basename "$source" .cpp)
args=()
while IFS= read -r line; do
  # shellcheck disable=SC2206 # word splitting of the directive is intended
  args+=($line)
done < <(sed -n 's|^// NTC-ARGS:||p' "$source")

rm -rf "$work"
mkdir -p "$work"
ran=0
if grep -Eq '^// CHECK(-[A-Z]+)?:' "$source"; then
  echo "+ ntc --emit ir ${args[*]} $source | FileCheck $source"
  "$ntc" --emit ir "${args[@]}" "$source" >"$work/$stem.ir"
  "$filecheck" --dump-input=fail --input-file "$work/$stem.ir" "$source"
  ran=1
fi
if grep -Eq '^// (CPP|HDR)(-[A-Z]+)?:' "$source"; then
  echo "+ ntc -o $work/gen --target cpu ${args[*]} $source"
  "$ntc" -o "$work/gen" --target cpu "${args[@]}" "$source"
  for pair in CPP:cpp HDR:h; do
    prefix=${pair%%:*} ext=${pair##*:}
    if grep -Eq "^// $prefix(-[A-Z]+)?:" "$source"; then
      echo "+ FileCheck --check-prefix=$prefix $source < $stem.$ext"
      "$filecheck" --dump-input=fail --check-prefix="$prefix" --input-file "$work/gen/$stem.$ext" \
        "$source"
    fi
  done
  ran=1
fi
if grep -Eq '^// CU(-[A-Z]+)?:' "$source"; then
  echo "+ ntc -o $work/cu --target cuda ${args[*]} $source"
  "$ntc" -o "$work/cu" --target cuda "${args[@]}" "$source"
  echo "+ FileCheck --check-prefix=CU $source < $stem.cu"
  "$filecheck" --dump-input=fail --check-prefix=CU --input-file "$work/cu/$stem.cu" "$source"
  ran=1
fi
if grep -Eq '^// GIR(-[A-Z]+)?:' "$source"; then
  echo "+ ntc -o $work/gir --target cuda --print-ir-after-all ${args[*]} $source"
  "$ntc" -o "$work/gir" --target cuda --print-ir-after-all "${args[@]}" "$source" \
    >"$work/$stem.gir" 2>&1
  echo "+ FileCheck --check-prefix=GIR $source < $stem.gir"
  "$filecheck" --dump-input=fail --check-prefix=GIR --input-file "$work/$stem.gir" "$source"
  ran=1
fi
if [ $ran -eq 0 ]; then
  echo "$source has no CHECK, CPP, HDR, CU or GIR lines" >&2
  exit 1
fi
echo "passed"
