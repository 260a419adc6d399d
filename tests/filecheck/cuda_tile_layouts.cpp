// Layout assignment on the GPU path (passes/AssignLayouts.cpp, passes/AllocateShared.cpp): in
// attention (64-row programs by default) every tile value of the loop lives in mma fragments —
// the products in the Mma layout over 4×1 warps, the row statistics in its Slice along dim 1,
// the key offsets in its Slice along dim 0 — the queries are converted once, before the loop,
// into a swizzled shared buffer that the products read (sm_90a is the newest default target),
// `trans(k[i])` is folded into the copy of k to shared memory, and `p.to(float16)` feeds the
// second product in registers. A float32 product has no tensor-core
// layout and stays blocked; a lone 64-row product gets one warp per 16 rows (4×1).

#include "../../kernels/attention.cpp"

// The stock attention, declared here (ntc compiles the kernels of the file it is given).
NT_KERNEL(attn, attention_arrangement, attention_application,
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Constexpr("is_causal", {0, 1}),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128));
NT_KERNEL(attn32, attention_arrangement, attention_application,
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Constexpr("is_causal", {0, 1}),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128));

constexpr nt::Symbol B = nt::block_size("B", 64, 64);

NT_ARRANGEMENT auto whole(nt::Tensor a, nt::Tensor b, nt::Tensor c) {
  return nt::arrange(a.tile({B, B}), b.tile({B, B}), c.tile({B, B}));
}

NT_APPLICATION void product(nt::Tile a, nt::Tile b, nt::Tile c) { c = ntl::dot(a, b); }

// The product hides under a reduction to one element: its A operand, a local, still gets the
// operand layout where it is assigned (it used to be found only while lowering, after the
// local's definition had been lowered blocked: the generated code did not compile).
NT_APPLICATION void hidden_product(nt::Tile a, nt::Tile b, nt::Tile c) {
  auto x = a * 2;
  c = a + ntl::sum(ntl::dot(x, b));
}

