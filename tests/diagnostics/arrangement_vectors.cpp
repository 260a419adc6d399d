// std::vector in arrangements (computed tile shapes and dimension lists): an index out of range,
// a size beyond 64 and a method other than push_back, size, empty, back, front, clear and []
// are located errors (a symbolic index or size does not type-check as C++: nt::Symbol does not
// convert to an integer).
#include <ntc/dsl.hpp>

#include <vector>

NT_ARRANGEMENT auto out_of_range(nt::Tensor x) {
  std::vector<nt::Symbol> shape(x.ndim(), 1);
  shape[2] = -1; // expected-error {{index 2 is out of range for a vector of 2 elements}}
  return nt::arrange(x.tile(shape));
}
NT_ARRANGEMENT auto too_long(nt::Tensor x) {
  std::vector<nt::Symbol> shape(65, 1); // expected-error {{a vector of 65 elements in an arrangement (at most 64)}}
  return nt::arrange(x.tile(shape));
}
NT_ARRANGEMENT auto unsupported_method(nt::Tensor x) {
  std::vector<nt::Symbol> shape;
  shape.resize(2, 1); // expected-error {{'resize' of a std::vector is not supported in an arrangement (push_back, size, empty, back, front, clear and [] are)}}
  return nt::arrange(x.tile(shape));
}
NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(range_kernel, out_of_range, app, nt::Tensor(2, nt::float32));
NT_KERNEL(long_kernel, too_long, app, nt::Tensor(2, nt::float32));
NT_KERNEL(method_kernel, unsupported_method, app, nt::Tensor(2, nt::float32));
