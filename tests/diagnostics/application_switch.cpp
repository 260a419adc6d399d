// A 'switch' statement in an application.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor mode) {
  return nt::arrange(x.tile({4}), mode);
}

constexpr int kVariant = 4;

NT_APPLICATION void application(nt::Tile x, nt::Tile mode) {
  switch (kVariant) { // expected-error {{'switch' statements are not supported in an application function; use 'if' on a compile-time scalar}}
  case 4:
    x = x + mode;
    break;
  default:
    x = x - mode;
  }
}

NT_KERNEL(switch_kernel, arrangement, application, nt::Tensor(1, nt::float32),
          nt::Constexpr("mode", {0, 1}));
