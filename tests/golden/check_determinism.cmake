# cmake -DNTC=<ntc> -DSOURCE_DIR=<root> -DBINARY_DIR=<build> -DOUT_DIR=<scratch> -P check_determinism.cmake
#
# Runs ntc twice on every kernels/*.cpp: once in SOURCE_DIR with the relative path
# (kernels/<k>.cpp) into OUT_DIR/a, once in BINARY_DIR with the absolute path into OUT_DIR/b;
# each run writes <k>.h, <k>.cpp (--target cpu) and <k>.ir (--emit ir). The two folders must hold
# the same files with byte-identical contents, and no output may contain the absolute path of the
# source or build tree (generated code must be reproducible wherever it is built).
cmake_minimum_required(VERSION 3.25)
foreach(var NTC SOURCE_DIR BINARY_DIR OUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_determinism.cmake: -D${var}=... is required")
  endif()
endforeach()

file(GLOB kernels RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/kernels/*.cpp")
list(SORT kernels)
if(NOT kernels)
  message(FATAL_ERROR "no kernels/*.cpp under ${SOURCE_DIR}")
endif()

file(REMOVE_RECURSE "${OUT_DIR}")
function(run_ntc dir cwd source)
  cmake_path(GET source STEM stem)
  execute_process(
    COMMAND "${NTC}" -o "${dir}" --target cpu "${source}"
    WORKING_DIRECTORY "${cwd}" RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ntc -o ${dir} --target cpu ${source} (in ${cwd}) failed:\n${err}")
  endif()
  execute_process(
    COMMAND "${NTC}" --emit ir "${source}"
    WORKING_DIRECTORY "${cwd}" RESULT_VARIABLE status OUTPUT_FILE "${dir}/${stem}.ir"
    ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ntc --emit ir ${source} (in ${cwd}) failed:\n${err}")
  endif()
endfunction()

foreach(kernel IN LISTS kernels)
  file(MAKE_DIRECTORY "${OUT_DIR}/a" "${OUT_DIR}/b")
  run_ntc("${OUT_DIR}/a" "${SOURCE_DIR}" "${kernel}")
  run_ntc("${OUT_DIR}/b" "${BINARY_DIR}" "${SOURCE_DIR}/${kernel}")
endforeach()

file(GLOB files_a RELATIVE "${OUT_DIR}/a" "${OUT_DIR}/a/*")
file(GLOB files_b RELATIVE "${OUT_DIR}/b" "${OUT_DIR}/b/*")
list(SORT files_a)
list(SORT files_b)
if(NOT files_a STREQUAL files_b)
  message(FATAL_ERROR "the two runs wrote different files:\n  ${files_a}\n  ${files_b}")
endif()

set(failures "")
foreach(file IN LISTS files_a)
  file(READ "${OUT_DIR}/a/${file}" text_a HEX)
  file(READ "${OUT_DIR}/b/${file}" text_b HEX)
  if(NOT text_a STREQUAL text_b)
    string(APPEND failures "  ${file} differs between the runs (${OUT_DIR}/a, ${OUT_DIR}/b)\n")
  endif()
  file(READ "${OUT_DIR}/a/${file}" text)
  foreach(path "${SOURCE_DIR}" "${BINARY_DIR}")
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      string(APPEND failures "  ${file} contains the absolute path ${path}\n")
    endif()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "ntc's output is not deterministic:\n${failures}")
endif()
list(LENGTH kernels n_kernels)
list(LENGTH files_a n_files)
message(STATUS "${n_kernels} kernels, ${n_files} files: identical in both runs")
