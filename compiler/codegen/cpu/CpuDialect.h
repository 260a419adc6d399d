//===- CpuDialect.h - how the CPU tile library spells things --------------===//
#pragma once

#include "codegen/TileProgram.h"

namespace ntc::codegen {

/// ntc::cpu: dynamically shaped tiles; a program is a function template over the index
/// type, run once per grid element by the wrapper's parallel loop.
class CpuDialect : public Dialect {
public:
  std::string ns() const override;
  std::string element(DType t) const override;
  std::string laneIndexType() const override;
  std::string creation(const std::string &fn, const std::string &element,
                       const std::vector<int64_t> &shape,
                       const kir::LayoutRef &layout) const override;
  std::string scratch() const override;
  bool explicitBroadcast() const override;
  std::string withAxis(const std::string &op, const std::string &x, int64_t axis,
                       bool communicates) const override;
  std::string broadcastTo(const std::string &x, const std::vector<int64_t> &shape) const override;
  std::string prologue(const kir::Function &f, const std::string &name) const override;
  std::string epilogue() const override;
};

} // namespace ntc::codegen
