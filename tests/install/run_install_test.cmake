# The install test: `cmake --install` the ntc build tree into a fresh prefix, then configure,
# build and run the consumer project (consumer/) against it with find_package(ntc), as a user
# of an installed ntc would. Run by CTest as
#
#   cmake -DNTC_BUILD_DIR=<ntc build> -DWORK_DIR=<scratch> -DCONSUMER_DIR=<consumer source>
#         -DNTC_SOURCE_DIR=<ntc source> -DGENERATOR=<generator> -DCXX_COMPILER=<c++>
#         [-DCONFIG=<config>] -P run_install_test.cmake
#
# It fails unless the program prints `consumer: ok`, and when the consumer's build reads any
# header from ntc's source tree (everything must come from the prefix).

foreach(var NTC_BUILD_DIR WORK_DIR CONSUMER_DIR NTC_SOURCE_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_install_test.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${prefix}" "${build}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: ${what} failed (${rc}):\n${ARGN}\n${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

run("install" "${CMAKE_COMMAND}" --install "${NTC_BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")
foreach(file bin/ntc include/ntc/dsl.hpp include/ntc/runtime.h)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "install test: ${prefix}/${file} was not installed")
  endif()
endforeach()

# The consumer's tuning table: two shape buckets of tuned_scale with two configurations, under
# the hash the installed ntc gives the kernel (as ntc-tune would record it).
run("list tuned_scale's configurations" "${prefix}/bin/ntc" --list-configs --target cpu
    "${CONSUMER_DIR}/tuned_scale.cpp")
if(NOT run_output MATCHES "kernel tuned_scale hash ([0-9a-f]+) ")
  message(FATAL_ERROR "install test: ntc --list-configs printed no hash:\n${run_output}")
endif()
set(hash "${CMAKE_MATCH_1}")
set(table "${WORK_DIR}/tuning.json")
set(entry [=[{"kernel": "tuned_scale", "hash": "@hash@", "target": "cpu", "arch": "cpu",
   "dtypes": {"input": "float32", "output": "float32"}, "alignment": "aligned16",
   "bucket": {"input": [@size@], "output": [@size@]}, "config": "BLOCK_SIZE=@block@"}]=])
set(entries "")
foreach(pair "1024;128" "1048576;1024")
  list(GET pair 0 size)
  list(GET pair 1 block)
  string(CONFIGURE "${entry}" one @ONLY)
  list(APPEND entries "${one}")
endforeach()
list(JOIN entries ",\n  " entries)
file(WRITE "${table}" "{\"format\": \"ntc-tuning-table\", \"version\": 1, \"entries\": [\n  ${entries}\n]}\n")

# CMAKE_PREFIX_PATH is how a user points find_package at a prefix. ntc_DIR is cleared so that
# nothing leaks in from the environment of the ntc build.
run("configure the consumer" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${build}"
    -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_BUILD_TYPE=${CONFIG}"
    "-DCMAKE_PREFIX_PATH=${prefix}" -Dntc_DIR=ntc_DIR-NOTFOUND -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
    "-DNTC_TEST_TUNING_TABLE=${table}")
run("build the consumer" "${CMAKE_COMMAND}" --build "${build}" --config "${CONFIG}")

# Everything the consumer read (compile flags, kernel depfile) comes from the prefix.
file(GLOB_RECURSE depfiles "${build}/*.d")
set(seen "")
foreach(file "${build}/compile_commands.json" ${depfiles})
  if(EXISTS "${file}")
    file(READ "${file}" text)
    string(APPEND seen "${text}")
  endif()
endforeach()
string(FIND "${seen}" "${NTC_SOURCE_DIR}/runtime/include" leak)
if(NOT leak EQUAL -1)
  message(FATAL_ERROR "install test: the consumer's build used ${NTC_SOURCE_DIR}/runtime/include "
                      "instead of the installed headers")
endif()

set(exe "${build}/consumer")
if(NOT EXISTS "${exe}")
  set(exe "${build}/${CONFIG}/consumer")
endif()
run("run the consumer" "${exe}")
message("${run_output}")
if(NOT run_output MATCHES "consumer: ok")
  message(FATAL_ERROR "install test: the consumer did not print 'consumer: ok'")
endif()
