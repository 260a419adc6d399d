// The generated wrappers' argument validation on the CPU backend: every rejected call returns
// NTC_ERROR_INVALID_ARGUMENT with a message (ntc_last_error()) that names the kernel and the
// parameter, and leaves the output untouched; an empty grid succeeds; ntc_<k>_info() describes
// the parameters.
#include "Common.hpp"

#include <add.h>
#include <add_block4.h>
#include <addmm.h>
#include <attention.h>
#include <matmul.h>
#include <softmax.h>

#include <cstring>

using namespace ntc_test;

namespace {

/// CHECKs that `status` is NTC_ERROR_INVALID_ARGUMENT and ntc_last_error() contains every one
/// of `parts`.
void check_rejected(ntc_status_t status, std::initializer_list<const char *> parts) {
  const std::string message = ntc_last_error();
  INFO("ntc_last_error(): " << message);
  CHECK(status == NTC_ERROR_INVALID_ARGUMENT);
  for (const char *part : parts) {
    INFO("expected in the message: " << part);
    CHECK(message.find(part) != std::string::npos);
  }
}

bool untouched(const Tensor<float> &t) {
  for (float v : t.buffer)
    if (v != float(Tensor<float>::sentinel()))
      return false;
  return true;
}
bool untouched(const Tensor<float16> &t) {
  for (float16 v : t.buffer)
    if (float(v) != float(float16(Tensor<float16>::sentinel())))
      return false;
  return true;
}

} // namespace

TEST_CASE("validation: wrong rank", "[cpu][validation]") {
  Tensor<float16> lhs({2, 3, 4}), rhs({4, 5}), output({3, 5});
  check_rejected(matmul(&lhs, &rhs, &output, nullptr), {"matmul", "'lhs'", "rank 3", "expected 2"});
  CHECK(untouched(output));

  Tensor<float> a({10}), b({2, 5}), c({10});
  check_rejected(add_f32(&a, &b, &c, nullptr), {"add_f32", "'rhs'", "rank 2"});
  CHECK(untouched(c));

  Tensor<float> input({10}), out({1, 10});
  check_rejected(softmax(&input, &out, nullptr), {"softmax", "'input'", "rank 1"});
}

TEST_CASE("validation: wrong dtype", "[cpu][validation]") {
  Tensor<float> lhs({8}), output({8});
  Tensor<float16> rhs({8});
  check_rejected(add_f32(&lhs, &rhs, &output, nullptr), {"add_f32", "'rhs'", "float16", "float32"});
  CHECK(untouched(output));

  Tensor<float16> h1({8}), h2({8}), h3({8});
  Tensor<float> f({8});
  check_rejected(add_f16(&h1, &h2, &f, nullptr), {"add_f16", "'output'", "float32"});

  // Same bits, other type code: bfloat16 is not float16.
  Tensor<bfloat16> bf({4, 4});
  Tensor<float16> rhs2({4, 4}), out2({4, 4});
  check_rejected(matmul(&bf, &rhs2, &out2, nullptr), {"matmul", "'lhs'", "bfloat16"});

  // Vector lanes are part of the dtype.
  Tensor<float> lanes({8}), ok({8}), out3({8});
  lanes.dl.dtype.lanes = 4;
  check_rejected(add_f32(&lanes, &ok, &out3, nullptr), {"add_f32", "'lhs'"});
}

TEST_CASE("validation: mismatched shapes", "[cpu][validation]") {
  Tensor<float16> lhs({4, 5}), rhs({6, 3}), output({4, 3});
  lhs.fill(1);
  rhs.fill(1);
  check_rejected(matmul(&lhs, &rhs, &output, nullptr),
                 {"matmul", "size mismatch", "lhs.shape[1]", "rhs.shape[0]", "5", "6"});
  CHECK(untouched(output));

  Tensor<float16> rhs2({5, 3}), output2({4, 7});
  check_rejected(matmul(&lhs, &rhs2, &output2, nullptr),
                 {"matmul", "output.shape[1]", "rhs.shape[1]"});

  Tensor<float> a({10}), b({11}), c({10});
  check_rejected(add_f32(&a, &b, &c, nullptr),
                 {"add_f32", "lhs.shape[0]", "rhs.shape[0]", "10", "11"});
  CHECK(untouched(c));

  Tensor<float> input({3, 8}), out({4, 8});
  check_rejected(softmax(&input, &out, nullptr), {"softmax", "input.shape[0]", "output.shape[0]"});

  Tensor<float16> in({4, 3}), m1({4, 5}), m2({5, 3}), o({4, 2});
  check_rejected(addmm(&in, &m1, &m2, 1.0f, 1.0f, &o, nullptr), {"addmm", "output.shape[1]"});

  Tensor<float> q({1, 2, 8, 16}), k({1, 3, 8, 16}), v({1, 2, 8, 16}), ao({1, 2, 8, 16});
  check_rejected(attention_f32(&q, &k, &v, 0, &ao, nullptr),
                 {"attention_f32", "q.shape[1]", "k.shape[1]"});
  CHECK(untouched(ao));
}

