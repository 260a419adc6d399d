//===- Tuning.cpp - the keys a tuning table entry is looked up by ---------===//
#include "Tuning.h"

#include "Dtype.h"

namespace ntc::tune {

int64_t sizeBucket(int64_t n) {
  if (n <= 0)
    return 0;
  int64_t bucket = 1;
  while (bucket < n && bucket < (int64_t(1) << 62))
    bucket <<= 1;
  return bucket;
}

std::string alignmentClass(const std::vector<const DLTensor *> &tensors) {
  for (const DLTensor *t : tensors) {
    auto address = reinterpret_cast<uintptr_t>(t->data) + t->byte_offset;
    if (address % 16 != 0)
      return "any";
    int64_t bytes = elementBytes(t->dtype);
    for (int32_t d = 0; d < t->ndim; ++d) {
      if (t->shape[d] == 1)
        continue; // never stepped
      int64_t stride = t->strides ? t->strides[d] : 1;
      if (!t->strides) {
        // Compact row-major: the stride is the product of the later sizes.
        stride = 1;
        for (int32_t e = d + 1; e < t->ndim; ++e)
          stride *= t->shape[e];
      }
      if (stride != 1 && (stride * bytes) % 16 != 0)
        return "any";
    }
  }
  return "aligned16";
}

} // namespace ntc::tune
