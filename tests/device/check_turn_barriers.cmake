# A no-GPU check of the named barriers of turned products: compiles turn_barriers.cu for sm_90a
# with `-Xptxas -v` and fails unless ptxas reports at most MAX_BARRIERS barriers for its kernel
# (16 while the barrier's number was passed in a register, 6 with immediates). Run by CTest as
#
#   cmake -DNVCC=<nvcc> -DSOURCE_DIR=<ntc source> -DWORK_DIR=<scratch>
#         -DMAX_BARRIERS=<count> -P check_turn_barriers.cmake
include("${CMAKE_CURRENT_LIST_DIR}/ptxas_report.cmake")
ntc_require_defines(check_turn_barriers.cmake NVCC SOURCE_DIR WORK_DIR MAX_BARRIERS)
ntc_ptxas_report("${SOURCE_DIR}/tests/device/turn_barriers.cu" report)
string(REGEX MATCHALL "used [0-9]+ barriers" reports "${report}")
list(LENGTH reports kernels)
if(NOT kernels EQUAL 1)
  message(FATAL_ERROR "expected the report of one kernel from ptxas:\n${report}")
endif()
string(REGEX MATCH "used ([0-9]+) barriers" found "${reports}")
set(barriers "${CMAKE_MATCH_1}")
message("turn_barriers.cu: ${barriers} barriers (at most ${MAX_BARRIERS})")
if(barriers GREATER MAX_BARRIERS)
  message(FATAL_ERROR "the turned products claim more named barriers than they use; read the "
                      "ptxas report:\n${report}")
endif()
