// A tile extent that depends on a run-time size (a softmax row, `tile({1, -1})`) is padded to a
// power of two: the IR names it NP2_<bound>, the generated code has one variant per power of two
// up to the bound (here the declared .upper_bound(1, 256)) and rejects wider rows.
#include <ntc/dsl.hpp>

#include <limits>

NT_ARRANGEMENT auto arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, -1}), output.tile({1, -1}));
}

NT_APPLICATION void application(nt::Tile input, nt::Tile output) {
  auto shifted = input - ntl::max(input);
  auto numerator = ntl::exp(shifted);
  output = numerator / ntl::sum(numerator);
}

NT_KERNEL(row_softmax, arrangement, application,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()).upper_bound(1, 256),
          nt::Tensor(2, nt::float32).upper_bound(1, 256));

// CHECK-LABEL: kernel row_softmax(input: (input_size_0, 1) -> (1, input_size_1), output: (output_size_0, 1) -> (1, output_size_1)):
// CHECK-NEXT:    # [[NP2:NP2_256]] = next power of two of max(input_size_1, output_size_1), at most 256
// CHECK-NEXT:    %shifted = sub(load input[] : float32[1, [[NP2]]], max(load input[] : float32[1, [[NP2]]]) : float32[]) : float32[1, [[NP2]]]
// CHECK-NEXT:    %numerator = exp(%shifted : float32[1, [[NP2]]]) : float32[1, [[NP2]]]
// CHECK-NEXT:    store output[] <- div(%numerator : float32[1, [[NP2]]], sum(%numerator : float32[1, [[NP2]]]) : float32[]) : float32[1, [[NP2]]]

// The masked lanes of input read -inf; one variant per power of two from 16 to 256.
// CPP:         load<float>({{.*}}ntc_args.input, {{.*}}-INFINITY
// CPP-LABEL: static ntc_status_t ntc_row_softmax_run(
// CPP:         const int64_t ntc_NP2_256 = {{.*}}next_pow2(
// CPP:         if (ntc_NP2_256 > 256)
// CPP-NEXT:      return ntc::rt::fail(NTC_ERROR_UNSUPPORTED,
// CPP:         ntc_NP2_256 == 16) {
// CPP:         ntc_NP2_256 == 32) {
// CPP:         ntc_NP2_256 == 64) {
// CPP:         ntc_NP2_256 == 128) {
// CPP:         ntc_NP2_256 == 256) {
// CPP-NOT:     ntc_NP2_256 == 512
