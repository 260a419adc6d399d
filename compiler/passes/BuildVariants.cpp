//===- BuildVariants.cpp - the set of compiled variants -------------------===//
#include "passes/Passes.h"

#include <algorithm>

namespace ntc::passes {

namespace {

using Axis = std::pair<std::string, std::vector<int64_t>>;

std::vector<int64_t> powersOfTwo(int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t p = 1; p <= hi; p *= 2)
    if (p >= lo)
      v.push_back(p);
  return v;
}

/// True when key `k` of an entry (kAnyConstexprValue for every value) admits `value`: equal
/// to it, or, for a padded extent (`atMost`), at least it.
bool admits(const std::vector<int64_t> &measured, size_t k, int64_t value, bool atMost) {
  return k >= measured.size() || measured[k] == kAnyConstexprValue || measured[k] == value ||
         (atMost && value < measured[k]);
}

/// True when some entry of `tuned` chose configuration `config` for the constexpr values and
/// padded extents of `v` (the dispatcher's keys, ntc::rt::pick_config): the entry's constexpr
/// values, and padded extents up to its own.
bool chosenFor(const kir::Function &f, const std::vector<TunedShape> &tuned, int config,
               const Variant &v) {
  for (const TunedShape &t : tuned) {
    if (t.config != config)
      continue;
    bool same = true;
    size_t k = 0;
    for (const ParamSpec &p : f.spec.params)
      if (isVariantConstexpr(p))
        same = same && admits(t.values, k++, v.values.at(p.name), false);
    for (size_t i = 0; i < f.padded.size(); ++i)
      same = same && admits(t.padded, i, v.values.at(f.padded[i].symbol), true);
    if (same)
      return true;
  }
  return false;
}

} // namespace

bool isVariantConstexpr(const ParamSpec &p) {
  return p.kind == ParamSpec::Kind::Constexpr && p.dtype != DType::Float64;
}

int64_t compiledPaddedExtent(const kir::PaddedExtent &p, int64_t largest) {
  if (p.pinned)
    return *p.pinned;
  int64_t extent = std::min(kMinPaddedExtent, p.upperBound);
  while (extent < largest)
    extent *= 2;
  return extent;
}

std::vector<Variant> buildVariants(const kir::Function &f, const std::vector<Config> &configs,
                                   const std::vector<TunedShape> &tuned) {
  std::vector<Axis> axes;
  for (const kir::PaddedExtent &p : f.padded)
    axes.push_back(
        {p.symbol, p.pinned ? std::vector<int64_t>{*p.pinned}
                            : powersOfTwo(std::min(kMinPaddedExtent, p.upperBound), p.upperBound)});
  for (const ParamSpec &p : f.spec.params)
    if (isVariantConstexpr(p)) {
      std::vector<int64_t> values;
      for (double v : p.constexprValues)
        values.push_back(static_cast<int64_t>(v));
      axes.push_back({p.name, values});
    }
  // Only meta-parameter values the dispatcher can pick are compiled: the configurations'.
  std::vector<Variant> variants;
  for (size_t c = 0; c < configs.size(); ++c) {
    Variant v;
    v.values = configs[c].metas;
    v.config = static_cast<int>(c);
    variants.push_back(v);
  }
  for (const auto &[name, values] : axes) {
    std::vector<Variant> next;
    for (const Variant &v : variants)
      for (int64_t value : values) {
        Variant w = v;
        w.values[name] = value;
        next.push_back(w);
      }
    variants = std::move(next);
  }
  if (!tuned.empty())
    variants.erase(std::remove_if(variants.begin(), variants.end(),
                                  [&](const Variant &v) {
                                    return v.config != 0 && !chosenFor(f, tuned, v.config, v);
                                  }),
                   variants.end());
  std::vector<Variant> result;
  for (bool wide : {false, true})
    for (Variant v : variants) {
      v.index64 = wide;
      v.suffix = "v" + std::to_string(result.size());
      result.push_back(v);
    }
  return result;
}

} // namespace ntc::passes
