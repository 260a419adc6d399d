// cross_entropy: the forward cross-entropy loss of logits (N, C) against int64 class targets
// (N,), torch.nn.functional.cross_entropy(logits, targets, ignore_index=ignore_index), for
// float32 and float16 logits (float32 arithmetic):
//   cross_entropy_*      (reduction='none')  losses[n] = logsumexp(logits[n]) - logits[n, t[n]],
//                                            0 where t[n] == ignore_index
//   cross_entropy_mean_* (reduction='mean')  output[0] = mean of losses over the rows whose
//                                            target is not ignore_index (NaN if there is none)
// The mean is a second launch over the per-row losses: programs cannot combine their results.
// Targets outside [0, C) other than ignore_index are not detected (torch raises); such a row's
// loss is its log-sum-exp.
//
// cross_entropy_*: one program per row walks it in blocks of CROSS_ENTROPY_BLOCK elements with
// the online log-sum-exp of reduction.hpp, picking the target's logit out of its block by
// comparing the column offsets with the target (there is no gather inside a tile).
// cross_entropy_mean_*: one program walks the losses in blocks of CROSS_ENTROPY_MEAN_BLOCK.

#include "reduction.hpp"

constexpr nt::Symbol CROSS_ENTROPY_BLOCK = nt::block_size("CROSS_ENTROPY_BLOCK", 1024);
constexpr nt::Symbol CROSS_ENTROPY_MEAN_BLOCK = nt::block_size("CROSS_ENTROPY_MEAN_BLOCK", 1024);

NT_ARRANGEMENT auto cross_entropy_arrangement(nt::Tensor logits, nt::Tensor targets,
                                              nt::Tensor ignore_index, nt::Tensor losses) {
  return nt::arrange(reduce_blocks(logits, -1, CROSS_ENTROPY_BLOCK), one_per_program(targets),
                     ignore_index, one_per_program(losses));
}

NT_APPLICATION void cross_entropy_application(nt::Tile logits, nt::Tile targets,
                                              nt::Tile ignore_index, nt::Tile losses) {
  auto max = ntl::cast(-kInfinity, ntl::float32);
  auto sum_exp = ntl::cast(0, ntl::float32);
  auto target_logit = ntl::cast(0, ntl::float32);
  for (int i = 0; i < logits.shape(0); ++i) {
    auto x = logits[i].to(ntl::float32);
    online_logsumexp_step(x, max, sum_exp);
    target_logit += ntl::sum(ntl::where(logits[i].offsets(-1) == targets, x, 0));
  }
  auto loss = finish_logsumexp(max, sum_exp) - target_logit;
  losses = ntl::where(targets == ignore_index, 0, loss);
}

NT_KERNEL(cross_entropy_f32, cross_entropy_arrangement, cross_entropy_application,
          nt::Tensor(2, nt::float32).other(-kInfinity), nt::Tensor(1, nt::int64),
          nt::Scalar(nt::int64), nt::Tensor(1, nt::float32));
NT_KERNEL(cross_entropy_f16, cross_entropy_arrangement, cross_entropy_application,
          nt::Tensor(2, nt::float16).other(-kInfinity), nt::Tensor(1, nt::int64),
          nt::Scalar(nt::int64), nt::Tensor(1, nt::float16));

// The losses and targets as one row: (1,) -> (⌈N / block⌉,) -> (block,); the output (1,) -> (1,).
NT_ARRANGEMENT auto cross_entropy_mean_arrangement(nt::Tensor losses, nt::Tensor targets,
                                                   nt::Tensor ignore_index, nt::Tensor output) {
  return nt::arrange(reduce_blocks(losses, 0, CROSS_ENTROPY_MEAN_BLOCK),
                     reduce_blocks(targets, 0, CROSS_ENTROPY_MEAN_BLOCK), ignore_index,
                     output.tile({1}));
}

NT_APPLICATION void cross_entropy_mean_application(nt::Tile losses, nt::Tile targets,
                                                   nt::Tile ignore_index, nt::Tile output) {
  auto total = ntl::zeros({CROSS_ENTROPY_MEAN_BLOCK}, ntl::float32);
  auto counted = ntl::zeros({CROSS_ENTROPY_MEAN_BLOCK}, ntl::float32);
  for (int i = 0; i < losses.shape(0); ++i) {
    // Masked lanes: their offsets are past the end of the batch.
    auto counts = (targets[i] != ignore_index) & (losses[i].offsets(0) < losses.source().shape(0));
    total += ntl::where(counts, losses[i].to(ntl::float32), 0);
    counted += ntl::where(counts, 1, 0);
  }
  output = ntl::sum(total) / ntl::sum(counted);
}

NT_KERNEL(cross_entropy_mean_f32, cross_entropy_mean_arrangement, cross_entropy_mean_application,
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::int64), nt::Scalar(nt::int64),
          nt::Tensor(1, nt::float32));
NT_KERNEL(cross_entropy_mean_f16, cross_entropy_mean_arrangement, cross_entropy_mean_application,
          nt::Tensor(1, nt::float16), nt::Tensor(1, nt::int64), nt::Scalar(nt::int64),
          nt::Tensor(1, nt::float16));
