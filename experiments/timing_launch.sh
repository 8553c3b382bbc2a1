#!/usr/bin/env bash
# What held timing leaves out (cli/timing.h): the same short kernels timed held (the default,
# the stream waits until the region is queued) and with --include-launch (plain CUDA events
# around the launch, as the papers and mpgpu before 22665d3). mul at 10240 products of 64, 1024
# and 4096 bits, and ctt-vs-ctw add and mul of 8192 computations of 1, 8 and 16 words; median
# of 20 after 2 warm-up runs, every result checked.
source "$(dirname "$0")/common.sh"
start_experiment timing_launch
for launch in "" --include-launch; do
    "$MPGPU" mul --bits 64,1024,4096 --count 10240 --reps 20 $launch --csv "$CSV" --quiet \
        --method thread-comba,sumrotate-shuffle,thread-rowchain-karatsuba,warp-tensor-toeplitz,split-rowchain
    for op in add mul; do
        "$MPGPU" ctt-vs-ctw --op "$op" --words 1,8,16 --count 8192 --method ctt,ctw,auto --reps 20 \
            $launch --csv "$CSV" --quiet
    done
done
