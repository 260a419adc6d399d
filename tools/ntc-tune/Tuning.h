//===- Tuning.h - the keys a tuning table entry is looked up by -----------===//
//
// What the generated dispatch computes for a call (see docs/tuning.md): each size's bucket and
// the alignment class of the tensors, with the dispatcher's functions (ntc/rt/tuning.hpp).
//
//===----------------------------------------------------------------------===//
#ifndef NTC_TUNE_TUNING_H
#define NTC_TUNE_TUNING_H

#include <ntc/runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ntc::tune {

/// The bucket of a size: the next power of two at least `n` (0 stays 0, 1 is 1).
int64_t sizeBucket(int64_t n);

/// "aligned16" when every tensor's data pointer plus byte_offset is a multiple of 16 bytes
/// and every stride other than 1 (of a dimension of size other than 1) is a multiple of 16
/// bytes, else "any".
std::string alignmentClass(const std::vector<const DLTensor *> &tensors);

} // namespace ntc::tune

#endif // NTC_TUNE_TUNING_H
