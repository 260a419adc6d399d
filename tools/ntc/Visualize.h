//===- Visualize.h - pictures of arrangements (ntc --visualize) -----------===//
#pragma once

#include "ir/Layout.h"

#include <cstdint>
#include <map>
#include <string>

namespace ntc {

/// An SVG picture of how `layout` (the arranged parameter `name`) cuts its source, with every
/// symbol bound by `values`, as NineToothed's `visualize` draws it: the source tensor (rank 1 to
/// 3; a 3-D source as panels side by side) cell by cell, each element filled with the colour of
/// the first program whose tile holds it and labelled with that program's number, and for every
/// program a frame around its elements at each level (thick for the program, thinner for each
/// nested level). Throws LayoutError when a symbol is unbound, and std::invalid_argument for a
/// source of another rank or of more than 4096 elements.
std::string visualizeArrangement(const std::string &name, const Layout &layout,
                                 const std::map<std::string, int64_t> &values);

} // namespace ntc
