// A jagged tensor (Tensor::jagged_dim): the generated function takes its values and its offsets;
// the wrapper checks the offsets (read back to the host on the GPU) and makes the longest
// sequence the jagged extent, the batch stride 0; each program binds the first row and the
// length of its batch entry from the offsets, adds the first row to the jagged coordinate and
// masks that coordinate by the entry's own length.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({1, 16, 32}), y.tile({1, 16, 32}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) { y = x * 2; }

NT_KERNEL(double_padded, arrangement, application, nt::Tensor(3, nt::float32).jagged_dim(1),
          nt::Tensor(3, nt::float32));

// HDR: ntc_status_t double_padded(const DLTensor *x, const DLTensor *x_offsets, const DLTensor *y, ntc_stream_t ntc_stream);

// CPP:      const int64_t *ntc_x_offsets = nullptr;
// CPP:      const Index pid0 = ntc_rest;
// CPP-NEXT: // The batch entry of jagged 'x' this program reads.
// CPP-NEXT: const Index ntc_x_seq_start = (pid0) >= 0 && (pid0) < ntc_x_size_0 ? static_cast<Index>(ntc_args.ntc_x_offsets[pid0]) : Index(0);
// CPP-NEXT: const Index ntc_x_seq_len = (pid0) >= 0 && (pid0) < ntc_x_size_0 ? static_cast<Index>(ntc_args.ntc_x_offsets[(pid0) + 1]) - ntc_x_seq_start : Index(0);
// CPP:      if (!((lane1 + (16 * pid1)) < ntc_x_seq_len && (lane2 + (32 * pid2)) < ntc_x_size_2))
// CPP-NEXT:   return ntc::cpu::masked;
// CPP-NEXT: return static_cast<long long>(pid0 * ntc_x_stride_0 + (lane1 + (16 * pid1) + ntc_x_seq_start) * ntc_x_stride_1 + (lane2 + (32 * pid2)) * ntc_x_stride_2);
// CPP:      ntc::rt::check_tensor("double_padded", x, "x", 2, ntc::rt::dtypes::float32, kDLCPU)
// CPP:      ntc::rt::check_tensor("double_padded", x_offsets, "x_offsets", 1, ntc::rt::dtypes::int64, kDLCPU)
// CPP:      ntc_args.ntc_x_offsets = ntc::rt::data<const int64_t>(x_offsets);
// CPP-NEXT: ntc_args.ntc_x_size_0 = std::max<int64_t>(0, ntc::rt::size(x_offsets, 0) - 1);
// CPP-NEXT: ntc_args.ntc_x_stride_0 = 0;
// CPP-NEXT: ntc_args.ntc_x_size_1 = ntc::rt::size(x, 0);
// CPP-NEXT: ntc_args.ntc_x_stride_1 = ntc::rt::stride(x, 0);
// CPP-NEXT: ntc_args.ntc_x_size_2 = ntc::rt::size(x, 1);
// CPP-NEXT: ntc_args.ntc_x_stride_2 = ntc::rt::stride(x, 1);
// CPP-NEXT: if ((ntc_status = ntc::rt::check_offsets("double_padded", x_offsets, "x_offsets", ntc_args.ntc_x_offsets, ntc::rt::size(x, 0), ntc_args.ntc_x_size_1)))
// CPP:      {"x", NTC_PARAM_JAGGED, 2, ntc::rt::dtypes::float32, 0u},
// CPP-NEXT: {"x_offsets", NTC_PARAM_OFFSETS, 1, ntc::rt::dtypes::int64, 0u},
// CPP-NEXT: {"y", NTC_PARAM_TENSOR, 3, ntc::rt::dtypes::float32, NTC_PARAM_WRITTEN},
// CPP:      info = {"double_padded", 3, ntc_double_padded_params, "cpu", ntc_double_padded_call, ntc_double_padded_config_for, 1, ntc_double_padded_configs};

// CU:      cudaMemcpyAsync(ntc_x_offsets_copy.data(), ntc_args.ntc_x_offsets, ntc_x_offsets_copy.size() * sizeof(int64_t), cudaMemcpyDeviceToHost, ntc_copy_stream);
// CU:      ntc_err = cudaStreamSynchronize(ntc_copy_stream);
// CU:      ntc::rt::check_offsets("double_padded", x_offsets, "x_offsets", ntc_x_offsets_copy.data(), ntc::rt::size(x, 0), ntc_args.ntc_x_size_1)
// CU:      if (ntc::rt::vector_ready(x, 1, 4) && ntc::rt::vector_ready(y, 2, 4)) {
