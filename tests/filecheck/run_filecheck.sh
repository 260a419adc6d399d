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
#   ntc --list-configs --target cuda [ARGS] SOURCE | FileCheck --check-prefix=LIST SOURCE
#   ntc --list-configs --target cpu [ARGS] SOURCE | FileCheck --check-prefix=LISTCPU SOURCE
#   With `// TABLE-ENTRY: {...}` lines: a tuning table of those entries (`@HASH@` replaced by the
#   hash that --list-configs prints for the kernel named in the entry), then
#     ntc -o WORKDIR/tab --target cpu --tuning-table TABLE [ARGS] SOURCE, FileCheck --check-prefix=TAB
#     ntc -o WORKDIR/tabcu --target cuda --tuning-table TABLE [ARGS] SOURCE, --check-prefix=TABCU
#     (each if there are such lines; ntc's warnings go to WORKDIR/table-warnings, checked with
#     --check-prefix=TABWARN if there are such lines)
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
for pair in LIST:cuda LISTCPU:cpu; do
  prefix=${pair%%:*} target=${pair##*:}
  if grep -Eq "^// $prefix(-[A-Z]+)?:" "$source"; then
    echo "+ ntc --list-configs --target $target ${args[*]} $source | FileCheck --check-prefix=$prefix"
    "$ntc" --list-configs --target "$target" "${args[@]}" "$source" >"$work/$stem.$prefix"
    "$filecheck" --dump-input=fail --check-prefix="$prefix" --input-file "$work/$stem.$prefix" \
      "$source"
    ran=1
  fi
done
if grep -q '^// TABLE-ENTRY:' "$source"; then
  table="$work/table.json"
  {
    echo '{"format": "ntc-tuning-table", "version": 1, "entries": ['
    first=1
    while IFS= read -r entry; do
      kernel=$(sed -n 's|.*"kernel": *"\([^"]*\)".*|\1|p' <<<"$entry")
      target=$(sed -n 's|.*"target": *"\([^"]*\)".*|\1|p' <<<"$entry")
      hash=$("$ntc" --list-configs --target "$target" --kernel "$kernel" "${args[@]}" "$source" |
        sed -n "s|^kernel $kernel hash \([0-9a-f]*\) .*|\1|p")
      [ $first -eq 1 ] || echo ','
      first=0
      echo "${entry//@HASH@/$hash}"
    done < <(sed -n 's|^// TABLE-ENTRY:||p' "$source")
    echo ']}'
  } >"$table"
  : >"$work/table-warnings"
  for pair in TAB:cpu:cpp TABCU:cuda:cu; do
    IFS=: read -r prefix target ext <<<"$pair"
    if grep -Eq "^// $prefix(-[A-Z]+)?:" "$source"; then
      echo "+ ntc -o $work/$prefix --target $target --tuning-table table.json ${args[*]} $source"
      "$ntc" -o "$work/$prefix" --target "$target" --tuning-table "$table" "${args[@]}" "$source" \
        2>>"$work/table-warnings"
      "$filecheck" --dump-input=fail --check-prefix="$prefix" \
        --input-file "$work/$prefix/$stem.$ext" "$source"
      ran=1
    fi
  done
  if grep -Eq "^// TABWARN(-[A-Z]+)?:" "$source"; then
    "$filecheck" --dump-input=fail --check-prefix=TABWARN --input-file "$work/table-warnings" \
      "$source"
  fi
fi
if [ $ran -eq 0 ]; then
  echo "$source has no CHECK, CPP, HDR, CU, GIR, LIST or TAB lines" >&2
  exit 1
fi
echo "passed"
