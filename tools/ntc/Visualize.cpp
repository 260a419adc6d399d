//===- Visualize.cpp - pictures of arrangements (ntc --visualize) ---------===//
//
// The picture is computed from Layout::eval, the index array NineToothed's eval gives: every
// position of the arranged tensor (all levels' indices) holds the source element it reads or
// -1. The position's level-0 indices name the program; the indices of each further level name
// the nested tiles whose frames are drawn.
//
//===----------------------------------------------------------------------===//
#include "Visualize.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ntc {

namespace {

constexpr int kCell = 24;   ///< side of one element's square, in pixels
constexpr int kMargin = 16; ///< around the drawing and between the panels of a 3-D source
constexpr int kTitle = 28;  ///< height of the title line
constexpr int64_t kMaxElements = 4096;

/// The fill colour of program p: hues spread by the golden angle, light enough for black text.
std::string programColor(int64_t p, int lightness = 78) {
  char s[32];
  std::snprintf(s, sizeof s, "hsl(%d,65%%,%d%%)", int((p * 137) % 360), lightness);
  return s;
}

/// Escapes text for an SVG text node or attribute.
std::string escapeXml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// Where source element `linear` is drawn: its cell's top-left corner.
struct Placement {
  std::vector<int64_t> shape; ///< the source shape, as panels × rows × columns (rank 3)
  int64_t panelWidth() const { return shape[2] * kCell + kMargin; }
  std::pair<int64_t, int64_t> cell(int64_t linear) const {
    const int64_t col = linear % shape[2], row = linear / shape[2] % shape[1],
                  panel = linear / (shape[1] * shape[2]);
    return {kMargin + panel * panelWidth() + col * kCell, kMargin + kTitle + row * kCell};
  }
};

/// A bounding box of cells, in pixels.
struct Box {
  int64_t x0 = INT64_MAX, y0 = INT64_MAX, x1 = INT64_MIN, y1 = INT64_MIN;
  void add(std::pair<int64_t, int64_t> corner) {
    x0 = std::min(x0, corner.first);
    y0 = std::min(y0, corner.second);
    x1 = std::max(x1, corner.first + kCell);
    y1 = std::max(y1, corner.second + kCell);
  }
};

} // namespace

std::string visualizeArrangement(const std::string &name, const Layout &layout,
                                 const std::map<std::string, int64_t> &values) {
  std::vector<int64_t> arrayShape;
  const std::vector<int64_t> array = layout.eval(values, arrayShape);
  std::map<std::string, Expr> exprs;
  for (const auto &[symbol, v] : values)
    exprs.emplace(symbol, Expr(v));
  const std::string title = name + ": " + layout.substitute(exprs).str();
  std::vector<int64_t> source;
  for (const Expr &e : layout.sourceShape()) {
    const Expr bound = e.substitute(exprs);
    if (!bound.isConst())
      throw LayoutError("the source size " + e.str() + " is not bound");
    source.push_back(std::max<int64_t>(bound.constValue(), 0));
  }
  if (source.empty() || source.size() > 3)
    throw std::invalid_argument("--visualize draws sources of rank 1 to 3; '" + name +
                                "' has rank " + std::to_string(source.size()));
  int64_t elements = 1;
  for (int64_t s : source)
    elements *= s;
  if (elements > kMaxElements)
    throw std::invalid_argument("--visualize draws sources of at most " +
                                std::to_string(kMaxElements) + " elements; '" + name + "' has " +
                                std::to_string(elements) + " (give smaller sizes with --shape)");
  Placement place;
  place.shape = source;
  while (place.shape.size() < 3)
    place.shape.insert(place.shape.begin(), 1);

  // Positions per level: the number of array dimensions each level contributes.
  std::vector<size_t> levelDims;
  for (const Level &l : layout.levels())
    levelDims.push_back(l.dims.size());
  // For every position: its program (level-0 linear index) and, per level, the linear index of
  // its indices up to that level (the nested tile it belongs to).
  std::vector<int64_t> firstProgram(size_t(elements), -1);
  std::vector<std::map<int64_t, Box>> frames(levelDims.size() > 1 ? levelDims.size() - 1 : 1);
  std::vector<int64_t> index(arrayShape.size(), 0);
  for (size_t position = 0; position < array.size(); ++position) {
    const int64_t element = array[position];
    if (element >= 0 && element < elements) {
      int64_t prefix = 0;
      size_t d = 0;
      for (size_t level = 0; level < levelDims.size(); ++level) {
        for (size_t k = 0; k < levelDims[level]; ++k, ++d)
          prefix = prefix * arrayShape[d] + index[d];
        if (level == 0 && firstProgram[size_t(element)] < 0)
          firstProgram[size_t(element)] = prefix;
        if (level + 1 < levelDims.size() || levelDims.size() == 1)
          frames[std::min(level, frames.size() - 1)][prefix].add(place.cell(element));
      }
    }
    for (size_t d = arrayShape.size(); d-- > 0;) // next position, row-major
      if (++index[d] < arrayShape[d])
        break;
      else
        index[d] = 0;
  }

  const int64_t width =
      kMargin + place.shape[0] * place.panelWidth() + (place.shape[0] == 0 ? kMargin : 0);
  const int64_t height = kMargin * 2 + kTitle + place.shape[1] * kCell;
  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"monospace\">\n"
      << "<title>" << escapeXml(title) << "</title>\n"
      << "<text x=\"" << kMargin << "\" y=\"" << kMargin + 12 << "\" font-size=\"13\">"
      << escapeXml(title) << "</text>\n";
  // The elements, coloured by their first program; untouched ones stay white.
  svg << "<g stroke=\"#999\" stroke-width=\"0.5\" font-size=\"9\" text-anchor=\"middle\">\n";
  for (int64_t e = 0; e < elements; ++e) {
    const auto [x, y] = place.cell(e);
    const int64_t p = firstProgram[size_t(e)];
    svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCell << "\" height=\"" << kCell
        << "\" fill=\"" << (p < 0 ? std::string("white") : programColor(p)) << "\"/>";
    if (p >= 0)
      svg << "<text x=\"" << x + kCell / 2 << "\" y=\"" << y + kCell / 2 + 3
          << "\" stroke=\"none\">" << p << "</text>";
    svg << "\n";
  }
  svg << "</g>\n";
  // Frames, outermost level first: a program's elements, then each nested tile's.
  for (size_t level = 0; level < frames.size(); ++level) {
    const double width = level == 0 ? 2.5 : std::max(0.75, 1.5 / double(level));
    svg << "<g fill=\"none\" stroke-width=\"" << width << "\""
        << (level == 0 ? "" : " stroke-dasharray=\"3,2\"") << ">\n";
    for (const auto &[key, box] : frames[level]) {
      const int64_t inset = int64_t(level) * 2; // nested frames sit inside their parents
      svg << "<rect x=\"" << box.x0 + inset << "\" y=\"" << box.y0 + inset << "\" width=\""
          << std::max<int64_t>(box.x1 - box.x0 - 2 * inset, 1) << "\" height=\""
          << std::max<int64_t>(box.y1 - box.y0 - 2 * inset, 1) << "\" stroke=\""
          << (level == 0 ? programColor(key, 35) : std::string("#333")) << "\"/>\n";
    }
    svg << "</g>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

} // namespace ntc
