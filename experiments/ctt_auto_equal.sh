#!/usr/bin/env bash
# Issue 11's condition on `auto` for equal lengths: it must lose to neither CTT nor CTW. add,
# sub and mul of 8192 computations of equal lengths, 1 to 512 words by doubling, the three GPU
# mappings only (kernel time, median of 64 runs after 2 warm-up runs, every result checked
# against GMP). Fig. 5.5's run (ctt_fig55.sh) has the same rows beside the CPU methods.
source "$(dirname "$0")/common.sh"
start_experiment ctt_auto_equal
for op in add sub mul; do
    "$MPGPU" ctt-vs-ctw --op "$op" --words 1,2,4,8,16,32,64,128,256,512 --count 8192 --reps 64 \
        --method ctt,ctw,auto --csv "$CSV" --quiet
done
