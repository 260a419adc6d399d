// Unit tests of the reserved-name rules (compiler/frontend/ReservedNames.h).
#include "frontend/ReservedNames.h"

#include <catch2/catch.hpp>

using namespace ntc;

namespace {
const std::vector<TensorName> kTensors = {{"x", 2}, {"lhs", 1}};
const std::vector<TensorName> kNone;
} // namespace

TEST_CASE("identifiers", "[names]") {
  CHECK(isIdentifier("x"));
  CHECK(isIdentifier("_x9"));
  CHECK(isIdentifier("BLOCK_SIZE_M"));
  CHECK_FALSE(isIdentifier(""));
  CHECK_FALSE(isIdentifier("9x"));
  CHECK_FALSE(isIdentifier("BLOCK SIZE"));
  CHECK_FALSE(isIdentifier("a-b"));
  CHECK_FALSE(isIdentifier("a$b"));
}

TEST_CASE("kernel names", "[names]") {
  CHECK(reservedKernelName("main") == "the program's entry point");
  CHECK(reservedKernelName("int") == "a C keyword");
  CHECK(reservedKernelName("restrict") == "a C keyword");
  CHECK(reservedKernelName("_Bool") == "a C keyword");
  CHECK(reservedKernelName("template") == "a C++ keyword");
  CHECK(reservedKernelName("xor") == "a C++ keyword");
  CHECK(reservedKernelName("printf") ==
        "a function of the C standard library, declared in <stdio.h>");
  CHECK(reservedKernelName("strlen") ==
        "a function of the C standard library, declared in <string.h>");
  CHECK(reservedKernelName("qsort") ==
        "a function of the C standard library, declared in <stdlib.h>");
  // math.h functions come with their float and long double variants.
  for (const char *f : {"exp", "expf", "expl", "fma", "fmaf", "atan2l"})
    CHECK(reservedKernelName(f) == "a function of the C standard library, declared in <math.h>");
  CHECK(reservedKernelName("read") == "a POSIX function, declared in <unistd.h>");
  CHECK(reservedKernelName("write") == "a POSIX function, declared in <unistd.h>");
  CHECK(reservedKernelName("open") == "a POSIX function, declared in <fcntl.h>");
  CHECK(reservedKernelName("close") == "a POSIX function, declared in <unistd.h>");
  CHECK(reservedKernelName("exit") ==
        "a function of the C standard library, declared in <stdlib.h>");
  CHECK(reservedKernelName("INFINITY") == "a macro of the C standard library, defined in <math.h>");
  CHECK(reservedKernelName("INT64_MAX") ==
        "a macro of the C standard library, defined in <stdint.h>");
  CHECK(reservedKernelName("int64_t") == "a type of the C standard library, defined in <stdint.h>");
  CHECK(reservedKernelName("std") ==
        "the namespace of the C++ standard library, used by the generated code");
  CHECK(reservedKernelName("blockIdx") == "a CUDA built-in variable");
  CHECK(reservedKernelName("ntc_matmul") ==
        "names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code");
  CHECK(reservedKernelName("NTC_MATMUL") ==
        "names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code");
  const std::string implementation = "names beginning with '__' or with '_' and an upper-case "
                                     "letter are reserved for the C and C++ implementation";
  CHECK(reservedKernelName("__matmul") == implementation);
  CHECK(reservedKernelName("_Matmul") == implementation);
  CHECK(reservedKernelName("1x") == "not a C identifier");
  // Fine.
  for (const char *ok : {"matmul", "add_f32", "exp_kernel", "stream", "_matmul", "ntcmatmul",
                         "Ntc_x", "softmax", "attention_f16", "Main"})
    CHECK(reservedKernelName(ok).empty());
}

TEST_CASE("parameter names", "[names]") {
  CHECK(reservedParameterName("ntc_x", kNone) ==
        "names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code");
  CHECK(reservedParameterName("__x", kNone).find("reserved for the C and C++ implementation") !=
        std::string::npos);
  for (const char *macro : {"INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF", "NULL", "EOF", "assert",
                            "errno", "stdin", "SIZE_MAX", "CHAR_BIT", "FLT_MAX"})
    CHECK(reservedParameterName(macro, kNone).find("a macro of the C standard library") == 0);
  CHECK(reservedParameterName("restrict", kNone) == "a C keyword");
  CHECK(reservedParameterName("size_t", kNone) ==
        "a type of the C standard library, defined in <stddef.h>");
  CHECK(reservedParameterName("Index", kNone) == "the index type of ntc's generated programs");
  // Library functions only shadow: fine as parameters. So are `stream`, M_ constants and the
  // names of generated symbols (generated code keeps them apart, compiler/codegen/Names.h).
  for (const char *ok : {"exp", "time", "read", "main", "stream", "index", "M_PI", "x", "lhs",
                         "x_size_0", "pid1", "lane0", "NP2_16",
                         "x_size_2", "lhs_stride_1", "y_size_0", "pid", "lane", "NP2_"})
    CHECK(reservedParameterName(ok, kTensors).empty());
}

TEST_CASE("meta-parameter names", "[names]") {
  CHECK(reservedSymbolName("BLOCK SIZE", kNone) == "not a C identifier");
  CHECK(reservedSymbolName("", kNone) == "not a C identifier");
  CHECK(reservedSymbolName("class", kNone) == "a C++ keyword");
  CHECK(reservedSymbolName("ntc_B", kNone).find("'ntc_'") != std::string::npos);
  CHECK(reservedSymbolName("pid0", kNone) ==
        "'pid0' is the name ntc gives to the program's coordinate in dimension 0 of the launch "
        "grid");
  CHECK(reservedSymbolName("lane3", kNone) ==
        "'lane3' is the name ntc gives to the position of an element within a tile in "
        "dimension 3");
  CHECK(reservedSymbolName("NP2_16384", kNone) ==
        "'NP2_16384' is the name ntc gives to the power-of-two tile extent that stands for "
        "run-time sizes up to 16384");
  CHECK(reservedSymbolName("x_stride_1", kTensors) ==
        "'x_stride_1' is the name ntc gives to the stride of 'x' in dimension 1");
  CHECK(reservedSymbolName("lhs_size_0", kTensors) ==
        "'lhs_size_0' is the name ntc gives to the size of 'lhs' in dimension 0");
  // Beyond the rank, with a leading zero, or of no tensor of the kernel: not generated.
  for (const char *ok : {"BLOCK_SIZE", "BLOCK_SIZE_M", "x_size_2", "x_size_01", "lhs_stride_1",
                         "y_size_0", "pidx", "lane_0", "np2_16", "stream"})
    CHECK(reservedSymbolName(ok, kTensors).empty());
}

TEST_CASE("generated symbols", "[names]") {
  CHECK(generatedSymbol("x_size_1", kTensors) ==
        "'x_size_1' is the name ntc gives to the size of 'x' in dimension 1");
  CHECK(generatedSymbol("x_size_1", kNone).empty());
  CHECK(generatedSymbol("pid12", kNone).find("dimension 12 of the launch grid") !=
        std::string::npos);
  CHECK(generatedSymbol("BLOCK_SIZE", kTensors).empty());
}
