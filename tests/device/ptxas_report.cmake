# Helpers of the no-GPU ptxas checks of this folder (check_*.cmake, run by CTest in script mode):
#
#   ntc_require_defines(<script> <var>...)   fails unless every -D<var>=... was given;
#   ntc_ptxas_report(<source> <out> [flags])  compiles <source> for sm_90a with `-Xptxas -v`
#                                             into WORK_DIR and sets <out> to ptxas's report.
function(ntc_require_defines script)
  foreach(var ${ARGN})
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "${script}: -D${var}=... is required")
    endif()
  endforeach()
endfunction()

function(ntc_ptxas_report source out)
  file(MAKE_DIRECTORY "${WORK_DIR}")
  get_filename_component(stem "${source}" NAME_WE)
  execute_process(COMMAND "${NVCC}" -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a
                          -Xptxas -v "-I${SOURCE_DIR}/runtime/include" ${ARGN}
                          -c "${source}" -o "${WORK_DIR}/${stem}.o"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE ignored ERROR_VARIABLE report)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc failed:\n${report}")
  endif()
  set(${out} "${report}" PARENT_SCOPE)
endfunction()
