#!/usr/bin/env bash
# The issue's targets in one run each: mul at 512 words, 8192 computations, equal lengths, every
# GPU mapping against GMP on all 16 host cores (the best mapping at least 20x faster); and the
# mixed batch, mean 64 words, sigma 64, where auto is to beat the better of CTT and CTW by 1.5x.
source "$(dirname "$0")/common.sh"
start_experiment ctt_targets
"$MPGPU" ctt-vs-ctw --op mul --words 512 --count 8192 --reps 10 --method ctt,ctw,auto,gmp \
    --threads 0 --csv "$CSV"
"$MPGPU" ctt-vs-ctw --op mul --words 64 --sigma 64 --count 8192 --reps 10 \
    --method ctt,ctw,auto,gmp --threads 0 --csv "$CSV"
for op in add sub; do
    "$MPGPU" ctt-vs-ctw --op "$op" --words 512 --count 8192 --reps 10 --method ctt,ctw,auto --csv "$CSV"
done
