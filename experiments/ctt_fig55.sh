#!/usr/bin/env bash
# 003 Fig. 5.5 (and Figs. 5.6, C.1-C.3 from the same rows): add, sub and mul of 8192
# computations of equal lengths, 1 to 512 words by doubling, with CTT, CTW, auto, the CTT
# routines ported to the CPU and GMP on one and on all host cores. 003 averages 64 runs; here
# the GPU mappings take the median of 64 with 2 warm-up runs, the CPU methods the median of 5
# (a serial 512-word cpu-port mul batch takes seconds). Every GPU and cpu-port result is checked
# against GMP.
source "$(dirname "$0")/common.sh"
start_experiment ctt_fig55
for op in add sub mul; do
    "$MPGPU" ctt-vs-ctw --op "$op" --words 1,2,4,8,16,32,64,128,256,512 --count 8192 --reps 64 \
        --method ctt,ctw,auto --csv "$CSV"
    "$MPGPU" ctt-vs-ctw --op "$op" --words 1,2,4,8,16,32,64,128,256,512 --count 8192 --reps 5 \
        --method cpu-port,gmp --csv "$CSV"
    "$MPGPU" ctt-vs-ctw --op "$op" --words 1,2,4,8,16,32,64,128,256,512 --count 8192 --reps 5 \
        --method gmp --threads 0 --csv "$CSV"
done
