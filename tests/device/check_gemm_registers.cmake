# A no-GPU check of the GEMM main loop's code (issue found 2026-12-02: an out-of-line call in
# dot_loop's edge copies made ptxas keep the loop's invariants in local memory, and 4096³
# float16 matmul fell from 568 to 419 TFLOP/s on the H200). Generates kernels/matmul.cpp with
# its default configuration, compiles it for sm_90a with `-Xptxas -v` and requires the stack
# frame of the vector-access int32 program (what large aligned GEMMs run) to stay at most
# MAX_STACK bytes (64 before the regression and after its fix, 224 with it). Run by CTest as
#
#   cmake -DNTC=<ntc> -DNVCC=<nvcc> -DSOURCE_DIR=<ntc source> -DWORK_DIR=<scratch>
#         -DMAX_STACK=<bytes> -P check_gemm_registers.cmake
include("${CMAKE_CURRENT_LIST_DIR}/ptxas_report.cmake")
ntc_require_defines(check_gemm_registers.cmake NTC NVCC SOURCE_DIR WORK_DIR MAX_STACK)
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${NTC}" -o "${WORK_DIR}" --target cuda "${SOURCE_DIR}/kernels/matmul.cpp"
                        -- "-I${SOURCE_DIR}/kernels"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ntc failed:\n${err}")
endif()
ntc_ptxas_report("${WORK_DIR}/matmul.cu" report "-I${WORK_DIR}")
# ptxas prints "Compiling entry function '<mangled>' for 'sm_90a'", then the function's
# properties ("N bytes stack frame, ...").
string(REGEX MATCH
       "program0_vecIiE[^\n]*\n[^\n]*\n[^\n]* ([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores"
       found "${report}")
if(NOT found)
  message(FATAL_ERROR "no stack frame reported for ntc_matmul_program0_vec<int32_t>:\n${report}")
endif()
set(stack "${CMAKE_MATCH_1}")
set(spills "${CMAKE_MATCH_2}")
message("ntc_matmul_program0_vec<int32_t>: ${stack} bytes stack frame (at most ${MAX_STACK}), "
        "${spills} bytes spill stores (none allowed)")
if(stack GREATER MAX_STACK)
  message(FATAL_ERROR "the GEMM main loop spills: ${stack} bytes of stack frame, more than "
                      "${MAX_STACK}; read the ptxas report:\n${report}")
endif()
# The accumulator stays in the loop's fragments (an Mma layout) through the epilogue; with a
# blocked accumulator beside them (before 2026-12-03) the 128x256 program needed 255 registers
# and spilled.
if(NOT spills EQUAL 0)
  message(FATAL_ERROR "the GEMM program spills ${spills} bytes; read the ptxas report:\n${report}")
endif()
