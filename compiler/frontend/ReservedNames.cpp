//===- ReservedNames.cpp - names a kernel may not use ---------------------===//
#include "frontend/ReservedNames.h"

#include <cctype>
#include <string>
#include <unordered_map>

namespace ntc {

namespace {

/// What a reserved name is, which decides where it may not be used.
enum class Kind {
  Keyword,   ///< a C or C++ keyword: nowhere
  Function,  ///< a library function: not as a kernel name (an extern "C" function)
  Macro,     ///< a library macro: nowhere (the generated code includes the headers)
  Type,      ///< a library type: nowhere (the generated code spells these types)
  Generated, ///< a name the generated code relies on: nowhere
};

struct Entry {
  Kind kind;
  std::string what; ///< "a function of the C standard library, declared in <stdio.h>"
};

struct Group {
  Kind kind;
  const char *what;
  const char *names;         ///< separated by spaces
  bool mathVariants = false; ///< also the `f` and `l` variants (sinf, sinl)
};

// clang-format off
const Group kGroups[] = {
    // C17 keywords and the newer C23 ones (the generated header is valid C).
    {Kind::Keyword, "a C keyword",
     "auto break case char const continue default do double else enum extern float for goto if "
     "inline int long register restrict return short signed sizeof static struct switch typedef "
     "union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic "
     "_Imaginary _Noreturn _Static_assert _Thread_local alignas alignof bool constexpr false "
     "nullptr static_assert thread_local true typeof typeof_unqual _BitInt _Decimal32 "
     "_Decimal64 _Decimal128"},
    // C++20 keywords and alternative operator spellings.
    {Kind::Keyword, "a C++ keyword",
     "and and_eq asm bitand bitor catch char8_t char16_t char32_t class compl concept consteval "
     "constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit "
     "export friend mutable namespace new noexcept not not_eq operator or or_eq private "
     "protected public reinterpret_cast requires static_cast template this throw try typeid "
     "typename using virtual wchar_t xor xor_eq"},
    {Kind::Function, "the program's entry point", "main"},
    // C17 library functions.
    {Kind::Function, "a function of the C standard library, declared in <stdlib.h>",
     "atof atoi atol atoll strtod strtof strtold strtol strtoll strtoul strtoull rand srand "
     "aligned_alloc calloc free malloc realloc abort atexit at_quick_exit exit _Exit getenv "
     "quick_exit system bsearch qsort abs labs llabs div ldiv lldiv mblen mbtowc wctomb mbstowcs "
     "wcstombs"},
    {Kind::Function, "a function of the C standard library, declared in <string.h>",
     "memcpy memmove strcpy strncpy strcat strncat memcmp strcmp strcoll strncmp strxfrm memchr "
     "strchr strcspn strpbrk strrchr strspn strstr strtok memset strerror strlen"},
    {Kind::Function, "a function of the C standard library, declared in <stdio.h>",
     "remove rename tmpfile tmpnam fclose fflush fopen freopen setbuf setvbuf fprintf fscanf "
     "printf scanf snprintf sprintf sscanf vfprintf vfscanf vprintf vscanf vsnprintf vsprintf "
     "vsscanf fgetc fgets fputc fputs getc getchar putc putchar puts ungetc fread fwrite fgetpos "
     "fseek fsetpos ftell rewind clearerr feof ferror perror gets"},
    {Kind::Function, "a function of the C standard library, declared in <math.h>",
     "acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1 frexp "
     "ilogb ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt fabs hypot pow sqrt erf erfc "
     "lgamma tgamma ceil floor nearbyint rint lrint llrint round lround llround trunc fmod "
     "remainder remquo copysign nan nextafter nexttoward fdim fmax fmin fma",
     true},
    {Kind::Function, "a function of the C standard library, declared in <ctype.h>",
     "isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace isupper "
     "isxdigit tolower toupper"},
    {Kind::Function, "a function of the C standard library, declared in <time.h>",
     "clock difftime mktime time timespec_get asctime ctime gmtime localtime strftime"},
    {Kind::Function, "a function of the C standard library, declared in <signal.h>",
     "signal raise"},
    {Kind::Function, "a function of the C standard library, declared in <setjmp.h>", "longjmp"},
    // Common POSIX functions (glibc declares them through the C headers the generated code
    // includes).
    {Kind::Function, "a POSIX function, declared in <unistd.h>",
     "read write close lseek pread pwrite unlink rmdir chdir getcwd fork execv execve execvp "
     "execl execlp pipe dup dup2 sleep usleep getpid getppid access chown link symlink readlink "
     "isatty sysconf fsync ftruncate truncate alarm pause sync"},
    {Kind::Function, "a POSIX function, declared in <fcntl.h>", "open creat fcntl"},
    {Kind::Function, "a POSIX function, declared in <sys/stat.h>",
     "stat fstat lstat mkdir chmod umask"},
    {Kind::Function, "a POSIX function, declared in <signal.h>", "kill"},
    {Kind::Function, "a POSIX function, declared in <sys/wait.h>", "wait waitpid"},
    {Kind::Function, "a POSIX function, declared in <sys/mman.h>", "mmap munmap"},
    {Kind::Function, "a POSIX function, declared in <sys/select.h>", "select"},
    {Kind::Function, "a POSIX function, declared in <poll.h>", "poll"},
    {Kind::Function, "a POSIX function, declared in <sys/ioctl.h>", "ioctl"},
    {Kind::Function, "a POSIX function, declared in <sys/socket.h>",
     "socket bind listen accept connect send recv"},
    {Kind::Function, "a POSIX function, declared in <dirent.h>", "opendir readdir closedir"},
    {Kind::Function, "a POSIX function, declared in <string.h>", "strdup strndup"},
    {Kind::Function, "a POSIX function, declared in <strings.h>", "index rindex bzero bcopy"},
    {Kind::Function, "a POSIX function, declared in <stdio.h>",
     "getline popen pclose fdopen fileno"},
    {Kind::Function, "a POSIX function, declared in <stdlib.h>", "setenv unsetenv realpath"},
    {Kind::Function, "a POSIX function, declared in <time.h>", "nanosleep clock_gettime"},
    // C17 library macros.
    {Kind::Macro, "a macro of the C standard library, defined in <math.h>",
     "INFINITY NAN HUGE_VAL HUGE_VALF HUGE_VALL FP_INFINITE FP_NAN FP_NORMAL FP_SUBNORMAL "
     "FP_ZERO FP_FAST_FMA FP_FAST_FMAF FP_FAST_FMAL FP_ILOGB0 FP_ILOGBNAN MATH_ERRNO "
     "MATH_ERREXCEPT math_errhandling fpclassify isfinite isinf isnan isnormal signbit "
     "isgreater isgreaterequal isless islessequal islessgreater isunordered"},
    {Kind::Macro, "a macro of the C standard library, defined in <stddef.h>", "NULL offsetof"},
    {Kind::Macro, "a macro of the C standard library, defined in <stdio.h>",
     "EOF BUFSIZ FILENAME_MAX FOPEN_MAX L_tmpnam SEEK_CUR SEEK_END SEEK_SET TMP_MAX stdin stdout "
     "stderr _IOFBF _IOLBF _IONBF"},
    {Kind::Macro, "a macro of the C standard library, defined in <stdlib.h>",
     "EXIT_FAILURE EXIT_SUCCESS RAND_MAX MB_CUR_MAX"},
    {Kind::Macro, "a macro of the C standard library, defined in <assert.h>", "assert"},
    {Kind::Macro, "a macro of the C standard library, defined in <errno.h>",
     "errno EDOM EILSEQ ERANGE"},
    {Kind::Macro, "a macro of the C standard library, defined in <setjmp.h>", "setjmp"},
    {Kind::Macro, "a macro of the C standard library, defined in <signal.h>",
     "SIG_DFL SIG_ERR SIG_IGN SIGABRT SIGFPE SIGILL SIGINT SIGSEGV SIGTERM"},
    {Kind::Macro, "a macro of the C standard library, defined in <time.h>",
     "CLOCKS_PER_SEC TIME_UTC"},
    {Kind::Macro, "a macro of the C standard library, defined in <stdarg.h>",
     "va_arg va_copy va_end va_start"},
    {Kind::Macro, "a macro of the C standard library, defined in <stdint.h>",
     "INT8_MIN INT16_MIN INT32_MIN INT64_MIN INT8_MAX INT16_MAX INT32_MAX INT64_MAX UINT8_MAX "
     "UINT16_MAX UINT32_MAX UINT64_MAX INT_LEAST8_MIN INT_LEAST16_MIN INT_LEAST32_MIN "
     "INT_LEAST64_MIN INT_LEAST8_MAX INT_LEAST16_MAX INT_LEAST32_MAX INT_LEAST64_MAX "
     "UINT_LEAST8_MAX UINT_LEAST16_MAX UINT_LEAST32_MAX UINT_LEAST64_MAX INT_FAST8_MIN "
     "INT_FAST16_MIN INT_FAST32_MIN INT_FAST64_MIN INT_FAST8_MAX INT_FAST16_MAX INT_FAST32_MAX "
     "INT_FAST64_MAX UINT_FAST8_MAX UINT_FAST16_MAX UINT_FAST32_MAX UINT_FAST64_MAX INTPTR_MIN "
     "INTPTR_MAX UINTPTR_MAX INTMAX_MIN INTMAX_MAX UINTMAX_MAX PTRDIFF_MIN PTRDIFF_MAX "
     "SIG_ATOMIC_MIN SIG_ATOMIC_MAX SIZE_MAX WCHAR_MIN WCHAR_MAX WINT_MIN WINT_MAX INT8_C "
     "INT16_C INT32_C INT64_C UINT8_C UINT16_C UINT32_C UINT64_C INTMAX_C UINTMAX_C"},
    {Kind::Macro, "a macro of the C standard library, defined in <limits.h>",
     "CHAR_BIT SCHAR_MIN SCHAR_MAX UCHAR_MAX CHAR_MIN CHAR_MAX MB_LEN_MAX SHRT_MIN SHRT_MAX "
     "USHRT_MAX INT_MIN INT_MAX UINT_MAX LONG_MIN LONG_MAX ULONG_MAX LLONG_MIN LLONG_MAX "
     "ULLONG_MAX"},
    {Kind::Macro, "a macro of the C standard library, defined in <float.h>",
     "FLT_RADIX FLT_ROUNDS FLT_EVAL_METHOD DECIMAL_DIG FLT_DECIMAL_DIG DBL_DECIMAL_DIG "
     "LDBL_DECIMAL_DIG FLT_MANT_DIG DBL_MANT_DIG LDBL_MANT_DIG FLT_DIG DBL_DIG LDBL_DIG "
     "FLT_MIN_EXP DBL_MIN_EXP LDBL_MIN_EXP FLT_MIN_10_EXP DBL_MIN_10_EXP LDBL_MIN_10_EXP "
     "FLT_MAX_EXP DBL_MAX_EXP LDBL_MAX_EXP FLT_MAX_10_EXP DBL_MAX_10_EXP LDBL_MAX_10_EXP FLT_MAX "
     "DBL_MAX LDBL_MAX FLT_EPSILON DBL_EPSILON LDBL_EPSILON FLT_MIN DBL_MIN LDBL_MIN FLT_TRUE_MIN "
     "DBL_TRUE_MIN LDBL_TRUE_MIN"},
    // C17 library types the generated code or its headers spell.
    {Kind::Type, "a type of the C standard library, defined in <stdint.h>",
     "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t int_least8_t "
     "int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t uint_least32_t "
     "uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t "
     "uint_fast16_t uint_fast32_t uint_fast64_t intptr_t uintptr_t intmax_t uintmax_t"},
    {Kind::Type, "a type of the C standard library, defined in <stddef.h>",
     "size_t ptrdiff_t max_align_t"},
    {Kind::Type, "a type of the C standard library, defined in <stdio.h>", "FILE fpos_t"},
    // What the generated code and the runtime headers spell without qualification.
    {Kind::Generated, "the namespace of the C++ standard library, used by the generated code",
     "std"},
    {Kind::Generated, "the namespace of ntc's runtime, used by the generated code", "ntc"},
    {Kind::Generated, "the index type of ntc's generated programs", "Index"},
    {Kind::Generated, "a DLPack name, used by the generated code",
     "DLTensor DLManagedTensor DLDevice DLDeviceType DLDataType DLDataTypeCode kDLCPU kDLCUDA"},
    {Kind::Generated, "a CUDA built-in variable", "threadIdx blockIdx blockDim gridDim warpSize"},
    {Kind::Generated, "a CUDA type, used by the generated code",
     "dim3 cudaStream_t cudaError_t"},
};
// clang-format on

const std::unordered_map<std::string, Entry> &table() {
  static const std::unordered_map<std::string, Entry> t = [] {
    std::unordered_map<std::string, Entry> m;
    auto add = [&](const std::string &name, const Group &g) {
      m.emplace(name, Entry{g.kind, g.what}); // the first group that lists a name wins
    };
    for (const Group &g : kGroups) {
      std::string names = g.names;
      size_t start = 0;
      while (start < names.size()) {
        size_t end = names.find(' ', start);
        if (end == std::string::npos)
          end = names.size();
        std::string name = names.substr(start, end - start);
        if (!name.empty()) {
          add(name, g);
          if (g.mathVariants) {
            add(name + "f", g);
            add(name + "l", g);
          }
        }
        start = end + 1;
      }
    }
    return m;
  }();
  return t;
}

const Entry *lookup(std::string_view name) {
  auto it = table().find(std::string(name));
  return it == table().end() ? nullptr : &it->second;
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// A non-empty run of decimal digits without a leading zero (as std::to_string writes them).
bool isCanonicalNumber(std::string_view s) {
  if (s.empty() || (s.size() > 1 && s[0] == '0'))
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

bool isDigits(std::string_view s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

/// The reserved prefixes, whatever the name is used for.
std::string reservedPrefix(std::string_view name) {
  if (startsWith(name, "ntc_") || startsWith(name, "NTC_"))
    return "names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code";
  if (startsWith(name, "__") ||
      (name.size() > 1 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1]))))
    return "names beginning with '__' or with '_' and an upper-case letter are reserved for the "
           "C and C++ implementation";
  return "";
}

/// The rules shared by parameters, meta-parameters and nt::Constexpr names.
/// Why C, C++ or the generated code's own spellings keep `name` from naming a value.
std::string reservedCName(std::string_view name) {
  if (const Entry *e = lookup(name); e && e->kind != Kind::Function)
    return e->what;
  return reservedPrefix(name);
}

std::string reservedValueName(std::string_view name, const std::vector<TensorName> &tensors) {
  if (std::string why = reservedCName(name); !why.empty())
    return why;
  return generatedSymbol(name, tensors);
}

} // namespace

bool isIdentifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

std::string generatedSymbol(std::string_view name, const std::vector<TensorName> &tensors) {
  const std::string quoted = "'" + std::string(name) + "'";
  if (startsWith(name, "pid") && isDigits(name.substr(3)))
    return quoted + " is the name ntc gives to the program's coordinate in dimension " +
           std::string(name.substr(3)) + " of the launch grid";
  if (startsWith(name, "lane") && isDigits(name.substr(4)))
    return quoted +
           " is the name ntc gives to the position of an element within a tile in "
           "dimension " +
           std::string(name.substr(4));
  if (startsWith(name, "NP2_") && isDigits(name.substr(4)))
    return quoted +
           " is the name ntc gives to the power-of-two tile extent that stands for "
           "run-time sizes up to " +
           std::string(name.substr(4));
  for (const TensorName &t : tensors)
    for (const char *what : {"size", "stride"}) {
      std::string prefix = t.name + "_" + what + "_";
      if (!startsWith(name, prefix))
        continue;
      std::string_view d = name.substr(prefix.size());
      if (isCanonicalNumber(d) && d.size() < 4 && std::stoi(std::string(d)) < t.rank)
        return quoted + " is the name ntc gives to the " + what + " of '" + t.name +
               "' in dimension " + std::string(d);
    }
  for (const TensorName &t : tensors)
    if (t.jagged && (name == t.name + "_seq_start" || name == t.name + "_seq_len"))
      return quoted + " is the name ntc gives to the " +
             (name == t.name + "_seq_len" ? "length" : "first row") +
             " of the batch entry a program reads of jagged tensor '" + t.name + "'";
  return "";
}

std::string reservedKernelName(std::string_view name) {
  if (!isIdentifier(name))
    return "not a C identifier";
  if (const Entry *e = lookup(name))
    return e->what;
  return reservedPrefix(name);
}

std::string reservedParameterName(std::string_view name, const std::vector<TensorName> &tensors) {
  // Generated code never spells a parameter's name where a generated symbol lives (see
  // compiler/codegen/Names.h), so `x_size_0` or `pid0` are fine as parameters; only names
  // that C and C++ themselves reserve are not, and the offsets parameter of a jagged tensor,
  // which the generated function takes next to it.
  for (const TensorName &t : tensors)
    if (t.jagged && name == t.name + "_offsets")
      return "the generated function takes the offsets of jagged tensor '" + t.name +
             "' under this name";
  return reservedCName(name);
}

std::string reservedSymbolName(std::string_view name, const std::vector<TensorName> &tensors) {
  if (!isIdentifier(name))
    return "not a C identifier";
  return reservedValueName(name, tensors);
}

} // namespace ntc
