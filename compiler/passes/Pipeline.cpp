//===- Pipeline.cpp - the passes, in order --------------------------------===//
//
//   translate (front end) -> verify-launch-grid (front end) -> pin-padded-extents ->
//   infer-grid -> build-variants (per configuration) -> specialize -> skip-masked-iterations ->
//   guard-masks (per variant) -> then, in the CUDA backend, order-programs and the GPU passes
//   per program -> resolve-access + simplify-mask (per access, called by the code generators)
//
//===----------------------------------------------------------------------===//
#include "passes/Pipeline.h"

namespace ntc::passes {

namespace {

void printGrid(const kir::Function &f, const GridInfo &grid, std::ostream &os) {
  os << "grid of " << f.spec.name << ": " << shapeString(grid.extents) << " (level 0 of '"
     << (grid.anchor >= 0 ? f.spec.arranged[grid.anchor].name : std::string("-")) << "')\n";
  for (const ShapeTie &t : grid.ties)
    os << "  tie: " << t.whatA << " == " << t.whatB << "\n";
}

} // namespace

GridInfo specializeGrid(GridInfo grid, const std::map<std::string, int64_t> &values) {
  std::map<std::string, Expr> subst;
  for (const auto &[name, v] : values)
    subst[name] = Expr(v);
  for (Expr &e : grid.extents)
    e = e.substitute(subst);
  for (ShapeTie &t : grid.ties) {
    t.a = t.a.substitute(subst);
    t.b = t.b.substitute(subst);
  }
  return grid;
}

CompiledKernel runPipeline(const kir::Function &translated, Target target, const GpuTarget &gpu,
                           std::ostream *trace, const KernelTuning *tuning) {
  CompiledKernel k;
  if (trace)
    *trace << "// -----// IR after translate //----- //\n" << kir::print(translated);
  k.function = pinPaddedExtents(translated);
  const kir::Function &f = k.function;
  if (trace)
    for (const kir::PaddedExtent &p : f.padded)
      if (p.pinned)
        *trace << "// pin-padded-extents: " << p.symbol << " = " << *p.pinned << "\n";
  if (tuning && !tuning->configs.empty()) {
    k.configs = tuning->configs;
    k.tuned = tuning->shapes;
  } else {
    k.configs = {defaultConfig(f, target, gpu)};
  }
  k.grid = inferGrid(f);
  if (k.configs.size() == 1)
    k.grid = specializeGrid(k.grid, k.configs.front().metas);
  if (trace) {
    *trace << "// -----// after infer-grid //----- //\n";
    printGrid(f, k.grid, *trace);
  }
  k.variants = buildVariants(f, k.configs, k.tuned);
  if (trace) {
    *trace << "// -----// after build-variants //----- //\n";
    for (const Variant &v : k.variants) {
      *trace << v.suffix << ": index" << (v.index64 ? "64" : "32");
      if (k.configs.size() > 1)
        *trace << " config " << configId(f.spec, k.configs[v.config]);
      for (const auto &[name, value] : v.values)
        *trace << " " << name << "=" << value;
      *trace << "\n";
    }
  }
  for (const Variant &v : k.variants) {
    bool seen = false;
    for (const auto &[values, fn] : k.specializations)
      seen = seen || values == v.values;
    if (seen)
      continue;
    k.specializations.emplace_back(v.values,
                                   guardMasks(skipMaskedIterations(specialize(f, v.values))));
    if (trace) {
      *trace << "// -----// IR after specialize (";
      for (const auto &[name, value] : v.values)
        *trace << " " << name << "=" << value;
      *trace << " ) and skip-masked-iterations, guard-masks //----- //\n"
             << kir::print(k.specializations.back().second);
    }
  }
  return k;
}

} // namespace ntc::passes
