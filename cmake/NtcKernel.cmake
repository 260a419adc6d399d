# NtcKernel.cmake: add_nt_kernel(), which compiles kernel sources written in the ntc DSL with
# `ntc` and builds the generated code into a static library (modelled on Halide's
# add_halide_library).
#
#   add_nt_kernel(<target>
#     SOURCES <kernel.cpp>...          # kernel sources (relative to the current source dir)
#     [TARGET cuda|cpu]                # default: cuda if the CUDA language is enabled, else cpu
#     [CUDA_ARCHITECTURES 80 90a]      # TARGET cuda only; default 80;90a
#     [TUNING_TABLE <file>]            # a tuning table of ntc-tune, compiled in (docs/tuning.md)
#     [OUTPUT_DIR <dir>]               # default: ${CMAKE_CURRENT_BINARY_DIR}/<target>
#     [NTC_ARGS ...]                   # extra ntc options (e.g. --kernel NAME)
#     [CLANG_ARGS ...])                # extra Clang arguments, after `--` (e.g. -DFOO -I...)
#
# For every source `<dir>/<stem>.cpp` one custom command runs
#
#   ntc -o <OUTPUT_DIR> --target <t> --depfile <stem>.d [--cuda-arch ..]
#       <NTC_ARGS> <source> -- -I<dsl include dir> -I<dir> <CLANG_ARGS>
#
# and writes `<OUTPUT_DIR>/<stem>.h` plus `<stem>.cpp` (cpu) or `<stem>.cu` (cuda). Its depfile
# names the headers the kernel includes, so editing one re-runs ntc; a rebuilt ntc re-runs it
# too (ntc::ntc is in DEPENDS). The results:
#
#   <target>            STATIC library of the generated sources; PUBLIC include dir
#                       <OUTPUT_DIR> (FILE_SET HEADERS), links ntc::runtime PUBLIC,
#                       POSITION_INDEPENDENT_CODE ON. `#include "<stem>.h"` declares one C
#                       function per NT_KERNEL plus `ntc_<name>_info()`.
#   <target>.generate   custom target that only runs ntc (like Halide's <target>.update).
#
# Works the same in the ntc source tree (ntc::ntc, ntc::runtime and ntc::dsl are ALIAS targets
# there) and in a project that did `find_package(ntc)` (they are IMPORTED targets). Consumers
# never need LLVM: ntc is an executable.
#
# TARGET cuda needs the CUDA language (`enable_language(CUDA)` or LANGUAGES CUDA); without it
# the target is skipped with a STATUS message and configuration goes on, so test with
# `if(TARGET <target>)`. TUNING_TABLE names a table written by ntc-tune: ntc compiles the
# configurations it chose and a dispatcher that picks them by shape into the library (nothing
# is read at run time); editing the table re-runs ntc.

include_guard(GLOBAL)

# The function records the policies in effect here; 3.25 gives CMP0116 NEW (depfile paths are
# rewritten for Ninja and Makefiles), whatever the calling project's cmake_minimum_required.
cmake_policy(PUSH)
cmake_policy(VERSION 3.25)

