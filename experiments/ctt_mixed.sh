#!/usr/bin/env bash
# The sweep 003 warns about (4.3: a warp's operand lengths should be similar) and never runs:
# 8192 computations whose lengths spread around a mean of 64 words with sigma 0 to 64 words,
# CTT against CTW and auto, and GMP on all host cores. The issue's target: mul at mean 64,
# sigma 64, auto at least 1.5x faster than the better of CTT and CTW.
source "$(dirname "$0")/common.sh"
start_experiment ctt_mixed
for op in add sub mul; do
    for sigma in 0 1 2 4 8 16 32 48 64; do
        "$MPGPU" ctt-vs-ctw --op "$op" --words 64 --sigma "$sigma" --count 8192 --reps 10 \
            --method ctt,ctw,auto --csv "$CSV"
        "$MPGPU" ctt-vs-ctw --op "$op" --words 64 --sigma "$sigma" --count 8192 --reps 10 \
            --method gmp --threads 0 --csv "$CSV"
    done
done