TEST_CASE("validation: null data and null tensors", "[cpu][validation]") {
  Tensor<float> lhs({8}), rhs({8}), output({8});
  lhs.dl.data = nullptr;
  check_rejected(add_f32(&lhs, &rhs, &output, nullptr), {"add_f32", "'lhs'", "null"});
  CHECK(untouched(output));

  check_rejected(add_f32(&rhs, nullptr, &output, nullptr), {"add_f32", "'rhs'", "null"});

  Tensor<float> input({2, 8}), out({2, 8});
  out.dl.data = nullptr;
  check_rejected(softmax(&input, &out, nullptr), {"softmax", "'output'", "null"});

  Tensor<float> bad_shape({8}), ok({8}), out2({8});
  bad_shape.dl.shape = nullptr;
  check_rejected(add_f32(&bad_shape, &ok, &out2, nullptr), {"add_f32", "'lhs'", "shape"});

  Tensor<float> negative({8}), ok2({8}), out3({8});
  negative.shape[0] = -3;
  check_rejected(add_f32(&negative, &ok2, &out3, nullptr), {"add_f32", "'lhs'", "negative"});
}

TEST_CASE("validation: a CUDA tensor given to a CPU kernel", "[cpu][validation]") {
  Tensor<float> lhs({8}), rhs({8}), output({8});
  output.dl.device = {kDLCUDA, 0};
  check_rejected(add_f32(&lhs, &rhs, &output, nullptr), {"add_f32", "'output'", "CUDA", "CPU"});
  CHECK(untouched(output));

  Tensor<float16> a({4, 4}), b({4, 4}), c({4, 4});
  b.dl.device = {kDLCUDAManaged, 0};
  check_rejected(matmul(&a, &b, &c, nullptr), {"matmul", "'rhs'"});
}

TEST_CASE("validation: a misaligned byte_offset", "[cpu][validation]") {
  Tensor<float> lhs({8}), rhs({8}), output({8});
  lhs.dl.byte_offset = 2; // not a multiple of sizeof(float)
  check_rejected(add_f32(&lhs, &rhs, &output, nullptr), {"add_f32", "'lhs'"});
  CHECK(untouched(output));
}

TEST_CASE("validation: a constexpr value outside its set (is_causal = 2)", "[cpu][validation]") {
  Tensor<float> q({1, 1, 4, 8}), k({1, 1, 4, 8}), v({1, 1, 4, 8}), o({1, 1, 4, 8});
  q.fill(0.5);
  k.fill(0.5);
  v.fill(0.5);
  check_rejected(attention_f32(&q, &k, &v, 2, &o, nullptr),
                 {"attention_f32", "'is_causal'", "2", "0, 1"});
  CHECK(untouched(o));
  check_rejected(attention_f32(&q, &k, &v, -1, &o, nullptr), {"'is_causal'", "-1"});

  Tensor<float16> hq({1, 1, 4, 8}), hk({1, 1, 4, 8}), hv({1, 1, 4, 8}), ho({1, 1, 4, 8});
  check_rejected(attention_f16(&hq, &hk, &hv, 2, &ho, nullptr), {"attention_f16", "'is_causal'"});

  // The allowed values work.
  REQUIRE_NTC_OK(attention_f32(&q, &k, &v, 1, &o, nullptr));
  CHECK(o.get({0, 0, 3, 7}) == Approx(0.5));
}

TEST_CASE("validation: a head dimension above the upper bound is unsupported",
          "[cpu][validation]") {
  Tensor<float> q({1, 1, 2, 129}), k({1, 1, 2, 129}), v({1, 1, 2, 129}), o({1, 1, 2, 129});
  CHECK(attention_f32(&q, &k, &v, 0, &o, nullptr) == NTC_ERROR_UNSUPPORTED);
  const std::string message = ntc_last_error();
  INFO(message);
  CHECK(message.find("attention_f32") != std::string::npos);
  CHECK(message.find("129") != std::string::npos);
  CHECK(message.find("128") != std::string::npos);
  CHECK(untouched(o));
}

