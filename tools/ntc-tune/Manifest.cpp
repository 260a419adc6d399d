//===- Manifest.cpp - the work folder's description -----------------------===//
#include "Manifest.h"

#include "Util.h"

namespace ntc::tune {

namespace {

constexpr const char *kMagic = "ntc-tune-manifest 1";

/// `text` on one line (reasons can be compiler output).
std::string oneLine(const std::string &text) {
  std::string out;
  for (char c : trim(text))
    out += c == '\n'                ? std::string(" | ")
           : c == '\t' || c == '\r' ? std::string(" ")
                                    : std::string(1, c);
  return out;
}

KernelEntry *findKernel(std::vector<KernelEntry> &kernels, const std::string &name) {
  for (KernelEntry &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

} // namespace

const ConfigEntry *KernelEntry::defaultConfig() const {
  for (const ConfigEntry &c : configs)
    if (c.isDefault)
      return &c;
  return nullptr;
}

const KernelEntry *Manifest::kernel(const std::string &name) const {
  for (const KernelEntry &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::string writeManifest(const Manifest &m) {
  std::string out = "# What `ntc-tune --resume <this folder>` needs (paths are relative to it).\n";
  out += std::string(kMagic) + "\n";
  out += "target " + m.target + "\n";
  out += "cuda-arch " + m.cudaArch + "\n";
  out += "ntc-version " + oneLine(m.ntcVersion) + "\n";
  out += "source " + m.source + "\n";
  out += "stem " + m.stem + "\n";
  for (const KernelEntry &k : m.kernels) {
    out += "kernel " + k.name + " " + k.hash + " " + k.arch + "\n";
    for (const ConfigEntry &c : k.configs)
      out += "config " + k.name + " " + c.dir + " " + (c.isDefault ? "default" : "-") + " " + c.id +
             "\n";
    for (const auto &[id, reason] : k.rejected)
      out += "rejected " + k.name + " " + id + " " + oneLine(reason) + "\n";
  }
  for (const ShapeLine &s : m.shapes)
    out += "shape\t" + s.origin + "\t" + s.text + "\n";
  return out;
}

Manifest readManifest(const std::string &text, const std::string &path) {
  Manifest m;
  std::vector<std::string> rows = split(text, '\n');
  bool sawMagic = false;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string where = path + ":" + std::to_string(i + 1);
    const std::string &row = rows[i];
    if (trim(row).empty() || row[0] == '#')
      continue;
    if (row == kMagic) {
      sawMagic = true;
      continue;
    }
    if (!sawMagic)
      throw Error::at(where, "not an ntc-tune manifest (expected '" + std::string(kMagic) + "')");
    if (startsWith(row, "shape\t")) {
      std::vector<std::string> parts = split(row, '\t');
      if (parts.size() != 3)
        throw Error::at(where, "bad shape line");
      m.shapes.push_back(parseShapeLine(parts[2], parts[1]));
      continue;
    }
    size_t space = row.find(' ');
    std::string key = row.substr(0, space);
    std::string rest = space == std::string::npos ? "" : row.substr(space + 1);
    std::vector<std::string> words = splitBlanks(rest);
    if (key == "target")
      m.target = rest;
    else if (key == "cuda-arch")
      m.cudaArch = rest;
    else if (key == "ntc-version")
      m.ntcVersion = rest;
    else if (key == "source")
      m.source = rest;
    else if (key == "stem")
      m.stem = rest;
    else if (key == "kernel" && words.size() == 3)
      m.kernels.push_back(KernelEntry{words[0], words[1], words[2], {}, {}});
    else if (key == "config" && words.size() == 4) {
      KernelEntry *k = findKernel(m.kernels, words[0]);
      if (!k)
        throw Error::at(where, "configuration of an unknown kernel '" + words[0] + "'");
      k->configs.push_back(ConfigEntry{words[3], words[2] == "default", words[1]});
    } else if (key == "rejected" && words.size() >= 2) {
      KernelEntry *k = findKernel(m.kernels, words[0]);
      if (!k)
        throw Error::at(where, "configuration of an unknown kernel '" + words[0] + "'");
      size_t at = rest.find(words[1], words[0].size()) + words[1].size();
      k->rejected.emplace_back(words[1], trim(rest.substr(at)));
    } else {
      throw Error::at(where, "cannot read this line of the manifest");
    }
  }
  if (!sawMagic)
    throw Error(path + ": not an ntc-tune manifest");
  if (m.target != "cpu" && m.target != "cuda")
    throw Error(path + ": no target cpu or cuda");
  for (const KernelEntry &k : m.kernels)
    if (!k.defaultConfig())
      throw Error(path + ": kernel " + k.name + " has no default configuration");
  return m;
}

std::vector<KernelEntry> parseConfigList(const std::string &text) {
  std::vector<KernelEntry> kernels;
  std::vector<std::string> rows = split(text, '\n');
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string row = trim(rows[i]);
    if (row.empty() || row[0] == '#')
      continue;
    std::string where = "ntc --list-configs, line " + std::to_string(i + 1);
    std::vector<std::string> words = splitBlanks(row);
    if (words[0] == "kernel") {
      // kernel NAME hash H target T arch A
      if (words.size() < 2 || words.size() % 2 != 0)
        throw Error(where + ": cannot read '" + row + "'");
      KernelEntry k;
      k.name = words[1];
      for (size_t w = 2; w + 1 < words.size(); w += 2) {
        if (words[w] == "hash")
          k.hash = words[w + 1];
        else if (words[w] == "arch")
          k.arch = words[w + 1];
      }
      if (k.hash.empty())
        throw Error(where + ": kernel " + k.name + " without a hash");
      if (findKernel(kernels, k.name))
        throw Error(where + ": kernel " + k.name + " listed twice");
      kernels.push_back(k);
      continue;
    }
    if (words.size() < 2 || words.size() > 3 || (words.size() == 3 && words[2] != "default"))
      throw Error(where + ": cannot read '" + row + "'");
    KernelEntry *k = findKernel(kernels, words[0]);
    if (!k)
      throw Error(where + ": configuration of kernel " + words[0] + " before its 'kernel' line");
    bool isDefault = words.size() == 3;
    if (isDefault && k->defaultConfig())
      throw Error(where + ": kernel " + k->name + " has two default configurations");
    for (const ConfigEntry &c : k->configs)
      if (c.id == words[1])
        throw Error(where + ": configuration " + words[1] + " listed twice");
    ConfigEntry c{words[1], isDefault, ""};
    // The default goes first (it is listed first; keep it first whatever the order).
    if (isDefault)
      k->configs.insert(k->configs.begin(), c);
    else
      k->configs.push_back(c);
  }
  for (const KernelEntry &k : kernels)
    if (!k.defaultConfig())
      throw Error("ntc --list-configs: kernel " + k.name + " has no default configuration");
  return kernels;
}

} // namespace ntc::tune