function(add_nt_kernel target)
  set(options "")
  set(one_value TARGET TUNING_TABLE OUTPUT_DIR)
  set(multi_value SOURCES CUDA_ARCHITECTURES NTC_ARGS CLANG_ARGS)
  cmake_parse_arguments(PARSE_ARGV 1 arg "${options}" "${one_value}" "${multi_value}")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "add_nt_kernel(${target}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "add_nt_kernel(${target}): SOURCES is required")
  endif()
  set(table_depends "")
  if(arg_TUNING_TABLE)
    cmake_path(ABSOLUTE_PATH arg_TUNING_TABLE BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
               NORMALIZE OUTPUT_VARIABLE table_path)
    if(NOT EXISTS "${table_path}")
      message(FATAL_ERROR "add_nt_kernel(${target}): TUNING_TABLE ${arg_TUNING_TABLE} not found "
                          "(${table_path}); write one with ntc-tune (docs/tuning.md)")
    endif()
    set(table_depends "${table_path}")
  endif()
  if(NOT TARGET ntc::ntc OR NOT TARGET ntc::runtime)
    message(FATAL_ERROR "add_nt_kernel(${target}): the targets ntc::ntc and ntc::runtime do not "
                        "exist; call find_package(ntc) (or add ntc's source tree) first")
  endif()

  # --- Backend ---------------------------------------------------------------------------------
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(cuda_available FALSE)
  if("CUDA" IN_LIST languages AND CMAKE_CUDA_COMPILER)
    set(cuda_available TRUE)
  endif()
  if(NOT arg_TARGET)
    if(cuda_available)
      set(arg_TARGET cuda)
    else()
      set(arg_TARGET cpu)
    endif()
  endif()
  if(NOT arg_TARGET MATCHES "^(cuda|cpu)$")
    message(FATAL_ERROR "add_nt_kernel(${target}): TARGET must be cuda or cpu, not '${arg_TARGET}'")
  endif()
  if(arg_TARGET STREQUAL "cuda" AND NOT cuda_available)
    message(STATUS "add_nt_kernel(${target}): skipped: TARGET cuda needs the CUDA language "
                   "(enable_language(CUDA) with nvcc available); use TARGET cpu for the CPU backend")
    return()
  endif()
  if(arg_CUDA_ARCHITECTURES AND NOT arg_TARGET STREQUAL "cuda")
    message(FATAL_ERROR "add_nt_kernel(${target}): CUDA_ARCHITECTURES needs TARGET cuda")
  endif()
  if(arg_TARGET STREQUAL "cuda")
    set(source_ext cu)
    if(NOT arg_CUDA_ARCHITECTURES)
      set(arg_CUDA_ARCHITECTURES 80 90a)
    endif()
  else()
    set(source_ext cpp)
  endif()

  # --- Paths -----------------------------------------------------------------------------------
  if(NOT arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  endif()
  cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
             NORMALIZE OUTPUT_VARIABLE out_dir)
  file(MAKE_DIRECTORY "${out_dir}")

  set(ntc_args --target ${arg_TARGET})
  if(arg_TARGET STREQUAL "cuda")
    string(JOIN "," arch_list ${arg_CUDA_ARCHITECTURES})
    list(APPEND ntc_args --cuda-arch ${arch_list})
  endif()
  if(table_depends)
    list(APPEND ntc_args --tuning-table "${table_depends}")
  endif()
  list(APPEND ntc_args ${arg_NTC_ARGS})

  # The DSL header's folder as ntc::dsl exports it (the build tree's runtime/include in-tree,
  # <prefix>/include installed); ntc also finds it by itself.
  set(dsl_include
      "$<$<TARGET_EXISTS:ntc::dsl>:-I$<JOIN:$<TARGET_PROPERTY:ntc::dsl,INTERFACE_INCLUDE_DIRECTORIES>,;-I>>")

  # --- One ntc run per source ------------------------------------------------------------------
  set(headers "")
  set(generated_sources "")
  set(outputs "")
  set(stems "")
  foreach(source IN LISTS arg_SOURCES)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE
               OUTPUT_VARIABLE source_path)
    if(NOT EXISTS "${source_path}")
      message(FATAL_ERROR "add_nt_kernel(${target}): source ${source} not found (${source_path})")
    endif()
    cmake_path(GET source_path STEM LAST_ONLY stem)
    cmake_path(GET source_path PARENT_PATH source_dir)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "add_nt_kernel(${target}): two sources named ${stem}.*; each source's "
                          "outputs are named after its stem")
    endif()
    list(APPEND stems "${stem}")

    set(header "${out_dir}/${stem}.h")
    set(generated "${out_dir}/${stem}.${source_ext}")
    set(depfile "${out_dir}/${stem}.d")
    # ntc leaves unchanged outputs alone. Ninja then skips the dependent compiles (restat); the
    # other generators compare time stamps only, and would re-run ntc on every build after a
    # run that changed nothing, so there the outputs are touched.
    set(touch_outputs "")
    if(NOT CMAKE_GENERATOR MATCHES "Ninja")
      set(touch_outputs COMMAND "${CMAKE_COMMAND}" -E touch_nocreate "${header}" "${generated}")
    endif()
    # The header first: the depfile's target is ntc's first output.
    add_custom_command(
      OUTPUT "${header}" "${generated}"
      COMMAND ntc::ntc -o "${out_dir}" ${ntc_args} --depfile "${depfile}" "${source_path}"
              -- "${dsl_include}" "-I${source_dir}" ${arg_CLANG_ARGS}
      ${touch_outputs}
      DEPENDS "${source_path}" ntc::ntc ${table_depends}
      DEPFILE "${depfile}"
      COMMENT "ntc: ${stem}.h/.${source_ext} (${arg_TARGET}) for ${target}"
      VERBATIM
      COMMAND_EXPAND_LISTS)
    list(APPEND headers "${header}")
    list(APPEND generated_sources "${generated}")
    list(APPEND outputs "${header}" "${generated}")
  endforeach()

  # --- Targets ---------------------------------------------------------------------------------
  add_custom_target(${target}.generate DEPENDS ${outputs})

  add_library(${target} STATIC ${generated_sources})
  # Headers in a file set: the output dir becomes the PUBLIC include dir (BUILD_INTERFACE), and
  # install(TARGETS <target> FILE_SET HEADERS) installs them with the library.
  target_sources(${target} PUBLIC FILE_SET HEADERS BASE_DIRS "${out_dir}" FILES ${headers})
  target_link_libraries(${target} PUBLIC ntc::runtime)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(arg_TARGET STREQUAL "cuda")
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${arg_CUDA_ARCHITECTURES}")
  endif()
  # Generation happens in <target>.generate, so the Makefile generators never run one ntc
  # command from two targets at once.
  add_dependencies(${target} ${target}.generate)
endfunction()

cmake_policy(POP)
