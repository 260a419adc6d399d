//===- Tuning.cpp - the keys a tuning table entry is looked up by ---------===//
//
// The generated dispatcher's own definitions (ntc/rt/tuning.hpp), so that a table's keys mean
// the same when ntc-tune writes them and when the dispatcher matches them.
//
//===----------------------------------------------------------------------===//
#include "Tuning.h"

#include <ntc/rt/tuning.hpp>

namespace ntc::tune {

int64_t sizeBucket(int64_t n) { return ntc::rt::size_bucket(n); }

std::string alignmentClass(const std::vector<const DLTensor *> &tensors) {
  for (const DLTensor *t : tensors)
    if (!ntc::rt::aligned16(t))
      return "any";
  return "aligned16";
}

} // namespace ntc::tune
