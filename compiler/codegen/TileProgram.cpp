//===- TileProgram.cpp - one program of a specialized kernel --------------===//
//
// A program is one element of the grid: it unravels its program id into the grid
// coordinates and runs the kernel IR's statements on tile values. Every integer index
// computation is done in the template parameter `Index` (int32_t or int64_t, chosen at
// launch).
//
//===----------------------------------------------------------------------===//
#include "codegen/TileProgram.h"

#include "codegen/CppExpr.h"
#include "codegen/Names.h"

#include "ir/Operations.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace ntc::codegen {

using namespace kir;

namespace {

std::string doubleLiteral(double v) { return cppDoubleLiteral(v); }

/// An emitted value: a C++ expression that is a Tile (isTile) or a plain element.
struct Emitted {
  std::string code;
  bool isTile;
};

class ProgramEmitter {
public:
  ProgramEmitter(const Function &f, const passes::GridInfo &grid, const Dialect &dialect,
                 std::ostringstream &os)
      : f_(f), grid_(grid), d_(dialect), ns_(dialect.ns()), os_(os) {
    for (const ParamSpec &p : f.spec.params)
      for (int d = 0; d < p.ndim; ++d) {
        known_[p.sizeSymbol(d)] = sizeName(p, d);
        known_[p.strideSymbol(d)] = strideName(p, d);
      }
    for (const ParamSpec &p : f.spec.params)
      if (p.jaggedDim) {
        known_[p.seqStartSymbol()] = seqStartName(p);
        known_[p.seqLenSymbol()] = seqLenName(p);
      }
  }

  void emit(const std::string &name) {
    os_ << d_.prologue(f_, name);
    indent_ = 1;
    for (size_t i = 0; i < f_.spec.params.size(); ++i) {
      const ParamSpec &p = f_.spec.params[i];
      for (int d = 0; d < p.ndim; ++d) {
        line("[[maybe_unused]] const Index " + sizeName(p, d) + " = static_cast<Index>(ntc_args." +
             sizeName(p, d) + ");");
        const std::string stride = d_.unitStride(static_cast<int>(i), d)
                                       ? "1; // the dispatcher checked it"
                                       : "static_cast<Index>(ntc_args." + strideName(p, d) + ");";
        line("[[maybe_unused]] const Index " + strideName(p, d) + " = " + stride);
      }
    }
    if (f_.warpSpecialization && f_.warpSpecialization->persistent) {
      warpSpecialized();
      os_ << d_.epilogue();
      return;
    }
    if (f_.warpSpecialization) {
      withProducer();
      os_ << d_.epilogue();
      return;
    }
    if (d_.programsPerBlock() > 1) {
      std::string programs;
      for (const Expr &e : grid_.extents)
        programs += (programs.empty() ? "" : " * ") + integer(e);
      line("if (ntc_program >= " + (programs.empty() ? std::string("1") : programs) +
           ")\n    return; // past the last program");
    }
    programCoordinates();
    jaggedBatches();
    bodyInTurns();
    os_ << d_.epilogue();
  }

private:
  void line(const std::string &s) { os_ << std::string(indent_ * 2, ' ') << s << "\n"; }

  /// The coordinates of program `ntc_program` (pid0, pid1, ...).
  void programCoordinates() {
    line(
        "// Program coordinates: the program id unravelled over the grid, last dimension fastest.");
    line("[[maybe_unused]] Index ntc_rest = static_cast<Index>(ntc_program);");
    size_t unravelled = grid_.extents.size();
    if (grid_.bandRows > 0 && unravelled >= 2) {
      unravel("ntc_rest", grid_.bandColumn + 1, unravelled, false);
      bandedPlane();
      unravelled = grid_.bandRowsFirst;
    }
    unravel("ntc_rest", 0, unravelled, true);
  }

  /// The coordinates of grid dimensions [first, end) unravelled from the index in `rest`, the
  /// last fastest; the first takes what is left when `whole` (no other dimension before it).
  void unravel(const std::string &rest, size_t first, size_t end, bool whole) {
    for (size_t d = end; d-- > first;) {
      const std::string extent = integer(grid_.extents[d]);
      const bool last = whole && d == first;
      coordinate(d, last ? rest : rest + " % " + extent);
      if (!last)
        line(rest + " /= " + extent + ";");
    }
  }

  /// Program coordinate d from its position `value` in the numbering: the position itself, or
  /// counted from the end along a dimension numbered last to first (GridInfo::reversed).
  void coordinate(size_t d, const std::string &value) {
    const std::string pid = passes::programCoordinate(d);
    if (d < grid_.reversed.size() && grid_.reversed[d])
      line("[[maybe_unused]] const Index " + pid + " = " + integer(grid_.extents[d]) + " - 1 - " +
           value + "; // numbered last to first: its loops run longest");
    else
      line("[[maybe_unused]] const Index " + pid + " = " + value + ";");
  }

  /// A persistent, warp-specialized program (specialize-warps, or specialize-producer with
  /// persistent=1): the producer warpgroup, after the consumer threads, lowers its registers
  /// and its first thread issues the copies of every program of the block (the GEMM main
  /// loop's, or the producer's statements), then exits; the consumers raise their registers and
  /// run the body for each program, then wait for their last TMA store (the GEMM's).
  void warpSpecialized() {
    const kir::WarpSpecialization &w = *f_.warpSpecialization;
    const std::string consumers = std::to_string(w.consumerThreads);
    std::string programs;
    for (const Expr &e : grid_.extents)
      programs += (programs.empty() ? "" : " * ") + integer(e);
    line(
        "// Persistent: this block runs programs blockIdx.x, blockIdx.x + gridDim.x, ... Threads " +
        consumers + " and up (the producer warpgroup) copy the operands ahead.");
    line("const int64_t ntc_programs = " + (programs.empty() ? std::string("1") : programs) + ";");
    line("if (threadIdx.x >= " + consumers + ") {");
    ++indent_;
    line(ns_ + "::set_max_registers<" + std::to_string(w.producerRegisters) + ", false>();");
    line("if (threadIdx.x == " + consumers + ") {");
    ++indent_;
    if (!w.producerBody.empty()) {
      programLoop([&] { stmts(w.producerBody); });
    } else {
      line("unsigned ntc_filled = 0; // ring stages filled so far");
      programLoop([&] {
        for (const Stmt &s : f_.body)
          if (s->kind == StmtKind::For)
            dotLoopStatement(s, nullptr, DotLoopPart::Producer);
      });
    }
    // In a cluster, the other block's last releases arrive here before the block exits.
    for (const kir::TmaRing &ring : f_.tmaRings)
      if (ring.cluster > 1)
        line(ns_ + "::dot_loop_drain<" + std::to_string(ring.stages) + ">(" + ringName(ring) +
             ", ntc_filled);");
    --indent_;
    line("}");
    line("return; // an exited thread no longer holds up a barrier of the whole block");
    --indent_;
    line("}");
    line(ns_ + "::set_max_registers<" + std::to_string(w.consumerRegisters) + ", true>();");
    if (w.producerBody.empty())
      line("unsigned ntc_consumed = 0; // ring stages consumed so far");
    programLoop([&] { stmts(f_.body); });
    if (w.producerBody.empty()) // (specialize-producer refuses TMA stores)
      line(ns_ + "::tma_store_drain();");
  }

