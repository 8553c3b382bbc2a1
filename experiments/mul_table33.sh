#!/usr/bin/env bash
# 000 Table 3.3: 100000 products of 1024 bits with every method of the dissertation (School and
# Comba in one thread, column-based and sum-rotate in one warp, shared memory vs shuffles),
# plus mpgpu's own fastest methods and GMP on one thread. Kernel time, median of 10 runs.
source "$(dirname "$0")/common.sh"
start_experiment mul_table33
"$MPGPU" mul --bits 1024 --count 100000 --reps 10 --csv "$CSV" \
    --method thread-school,thread-comba,warp-column-shared,warp-column-shuffle,sumrotate-shared,sumrotate-shuffle,${FAST_METHODS},gmp
