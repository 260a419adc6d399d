// clamp: min(max(x, min_value), max_value), elementwise, with the bounds as float32 scalars
// (ntops' kernels/clamp.py takes them as tensors); torch.clamp(x, min=min_value,
// max=max_value). min_value > max_value gives max_value everywhere, as in PyTorch; NaN stays
// NaN. The result is rounded to the input's type. Ranks 1 and 4 (element_wise.hpp).
// C signature: clamp_f32(input, float min_value, float max_value, output, stream).
#include "element_wise.hpp"

NT_ARRANGEMENT auto clamp_arrangement(nt::Tensor input, nt::Tensor min_value, nt::Tensor max_value,
                                      nt::Tensor output) {
  return element_wise_arrangement(input, min_value, max_value, output);
}

NT_APPLICATION void clamp_application(nt::Tile input, nt::Tile min_value, nt::Tile max_value,
                                      nt::Tile output) {
  output = ntl::clamp(input, min_value, max_value);
}

NT_KERNEL(clamp_f32, clamp_arrangement, clamp_application, nt::Tensor(1, nt::float32),
          nt::Scalar(nt::float32), nt::Scalar(nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(clamp_f16, clamp_arrangement, clamp_application, nt::Tensor(1, nt::float16),
          nt::Scalar(nt::float32), nt::Scalar(nt::float32), nt::Tensor(1, nt::float16));
NT_KERNEL(clamp_f32_4d, clamp_arrangement, clamp_application, nt::Tensor(4, nt::float32),
          nt::Scalar(nt::float32), nt::Scalar(nt::float32), nt::Tensor(4, nt::float32));
NT_KERNEL(clamp_f16_4d, clamp_arrangement, clamp_application, nt::Tensor(4, nt::float16),
          nt::Scalar(nt::float32), nt::Scalar(nt::float32), nt::Tensor(4, nt::float16));
