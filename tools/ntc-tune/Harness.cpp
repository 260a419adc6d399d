//===- Harness.cpp - arguments of one call --------------------------------===//
#include "Harness.h"

#include "Dtype.h"
#include "Util.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ntc::tune {

namespace {

/// splitmix64: a small, portable generator (the data must not depend on the C++ library).
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

int64_t elementCount(const std::vector<int64_t> &sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

struct Tolerance {
  double rtol, atol;
};

Tolerance tolerance(DLDataType dtype) {
  if (dtype.bits == 8)
    return {0.25, 0.25};
  if (dtype.bits == 16)
    return {2e-2, 2e-2};
  if (dtype.bits == 32)
    return {1e-4, 1e-5};
  return {1e-7, 1e-9};
}

std::string formatIndex(const std::vector<int64_t> &sizes, int64_t flat) {
  std::vector<std::string> parts(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    parts[d] = std::to_string(flat % sizes[d]);
    flat /= sizes[d];
  }
  return "[" + join(parts, ", ") + "]";
}

std::string formatValue(double v) {
  if (std::isnan(v))
    return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

} // namespace

bool isWritten(const ntc_kernel_info_t &info, int32_t i) {
  return (info.params[i].flags & NTC_PARAM_WRITTEN) != 0;
}

HostTensors makeHostTensors(const ntc_kernel_info_t &info, const ShapeCall &call, uint64_t seed) {
  HostTensors data(static_cast<size_t>(info.num_params));
  for (int32_t i = 0; i < info.num_params; ++i) {
    const ntc_param_info_t &param = info.params[i];
    if (param.kind != NTC_PARAM_TENSOR)
      continue;
    DLDataType dtype = param.dtype;
    int64_t count = elementCount(call.sizes[static_cast<size_t>(i)]);
    int64_t bytes = elementBytes(dtype);
    std::vector<unsigned char> &out = data[static_cast<size_t>(i)];
    out.assign(static_cast<size_t>(count * bytes), 0);
    if (isWritten(info, i))
      continue;
    Random random{seed * 1000003u + static_cast<uint64_t>(i)};
    NumberKind kind = numberKind(dtype);
    for (int64_t e = 0; e < count; ++e) {
      double value = 0;
      switch (kind) {
      case NumberKind::Float:
        value = random.uniform() * 2 - 1;
        break;
      case NumberKind::SignedInt:
        value = static_cast<double>(random.next() % 9) - 4;
        break;
      case NumberKind::UnsignedInt:
        value = static_cast<double>(random.next() % 9);
        break;
      case NumberKind::Bool:
        value = static_cast<double>(random.next() & 1);
        break;
      case NumberKind::Unknown:
        throw Error("tensors of type " + dtypeName(dtype) + " are not supported (parameter " +
                    param.name + ")");
      }
      if (kind == NumberKind::Float && dtype.bits == 32) {
        float f = static_cast<float>(value);
        std::memcpy(&out[static_cast<size_t>(e * 4)], &f, 4);
      } else {
        storeFromDouble(dtype, value, &out[static_cast<size_t>(e * bytes)]);
      }
    }
  }
  poisonOutputs(info, data);
  return data;
}

void poisonOutputs(const ntc_kernel_info_t &info, HostTensors &data) {
  for (int32_t i = 0; i < info.num_params; ++i) {
    if (info.params[i].kind != NTC_PARAM_TENSOR || !isWritten(info, i))
      continue;
    DLDataType dtype = info.params[i].dtype;
    std::vector<unsigned char> &out = data[static_cast<size_t>(i)];
    if (numberKind(dtype) != NumberKind::Float) {
      std::memset(out.data(), 0xA5, out.size());
      continue;
    }
    auto bytes = static_cast<size_t>(elementBytes(dtype));
    unsigned char nan[8];
    storeFromDouble(dtype, std::nan(""), nan);
    for (size_t at = 0; at + bytes <= out.size(); at += bytes)
      std::memcpy(&out[at], nan, bytes);
  }
}

/// Bytes compared at once before the outputs are decoded element by element (a multiple of
/// every element size).
constexpr size_t kBlockBytes = 4096;

std::string compareOutputs(const ntc_kernel_info_t &info, const ShapeCall &call,
                           const HostTensors &expected, const HostTensors &actual) {
  for (int32_t i = 0; i < info.num_params; ++i) {
    if (info.params[i].kind != NTC_PARAM_TENSOR || !isWritten(info, i))
      continue;
    DLDataType dtype = info.params[i].dtype;
    const auto &want = expected[static_cast<size_t>(i)];
    const auto &got = actual[static_cast<size_t>(i)];
    auto bytes = static_cast<size_t>(elementBytes(dtype));
    bool isFloat = numberKind(dtype) == NumberKind::Float;
    Tolerance tol = tolerance(dtype);
    const size_t end = std::min(want.size(), got.size()) / bytes * bytes;
    for (size_t at = 0; at < end; at += bytes) {
      // Runs of identical bytes need no decoding (most of a candidate's output, usually): a
      // 134 MB float16 output took seconds per candidate element by element.
      if (at % kBlockBytes == 0) {
        const size_t run = std::min(kBlockBytes, end - at);
        if (std::memcmp(&want[at], &got[at], run) == 0) {
          at += run - bytes;
          continue;
        }
      }
      double b = loadAsDouble(dtype, &want[at]);
      double a = loadAsDouble(dtype, &got[at]);
      bool same;
      if (isFloat)
        same = (std::isnan(a) && std::isnan(b)) || a == b ||
               std::fabs(a - b) <= tol.atol + tol.rtol * std::fabs(b);
      else
        same = std::memcmp(&want[at], &got[at], bytes) == 0;
      if (!same)
        return std::string("output differs from the default at ") + info.params[i].name +
               formatIndex(call.sizes[static_cast<size_t>(i)], static_cast<int64_t>(at / bytes)) +
               ": " + formatValue(a) + " against " + formatValue(b);
    }
  }
  return "";
}

ArgSet::ArgSet(Device &device, const ntc_kernel_info_t &info, const ShapeCall &call)
    : device_(device), info_(info) {
  auto n = static_cast<size_t>(info.num_params);
  buffers_.resize(n);
  shapes_ = call.sizes;
  strides_.resize(n);
  tensors_.resize(n);
  scalars_ = call.scalars;
  args_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const ntc_param_info_t &param = info.params[i];
    if (param.kind != NTC_PARAM_TENSOR) {
      args_[i] = scalars_[i].bytes;
      continue;
    }
    const std::vector<int64_t> &sizes = shapes_[i];
    std::vector<int64_t> &strides = strides_[i];
    strides.assign(sizes.size(), 1);
    for (size_t d = sizes.size(); d-- > 1;)
      strides[d - 1] = strides[d] * sizes[d];
    auto bytes = static_cast<size_t>(elementCount(sizes) * elementBytes(param.dtype));
    buffers_[i] = std::make_unique<DeviceBuffer>(device, bytes);
    DLTensor &t = tensors_[i];
    t.data = buffers_[i]->data();
    t.device = device.dlDevice();
    t.ndim = param.ndim;
    t.dtype = param.dtype;
    t.shape = shapes_[i].data();
    t.strides = strides.data();
    t.byte_offset = 0;
    args_[i] = &t;
  }
}

std::vector<const DLTensor *> ArgSet::tensors() const {
  std::vector<const DLTensor *> out;
  for (size_t i = 0; i < tensors_.size(); ++i)
    if (buffers_[i])
      out.push_back(&tensors_[i]);
  return out;
}

size_t ArgSet::bytes() const {
  size_t total = 0;
  for (const auto &buffer : buffers_)
    if (buffer)
      total += buffer->size();
  return total;
}

void ArgSet::upload(const HostTensors &data) {
  for (size_t i = 0; i < buffers_.size(); ++i)
    if (buffers_[i])
      device_.upload(buffers_[i]->data(), data[i].data(), buffers_[i]->size());
}

void ArgSet::uploadOutputs(const HostTensors &data) {
  for (size_t i = 0; i < buffers_.size(); ++i)
    if (buffers_[i] && isWritten(info_, static_cast<int32_t>(i)))
      device_.upload(buffers_[i]->data(), data[i].data(), buffers_[i]->size());
}

HostTensors ArgSet::downloadOutputs() {
  HostTensors out(buffers_.size());
  for (size_t i = 0; i < buffers_.size(); ++i)
    if (buffers_[i] && isWritten(info_, static_cast<int32_t>(i))) {
      out[i].resize(buffers_[i]->size());
      device_.download(out[i].data(), buffers_[i]->data(), buffers_[i]->size());
    }
  return out;
}

} // namespace ntc::tune
