# ntc_runtime: the static library every generated kernel links (C ABI: errors, status strings,
# DLPack validation), plus the header-only C++ helpers (ntc/rt/*.hpp) and CPU tile library
# (ntc/cpu/*.hpp) that generated code includes. No CUDA dependency.
find_package(OpenMP COMPONENTS CXX)

add_library(ntc_runtime STATIC
  ${CMAKE_CURRENT_LIST_DIR}/src/errors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/validate.cpp)
add_library(ntc::runtime ALIAS ntc_runtime)
target_include_directories(ntc_runtime PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}/include>
  $<INSTALL_INTERFACE:include>)
target_compile_features(ntc_runtime PUBLIC cxx_std_17)
set_target_properties(ntc_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_compile_options(ntc_runtime PRIVATE -Wall -Wextra)
if(OpenMP_CXX_FOUND)
  target_link_libraries(ntc_runtime PUBLIC OpenMP::OpenMP_CXX)
endif()
