#!/usr/bin/env bash
# run_cli_test.sh - run one command and compare its exit status and stdout with expectations.
#
#   run_cli_test.sh [--status N] [--stdout LINE]... [--stdout-file FILE]
#                   [--stderr-contains TEXT]... [--stderr LINE]...
#                   [--output-file NAME]... [--no-output] -- COMMAND [ARGS...]
#
# The expected stdout is the --stdout lines (each followed by a newline), or the contents of
# --stdout-file, or nothing at all when neither is given; it must match byte for byte. The exit
# status must be N (default 0). Each --stderr-contains TEXT must occur in stderr (a fixed string,
# not a pattern); when --stderr lines are given, stderr must be exactly those lines.
#
# The command runs with an empty scratch folder: `@OUT@` in the arguments and in the expected
# texts stands for it (for -o @OUT@, --depfile @OUT@/k.d). With --output-file NAME... the files
# under it afterwards must be exactly those (relative paths); --no-output: no file at all (what a
# failed run must leave). `@EMPTY@` stands for an empty argument. `@UNREADABLE@` stands for a
# file without read permission; as root every file is readable, so the test is skipped (exit 77).
# Exits 0 when everything matches, 1 (with a report on stderr) otherwise.
set -u

status=0
expected_lines=()
have_lines=0
expected_file=""
stderr_texts=()
stderr_lines=()
have_stderr_lines=0
output_files=()
check_output=0
while [ $# -gt 0 ]; do
  case "$1" in
  --status) status=$2; shift 2 ;;
  --stdout) expected_lines+=("$2"); have_lines=1; shift 2 ;;
  --stdout-file) expected_file=$2; shift 2 ;;
  --stderr-contains) stderr_texts+=("$2"); shift 2 ;;
  --stderr) stderr_lines+=("$2"); have_stderr_lines=1; shift 2 ;;
  --output-file) output_files+=("$2"); check_output=1; shift 2 ;;
  --no-output) check_output=1; shift ;;
  --) shift; break ;;
  *) echo "run_cli_test.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [ $# -eq 0 ]; then
  echo "run_cli_test.sh: no command after --" >&2
  exit 2
fi
if [ -n "$expected_file" ] && [ $have_lines -eq 1 ]; then
  echo "run_cli_test.sh: give --stdout or --stdout-file, not both" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'chmod -R u+rwx "$work"; rm -rf "$work"' EXIT
mkdir "$work/out"

# @OUT@ -> the scratch output folder, @UNREADABLE@ -> a file nobody may read.
subst() { local s=${1//@OUT@/$work/out}; printf '%s' "${s//@UNREADABLE@/$work/unreadable.cpp}"; }
command=()
for arg in "$@"; do
  if [ "$arg" = @EMPTY@ ]; then
    command+=("")
    continue
  fi
  if [[ $arg == *@UNREADABLE@* ]]; then
    if [ "$(id -u)" -eq 0 ]; then
      echo "run_cli_test.sh: skipped: root can read every file" >&2
      exit 77
    fi
    echo 'NT_KERNEL(x, a, b);' >"$work/unreadable.cpp"
    chmod 000 "$work/unreadable.cpp"
  fi
  command+=("$(subst "$arg")")
done
set -- "${command[@]}"

if [ -n "$expected_file" ]; then
  cp "$expected_file" "$work/expected" || exit 2
elif [ $have_lines -eq 1 ]; then
  printf '%s\n' "${expected_lines[@]}" >"$work/expected"
else
  : >"$work/expected"
fi

"$@" >"$work/stdout" 2>"$work/stderr"
rc=$?

failed=0
if [ "$rc" -ne "$status" ]; then
  echo "FAIL: exit status $rc, expected $status" >&2
  failed=1
fi
if ! cmp -s "$work/expected" "$work/stdout"; then
  echo "FAIL: stdout differs from the expected text (--- expected, +++ actual):" >&2
  diff -u --label expected --label actual "$work/expected" "$work/stdout" >&2
  failed=1
fi
for text in ${stderr_texts[@]+"${stderr_texts[@]}"}; do
  text=$(subst "$text")
  if ! grep -qF -- "$text" "$work/stderr"; then
    echo "FAIL: stderr does not contain: $text" >&2
    failed=1
  fi
done
if [ $have_stderr_lines -eq 1 ]; then
  : >"$work/expected_stderr"
  for line in "${stderr_lines[@]}"; do
    printf '%s\n' "$(subst "$line")" >>"$work/expected_stderr"
  done
  if ! cmp -s "$work/expected_stderr" "$work/stderr"; then
    echo "FAIL: stderr differs from the expected text (--- expected, +++ actual):" >&2
    diff -u --label expected --label actual "$work/expected_stderr" "$work/stderr" >&2
    failed=1
  fi
fi
if [ $check_output -eq 1 ]; then
  (cd "$work/out" && find . -type f -printf '%P\n' | LC_ALL=C sort) >"$work/actual_files"
  printf '%s\n' ${output_files[@]+"${output_files[@]}"} | sed '/^$/d' | LC_ALL=C sort \
    >"$work/expected_files"
  if ! cmp -s "$work/expected_files" "$work/actual_files"; then
    echo "FAIL: the output folder holds other files than expected (--- expected, +++ actual):" >&2
    diff -u --label expected --label actual "$work/expected_files" "$work/actual_files" >&2
    failed=1
  fi
fi
if [ $failed -ne 0 ]; then
  printf 'command:' >&2
  printf ' %q' "$@" >&2
  printf '\n(in %s)\nstderr:\n' "$PWD" >&2
  cat "$work/stderr" >&2
  exit 1
fi
exit 0
