# A no-GPU check of the SIMT product's registers: compiles simt_dot_registers.cu for sm_90a with
# `-Xptxas -v` and fails if ptxas reports spill stores or more than MAX_REGISTERS registers for
# one of its two kernels (248 and 255 before dot_simt's register-blocked path, 202 and 178 with
# it; float32 attention's products spilled 0.4-4.9 KiB per thread before it). Run by CTest as
#
#   cmake -DNVCC=<nvcc> -DSOURCE_DIR=<ntc source> -DWORK_DIR=<scratch>
#         -DMAX_REGISTERS=<count> -P check_simt_dot_registers.cmake
include("${CMAKE_CURRENT_LIST_DIR}/ptxas_report.cmake")
ntc_require_defines(check_simt_dot_registers.cmake NVCC SOURCE_DIR WORK_DIR MAX_REGISTERS)
ntc_ptxas_report("${SOURCE_DIR}/tests/device/simt_dot_registers.cu" report)
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
