//===- TileLayout.cpp - GPU tile layouts ----------------------------------===//
#include "ir/TileLayout.h"

namespace ntc::kir {

std::string TileLayout::str() const {
  switch (kind) {
  case Kind::Blocked:
    return "#blocked<" + std::to_string(threads) +
           (chunk > 0 ? ", chunk=" + std::to_string(chunk) : std::string()) + ">";
  case Kind::Mma:
    return "#mma<" + std::to_string(warpsM) + "x" + std::to_string(warpsN) + ">";
  case Kind::DotA:
  case Kind::DotB:
    return std::string(kind == Kind::DotA ? "#dot_a<" : "#dot_b<") + parent->str() +
           ", k=" + std::to_string(kWidth) + ">";
  case Kind::Slice:
    return "#slice<" + parent->str() + ", dim=" + std::to_string(dim) + ">";
  case Kind::LanePartial:
    return "#lane_partial<" + parent->str() + ">";
  case Kind::Shared:
    return "#shared<offset=" + (offset < 0 ? std::string("?") : std::to_string(offset)) +
           (swizzle > 0 ? ", swizzle=" + std::to_string(swizzle) + "B" : ", pad=16B") +
           (transposed ? ", transposed" : "") +
           (buffer >= 0 ? ", buffer=" + std::to_string(buffer) + ", stages=" +
                              std::to_string(stages) + "x" + std::to_string(stageBytes) + "B"
                        : std::string()) +
           ">";
  }
  return "#?";
}

std::string TileLayout::deviceType() const {
  switch (kind) {
  case Kind::Blocked:
    if (chunk > 0)
      return "ntc::dev::Chunked<" + std::to_string(threads) + ", " + std::to_string(chunk) + ">";
    return "ntc::dev::Blocked<" + std::to_string(threads) + ">";
  case Kind::Mma:
    return "ntc::dev::Mma<" + std::to_string(warpsM) + ", " + std::to_string(warpsN) + ">";
  case Kind::DotA:
    return "ntc::dev::DotA<" + parent->deviceType() + ">";
  case Kind::DotB:
    return "ntc::dev::DotB<" + parent->deviceType() + ">";
  case Kind::Slice:
    return "ntc::dev::Slice<" + parent->deviceType() + ", " + std::to_string(dim) + ">";
  case Kind::LanePartial:
    return "ntc::dev::LanePartial<" + parent->deviceType() + ">";
  case Kind::Shared:
    return swizzle > 0 ? "ntc::dev::Swizzled<" + std::to_string(swizzle) + ">" : "ntc::dev::Padded";
  }
  return "";
}

bool TileLayout::tensorCore() const {
  return kind == Kind::Mma || kind == Kind::DotA || kind == Kind::DotB ||
         ((kind == Kind::Slice || kind == Kind::LanePartial) && parent->tensorCore());
}

bool sameLayout(const LayoutRef &a, const LayoutRef &b) {
  if (!a || !b)
    return !a && !b;
  return a->kind == b->kind && a->threads == b->threads && a->chunk == b->chunk &&
         a->warpsM == b->warpsM && a->warpsN == b->warpsN && sameLayout(a->parent, b->parent) &&
         a->dim == b->dim && a->kWidth == b->kWidth && a->offset == b->offset &&
         a->transposed == b->transposed && a->buffer == b->buffer && a->stages == b->stages &&
         a->stageBytes == b->stageBytes && a->swizzle == b->swizzle;
}

std::string layoutString(const LayoutRef &l) { return l ? l->str() : "#blocked"; }

LayoutRef blockedLayout(int threads) {
  TileLayout l;
  l.threads = threads;
  return std::make_shared<const TileLayout>(l);
}

LayoutRef chunkedLayout(int threads, int chunk) {
  TileLayout l;
  l.threads = threads;
  l.chunk = chunk;
  return std::make_shared<const TileLayout>(l);
}

LayoutRef mmaLayout(int warpsM, int warpsN) {
  TileLayout l;
  l.kind = TileLayout::Kind::Mma;
  l.warpsM = warpsM;
  l.warpsN = warpsN;
  return std::make_shared<const TileLayout>(l);
}

LayoutRef dotOperandLayout(const LayoutRef &parent, int operand, int kWidth) {
  TileLayout l;
  l.kind = operand == 0 ? TileLayout::Kind::DotA : TileLayout::Kind::DotB;
  l.parent = parent;
  l.kWidth = kWidth;
  return std::make_shared<const TileLayout>(l);
}

LayoutRef sliceLayout(const LayoutRef &parent, int dim) {
  TileLayout l;
  l.kind = TileLayout::Kind::Slice;
  l.parent = parent;
  l.dim = dim;
  return std::make_shared<const TileLayout>(l);
}

LayoutRef lanePartialLayout(const LayoutRef &slice) {
  TileLayout l;
  l.kind = TileLayout::Kind::LanePartial;
  l.parent = slice;
  return std::make_shared<const TileLayout>(l);
}

bool lanesOnlySlice(const LayoutRef &l) {
  if (!l || l->kind != TileLayout::Kind::Slice || !l->parent ||
      l->parent->kind != TileLayout::Kind::Mma)
    return false;
  return l->dim == 1 ? l->parent->warpsN == 1 : l->parent->warpsM == 1;
}

LayoutRef sharedLayout(int64_t offset, bool transposed) {
  return pipelinedLayout(-1, 1, 0, offset, transposed);
}

LayoutRef pipelinedLayout(int buffer, int stages, int64_t stageBytes, int64_t offset,
                          bool transposed, int swizzle) {
  TileLayout l;
  l.kind = TileLayout::Kind::Shared;
  l.offset = offset;
  l.transposed = transposed;
  l.buffer = buffer;
  l.stages = stages;
  l.stageBytes = stageBytes;
  l.swizzle = swizzle;
  return std::make_shared<const TileLayout>(l);
}

} // namespace ntc::kir
