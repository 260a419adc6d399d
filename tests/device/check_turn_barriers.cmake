# A no-GPU check of the named barriers of turned products: compiles turn_barriers.cu for sm_90a
# with `-Xptxas -v` and fails unless ptxas reports at most MAX_BARRIERS barriers for its kernel
# (16 while the barrier's number was passed in a register, 6 with immediates). Run by CTest as
#
#   cmake -DNVCC=<nvcc> -DSOURCE_DIR=<ntc source> -DWORK_DIR=<scratch>
#         -DMAX_BARRIERS=<count> -P check_turn_barriers.cmake
foreach(var NVCC SOURCE_DIR WORK_DIR MAX_BARRIERS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_turn_barriers.cmake: -D${var}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${NVCC}" -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a
                        -Xptxas -v "-I${SOURCE_DIR}/runtime/include"
                        -c "${SOURCE_DIR}/tests/device/turn_barriers.cu"
                        -o "${WORK_DIR}/turn_barriers.o"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE report)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed:\n${report}")
endif()
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
