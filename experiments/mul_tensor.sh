#!/usr/bin/env bash
# Issue 13: the tensor-core method warp-tensor-toeplitz (u8 x u8 -> s32 mma.sync on byte limbs)
# against the fastest IMAD method and the papers' sum-rotate, 2^20 full products at 1024, 4096
# and 8192 bits, kernel time, the targets' sizes; and the raw mma.sync rate it is bounded by is
# experiments/tensor_mma_rate.cu (a probe outside the build).
source "$(dirname "$0")/common.sh"
start_experiment mul_tensor
for bits in 1024 4096 8192; do
    "$MPGPU" mul --bits "$bits" --count 2^20 --reps 10 --csv "$CSV" --verify sample \
        --method sumrotate-shuffle,thread-rowchain-karatsuba,warp-tensor-toeplitz
done
