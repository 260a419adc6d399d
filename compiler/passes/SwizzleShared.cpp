//===- SwizzleShared.cpp - swizzled layouts for the pipelined stage buffers --===//
//
// The stage buffers of pipelined copies (passes/PipelineLoads.cpp) hold the B operands of
// tensor-core products. Padded rows (16 bytes after each) keep ldmatrix free of bank conflicts,
// but Hopper's wgmma reads shared memory only through descriptors of its canonical layouts, in
// which the rows of a block of columns are contiguous and 16-byte units are XOR-swizzled within
// 1024-byte atoms. This pass gives every stage buffer of 16-bit elements whose buffer rows come
// in multiples of eight and span a whole number of 32-, 64- or 128-byte blocks that swizzled
// layout (ntc::dev::Swizzled<RowBytes>, the widest block that divides a row): the device library
// then multiplies with wgmma on sm_90a and with ldmatrix, still conflict-free, elsewhere. A stage
// of a swizzled buffer takes whole kilobytes, so that every stage starts 1024-byte aligned.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace ntc::passes {

namespace {

using namespace kir;

/// The layout of a pipelined stage buffer of a tile with `type`, swizzled when it can be.
LayoutRef swizzled(const TileType &type) {
  const LayoutRef &l = type.layout;
  const int64_t rows = type.shape[l->transposed ? 1 : 0].constValue();
  const int64_t cols = type.shape[l->transposed ? 0 : 1].constValue();
  const int swizzle = sharedSwizzle(type.dtype, rows, cols);
  if (swizzle == 0)
    return nullptr;
  const int64_t bytes = rows * cols * dtypeBytes(type.dtype);
  return pipelinedLayout(l->buffer, l->stages, (bytes + 1023) / 1024 * 1024, l->offset,
                         l->transposed, swizzle);
}

class Swizzler {
public:
  std::vector<Stmt> stmts(const std::vector<Stmt> &body) {
    return mapStmtValues(body, [&](const Value &v) { return value(v); });
  }

private:
  Value value(const Value &v) {
    return mapValue(
        v,
        [&](const Value &node, const std::vector<Value> &operands) -> Value {
          const LayoutRef &l = node->type.layout;
          if (!l || l->kind != TileLayout::Kind::Shared || l->buffer < 0 || l->swizzle > 0)
            return nullptr;
          LayoutRef s = swizzled(node->type);
          return s ? withLayout(node, s, operands) : nullptr;
        },
        memo_);
  }

  ValueMemo memo_;
};

} // namespace

int sharedSwizzle(DType dtype, int64_t rows, int64_t cols) {
  if (dtypeBytes(dtype) != 2 || rows % 8 != 0)
    return 0;
  const int64_t rowBytes = cols * dtypeBytes(dtype);
  for (int block : {128, 64, 32})
    if (rowBytes % block == 0)
      return block;
  return 0;
}

kir::Function swizzleShared(const kir::Function &pipelined) {
  Function out = pipelined;
  out.body = Swizzler().stmts(pipelined.body);
  return out;
}

} // namespace ntc::passes