TEST_CASE("validation: success leaves the last error in place", "[cpu][validation]") {
  Tensor<float> lhs({8}), rhs({9}), output({8});
  CHECK(add_f32(&lhs, &rhs, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  const std::string before = ntc_last_error();
  CHECK_FALSE(before.empty());
  Tensor<float> a({8}), b({8}), c({8});
  a.fill(1);
  b.fill(2);
  CHECK(add_f32(&a, &b, &c, nullptr) == NTC_SUCCESS);
  CHECK(c(7) == 3.0f);
  CHECK(std::string(ntc_last_error()) == before);
}

TEST_CASE("validation: empty grids succeed", "[cpu][validation]") {
  Tensor<float> lhs({0}, {}, 0, 2), rhs({0}, {}, 0, 2), output({0}, {}, 0, 2);
  CHECK(add_f32(&lhs, &rhs, &output, nullptr) == NTC_SUCCESS);
  CHECK(untouched(output));

  Tensor<float16> a({0, 5}, {}, 0, 2), b({5, 7}), c({0, 7}, {}, 0, 2);
  CHECK(matmul(&a, &b, &c, nullptr) == NTC_SUCCESS);
  CHECK(untouched(c));

  Tensor<float> q({2, 0, 16, 8}, {}, 0, 2), k({2, 0, 16, 8}, {}, 0, 2), v({2, 0, 16, 8}, {}, 0, 2),
      o({2, 0, 16, 8}, {}, 0, 2);
  CHECK(attention_f32(&q, &k, &v, 1, &o, nullptr) == NTC_SUCCESS);
  CHECK(untouched(o));
}

namespace {

void check_param(const ntc_param_info_t &p, const char *name, ntc_param_kind_t kind, int32_t ndim,
                 DLDataType dtype) {
  INFO("parameter " << name);
  CHECK(std::string(p.name) == name);
  CHECK(p.kind == kind);
  CHECK(p.ndim == ndim);
  CHECK(p.dtype.code == dtype.code);
  CHECK(p.dtype.bits == dtype.bits);
  CHECK(p.dtype.lanes == dtype.lanes);
}

} // namespace

TEST_CASE("ntc_<kernel>_info() describes the parameters", "[cpu][info]") {
  const DLDataType f16 = dtype_of<float16>(), f32 = dtype_of<float>(), i64{kDLInt, 64, 1};

  const ntc_kernel_info_t *mm = ntc_matmul_info();
  REQUIRE(mm != nullptr);
  CHECK(std::string(mm->name) == "matmul");
  CHECK(std::string(mm->target) == "cpu");
  REQUIRE(mm->num_params == 3);
  check_param(mm->params[0], "lhs", NTC_PARAM_TENSOR, 2, f16);
  check_param(mm->params[1], "rhs", NTC_PARAM_TENSOR, 2, f16);
  check_param(mm->params[2], "output", NTC_PARAM_TENSOR, 2, f16);

  const ntc_kernel_info_t *a32 = ntc_add_f32_info();
  CHECK(std::string(a32->name) == "add_f32");
  REQUIRE(a32->num_params == 3);
  check_param(a32->params[0], "lhs", NTC_PARAM_TENSOR, 1, f32);
  check_param(a32->params[2], "output", NTC_PARAM_TENSOR, 1, f32);
  CHECK(std::string(ntc_add_f16_info()->name) == "add_f16");
  check_param(ntc_add_f16_info()->params[1], "rhs", NTC_PARAM_TENSOR, 1, f16);
  CHECK(std::string(ntc_add_block4_info()->name) == "add_block4");

  const ntc_kernel_info_t *sm = ntc_softmax_info();
  REQUIRE(sm->num_params == 2);
  check_param(sm->params[0], "input", NTC_PARAM_TENSOR, 2, f32);
  check_param(sm->params[1], "output", NTC_PARAM_TENSOR, 2, f32);

  const ntc_kernel_info_t *am = ntc_addmm_info();
  CHECK(std::string(am->name) == "addmm");
  REQUIRE(am->num_params == 6);
  check_param(am->params[0], "input", NTC_PARAM_TENSOR, 2, f16);
  check_param(am->params[1], "mat1", NTC_PARAM_TENSOR, 2, f16);
  check_param(am->params[2], "mat2", NTC_PARAM_TENSOR, 2, f16);
  check_param(am->params[3], "beta", NTC_PARAM_SCALAR, 0, f32);
  check_param(am->params[4], "alpha", NTC_PARAM_SCALAR, 0, f32);
  check_param(am->params[5], "output", NTC_PARAM_TENSOR, 2, f16);

  for (const ntc_kernel_info_t *at : {ntc_attention_f16_info(), ntc_attention_f32_info()}) {
    const DLDataType t = at == ntc_attention_f16_info() ? f16 : f32;
    INFO(at->name);
    CHECK(std::string(at->target) == "cpu");
    REQUIRE(at->num_params == 5);
    check_param(at->params[0], "q", NTC_PARAM_TENSOR, 4, t);
    check_param(at->params[1], "k", NTC_PARAM_TENSOR, 4, t);
    check_param(at->params[2], "v", NTC_PARAM_TENSOR, 4, t);
    check_param(at->params[3], "is_causal", NTC_PARAM_SCALAR, 0, i64);
    check_param(at->params[4], "o", NTC_PARAM_TENSOR, 4, t);
  }
  CHECK(std::string(ntc_attention_f16_info()->name) == "attention_f16");
  CHECK(std::string(ntc_attention_f32_info()->name) == "attention_f32");
}

TEST_CASE("validation: an output overlapping an input", "[cpu][validation]") {
  // add: output shares 90 of lhs's 100 elements, shifted by 10.
  Tensor<float> shared({110}), rhs({100});
  shared.fill(1);
  rhs.fill(2);
  DLTensor lhs = shared.dl, output = shared.dl;
  int64_t n[1] = {100};
  lhs.shape = output.shape = n;
  output.byte_offset = 10 * sizeof(float);
  check_rejected(add_f32(&lhs, &rhs.dl, &output, nullptr),
                 {"add_f32", "'output'", "'lhs'", "overlap"});
  for (float v : shared.buffer)
    CHECK(v == 1.0f);

  // matmul: an output that is exactly the lhs is rejected too (programs read rows of lhs that
  // others write).
  Tensor<float16> square({8, 8}), other({8, 8});
  square.fill(1);
  other.fill(1);
  check_rejected(matmul(&square, &other, &square, nullptr), {"matmul", "'output'", "'lhs'"});
}

TEST_CASE("validation: in-place elementwise calls are allowed", "[cpu][validation]") {
  // add with output == lhs: every program reads exactly the elements it writes.
  Tensor<float> x({100}), y({100});
  std::mt19937_64 rng(5);
  x.randomize(rng);
  y.randomize(rng);
  std::vector<double> ref;
  for (int64_t i = 0; i < 100; ++i)
    ref.push_back(double(float(x.get({i}) + y.get({i}))));
  REQUIRE_NTC_OK(add_f32(&x, &y, &x, nullptr));
  CHECK_CLOSE(compare(x, ref, 0, 0));

  // softmax in place: one program reads its whole row, then writes it.
  Tensor<float> rows({3, 50});
  rows.randomize(rng);
  std::vector<double> expected;
  for (int64_t r = 0; r < 3; ++r) {
    double peak = -1e30, total = 0;
    for (int64_t c = 0; c < 50; ++c)
      peak = std::max(peak, rows.get({r, c}));
    for (int64_t c = 0; c < 50; ++c)
      total += std::exp(rows.get({r, c}) - peak);
    for (int64_t c = 0; c < 50; ++c)
      expected.push_back(std::exp(rows.get({r, c}) - peak) / total);
  }
  REQUIRE_NTC_OK(softmax(&rows, &rows, nullptr));
  CHECK_CLOSE(compare(rows, expected, 1e-6, 1e-5));
}

TEST_CASE("validation: a huge broadcast extent gets a status (no hang)",
          "[cpu][validation]") {
  // softmax with a row of 2^62 + 1 elements broadcast from one (stride 0): used to loop forever
  // in next_pow2.
  float one = 1.0f, out = 0.0f;
  int64_t shape[2] = {1, (int64_t(1) << 62) + 1}, strides[2] = {0, 0};
  DLTensor input{}, output{};
  input.data = &one;
  input.device = {kDLCPU, 0};
  input.ndim = 2;
  input.dtype = {kDLFloat, 32, 1};
  input.shape = shape;
  input.strides = strides;
  output = input;
  output.data = &out;
  const ntc_status_t status = softmax(&input, &output, nullptr);
  INFO("ntc_last_error(): " << ntc_last_error());
  CHECK(status != NTC_SUCCESS);
  CHECK(std::string(ntc_last_error()).find("softmax") != std::string::npos);
  CHECK(out == 0.0f);
}
