// example: calls two of the standard kernels that ntc compiled for the CPU backend
// (kernels/matmul.cpp and kernels/softmax.cpp, built by add_nt_kernel into ntc_kernels_cpu) on
// random inputs, compares them with plain C++ references and prints the largest error:
//
//   matmul 128x192x256: max |err| = 0.0012 (ok)
//   softmax 1823x781: max |err| = 1.9e-09 (ok)
//
// Exits with 1 on a mismatch or a failed call. Run it as `build/examples/ntc_example`.

#include <matmul.h>
#include <softmax.h>

#include <ntc/cpu/half.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using ntc::cpu::float16;

/// A compact row-major CPU tensor of rank 2 over `data`.
DLTensor matrix(void *data, int64_t *shape, DLDataType dtype) {
  DLTensor t{};
  t.data = data;
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 2;
  t.dtype = dtype;
  t.shape = shape;
  t.strides = nullptr;
  t.byte_offset = 0;
  return t;
}

constexpr DLDataType kFloat16{kDLFloat, 16, 1};
constexpr DLDataType kFloat32{kDLFloat, 32, 1};

bool called(const char *name, ntc_status_t status) {
  if (status == NTC_SUCCESS)
    return true;
  std::printf("%s: %s: %s\n", name, ntc_status_string(status), ntc_last_error());
  return false;
}

/// Prints the line for one kernel; true when every |out - ref| <= atol + rtol * |ref|.
bool report(const char *what, const std::vector<double> &out, const std::vector<double> &ref,
            double atol, double rtol) {
  double max_err = 0;
  bool ok = true;
  for (size_t i = 0; i < out.size(); ++i) {
    double err = std::fabs(out[i] - ref[i]);
    if (!(err <= atol + rtol * std::fabs(ref[i]))) // NaN fails too
      ok = false;
    max_err = std::max(max_err, std::isnan(err) ? INFINITY : err);
  }
  std::printf("%s: max |err| = %.2g (%s)\n", what, max_err, ok ? "ok" : "MISMATCH");
  return ok;
}

/// output (M x N, float16) = lhs (M x K) @ rhs (K x N), accumulated in float32.
bool run_matmul(std::mt19937 &rng) {
  const int64_t M = 128, K = 192, N = 256;
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float16> lhs(M * K), rhs(K * N), output(M * N);
  for (float16 &x : lhs)
    x = float16(dist(rng));
  for (float16 &x : rhs)
    x = float16(dist(rng));

  int64_t lhs_shape[2] = {M, K}, rhs_shape[2] = {K, N}, output_shape[2] = {M, N};
  DLTensor l = matrix(lhs.data(), lhs_shape, kFloat16);
  DLTensor r = matrix(rhs.data(), rhs_shape, kFloat16);
  DLTensor o = matrix(output.data(), output_shape, kFloat16);
  if (!called("matmul", matmul(&l, &r, &o, nullptr)))
    return false;

  std::vector<double> out(M * N), ref(M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < K; ++k)
        sum += double(float(lhs[i * K + k])) * double(float(rhs[k * N + j]));
      ref[i * N + j] = sum;
      out[i * N + j] = float(output[i * N + j]);
    }
  char what[64];
  std::snprintf(what, sizeof what, "matmul %lldx%lldx%lld", (long long)M, (long long)K,
                (long long)N);
  return report(what, out, ref, 0.025, 0.025);
}

/// Row-wise softmax of a float32 matrix whose rows are not a multiple of any tile size.
bool run_softmax(std::mt19937 &rng) {
  const int64_t rows = 1823, cols = 781;
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> input(rows * cols), output(rows * cols);
  for (float &x : input)
    x = dist(rng);

  int64_t shape[2] = {rows, cols};
  DLTensor in = matrix(input.data(), shape, kFloat32);
  DLTensor out_t = matrix(output.data(), shape, kFloat32);
  if (!called("softmax", softmax(&in, &out_t, nullptr)))
    return false;

  std::vector<double> out(rows * cols), ref(rows * cols);
  for (int64_t i = 0; i < rows; ++i) {
    const float *row = &input[i * cols];
    double max = *std::max_element(row, row + cols), sum = 0;
    for (int64_t j = 0; j < cols; ++j)
      sum += std::exp(double(row[j]) - max);
    for (int64_t j = 0; j < cols; ++j) {
      ref[i * cols + j] = std::exp(double(row[j]) - max) / sum;
      out[i * cols + j] = output[i * cols + j];
    }
  }
  char what[64];
  std::snprintf(what, sizeof what, "softmax %lldx%lld", (long long)rows, (long long)cols);
  return report(what, out, ref, 1e-6, 1e-4);
}

} // namespace

int main() {
  std::mt19937 rng(2024);
  bool ok = run_matmul(rng);
  ok = run_softmax(rng) && ok;
  return ok ? 0 : 1;
}