NT_KERNEL(hidden, whole, hidden_product, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
NT_KERNEL(product_f16, whole, product, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
NT_KERNEL(product_f32, whole, product, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

// GIR-LABEL: IR after assign-layouts, fuse-dot-accumulate, defer-lane-sums, skip-unit-factors, mark-dying-operands, mark-canonical-nans, select-min-max, assign-cyclic-layouts, pipeline-loads, swizzle-shared, keep-operands-resident, overlap-products and allocate-shared (ntc_attn_program0, 128 threads, scratch 72 bytes, total 19456 bytes)
// The queries stay resident in a swizzled shared buffer of their own (keep-operands-resident).
// GIR: %q_loaded = convert_layout(mul(load q[] : float16[64, 16], 1.4427 : float32[]) : float16[64, 16]) : float16[64, 16] #shared<offset=1024, swizzle=32B, buffer=2, stages=1x2048B>
// GIR-NEXT: %acc = full(0) : float32[64, 16] #mma<4x1>
// The row sums are carried as lane shares (defer-lane-sums).
// GIR-NEXT: %l_i = convert_layout(full(1) : float32[64] #slice<#mma<4x1>, dim=1>) : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>
// GIR-NEXT: %m_i = full(-inf) : float32[64] #slice<#mma<4x1>, dim=1>
// The copies of k (transposed) and v run three iterations ahead through four-stage rings after
// the queries: 64 rows of 16 halves, 2048 bytes a stage.
// GIR-NEXT: async_copy if 0 < ⌈k_size_2/64⌉: convert_layout(load k[0] : float16[64, 16], transpose, iteration 0 from 0) : float16[16, 64] #shared<offset=3072, swizzle=32B, transposed, buffer=0, stages=4x2048B>
// GIR-NEXT: async_copy if 0 < ⌈k_size_2/64⌉: convert_layout(load v[0] : float16[64, 16], iteration 0 from 0) : float16[64, 16] #shared<offset=11264, swizzle=32B, buffer=1, stages=4x2048B>
// GIR-NEXT: async_commit
// GIR: for i in range(0, ⌈k_size_2/64⌉, 1):
// GIR-NEXT: async_wait pending=2
// GIR-NEXT: async_copy if i + 3 < ⌈k_size_2/64⌉: convert_layout(load k[i + 3] : float16[64, 16], transpose, iteration i + 3 from 0)
// GIR-NEXT: async_copy if i + 3 < ⌈k_size_2/64⌉: convert_layout(load v[i + 3] : float16[64, 16], iteration i + 3 from 0)
// GIR-NEXT: async_commit
// GIR-NEXT: %qk = dot(%q_loaded : float16[64, 16] #shared<offset=1024, swizzle=32B, buffer=2, stages=1x2048B>, shared_stage(iteration i from 0) : float16[16, 64] #shared<offset=3072, swizzle=32B, transposed, buffer=0, stages=4x2048B>) : float32[64, 64] #mma<4x1>
// GIR-NEXT: if ⌊k_size_2/64⌋ <= i:
// GIR-NEXT: %qk <- where(lt(offsets k[i] dim 2 : int64[64] #slice<#mma<4x1>, dim=0>, index(k_size_2) : int64[]) : bool[64] #slice<#mma<4x1>, dim=0>, %qk : float32[64, 64] #mma<4x1>, -inf : float32[]) : float32[64, 64] #mma<4x1>
// GIR-NEXT: %m_ij = maximum(%m_i : float32[64] #slice<#mma<4x1>, dim=1>, max(%qk : float32[64, 64] #mma<4x1>, axis=1) : float32[64] #slice<#mma<4x1>, dim=1>) : float32[64] #slice<#mma<4x1>, dim=1>
// GIR-NEXT: %p = exp2(sub(%qk : float32[64, 64] #mma<4x1>, expand_dims(%m_ij : float32[64] #slice<#mma<4x1>, dim=1>, 1) : float32[64, 1] #slice<#mma<4x1>, dim=1>) : float32[64, 64] #mma<4x1>) : float32[64, 64] #mma<4x1>
// GIR: %acc <- dot(convert_layout(cast(%p : float32[64, 64] #mma<4x1>, canonical_nan) : float16[64, 64] #mma<4x1>) : float16[64, 64] #dot_a<#mma<4x1>, k=2>, shared_stage(iteration i from 0) : float16[64, 16] #shared<offset=11264, swizzle=32B, buffer=1, stages=4x2048B>, mul(%acc : float32[64, 16] #mma<4x1>, expand_dims(%alpha : float32[64] #slice<#mma<4x1>, dim=1>, 1) : float32[64, 1] #slice<#mma<4x1>, dim=1>) : float32[64, 16] #mma<4x1>, a_dies) : float32[64, 16] #mma<4x1>
// GIR: %ntc_lanes_l_i = convert_layout(%l_i : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>) : float32[64] #slice<#mma<4x1>, dim=1>
// GIR-NEXT: store o[] <- div(%acc : float32[64, 16] #mma<4x1>, expand_dims(%ntc_lanes_l_i : float32[64] #slice<#mma<4x1>, dim=1>, 1) : float32[64, 1] #slice<#mma<4x1>, dim=1>) : float32[64, 16] #mma<4x1>
// The causal variant masks with both offsets materialized in the two Slice layouts.
// GIR-LABEL: (ntc_attn_program1,
// GIR: where(ge(expand_dims(offsets q[] dim 2 : int64[64] #slice<#mma<4x1>, dim=1>, 1) : int64[64, 1] #slice<#mma<4x1>, dim=1>, expand_dims(offsets k[i] dim 2 : int64[64] #slice<#mma<4x1>, dim=0>, 0) : int64[1, 64] #slice<#mma<4x1>, dim=0>) : bool[64, 64] #mma<4x1>
// GIR-LABEL: (ntc_attn32_program0,
// GIR-NOT: #mma
// GIR-NOT: #shared
// GIR-LABEL: (ntc_hidden_program0,
// GIR-NEXT: kernel hidden(
// GIR-NEXT: %x = convert_layout(mul(load a[] : float16[64, 64], 2 : int32[]) : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>
// GIR-NEXT: store c[] <- add(load a[] : float16[64, 64], sum(convert_layout(dot(%x : float16[64, 64] #dot_a<#mma<4x1>, k=2>,
// GIR-LABEL: (ntc_product_f16_program0, 128 threads
// GIR: store c[] <- dot(convert_layout(load a[] : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>, convert_layout(load b[] : float16[64, 64]) : float16[64, 64] #shared<offset={{[0-9]+}}, pad=16B>) : float32[64, 64] #mma<4x1>
// GIR-LABEL: (ntc_product_f32_program0,
// GIR-NOT: #
// GIR: store c[] <- dot(load a[] : float32[64, 64], load b[] : float32[64, 64]) : float32[64, 64]

// The printed device code: one template argument per layout.
// CU-LABEL: ntc_attn_program0(
// CU: auto t_q_loaded = ntc::dev::to_shared<1024, false, ntc::dev::Swizzled<32>>(
// CU: auto t_acc = ntc::dev::full<float, ntc::dev::Shape<64, 16>, ntc::dev::Mma<4, 1>>(
// CU: auto t_m_i = ntc::dev::full<float, ntc::dev::Shape<64>, ntc::dev::Slice<ntc::dev::Mma<4, 1>, 1>>(
// CU: if (0 < ntc::rt::ceil_div<Index>(ntc_k_size_2, 64))
// CU-NEXT: ntc::dev::async_copy<ntc::dev::float16, ntc::dev::Shape<64, 16>, 128, ntc::dev::Swizzled<32>>(ntc_smem, static_cast<std::size_t>(3072 + (0) % 4 * 2048), ntc_args.k, ntc::dev::convert<ntc::dev::float16>(0.0), ntc::dev::chunk_width<0>{},
// CU: ntc::dev::async_commit();
// CU: for (Index l_i = 0;
// CU-NEXT: ntc::dev::async_wait<2>();
// CU-NEXT: if ((l_i + 3) < ntc::rt::ceil_div<Index>(ntc_k_size_2, 64))
// CU: auto t_qk = ntc::dev::dot<float, ntc::dev::Mma<4, 1>>(t_q_loaded, ntc::dev::stage_view<ntc::dev::float16, ntc::dev::Shape<16, 64>, true, ntc::dev::Swizzled<32>>(ntc_smem, static_cast<std::size_t>(3072 + (l_i) % 4 * 2048)), ntc_smem);
// CU: ntc::dev::generate<int64_t, ntc::dev::Shape<64>, ntc::dev::Slice<ntc::dev::Mma<4, 1>, 0>>(
// CU: ntc::dev::max<1>(t_qk, ntc_smem)
// CU: ntc::dev::broadcast_to<ntc::dev::Shape<64, 64>>(ntc::dev::expand_dims<1>(t_m_ij), ntc_smem)
// CU: t_acc = ntc::dev::dot<float>(ntc::dev::convert_layout<ntc::dev::DotA<ntc::dev::Mma<4, 1>>, false>(ntc::dev::cast_canonical_nan<ntc::dev::float16>(t_p), ntc_smem), ntc::dev::stage_view<ntc::dev::float16, ntc::dev::Shape<64, 16>, false, ntc::dev::Swizzled<32>>(ntc_smem, static_cast<std::size_t>(11264 + (l_i) % 4 * 2048)), (t_acc * ntc::dev::broadcast_to<ntc::dev::Shape<64, 16>>(
// The vector twin copies 16-byte chunks with cp.async.
// CU-LABEL: ntc_attn_program0_vec(
// CU: ntc::dev::chunk_width<8>{},

