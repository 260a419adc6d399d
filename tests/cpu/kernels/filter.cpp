// filter: a 3-tap filter whose weights are a run-time-sized tensor (test-only kernel of
// tests/cpu). The windows `x.tile({3}, {1}, {2}, true)` have the constant extent 3, the weights
// `w.tile({-1})` the run-time extent w_size_0: broadcasting them ties w_size_0 to 3, which the
// wrapper checks. out[i] = sum_j x[i + 2j] * w[j].

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto filter_arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor out) {
  auto windows = x.tile({3}, {1}, {2}, true);
  auto weights = w.tile({-1}).expand({windows.shape(0)});
  return nt::arrange(windows, weights, out.tile({1}));
}

NT_APPLICATION void filter_application(nt::Tile x, nt::Tile w, nt::Tile out) {
  out = ntl::sum(x * w);
}

NT_KERNEL(filter3, filter_arrangement, filter_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
