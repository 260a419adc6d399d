// Unit tests of alternate-warpgroups (compiler/passes/AlternateWarpgroups.cpp): which loops the
// warpgroups take turns in, where the turns go, and what leaves a function unchanged.
#include "passes/Passes.h"

#include <catch2/catch.hpp>

using namespace ntc;

namespace {

/// A 64×64 local of `dtype` in `layout`.
kir::Value tile(const std::string &name, DType dtype, kir::LayoutRef layout) {
  return kir::makeLocal(
      name, kir::TileType{dtype, {Expr(int64_t{64}), Expr(int64_t{64})}, std::move(layout)});
}

/// `a · b (+ acc)` laid out as a wgmma accumulator of four warps.
kir::Value product(const kir::Value &a, const kir::Value &b, const kir::Value &acc = nullptr) {
  const kir::Value dot = acc ? kir::makeDotAccumulate(a, b, acc) : kir::makeDot(a, b);
  return kir::withLayout(dot, kir::mmaLayout(4, 1), dot->operands);
}

/// An attention-like function after release-stages: a loop of ring 0 that issues the next
/// first product and this iteration's last, waits for them and releases its stage; `extra` goes
/// at the end of the loop's body. `released`: the ring refills by its last releaser.
kir::Function rotatedLoop(bool released, std::vector<kir::Stmt> extra = {}) {
  const kir::LayoutRef mma = kir::mmaLayout(4, 1);
  const kir::Value q = tile("q", DType::Float16, kir::sharedLayout(0, false));
  const kir::Value p = tile("p", DType::Float16, kir::dotOperandLayout(mma, 0, 2));
  const kir::Value k = tile("k", DType::Float16, kir::sharedLayout(8192, true));
  const kir::Value acc = tile("acc", DType::Float32, mma);
  std::vector<kir::Stmt> body = {
      kir::makeAsyncWait(0, Expr::symbol("i") + 1, Expr(int64_t{0}), 0),
      kir::makeDotIssue("s", product(q, k)),
      kir::makeDotIssue("acc", product(p, k, acc)),
      kir::makeDotWait("s", 1, false),
      kir::makeDotWait("acc"),
      kir::makeStageRelease(Expr::symbol("i"), Expr(int64_t{0}), 0, {}),
  };
  body.insert(body.end(), extra.begin(), extra.end());
  kir::Function f;
  f.body = {kir::makeFor("i", Expr(int64_t{0}), Expr::symbol("n") - 1, Expr(int64_t{1}), body)};
  kir::TmaRing ring;
  ring.group = 0;
  ring.stages = 2;
  ring.arrivals = 2;
  ring.releasers = 8;
  ring.lastReleaserRefills = released;
  f.tmaRings = {ring};
  return f;
}

/// sm_90a with the knob pingpong=`pingpong` (and release=1, which it needs).
GpuTarget hopper(int pingpong) {
  GpuTarget gpu;
  gpu.archs = {*gpuArch("90a")};
  gpu.knobs.tma = 1;
  gpu.knobs.release = 1;
  gpu.knobs.pingpong = pingpong;
  return gpu;
}

/// The kinds of `body`'s statements, with the acting warpgroup of turns ("pass 1", "wait").
std::vector<std::string> kinds(const std::vector<kir::Stmt> &body) {
  std::vector<std::string> out;
  for (const kir::Stmt &s : body) {
    const std::string who = s->group >= 0 ? " " + std::to_string(s->group) : "";
    switch (s->kind) {
    case kir::StmtKind::TurnWait:
      out.push_back("wait" + who);
      break;
    case kir::StmtKind::TurnPass:
      out.push_back("pass" + who);
      break;
    case kir::StmtKind::DotIssue:
      out.push_back("issue " + s->var);
      break;
    case kir::StmtKind::For:
      out.push_back("for");
      break;
    default:
      out.push_back("other");
    }
  }
  return out;
}

} // namespace

TEST_CASE("alternate-warpgroups: turns around the products of a released loop", "[passes]") {
  const kir::Function f = rotatedLoop(true);
  const kir::Function turned = passes::alternateWarpgroups(f, 256, hopper(1));
  // The last warpgroup passes first; warpgroup 0 takes the last pass after the loop.
  CHECK(kinds(turned.body) == std::vector<std::string>{"pass 1", "for", "wait 0"});
  CHECK(turned.body[0]->begin.constValue() == 2);
  CHECK(kinds(turned.body[1]->body) == std::vector<std::string>{"other", "wait", "issue s",
                                                                "issue acc", "pass", "other",
                                                                "other", "other"});
  // Three warpgroups go round: the third passes first.
  const kir::Function three = passes::alternateWarpgroups(f, 384, hopper(1));
  CHECK(kinds(three.body) == std::vector<std::string>{"pass 2", "for", "wait 0"});
  CHECK(three.body[0]->begin.constValue() == 3);
}

TEST_CASE("alternate-warpgroups: what leaves a function unchanged", "[passes]") {
  const kir::Function f = rotatedLoop(true);
  auto unchanged = [&](const kir::Function &in, int threads, const GpuTarget &gpu) {
    return passes::alternateWarpgroups(in, threads, gpu).body == in.body;
  };
  CHECK(unchanged(f, 256, hopper(0))); // no knob
  CHECK(unchanged(f, 128, hopper(1))); // one warpgroup: no one to take turns with
  CHECK(unchanged(f, 96, hopper(1)));  // not whole warpgroups
  GpuTarget ampere = hopper(1);
  ampere.archs = {*gpuArch("80")};
  CHECK(unchanged(f, 256, ampere)); // no wgmma, no releases
  // A ring refilled after a barrier of every thread keeps the warpgroups in step.
  CHECK(unchanged(rotatedLoop(false), 256, hopper(1)));
  // So does a barrier in the loop, or a product that exchanges through shared memory.
  CHECK(unchanged(rotatedLoop(true, {kir::makeBarrier()}), 256, hopper(1)));
  const kir::Value blocked =
      kir::makeDot(tile("x", DType::Float16, nullptr), tile("y", DType::Float16, nullptr));
  CHECK(unchanged(rotatedLoop(true, {kir::makeAssign("z", blocked)}), 256, hopper(1)));
}

TEST_CASE("turn statements: two warpgroups or more", "[ir]") {
  CHECK(kir::makeTurnWait(2)->group == -1);
  CHECK(kir::makeTurnPass(4, 3)->group == 3);
  CHECK_THROWS_WITH(kir::makeTurnWait(1), "turn_wait: two warpgroups or more take turns");
  CHECK_THROWS_WITH(kir::makeTurnPass(2, 2), "turn_pass: two warpgroups or more take turns");
}
