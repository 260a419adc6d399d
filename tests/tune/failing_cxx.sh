#!/bin/sh
# A C++ compiler for ntc-tune's tests that fails on the configuration in small_gemm/3 (the
# fourth that ntc --list-configs lists, not the default) and compiles everything else with c++.
for arg in "$@"; do
  case "$arg" in
  */small_gemm/3/*.cpp)
    echo "$arg:1:1: error: simulated failure of configuration 3" >&2
    exit 1
    ;;
  esac
done
exec "${NTC_TUNE_TEST_CXX:-c++}" "$@"
