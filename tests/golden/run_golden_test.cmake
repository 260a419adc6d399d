# cmake -DNTC=<ntc> -DSOURCE_DIR=<root> -DKERNEL=<kernel.cpp, relative to root> -DFILE=<output file>
#       -DGOLDEN=<file.golden> -DOUT_DIR=<scratch dir> -P run_golden_test.cmake
#
# Regenerates FILE with `ntc -o OUT_DIR --target cpu KERNEL` (in SOURCE_DIR) and compares it with
# GOLDEN byte for byte, printing a unified diff on a difference. With the environment variable
# NTC_UPDATE_GOLDEN=1 it copies the new output over GOLDEN instead (and passes).
cmake_minimum_required(VERSION 3.25)
foreach(var NTC SOURCE_DIR KERNEL FILE GOLDEN OUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_golden_test.cmake: -D${var}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
execute_process(
  COMMAND "${NTC}" -o "${OUT_DIR}" --target cpu "${KERNEL}"
  WORKING_DIRECTORY "${SOURCE_DIR}"
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ntc -o ${OUT_DIR} --target cpu ${KERNEL} failed (${status}):\n${out}${err}")
endif()
set(generated "${OUT_DIR}/${FILE}")
if(NOT EXISTS "${generated}")
  message(FATAL_ERROR "ntc did not write ${FILE} (in ${OUT_DIR})")
endif()

if("$ENV{NTC_UPDATE_GOLDEN}" STREQUAL "1")
  file(COPY_FILE "${generated}" "${GOLDEN}")
  message(STATUS "updated ${GOLDEN}")
  return()
endif()

if(NOT EXISTS "${GOLDEN}")
  message(FATAL_ERROR "no golden file ${GOLDEN}; create it with NTC_UPDATE_GOLDEN=1 "
                      "ctest --test-dir <build> -L golden")
endif()
file(READ "${generated}" new_text HEX)
file(READ "${GOLDEN}" golden_text HEX)
if(new_text STREQUAL golden_text)
  message(STATUS "${FILE} matches ${GOLDEN}")
  return()
endif()

message("${FILE} generated from ${KERNEL} differs from ${GOLDEN}:")
find_program(DIFF diff)
if(DIFF)
  # Straight to the test's output (CMake's message() would reflow the diff).
  execute_process(COMMAND "${DIFF}" -u "${GOLDEN}" "${generated}")
else()
  message("(no diff program found; compare ${GOLDEN} with ${generated})")
endif()
message(FATAL_ERROR
  "${FILE} differs from its golden file. If the change is intended, update the goldens with "
  "`NTC_UPDATE_GOLDEN=1 ctest --test-dir <build> -L golden` and review `git diff tests/golden`.")