  /// True when the producer warpgroup issues the copies of the GEMM main loop (specialize-warps):
  /// the loop then prints as its consumers' part.
  bool dotLoopProducer() const {
    return f_.warpSpecialization && f_.warpSpecialization->persistent &&
           f_.warpSpecialization->producerBody.empty();
  }

  /// A program with a producer warpgroup (specialize-producer): the producer, after the
  /// consumer threads, lowers its registers and its first thread runs the producer's statements
  /// (the ring's copies), then exits; the consumers raise their registers and run the body.
  void withProducer() {
    const kir::WarpSpecialization &w = *f_.warpSpecialization;
    const std::string consumers = std::to_string(w.consumerThreads);
    programCoordinates();
    line("// Threads " + consumers + " and up (the producer warpgroup) copy the operands ahead.");
    line("if (threadIdx.x >= " + consumers + ") {");
    ++indent_;
    line(ns_ + "::set_max_registers<" + std::to_string(w.producerRegisters) + ", false>();");
    line("if (threadIdx.x == " + consumers + ") {");
    ++indent_;
    stmts(w.producerBody);
    --indent_;
    line("}");
    line("return; // the consumers meet at barriers of their own (named barrier 1)");
    --indent_;
    line("}");
    line(ns_ + "::set_max_registers<" + std::to_string(w.consumerRegisters) + ", true>();");
    bodyInTurns();
  }

  /// The body, between the turns' first and last (take-turns: warpgroup 0 first).
  void bodyInTurns() {
    for (int barrier : f_.turnBarriers)
      line(d_.turnsBegin(barrier));
    stmts(f_.body);
    for (int barrier : f_.turnBarriers)
      line(d_.turnsEnd(barrier));
  }

  /// A loop over the block's programs, each computing its coordinates and running `body`.
  void programLoop(const std::function<void()> &body) {
    line("for (int64_t ntc_program = blockIdx.x; ntc_program < ntc_programs; ntc_program += "
         "gridDim.x) {");
    ++indent_;
    programCoordinates();
    body();
    --indent_;
    line("}");
  }

  /// The coordinates of the banded plane's dimensions (GridInfo::bandRows, bandRowsFirst,
  /// bandColumn): bands of rows, column after column inside a band.
  void bandedPlane() {
    const size_t first = grid_.bandRowsFirst, cols = grid_.bandColumn;
    const std::string band = std::to_string(grid_.bandRows);
    std::string nRows;
    for (size_t d = first; d < cols; ++d)
      nRows += (nRows.empty() ? "" : " * ") + integer(grid_.extents[d]);
    if (cols - first > 1)
      nRows = "(" + nRows + ")";
    const std::string nCols = integer(grid_.extents[cols]);
    if (grid_.bandsLastTwo())
      line("// ... the last two in bands of " + band +
           " rows, column after column inside a band (grouped order: L2 reuse).");
    else
      line("// ... dimensions " + std::to_string(first) + " to " + std::to_string(cols - 1) +
           " as the rows of bands of " + band + ", dimension " + std::to_string(cols) +
           " the columns, column after column inside a band.");
    if (first == 0) {
      line("const Index ntc_in_plane = ntc_rest;");
    } else {
      line("const Index ntc_in_plane = ntc_rest % (" + nRows + " * " + nCols + ");");
      line("ntc_rest /= " + nRows + " * " + nCols + ";");
    }
    line("const Index ntc_band_first = ntc_in_plane / (" + band + " * " + nCols + ") * " + band +
         ";");
    line("const Index ntc_band_rows = " + nRows + " - ntc_band_first < " + band + " ? " + nRows +
         " - ntc_band_first : " + band + ";");
    line("const Index ntc_in_band = ntc_in_plane % (" + band + " * " + nCols + ");");
    const std::string row = "ntc_band_first + ntc_in_band % ntc_band_rows";
    if (cols - first == 1) {
      coordinate(first, row);
    } else {
      line("Index ntc_row = " + row + ";");
      unravel("ntc_row", first, cols, true);
    }
    coordinate(cols, "ntc_in_band / ntc_band_rows");
  }

  /// The first row and the length of the batch entry each jagged tensor's accesses read
  /// (passes::resolveJagged); an entry outside the batch is empty.
  void jaggedBatches() {
    for (const passes::JaggedBatch &b : passes::resolveJagged(f_.spec)) {
      const ParamSpec &p = f_.spec.params[b.param];
      const std::string entry = integer(b.batch), offsets = "ntc_args." + offsetsName(p);
      const std::string inBatch = "(" + entry + ") >= 0 && (" + entry + ") < " + sizeName(p, 0);
      line("// The batch entry of jagged '" + p.name + "' this program reads.");
      line("[[maybe_unused]] const Index " + seqStartName(p) + " = " + inBatch +
           " ? static_cast<Index>(" + offsets + "[" + entry + "]) : Index(0);");
      line("[[maybe_unused]] const Index " + seqLenName(p) + " = " + inBatch +
           " ? static_cast<Index>(" + offsets + "[(" + entry + ") + 1]) - " + seqStartName(p) +
           " : Index(0);");
    }
  }

  /// The C++ name of an integer symbol: sizes and strides are locals of the prologue,
  /// program coordinates and lanes keep their names, anything else is a loop index (the
  /// front end never gives a loop index the name of one of the others).
  std::string name(const std::string &symbol) const {
    if (auto it = known_.find(symbol); it != known_.end())
      return it->second;
    if (passes::isGeneratedIndex(symbol))
      return symbol;
    return "l_" + symbol;
  }

  std::string integer(const Expr &e) const {
    return cppExpr(
        e, [this](const std::string &s) { return name(s); }, "Index");
  }

  /// A run-time condition on integers (guard-masks' guards; compile-time ones were folded).
  std::string condition(const Cond &c) const {
    switch (c.kind) {
    case Cond::Kind::True:
      return "true";
    case Cond::Kind::False:
      return "false";
    case Cond::Kind::NonZero:
      return "(" + integer(c.a) + ") != 0";
    case Cond::Kind::Less:
      return integer(c.a) + " < " + integer(c.b);
    case Cond::Kind::LessEqual:
      return integer(c.a) + " <= " + integer(c.b);
    case Cond::Kind::Equal:
      return integer(c.a) + " == " + integer(c.b);
    case Cond::Kind::Not:
      return "!(" + condition(c.operands[0]) + ")";
    case Cond::Kind::And:
      return "(" + condition(c.operands[0]) + ") && (" + condition(c.operands[1]) + ")";
    case Cond::Kind::Or:
      return "(" + condition(c.operands[0]) + ") || (" + condition(c.operands[1]) + ")";
    }
    throw std::runtime_error("internal error: unknown condition");
  }

