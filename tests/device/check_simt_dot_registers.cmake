# A no-GPU check of the SIMT product's registers: compiles simt_dot_registers.cu for sm_90a with
# `-Xptxas -v` and fails if ptxas reports spill stores or more than MAX_REGISTERS registers for
# one of its two kernels (248 and 255 before dot_simt's register-blocked path, 202 and 178 with
# it; float32 attention's products spilled 0.4-4.9 KiB per thread before it). Run by CTest as
#
#   cmake -DNVCC=<nvcc> -DSOURCE_DIR=<ntc source> -DWORK_DIR=<scratch>
#         -DMAX_REGISTERS=<count> -P check_simt_dot_registers.cmake
foreach(var NVCC SOURCE_DIR WORK_DIR MAX_REGISTERS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_simt_dot_registers.cmake: -D${var}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${NVCC}" -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a
                        -Xptxas -v "-I${SOURCE_DIR}/runtime/include"
                        -c "${SOURCE_DIR}/tests/device/simt_dot_registers.cu"
                        -o "${WORK_DIR}/simt_dot_registers.o"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE report)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed:\n${report}")
endif()
# Per kernel, "N bytes spill stores" and then "Used N registers" (simt_scores, simt_output).
string(REGEX MATCHALL "[0-9]+ bytes spill stores[^\n]*\n[^\n]*Used [0-9]+ registers" reports
       "${report}")
list(LENGTH reports kernels)
if(NOT kernels EQUAL 2)
  message(FATAL_ERROR "expected the reports of two kernels from ptxas:\n${report}")
endif()
foreach(entry IN LISTS reports)
  string(REGEX MATCH "^([0-9]+) bytes spill stores" found "${entry}")
  set(spills "${CMAKE_MATCH_1}")
  string(REGEX MATCH "Used ([0-9]+) registers" found "${entry}")
  set(registers "${CMAKE_MATCH_1}")
  message("simt_dot_registers.cu: ${registers} registers (at most ${MAX_REGISTERS}), ${spills} "
          "bytes spill stores (none allowed)")
  if(NOT spills EQUAL 0 OR registers GREATER MAX_REGISTERS)
    message(FATAL_ERROR "the SIMT products need too many registers; read the ptxas report:\n"
                        "${report}")
  endif()
endforeach()
