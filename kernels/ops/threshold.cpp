// threshold: x > threshold ? x : value, elementwise (ntops' kernels/threshold.py);
// torch.nn.functional.threshold(x, threshold, value). Written as PyTorch computes it,
// x <= threshold ? value : x, so that NaN stays NaN (ntops' where(x > threshold, x, value)
// turns NaN into value). The scalars are float32 (ntops: float64); the comparison is made in
// float32, value is rounded to the input's type. Ranks 1 and 4 (element_wise.hpp).
// C signature: threshold_f32(input, float threshold, float value, output, stream).
#include "element_wise.hpp"

NT_ARRANGEMENT auto threshold_arrangement(nt::Tensor input, nt::Tensor threshold, nt::Tensor value,
                                          nt::Tensor output) {
  return element_wise_arrangement(input, threshold, value, output);
}

NT_APPLICATION void threshold_application(nt::Tile input, nt::Tile threshold, nt::Tile value,
                                          nt::Tile output) {
  output = ntl::where(input <= threshold, value, input);
}

NT_KERNEL(threshold_f32, threshold_arrangement, threshold_application, nt::Tensor(1, nt::float32),
          nt::Scalar(nt::float32), nt::Scalar(nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(threshold_f16, threshold_arrangement, threshold_application, nt::Tensor(1, nt::float16),
          nt::Scalar(nt::float32), nt::Scalar(nt::float32), nt::Tensor(1, nt::float16));
NT_KERNEL(threshold_f32_4d, threshold_arrangement, threshold_application,
          nt::Tensor(4, nt::float32), nt::Scalar(nt::float32), nt::Scalar(nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(threshold_f16_4d, threshold_arrangement, threshold_application,
          nt::Tensor(4, nt::float16), nt::Scalar(nt::float32), nt::Scalar(nt::float32),
          nt::Tensor(4, nt::float16));