  std::string type(DType t) const { return d_.element(t); }

  static std::vector<int64_t> constShape(const std::vector<Expr> &shape) {
    std::vector<int64_t> s;
    for (const Expr &e : shape)
      s.push_back(e.constValue());
    return s;
  }

  /// `ns::fn<T...>(` for a creation function of a tile of this element type, shape and
  /// layout (null: blocked).
  std::string create(const std::string &fn, const std::string &element,
                     const std::vector<Expr> &shape, const LayoutRef &layout = nullptr,
                     const std::string &moreArguments = "") const {
    std::string c = d_.creation(fn, element, constShape(shape), layout);
    c.insert(c.size() - 2, moreArguments); // before the closing ">("
    return ns_ + "::" + fn + c;
  }

  /// The template argument naming a swizzled shared layout (`, ntc::dev::Swizzled<128>`); none
  /// for padded rows, the device library's default.
  std::string sharedLayoutArgument(const LayoutRef &l) const {
    return l->swizzle > 0 ? ", " + d_.layoutType(l) : std::string();
  }

  // ---- statements --------------------------------------------------------------------------

  /// Identity of a load: the parameter and its subscripts.
  static std::string loadKey(const Value &v) {
    std::string k = std::to_string(v->param);
    for (const Expr &e : v->subscripts)
      k += "," + e.key();
    return k;
  }

  /// Loads of the same tile within one statement are read once (a statement stores at most
  /// at its end, so they all see the same memory): emit them as locals first.
  void hoistRepeatedLoads(const Value &root) {
    std::map<std::string, std::pair<Value, int>> seen;
    std::function<void(const Value &)> visit = [&](const Value &v) {
      if (v->kind == ValueKind::Load) {
        auto &entry = seen[loadKey(v)];
        entry.first = v;
        ++entry.second;
      }
      for (const Value &o : v->operands)
        visit(o);
    };
    visit(root);
    for (const auto &[key, entry] : seen)
      if (entry.second > 1) {
        std::string var = "ntc_load" + std::to_string(loadCounter_++);
        line("const auto " + var + " = " + value(entry.first).code + ";");
        hoisted_[key] = var;
      }
  }

  /// Values used more than once in one statement (operands shared by several users, as an
  /// inlined helper's by-value parameter is) are emitted once, as locals before the
  /// statement, operands first; every other value is printed where it is used. Together with
  /// the memo in value() this keeps the generated code linear in the size of the IR.
  void hoistSharedValues(const Value &root) {
    std::unordered_map<const ValueNode *, int> users;
    std::vector<Value> postOrder;
    std::function<void(const Value &)> count = [&](const Value &v) {
      if (users[v.get()]++ > 0)
        return;
      for (const Value &o : v->operands)
        count(o);
      postOrder.push_back(v);
    };
    count(root);
    for (const Value &v : postOrder) {
      bool trivial = v->kind == ValueKind::Constant || v->kind == ValueKind::Local ||
                     v->kind == ValueKind::Index || v->kind == ValueKind::ScalarParam ||
                     v->kind == ValueKind::Load;
      if (users[v.get()] < 2 || trivial)
        continue;
      Emitted e = value(v);
      std::string var = "ntc_value" + std::to_string(valueCounter_++);
      line("const auto " + var + " = " + e.code + ";");
      memo_[v.get()] = {var, e.isTile};
    }
  }

  void stmts(const std::vector<Stmt> &body) {
    for (size_t i = 0; i < body.size(); ++i) {
      const Stmt &s = body[i];
      hoisted_.clear();
      memo_.clear();
      if (s->value) {
        hoistRepeatedLoads(s->value);
        memo_.clear(); // later uses of a hoisted load read its local
        hoistSharedValues(s->value);
      }
      switch (s->kind) {
      case StmtKind::Define:
        line("auto t_" + s->var + " = " + tile(s->value) + ";");
        break;
      case StmtKind::Assign:
        line("t_" + s->var + " = " + tile(s->value) + ";");
        break;
      case StmtKind::Store:
        store(*s);
        break;
      case StmtKind::For:
        dotLoopStatement(s, i ? body[i - 1] : nullptr,
                         dotLoopProducer() ? DotLoopPart::Consumer : DotLoopPart::Whole);
        break;
      case StmtKind::AsyncCommit:
        line(ns_ + "::async_commit();");
        break;
      case StmtKind::AsyncWait:
        if (const kir::TmaRing *ring = tmaRing(s->group)) {
          // A ring refilled by releases: the release orders this thread's reads of the stage
          // before its next copy (no fence here), and no barrier guards the refill.
          // Likewise a ring that a producer warpgroup refills once every warp has released the
          // stage (specialize-producer: only wgmma reads its stages).
          if (ring->lastReleaserRefills || (f_.warpSpecialization && ring->releasers > 0)) {
            line(ringName(*ring) + ".wait<false>(" + stageIndex(s->end, s->step, ring->stages) +
                 ");");
            break;
          }
          // Stages read by the tensor cores alone: nothing of this thread's to order before the
          // stage's next copy (no fence).
          line(ringName(*ring) + (ring->tensorCoreReadsOnly ? ".wait<false>(" : ".wait(") +
               stageIndex(s->end, s->step, ring->stages) + ");");
          if (!ring->asyncCopiesToo) {
            line(ns_ + "::barrier();");
            break;
          }
        }
        line(ns_ + "::async_wait<" + std::to_string(s->begin.constValue()) + ">();");
        break;
      case StmtKind::AsyncCopy:
        asyncCopy(*s);
        break;
      case StmtKind::DotIssue:
        line((s->registerOperand ? "auto " + inFlightName(s->var) + " = " : std::string()) + ns_ +
             "::dot_issue(t_" + s->var + ", " + dotArguments(s->value) + ");");
        break;
      case StmtKind::DotWait:
        if (s->registerOperand)
          line(ns_ + "::dot_wait(t_" + s->var + ", " + inFlightName(s->var) + ");");
        else
          line(ns_ + "::dot_wait<" + s->begin.str() + ">(t_" + s->var + ");");
        break;
      case StmtKind::Barrier:
        // The program's threads: a warp-specialized program's consumers (named barrier 1).
        line(f_.warpSpecialization ? "ntc_smem.sync();" : ns_ + "::barrier();");
        break;
      case StmtKind::StageRelease:
        stageRelease(*s);
        break;
      case StmtKind::StageAcquire:
        stageAcquire(*s);
        break;
      case StmtKind::StageReleaseHeld:
        if (const kir::TmaRing *ring = tmaRing(s->group))
          line(ringName(*ring) + ".release_held();");
        else
          throw std::logic_error("a release of held stages on a ring that is not planned");
        break;
      case StmtKind::If:
        line("if (" + condition(s->cond) + ") {");
        ++indent_;
        stmts(s->body);
        --indent_;
        if (!s->orelse.empty()) {
          line("} else {");
          ++indent_;
          stmts(s->orelse);
          --indent_;
        }
        line("}");
        break;
      }
    }
  }

