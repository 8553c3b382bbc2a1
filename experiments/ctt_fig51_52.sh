#!/usr/bin/env bash
# 003 Figs. 5.1 and 5.2: add, sub and mul at 1 word and at 512 words, kernels alone and with
# the transfers of the whole memory block (the host-zeroed result space included, 003 5.1 and
# 6.3). 003 names no count for these figures: 8192, its count of Fig. 5.5. The GPU mappings
# take the median of 64 runs, the CPU methods of 5.
source "$(dirname "$0")/common.sh"
start_experiment ctt_fig51_52
for op in add sub mul; do
    for transfers in "" --include-transfers; do
        "$MPGPU" ctt-vs-ctw --op "$op" --words 1,512 --count 8192 --reps 64 \
            --method ctt,ctw,auto $transfers --csv "$CSV"
    done
    "$MPGPU" ctt-vs-ctw --op "$op" --words 1,512 --count 8192 --reps 5 --method cpu-port,gmp --csv "$CSV"
    "$MPGPU" ctt-vs-ctw --op "$op" --words 1,512 --count 8192 --reps 5 --method gmp --threads 0 \
        --csv "$CSV"
done
