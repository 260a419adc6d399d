// where: condition ? input : other, elementwise, with a bool condition tensor of the same
// shape; torch.where(condition, input, other). Ranks 1 and 4 (element_wise.hpp).
// C signature: where_f32(condition, input, other, output, stream).
#include "element_wise.hpp"

NT_ARRANGEMENT auto where_arrangement(nt::Tensor condition, nt::Tensor input, nt::Tensor other,
                                      nt::Tensor output) {
  return element_wise_arrangement(condition, input, other, output);
}

NT_APPLICATION void where_application(nt::Tile condition, nt::Tile input, nt::Tile other,
                                      nt::Tile output) {
  output = ntl::where(condition, input, other);
}

NT_KERNEL(where_f32, where_arrangement, where_application, nt::Tensor(1, nt::bool_),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(where_f16, where_arrangement, where_application, nt::Tensor(1, nt::bool_),
          nt::Tensor(1, nt::float16), nt::Tensor(1, nt::float16), nt::Tensor(1, nt::float16));
NT_KERNEL(where_f32_4d, where_arrangement, where_application, nt::Tensor(4, nt::bool_),
          nt::Tensor(4, nt::float32), nt::Tensor(4, nt::float32), nt::Tensor(4, nt::float32));
NT_KERNEL(where_f16_4d, where_arrangement, where_application, nt::Tensor(4, nt::bool_),
          nt::Tensor(4, nt::float16), nt::Tensor(4, nt::float16), nt::Tensor(4, nt::float16));