  /// The C++ name of what the tensor cores hold for the product issued into local `var` until
  /// its wait: `ntc_` is reserved for generated names, so no kernel local (printed `t_NAME`)
  /// can take it.
  static std::string inFlightName(const std::string &var) { return "t_ntc_" + var + "_in_flight"; }

  /// Coordinates and (simplified) mask of param[subscripts].
  passes::Access resolve(int param, const std::vector<Expr> &subscripts) const {
    passes::Access access = passes::resolveAccess(f_, param, subscripts);
    passes::simplifyMask(access, grid_, f_, param);
    return access;
  }

  /// `, offset` or, for vector accesses, `, offset, chunk offset`; a dot loop's operand
  /// (`leading` set) always gets both, `ntc::dev::no_chunk{}` standing for the second.
  std::string accessLambdas(const passes::Access &access, int param, int chunk,
                            const std::string &leading = "") {
    std::string code = ", " + offsetLambda(access, param, leading);
    if (chunk > 0)
      code += ", " + offsetLambda(access, param, leading, chunk);
    else if (!leading.empty())
      code += ", " + ns_ + "::no_chunk{}";
    return code;
  }

  /// True when mask term `t` is `k < end` for an enclosing loop `for k in [begin, end)` with
  /// begin >= 0: the loop itself guarantees it.
  bool loopGuarantees(const passes::MaskTerm &t) const {
    for (const StmtNode *loop : loops_)
      if (t.value.kind() == ExprKind::Symbol && t.value.symbolName() == loop->var &&
          untied(t.extent) == untied(loop->end) && provablyLessEqual(Expr(0), loop->begin) &&
          provablyLessEqual(Expr(1), loop->step))
        return true;
    return false;
  }

  /// `e` with every size that the wrapper checks equal to another (a tie between two sizes)
  /// replaced by that other one, so that `⌈rhs_size_0/64⌉` and `⌈lhs_size_1/64⌉` compare equal.
  Expr untied(const Expr &e) const {
    std::map<std::string, Expr> same;
    for (const passes::ShapeTie &tie : grid_.ties)
      if (tie.b.kind() == ExprKind::Symbol && tie.a.kind() == ExprKind::Symbol)
        same.emplace(tie.b.symbolName(), tie.a);
    return e.substitute(same);
  }

  /// The conjunction of the bound checks of mask terms (empty when none is left), without those
  /// an enclosing loop guarantees. With `chunk` > 1 an upper bound on lane `inner` holds for the
  /// whole chunk of `chunk` elements from the index.
  std::string boundChecks(const std::vector<passes::MaskTerm> &terms, const std::string &inner = "",
                          int chunk = 1) const {
    std::string checks;
    auto add = [&](const std::string &check) { checks += (checks.empty() ? "" : " && ") + check; };
    for (const passes::MaskTerm &t : terms) {
      if (loopGuarantees(t))
        continue;
      std::vector<std::string> symbols;
      t.value.collectSymbols(symbols);
      bool onInner = std::find(symbols.begin(), symbols.end(), inner) != symbols.end();
      if (t.checkLower)
        add(integer(t.value) + " >= 0");
      if (t.checkUpper)
        add(integer(chunk > 1 && onInner ? t.value + Expr(int64_t{chunk - 1}) : t.value) + " < " +
            integer(t.extent));
    }
    return checks;
  }

  /// The lambda computing an element offset of an access to `param` (or `masked`); `leading`
  /// declares parameters before the multi-index (a loop index). With `chunk` > 1 it is the
  /// chunk form of load_vec/store_vec: the offset of the chunk of `chunk` elements that starts
  /// at the index, or `masked` unless the whole chunk is in bounds (passes::planVectorAccess
  /// has shown that the chunk's mask is an interval of the innermost lane). Offsets are
  /// computed in Index: the int32 variants run only when every tensor's reach fits.
  std::string offsetLambda(const passes::Access &access, int param, const std::string &leading = "",
                           int chunk = 1) {
    const ParamSpec &src = f_.spec.params[f_.spec.arranged[param].source];
    std::string pad(indent_ * 2 + 2, ' ');
    std::string code =
        "[&](" + leading + "const " + d_.laneIndexType() + " *ntc_i) -> long long {\n";
    for (size_t d = 0; d < access.laneExtents.size(); ++d)
      code += pad + "[[maybe_unused]] const Index " + passes::laneIndex(d) +
              " = static_cast<Index>(ntc_i[" + std::to_string(d) + "]);\n";
    const std::string inner =
        access.laneExtents.empty() ? "" : passes::laneIndex(access.laneExtents.size() - 1);
    if (std::string checks = boundChecks(access.mask, inner, chunk); !checks.empty())
      code += pad + "if (!(" + checks + "))\n" + pad + "  return " + ns_ + "::masked;\n";
    std::string offset;
    for (size_t d = 0; d < access.coords.size(); ++d)
      offset += (d ? " + " : "") + integer(access.coords[d]) + " * " +
                strideName(src, static_cast<int>(d));
    code += pad + "return " +
            (offset.empty() ? std::string("0") : "static_cast<long long>(" + offset + ")") + ";\n";
    code += std::string(indent_ * 2, ' ') + "}";
    return code;
  }

  /// The ntc::dev::affine_tile of a dot_loop operand with an affine form (its full-tile
  /// condition and origin as lambdas of the loop index declared by `leading`, the source
  /// strides of its two lanes), or no_affine.
  std::string affineTile(const std::optional<passes::AffineAccess> &form, int param,
                         const std::string &leading) {
    if (!form || form->laneSteps.size() != 2)
      return ns_ + "::no_affine{}";
    const ParamSpec &src = f_.spec.params[f_.spec.arranged[param].source];
    auto offset = [&](const std::vector<Expr> &coords) {
      std::string sum;
      for (size_t d = 0; d < coords.size(); ++d)
        if (coords[d] != Expr(0))
          sum += (sum.empty() ? "" : " + ") +
                 (coords[d] == Expr(1) ? "" : integer(coords[d]) + " * ") +
                 strideName(src, static_cast<int>(d));
      return "static_cast<long long>(" + (sum.empty() ? std::string("0") : sum) + ")";
    };
    const std::string full = boundChecks(form->full);
    return ns_ + "::affine_tile{[&](" + leading + ") -> bool { return " +
           (full.empty() ? std::string("true") : full) + "; }, [&](" + leading +
           ") -> long long { return " + offset(form->origin) + "; }, " +
           offset(form->laneSteps[0]) + ", " + offset(form->laneSteps[1]) + "}";
  }

  /// `, affine_tile{...}` for an access with an affine form, else nothing (async_copy takes the
  /// masked path alone).
  std::string affineArgument(const passes::Access &access, int param) {
    auto form = passes::affineAccess(access);
    return form && form->laneSteps.size() == 2 ? ", " + affineTile(form, param, "") : "";
  }

