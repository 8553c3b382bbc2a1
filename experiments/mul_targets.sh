#!/usr/bin/env bash
# The performance targets of `mpgpu mul` (issue 2): 2^20 full products at 1024, 4096 and 8192
# bits, kernel time, against the sum-rotate method of the papers.
source "$(dirname "$0")/common.sh"
start_experiment mul_targets
for bits in 1024 4096 8192; do
    "$MPGPU" mul --bits "$bits" --count 2^20 --reps 10 --csv "$CSV" --verify sample \
        --method sumrotate-shuffle,${FAST_METHODS}
done
