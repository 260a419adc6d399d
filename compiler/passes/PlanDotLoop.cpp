//===- PlanDotLoop.cpp - GEMM main loops that run as one pipelined call ---===//
//
// The loop `for k in [b, e): acc = acc + dot(load a[..k..], load b[..k..])` (the GEMM of
// NineToothed's matmul, addmm, bmm, linear ...) is handed whole to ntc::dev::dot_loop, which
// keeps the accumulator in tensor-core fragments and streams the operand tiles through a ring
// of shared buffers. This pass recognises such loops and plans their ring.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <ntc/device/layout.cuh>

#include <algorithm>

namespace ntc::passes {

namespace {

/// Largest ring the planner aims for when two blocks share an SM; less when two would not fit
/// in one SM of the architecture it tunes for.
constexpr int64_t kRingBudget = 100 * 1024;

/// Registers of an SM, and those a thread of a GEMM loop needs beside its accumulators
/// (two fragment buffers, addresses): a block that needs more than half of the SM's registers
/// runs alone on it.
constexpr int64_t kSmRegisters = 64 * 1024;
constexpr int64_t kLoopRegisters = 64;

/// Most stages of a ring that shares its SM, and of one that has it alone.
constexpr int kSharedStages = 4;
constexpr int kAloneStages = 8;

/// Shared memory a block keeps for itself beside the ring (the write-back's bookkeeping).
constexpr int64_t kReserve = 2 * 1024;

int64_t align16(int64_t bytes) { return (bytes + 15) / 16 * 16; }

bool isLoad(const kir::Value &v) { return v->kind == kir::ValueKind::Load; }

std::optional<int64_t> extent(const kir::Value &v, size_t d) {
  if (v->type.shape.size() != 2)
    return std::nullopt;
  return v->type.shape[d].asConst();
}

} // namespace

std::optional<DotLoop> planDotLoop(const kir::Stmt &s, int threads, const GpuTarget &gpu) {
  if (s->kind != kir::StmtKind::For || s->step != Expr(1) || s->body.size() != 1)
    return std::nullopt;
  const kir::Stmt &update = s->body[0];
  if (update->kind != kir::StmtKind::Assign)
    return std::nullopt;
  const kir::Value &sum = update->value;
  if (sum->kind != kir::ValueKind::Binary || sum->op != "add" || sum->type.dtype != DType::Float32)
    return std::nullopt;
  // acc + dot(...) or dot(...) + acc.
  const kir::Value *acc = nullptr, *product = nullptr;
  for (int i = 0; i < 2; ++i) {
    const kir::Value &x = sum->operands[i], &y = sum->operands[1 - i];
    if (x->kind == kir::ValueKind::Local && x->local == update->var &&
        y->kind == kir::ValueKind::Dot) {
      acc = &x;
      product = &y;
    }
  }
  if (!acc || (*acc)->type.dtype != DType::Float32 || (*acc)->type.shape != sum->type.shape ||
      (*product)->type.dtype != DType::Float32 || (*product)->type.shape != sum->type.shape)
    return std::nullopt;
  const kir::Value &a = (*product)->operands[0], &b = (*product)->operands[1];
  if (!isLoad(a) || !isLoad(b) || a->type.dtype != b->type.dtype ||
      (a->type.dtype != DType::Float16 && a->type.dtype != DType::BFloat16))
    return std::nullopt;
  auto bm = extent(a, 0), bk = extent(a, 1), bk2 = extent(b, 0), bn = extent(b, 1);
  if (!bm || !bk || !bk2 || !bn || *bk != *bk2 || *bk % 16 != 0 || threads % 32 != 0 ||
      !dev::layout::swizzles(static_cast<int>(*bk), 2) ||
      !dev::layout::swizzles(static_cast<int>(*bn), 2) ||
      dev::layout::gemm_warp_rows(static_cast<int>(*bm), static_cast<int>(*bn), threads / 32) == 0)
    return std::nullopt;
  DotLoop plan;
  plan.acc = update->var;
  plan.a = a;
  plan.b = b;
  plan.bm = *bm;
  plan.bk = *bk;
  plan.bn = *bn;
  int64_t stage = align16(2 * *bm * *bk) + align16(2 * *bk * *bn);
  // Two blocks per SM on the tuned architecture, or one that has the SM's shared memory alone
  // (a deeper ring: measured on the H200, 6–8 stages instead of 4 ran a 4096×4096×512 GEMM 11%
  // faster); never more than every target allows a block.
  const bool alone = 2 * threads * (*bm * *bn / threads + kLoopRegisters) > kSmRegisters;
  const int64_t perSm = gpu.tuning().sharedPerMultiprocessor;
  const int64_t budget = alone ? perSm - kReserve : std::min(kRingBudget, perSm / 2 - kReserve);
  const int64_t limit = gpu.sharedPerBlock() - kReserve;
  plan.stages = static_cast<int>(std::clamp<int64_t>(std::min(budget, limit) / stage, 2,
                                                     alone ? kAloneStages : kSharedStages));
  if (gpu.knobs.stages > 0)
    plan.stages = gpu.knobs.stages;
  plan.smemBytes = plan.stages * stage;
  // A pass whose fragments tile the block otherwise exchanges the accumulator through the ring,
  // 8 rows at least.
  if (plan.smemBytes > limit || plan.smemBytes < 8 * 4 * *bn)
    return std::nullopt;
  const int warps = threads / 32;
  const int warpRows = dev::layout::gemm_accumulator_warp_rows(
      static_cast<int>(*bm), static_cast<int>(*bk), static_cast<int>(*bn), threads, plan.stages,
      gpu.tuning().wgmma());
  plan.accumulator = kir::mmaLayout(warpRows, warps / warpRows);
  return plan;
}

bool accumulatorStartsAtZero(const kir::Stmt &previous, const DotLoop &loop) {
  if (!previous || previous->var != loop.acc ||
      (previous->kind != kir::StmtKind::Define && previous->kind != kir::StmtKind::Assign))
    return false;
  const kir::Value &v = previous->value;
  return v->kind == kir::ValueKind::Full && v->number == 0;
}

} // namespace ntc::passes