  /// A dot_loop operand by TMA: its map in ntc_maps, the ring of its loop and the coordinates
  /// (innermost first) of the tile of step `leading`, with the mask terms TMA does not check;
  /// `multicast`: the operand the programs of the ring's cluster share.
  std::string tmaOperand(const kir::TmaRing &ring, const passes::TensorMapCopy &copy, int map,
                         const std::string &leading, bool multicast) {
    const std::vector<std::string> coords = tmaCoordinates(copy);
    std::string body;
    for (size_t d = 0; d < coords.size(); ++d)
      body += "ntc_c[" + std::to_string(d) + "] = " + coords[d] + "; ";
    return ns_ + "::make_tma_operand<" + std::to_string(coords.size()) + ", " +
           std::to_string(tmaRowDimension(copy)) + (multicast ? ", true" : "") + ">(" +
           ringName(ring) + ", ntc_maps.m" + std::to_string(map) + ", [&](" + leading +
           ", int (&ntc_c)[" + std::to_string(coords.size()) + "]) -> bool { " + body + "return " +
           tmaInBounds(copy) + "; })";
  }

  /// The coordinates of a TMA copy's first element as ints, innermost first (TMA's order).
  std::vector<std::string> tmaCoordinates(const passes::TensorMapCopy &copy) {
    std::vector<std::string> coords;
    for (auto d = copy.origin.rbegin(); d != copy.origin.rend(); ++d)
      coords.push_back("static_cast<int>(" + integer(*d) + ")");
    return coords;
  }

  /// The dimension of a TMA copy's rows, counted innermost first.
  static int tmaRowDimension(const passes::TensorMapCopy &copy) {
    return static_cast<int>(copy.origin.size()) - 1 - copy.rowDim;
  }

  /// The condition under which a TMA copy reads the tensor (else its tile is zeros).
  std::string tmaInBounds(const passes::TensorMapCopy &copy) const {
    const std::string checks = boundChecks(copy.residual);
    return checks.empty() ? std::string("true") : checks;
  }

  /// Which part of a GEMM main loop a program runs: all of it, or in a warp-specialized program
  /// (specialize-warps) the producer's copies or the consumers' products.
  enum class DotLoopPart { Whole, Producer, Consumer };

  /// A `for` statement: one ntc::dev::dot_loop call (the `part` of it) when it is a GEMM main
  /// loop (passes::planDotLoop; `previous`: the statement before it), else a C++ loop.
  void dotLoopStatement(const Stmt &s, const Stmt &previous, DotLoopPart part) {
    loops_.push_back(s.get());
    if (auto loop = d_.dotLoopThreads() > 0
                        ? passes::planDotLoop(s, d_.dotLoopThreads(), *d_.gpuTarget())
                        : std::nullopt) {
      dotLoop(*s, *loop, passes::accumulatorStartsAtZero(previous, *loop), part);
    } else {
      if (part != DotLoopPart::Whole)
        throw std::logic_error("a warp-specialized loop that plan-dot-loop did not plan");
      line("for (Index " + name(s->var) + " = " + integer(s->begin) + "; " + name(s->var) + " < " +
           integer(s->end) + "; " + name(s->var) + " += " + integer(s->step) + ") {");
      ++indent_;
      stmts(s->body);
      --indent_;
      line("}");
    }
    loops_.pop_back();
  }

  /// A GEMM main loop as one ntc::dev::dot_loop call (see passes::planDotLoop), or its
  /// producer's or consumers' part (dot_loop_produce, dot_loop_consume); `accZero`: the
  /// accumulator holds zeros when the loop starts.
  void dotLoop(const StmtNode &s, const passes::DotLoop &loop, bool accZero, DotLoopPart part) {
    const std::string T = type(loop.a->type.dtype);
    // Operands by TMA where use-tensor-maps gave the loop a ring.
    const kir::TmaRing *ring = s.group >= 0 ? tmaRing(s.group) : nullptr;
    std::optional<std::pair<passes::TensorMapCopy, passes::TensorMapCopy>> maps;
    if (ring) {
      maps = passes::dotLoopTensorMaps(f_, grid_, loop, d_.dotLoopThreads());
      if (!maps || ring->operandMaps.size() != 2)
        throw std::logic_error("a TMA dot loop that use-tensor-maps did not plan");
    }
    auto operand = [&](const Value &v, bool &vector, int which) {
      const ParamSpec &src = f_.spec.params[f_.spec.arranged[v->param].source];
      passes::Access access = resolve(v->param, v->subscripts);
      vector = v->vectorChunk > 0;
      const std::string k = "const Index " + name(s.var);
      return "ntc_args." + src.name + ", " + ns_ + "::convert<" + T + ">(" +
             doubleLiteral(src.other.value_or(0.0)) + ")" +
             accessLambdas(access, v->param, vector ? passes::kDotLoopChunk : 0, k + ", ") + ", " +
             (ring ? tmaOperand(*ring, which ? maps->second : maps->first,
                                ring->operandMaps[static_cast<size_t>(which)], k,
                                ring->multicastOperand == which)
                   : affineTile(vector ? passes::affineAccess(access) : std::nullopt, v->param, k));
    };
    const std::string bounds =
        "static_cast<Index>(" + integer(s.begin) + "), static_cast<Index>(" + integer(s.end) + ")";
    const std::string shape = T + ", " + std::to_string(loop.bm) + ", " + std::to_string(loop.bk) +
                              ", " + std::to_string(loop.bn);
    if (part == DotLoopPart::Producer) {
      if (!ring)
        throw std::logic_error("a warp-specialized loop without a TMA ring");
      const std::string k = "const Index " + name(s.var);
      line("// for " + name(s.var) + ": the copies of a and b into the ring.");
      line(ns_ + "::dot_loop_produce<" + std::to_string(loop.stages) + ", " + shape + ">(" +
           bounds + ", " +
           tmaOperand(*ring, maps->first, ring->operandMaps[0], k, ring->multicastOperand == 0) +
           ", " +
           tmaOperand(*ring, maps->second, ring->operandMaps[1], k, ring->multicastOperand == 1) +
           ", ntc_smem, ntc_filled);");
      return;
    }
    line("// for " + name(s.var) + ": t_" + loop.acc + " += dot(a, b), pipelined over " +
         std::to_string(loop.stages) + " shared stages.");
    if (part == DotLoopPart::Consumer) {
      if (!ring)
        throw std::logic_error("a warp-specialized loop without a TMA ring");
      line(ns_ + "::dot_loop_consume<" + std::to_string(loop.stages) + ", " +
           (accZero ? "true" : "false") + ", " + shape + ", " +
           std::to_string(d_.dotLoopThreads()) + ">(t_" + loop.acc + ", " + bounds + ", " +
           ringName(*ring) + ", ntc_smem, ntc_consumed);");
      return;
    }
    bool vectorA = false, vectorB = false;
    std::string a = operand(loop.a, vectorA, 0), b = operand(loop.b, vectorB, 1);
    line(ns_ + "::dot_loop<" + std::to_string(loop.stages) + ", " + (vectorA ? "true" : "false") +
         ", " + (vectorB ? "true" : "false") + ", " + (accZero ? "true" : "false") + ", " + T +
         ", " + std::to_string(loop.bm) + ", " + std::to_string(loop.bk) + ", " +
         std::to_string(loop.bn) + ", " + std::to_string(d_.dotLoopThreads()) + ">(t_" + loop.acc +
         ", static_cast<Index>(" + integer(s.begin) + "), static_cast<Index>(" + integer(s.end) +
         "), " + a + ", " + b + ", ntc_smem);");
  }

