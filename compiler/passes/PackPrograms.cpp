//===- PackPrograms.cpp - several one-warp programs per block -------------===//
//
// A program of one warp alone in its block leaves most of an SM idle: an SM holds at most 32
// blocks, so one-warp blocks fill half its warp slots, and launching many tiny blocks costs
// time of its own (row-wise softmax of short rows is such a program). Running four such
// programs in one block of four warps, warp w taking program blockIdx.x · 4 + w, lifts both
// limits, as PyTorch's softmax does with four rows per block. It is safe when no operation of
// the program communicates through shared memory or block-wide barriers: then each warp only
// ever talks to itself (full reductions shuffle within the warp), and a warp past the last
// program may leave at once.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace ntc::passes {

namespace {

/// Programs one block runs when they qualify.
constexpr int kProgramsPerBlock = 4;

/// True when the device library computes `v` in each thread's registers or with shuffles
/// inside a warp (no shared memory, no block barrier) for a one-warp program.
bool warpLocal(const kir::Value &v) {
  switch (v->kind) {
  case kir::ValueKind::Reduce:
    return v->allAxes; // axis reductions go through shared memory
  case kir::ValueKind::BroadcastTo: {
    const int64_t from = shapeElements(v->operands[0]->type.shape);
    return from == 1 || from == shapeElements(v->type.shape);
  }
  case kir::ValueKind::Dot:
  case kir::ValueKind::Trans:
  case kir::ValueKind::ConvertLayout:
  case kir::ValueKind::SharedStage:
    return false;
  default:
    return true;
  }
}

} // namespace

int programsPerBlock(const kir::Function &laidOut, int threads) {
  if (threads != 32)
    return 1;
  bool packable = true;
  kir::forEachValue(laidOut.body,
                    [&](const kir::Value &v) { packable = packable && warpLocal(v); });
  kir::forEachStmt(laidOut.body, [&](const kir::Stmt &s) {
    packable = packable && s->kind != kir::StmtKind::AsyncCopy &&
               s->kind != kir::StmtKind::AsyncCommit && s->kind != kir::StmtKind::AsyncWait;
    return true;
  });
  return packable ? kProgramsPerBlock : 1;
}

} // namespace ntc::passes
