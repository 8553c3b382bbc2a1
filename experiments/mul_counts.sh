#!/usr/bin/env bash
# Issue 13, "lead at every count": at the papers' count of 10240 products, the fastest methods
# (the tensor-core one where it applies) at 64..32768 bits, kernel time, median of 10, against
# CGBN's 10240-product times on the same H200 quoted in docs/000-mul.md (1024, 4096, 8192 bits).
source "$(dirname "$0")/common.sh"
start_experiment mul_counts
for bits in 64 128 256 512 1024 2048 4096 8192 16384 32768; do
    "$MPGPU" mul --bits "$bits" --count 10240 --reps 10 --csv "$CSV" --quiet --method \
        "$(supported_list "$bits" sumrotate-shuffle thread-comba thread-rowchain-karatsuba warp-tensor-toeplitz split-rowchain)"
done
