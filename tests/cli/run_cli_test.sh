#!/usr/bin/env bash
# run_cli_test.sh - run one command and compare its exit status and stdout with expectations.
#
#   run_cli_test.sh [--status N] [--stdout LINE]... [--stdout-file FILE]
#                   [--stderr-contains TEXT]... -- COMMAND [ARGS...]
#
# The expected stdout is the --stdout lines (each followed by a newline), or the contents of
# --stdout-file, or nothing at all when neither is given; it must match byte for byte. The exit
# status must be N (default 0). Each --stderr-contains TEXT must occur in stderr (a fixed string,
# not a pattern). Exits 0 when everything matches, 1 (with a report on stderr) otherwise.
set -u

status=0
expected_lines=()
have_lines=0
expected_file=""
stderr_texts=()
while [ $# -gt 0 ]; do
  case "$1" in
  --status) status=$2; shift 2 ;;
  --stdout) expected_lines+=("$2"); have_lines=1; shift 2 ;;
  --stdout-file) expected_file=$2; shift 2 ;;
  --stderr-contains) stderr_texts+=("$2"); shift 2 ;;
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
trap 'rm -rf "$work"' EXIT

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
  if ! grep -qF -- "$text" "$work/stderr"; then
    echo "FAIL: stderr does not contain: $text" >&2
    failed=1
  fi
done
if [ $failed -ne 0 ]; then
  printf 'command:' >&2
  printf ' %q' "$@" >&2
  printf '\n(in %s)\nstderr:\n' "$PWD" >&2
  cat "$work/stderr" >&2
  exit 1
fi
exit 0