  /// The byte offset of the stage of a pipelined buffer for `iteration` of a loop from
  /// `first`.
  std::string stageOffset(const LayoutRef &l, const Expr &iteration, const Expr &first) {
    return "static_cast<std::size_t>(" + std::to_string(l->offset) + " + (" +
           integer(iteration - first) + ") % " + std::to_string(l->stages) + " * " +
           std::to_string(l->stageBytes) + ")";
  }

  /// The TMA ring of pipelined loop `group` (use-tensor-maps), or null.
  const kir::TmaRing *tmaRing(int group) const {
    for (const kir::TmaRing &r : f_.tmaRings)
      if (r.group == group)
        return &r;
    return nullptr;
  }

  /// The local holding a TMA ring (CudaDialect::prologue declares it).
  static std::string ringName(const kir::TmaRing &ring) {
    return "ntc_ring" + std::to_string(ring.group);
  }

  /// The stage of a ring of `stages` that holds the copies of `iteration` of a loop from `first`.
  std::string stageIndex(const Expr &iteration, const Expr &first, int stages) {
    return "static_cast<int>((" + integer(iteration - first) + ") % " + std::to_string(stages) +
           ")";
  }

  /// Every warp releases the stage; the one thread that release_last names (lane 0 of the
  /// warp releasing last) issues the stage's next copies (refill: no issuer check).
  void stageRelease(const StmtNode &s) {
    const kir::TmaRing *ring = tmaRing(s.group);
    // The consumers of a producer warpgroup release; the producer refills.
    if (ring && ring->releasers > 0 && !ring->lastReleaserRefills && s.body.empty()) {
      line(ringName(*ring) + ".release(" + stageIndex(s.end, s.step, ring->stages) + ");");
      return;
    }
    if (!ring || !ring->lastReleaserRefills)
      throw std::logic_error("a stage release on a ring that release-stages did not plan");
    line("if (" + ringName(*ring) + ".release_last(" + stageIndex(s.end, s.step, ring->stages) +
         ")) {");
    ++indent_;
    refilling_ = true;
    stmts(s.body);
    refilling_ = false;
    --indent_;
    line("}");
  }

  /// The producer's refill of a stage: it waits until every consumer warp has released the
  /// stage's last fill (if it has not acquired it yet), then issues the stage's copies.
  void stageAcquire(const StmtNode &s) {
    const kir::TmaRing *ring = tmaRing(s.group);
    if (!ring || ring->releasers == 0 || ring->lastReleaserRefills)
      throw std::logic_error("a stage acquire on a ring that specialize-producer did not plan");
    line(ringName(*ring) + ".acquire_filled(" + stageIndex(s.end, s.step, ring->stages) + ");");
    stmts(s.body);
  }

  /// A pipelined copy by TMA (use-tensor-maps marked it): thread 0 issues it on the ring of its
  /// loop (or, in a stage release, the releasing thread), from the coordinates of the tile's
  /// first element (innermost first, as TMA takes them); zeros unless the mask terms TMA does
  /// not check hold.
  void tensorMapCopy(const StmtNode &s) {
    const Value &staged = s.value, &load = staged->operands[0];
    const std::optional<passes::TensorMapCopy> copy = passes::tensorMapCopy(f_, grid_, s);
    const kir::TmaRing *ring = tmaRing(s.group);
    if (!copy || !ring)
      throw std::logic_error("a TMA copy that use-tensor-maps did not plan");
    std::string coords;
    for (const std::string &c : tmaCoordinates(*copy))
      coords += (coords.empty() ? "" : ", ") + c;
    line("if (" + integer(s.begin) + " < " + integer(s.end) + ")");
    ++indent_;
    line(ringName(*ring) + (refilling_ ? ".refill<" : ".copy<") + type(load->type.dtype) + ", " +
         std::to_string(load->type.shape[0].constValue()) + ", " +
         std::to_string(load->type.shape[1].constValue()) + ", " +
         std::to_string(copy->map.swizzleBytes) + ", " + std::to_string(tmaRowDimension(*copy)) +
         ", " + std::to_string(copy->origin.size()) + ">(" +
         stageIndex(staged->integer, staged->integer2, ring->stages) + ", ntc_maps.m" +
         std::to_string(s.tensorMap) + ", ntc_smem, " +
         stageOffset(staged->type.layout, staged->integer, staged->integer2) + ", {" + coords +
         "}, " + tmaInBounds(*copy) + ");");
    --indent_;
  }

  /// A store by TMA (use-tensor-maps marked it): the program stages the tile in the scratch
  /// region at offset 0, thread 0 stores it from there; nothing unless the mask terms TMA does
  /// not check hold.
  void tensorMapStore(const StmtNode &s) {
    const std::optional<passes::TensorMapCopy> copy = passes::tensorMapStore(f_, grid_, s);
    if (!copy)
      throw std::logic_error("a TMA store that use-tensor-maps did not plan");
    std::string coords;
    for (const std::string &c : tmaCoordinates(*copy))
      coords += (coords.empty() ? "" : ", ") + c;
    // A warp-specialized program's consumers stage in a region of the store's own and leave
    // the store in flight; they synchronize among themselves.
    const auto &w = f_.warpSpecialization;
    line(
        ns_ + "::tma_store<" + std::to_string(w ? w->storeStaging : 0) + ", " +
        std::to_string(copy->map.swizzleBytes) + ", " + std::to_string(tmaRowDimension(*copy)) +
        ", " + std::to_string(copy->origin.size()) +
        (w ? ", " + std::to_string(w->consumerThreads) + ", true, " + std::to_string(w->storeRounds)
           : std::string()) +
        ">(" + tile(s.value) + ", ntc_maps.m" + std::to_string(s.tensorMap) + ", ntc_smem, {" +
        coords + "}, " + tmaInBounds(*copy) + ");");
  }

