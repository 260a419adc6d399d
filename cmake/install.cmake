# install.cmake: install and export rules for the ntc package (included from the top level after
# the runtime and tools folders).
#
#   <prefix>/bin/ntc                              the compiler (ntc::ntc)
#   <prefix>/include/ntc/...                      dsl.hpp, runtime.h, rt/, cpu/, device/
#   <prefix>/<libdir>/libntc_runtime.a            ntc::runtime
#   <prefix>/<libdir>/cmake/ntc/                  ntcConfig.cmake, ntcConfigVersion.cmake,
#                                                 ntcTargets*.cmake, NtcKernel.cmake
#
# The build tree is a package too: -Dntc_DIR=<build dir> uses the built ntc and the source
# tree's headers without installing.
#
# bin/ and include/ are fixed, not GNUInstallDirs variables: an installed ntc finds the DSL
# header as <its dir>/../include/ntc/dsl.hpp, and ntc_dsl/ntc_runtime export
# $<INSTALL_INTERFACE:include>.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NTC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/ntc" CACHE STRING
    "where the ntc CMake package files are installed (relative to the prefix)")

# ntc links LLVM and clang-cpp shared libraries from outside the usual linker paths
# (/usr/lib/llvm-N/lib): keep them on the installed executable's RPATH.
set_target_properties(ntc PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
# Exported as ntc::runtime and ntc::dsl, the names of the in-tree ALIAS targets.
set_target_properties(ntc_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(ntc_dsl PROPERTIES EXPORT_NAME dsl)

# ntc itself joins the export set in tools/CMakeLists.txt:
#   install(TARGETS ntc EXPORT ntcTargets RUNTIME DESTINATION bin)
# (a target may appear only once in an export set).
install(TARGETS ntc_runtime ntc_dsl EXPORT ntcTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/ntc
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "*.inc")

install(EXPORT ntcTargets
  NAMESPACE ntc::
  DESTINATION ${NTC_INSTALL_CMAKEDIR})

# Dependencies that ntc::runtime's INTERFACE_LINK_LIBRARIES name, for find_dependency().
get_target_property(_ntc_runtime_links ntc_runtime INTERFACE_LINK_LIBRARIES)
set(NTC_CONFIG_NEEDS_OPENMP FALSE)
set(NTC_CONFIG_NEEDS_CUDATOOLKIT FALSE)
if(_ntc_runtime_links)
  if("OpenMP::OpenMP_CXX" IN_LIST _ntc_runtime_links)
    set(NTC_CONFIG_NEEDS_OPENMP TRUE)
  endif()
  if(_ntc_runtime_links MATCHES "(^|;)CUDA::")
    set(NTC_CONFIG_NEEDS_CUDATOOLKIT TRUE)
  endif()
endif()

# Installed package.
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/ntcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/ntcConfig.cmake
  INSTALL_DESTINATION ${NTC_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/ntcConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/package/ntcConfig.cmake
  ${PROJECT_BINARY_DIR}/ntcConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/NtcKernel.cmake
  DESTINATION ${NTC_INSTALL_CMAKEDIR})

# Build-tree package: ntcConfig.cmake, ntcConfigVersion.cmake, ntcTargets.cmake and a copy of
# NtcKernel.cmake side by side in the build dir.
export(EXPORT ntcTargets
  NAMESPACE ntc::
  FILE ${PROJECT_BINARY_DIR}/ntcTargets.cmake)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/ntcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ntcConfig.cmake
  INSTALL_DESTINATION ${PROJECT_BINARY_DIR}
  INSTALL_PREFIX ${PROJECT_BINARY_DIR})
configure_file(${CMAKE_CURRENT_LIST_DIR}/NtcKernel.cmake ${PROJECT_BINARY_DIR}/NtcKernel.cmake
  COPYONLY)

unset(_ntc_runtime_links)