  /// A pipelined copy of a load into its stage: 16-byte asynchronous copies where the
  /// dispatcher checked that chunks are contiguous and aligned, element by element otherwise.
  void asyncCopy(const StmtNode &s) {
    if (s.tensorMap >= 0) {
      tensorMapCopy(s);
      return;
    }
    const Value &staged = s.value, &load = staged->operands[0];
    const ParamSpec &src = f_.spec.params[f_.spec.arranged[load->param].source];
    const std::string T = type(load->type.dtype);
    passes::Access access = resolve(load->param, load->subscripts);
    const int chunk = load->vectorChunk;
    const bool vector = chunk > 0;
    line("if (" + integer(s.begin) + " < " + integer(s.end) + ")");
    ++indent_;
    line(create("async_copy", T, load->type.shape, nullptr,
                sharedLayoutArgument(staged->type.layout)) +
         "ntc_smem, " + stageOffset(staged->type.layout, staged->integer, staged->integer2) +
         ", ntc_args." + src.name + ", " + ns_ + "::convert<" + T + ">(" +
         doubleLiteral(src.other.value_or(0.0)) + "), " + ns_ + "::chunk_width<" +
         std::to_string(vector ? chunk : 0) + ">{}" +
         accessLambdas(access, load->param, vector ? chunk : 0, "") +
         (vector ? affineArgument(access, load->param) : ", " + ns_ + "::no_chunk{}") + ");");
    --indent_;
  }

  void store(const StmtNode &s) {
    if (s.tensorMap >= 0) {
      tensorMapStore(s);
      return;
    }
    const ParamSpec &src = f_.spec.params[f_.spec.arranged[s.param].source];
    passes::Access access = resolve(s.param, s.subscripts);
    // The chunk that plan-vector-chunks recorded (0: element by element).
    const int chunk = s.vectorChunk;
    line(ns_ + "::store" + (chunk ? "_vec" : "") + "(ntc_args." + src.name + ", " + tile(s.value) +
         accessLambdas(access, s.param, chunk) + ");");
  }

  // ---- values ------------------------------------------------------------------------------

  std::string tile(const Value &v) {
    Emitted e = value(v);
    if (e.isTile)
      return e.code;
    return create("scalar", type(v->type.dtype), {}) + e.code + ")";
  }

  /// The value converted to element type `t`.
  std::string as(const Value &v, DType t) {
    Emitted e = value(v);
    if (v->type.dtype == t)
      return e.code;
    if (e.isTile)
      return ns_ + "::cast<" + type(t) + ">(" + e.code + ")";
    return ns_ + "::convert<" + type(t) + ">(" + e.code + ")";
  }

  /// The value as a tile of element type `t`.
  std::string asTile(const Value &v, DType t) {
    Emitted e = value(v);
    std::string code = as(v, t);
    return e.isTile ? code : create("scalar", type(t), {}) + code + ")";
  }

  /// The value as a tile of element type `t` and, when the dialect needs explicit
  /// broadcasting, of the shape of `user` (an elementwise operation).
  std::string operand(const Value &v, DType t, const Value &user) {
    const std::vector<Expr> &shape = user->type.shape;
    Emitted e = value(v);
    if (!e.isTile || !d_.explicitBroadcast() || v->type.shape == shape)
      return as(v, t);
    int64_t numel = 1;
    for (const Expr &x : v->type.shape)
      numel *= x.constValue();
    if (numel == 1 && (v->type.shape.size() == 0 || user->type.layout))
      return as(v, t); // one-element tiles are held by every thread
    return d_.broadcastTo(as(v, t), constShape(shape));
  }

  /// The arguments of a product's call (dot, dot_issue): A, B, the accumulator if any, the
  /// scratch, the precision, the dying-operand mark and the turn (take-turns).
  std::string dotArguments(const Value &v) {
    DType in = promote(v->operands[0], v->operands[1]);
    const std::string acc =
        v->operands.size() > 2 ? ", " + asTile(v->operands[2], v->type.dtype) : std::string();
    return asTile(v->operands[0], in) + ", " + asTile(v->operands[1], in) + acc + d_.scratch() +
           d_.dotPrecision(v->precision) +
           (v->turn >= 0 ? d_.turnArguments(v->aDies, v->turn, v->turnOpens, v->turnCloses)
                         : (v->aDies ? d_.dyingOperand() : std::string()));
  }

  /// The C++ expression of `v`, computed once per statement (see hoistSharedValues).
  Emitted value(const Value &v) {
    if (auto it = memo_.find(v.get()); it != memo_.end())
      return it->second;
    Emitted e = compute(v);
    memo_.emplace(v.get(), e);
    return e;
  }

  Emitted compute(const Value &v) {
    const std::string T = type(v->type.dtype);
    const std::string scratch = d_.scratch();
    switch (v->kind) {
    case ValueKind::Load: {
      if (auto it = hoisted_.find(loadKey(v)); it != hoisted_.end())
        return {it->second, true};
      const ParamSpec &src = f_.spec.params[f_.spec.arranged[v->param].source];
      passes::Access access = resolve(v->param, v->subscripts);
      const int chunk = v->vectorChunk;
      return {create(chunk ? "load_vec" : "load", T, v->type.shape, v->type.layout) + "ntc_args." +
                  src.name + ", " + ns_ + "::convert<" + T + ">(" +
                  doubleLiteral(src.other.value_or(0.0)) + ")" +
                  accessLambdas(access, v->param, chunk) + ")",
              true};
    }
    case ValueKind::ScalarParam:
      return {ns_ + "::convert<" + T + ">(ntc_args." +
                  f_.spec.params[f_.spec.arranged[v->param].source].name + ")",
              false};
    case ValueKind::Constant:
      return {ns_ + "::convert<" + T + ">(" + doubleLiteral(v->number) + ")", false};
    case ValueKind::Index:
      return {"static_cast<int64_t>(" + integer(v->integer) + ")", false};
    case ValueKind::Local:
      return {"t_" + v->local, true};
    case ValueKind::Full:
      return {create("full", T, v->type.shape, v->type.layout) + ns_ + "::convert<" + T + ">(" +
                  doubleLiteral(v->number) + "))",
              true};
    case ValueKind::Arange:
      return {create("arange", "int32_t", v->type.shape, v->type.layout) +
                  std::to_string(v->integer.constValue()) + ")",
              true};
    case ValueKind::Unary: {
      const Value &x = v->operands[0];
      Emitted e = value(x);
      const kir::Operation *op = kir::findOperation(v->op);
      if (op && !op->isFunction()) // a prefix operator: (-x), (!x)
        return {"(" + std::string(op->token) + e.code + ")", e.isTile};
      return {ns_ + "::" + v->op + "(" + as(x, v->type.dtype) + ")", e.isTile};
    }
    case ValueKind::Binary:
      return binary(v);
    case ValueKind::Where: {
      const Value &c = v->operands[0];
      std::string cond = value(c).isTile ? operand(c, DType::Bool, v) : as(c, DType::Bool);
      return {ns_ + "::where(" + cond + ", " + operand(v->operands[1], v->type.dtype, v) + ", " +
                  operand(v->operands[2], v->type.dtype, v) + ")",
              true};
    }
    case ValueKind::Cast: {
      // A narrowing whose operand holds no NaN but the canonical one (mark-canonical-nans).
      const Emitted x = value(v->operands[0]);
      if (v->canonicalNaN && x.isTile)
        return {ns_ + "::cast_canonical_nan<" + type(v->type.dtype) + ">(" + x.code + ")", true};
      return {as(v->operands[0], v->type.dtype), x.isTile};
    }
    case ValueKind::Reduce: {
      const Value &x = v->operands[0];
      std::string in = asTile(x, x->type.dtype);
      // A sum left as lane shares (defer-lane-sums) needs no shuffles and no scratch.
      const bool shares = v->type.layout && v->type.layout->kind == TileLayout::Kind::LanePartial;
      std::string call = v->allAxes ? ns_ + "::" + v->op + "(" + in + scratch + ")"
                         : shares   ? d_.withAxis(v->op + "_lane_partial", in, v->axis, false)
                                    : d_.withAxis(v->op, in, v->axis, true);
      return {ns_ + "::cast<" + T + ">(" + call + ")", true};
    }
    case ValueKind::Dot: {
      // An A operand resident in shared memory does not carry the result's layout: it is
      // spelled out (keep-operands-resident).
      const LayoutRef &a = v->operands[0]->type.layout;
      const std::string result = a && a->kind == TileLayout::Kind::Shared
                                     ? ", " + d_.layoutType(v->type.layout)
                                     : std::string();
      return {ns_ + "::dot<" + T + result + ">(" + dotArguments(v) + ")", true};
    }
    case ValueKind::Trans:
      return {ns_ + "::trans(" + asTile(v->operands[0], v->type.dtype) + scratch + ")", true};
    case ValueKind::ExpandDims:
      return {d_.withAxis("expand_dims", asTile(v->operands[0], v->type.dtype), v->axis, false),
              true};
    case ValueKind::BroadcastTo:
      return {d_.broadcastTo(asTile(v->operands[0], v->type.dtype), constShape(v->type.shape)),
              true};
    case ValueKind::Offsets:
      return {offsets(v), true};
    case ValueKind::ConvertLayout: {
      const Value &x = v->operands[0];
      const std::string transpose = v->transpose ? "true" : "false";
      const LayoutRef &to = v->type.layout;
      if (to && to->kind == TileLayout::Kind::Shared)
        return {ns_ + "::to_shared<" + std::to_string(to->offset) + ", " + transpose +
                    sharedLayoutArgument(to) + ">(" + asTile(x, x->type.dtype) + scratch + ")",
                true};
      return {ns_ + "::convert_layout<" + d_.layoutType(to) + ", " + transpose + ">(" +
                  asTile(x, x->type.dtype) + scratch + ")",
              true};
    }
    case ValueKind::SharedStage: {
      const LayoutRef &l = v->type.layout;
      return {ns_ + "::stage_view<" + T + ", " + d_.shapeType(constShape(v->type.shape)) + ", " +
                  (l->transposed ? "true" : "false") + sharedLayoutArgument(l) + ">(ntc_smem, " +
                  stageOffset(l, v->integer, v->integer2) + ")",
              true};
    }
    case ValueKind::Rand: {
      Emitted seed = value(v->operands[0]);
      std::string s = seed.isTile ? seed.code + ".item()" : seed.code;
      return {ns_ + "::rand(" + s + ", " + asTile(v->operands[1], v->operands[1]->type.dtype) + ")",
              true};
    }
    }
    throw std::runtime_error("internal error: unknown value kind");
  }

  Emitted binary(const Value &v) {
    const kir::Operation *op = kir::findOperation(v->op);
    const Value &a = v->operands[0], &b = v->operands[1];
    // The operands of a comparison are converted to their common type, not to bool.
    bool compare = op && op->rule == kir::TypeRule::Compare;
    DType t = compare ? promote(a, b) : v->type.dtype;
    bool aTile = value(a).isTile, bTile = value(b).isTile;
    std::string x = operand(a, t, v), y = operand(b, t, v);
    if (!aTile && !bTile) // two elements: make one a tile for the library
      x = create("scalar", type(t), {}) + x + ")";
    // A carried tile's rescale that warps skip where their factors are one (skip-unit-factors).
    if (v->unlessOne)
      return {ns_ + "::mul_unless_one(" + x + ", " + y + ")", true};
    if (op && !op->isFunction()) // an infix operator: (x + y)
      return {"(" + x + " " + op->token + " " + y + ")", true};
    // One max.NaN/min.NaN instruction where select-min-max marked it.
    return {ns_ + "::" + v->op + (v->oneInstruction ? "_instruction" : "") + "(" + x + ", " + y +
                ")",
            true};
  }

  std::string offsets(const Value &v) {
    passes::Access access = passes::resolveAccess(f_, v->param, v->subscripts);
    int64_t dim = v->integer.constValue();
    // Which tile dimensions the result spans: one (the coordinate varies along one lane), all,
    // or none.
    std::vector<std::string> symbols;
    access.coords[dim].collectSymbols(symbols);
    std::vector<size_t> used;
    for (size_t d = 0; d < access.laneExtents.size(); ++d)
      if (std::find(symbols.begin(), symbols.end(), passes::laneIndex(d)) != symbols.end())
        used.push_back(d);
    std::string pad(indent_ * 2 + 2, ' ');
    std::string code = create("generate", type(DType::Int64), v->type.shape, v->type.layout) +
                       "[&](const " + d_.laneIndexType() + " *ntc_i) -> long long {\n";
    if (v->type.shape.size() == access.laneExtents.size()) {
      for (size_t d = 0; d < access.laneExtents.size(); ++d)
        code += pad + "[[maybe_unused]] const Index " + passes::laneIndex(d) +
                " = static_cast<Index>(ntc_i[" + std::to_string(d) + "]);\n";
    } else if (used.size() == 1) {
      code +=
          pad + "const Index " + passes::laneIndex(used[0]) + " = static_cast<Index>(ntc_i[0]);\n";
    }
    code += pad + "return static_cast<long long>(" + integer(access.coords[dim]) + ");\n";
    return code + std::string(indent_ * 2, ' ') + "})";
  }

  const Function &f_;
  const passes::GridInfo &grid_;
  const Dialect &d_;
  const std::string ns_;
  std::ostringstream &os_;
  std::map<std::string, std::string> known_;            ///< size and stride symbols -> their locals
  std::map<std::string, std::string> hoisted_;          ///< load key -> local holding it
  std::unordered_map<const ValueNode *, Emitted> memo_; ///< this statement's emitted values
  int valueCounter_ = 0;
  std::vector<const StmtNode *> loops_; ///< the enclosing loops, outermost first
  int loadCounter_ = 0;
  int indent_ = 0;
  bool refilling_ = false; ///< printing a stage release's copies (issued by the releaser)
};

} // namespace

std::string Dialect::shapeType(const std::vector<int64_t> &) const {
  throw std::logic_error("internal error: " + ns() + " has no compile-time shape types");
}

void emitProgram(const kir::Function &specialized, const passes::GridInfo &grid,
                 const std::string &name, const Dialect &dialect, std::ostringstream &os) {
  ProgramEmitter(specialized, grid, dialect, os).emit(name);
}

} // namespace ntc::codegen
