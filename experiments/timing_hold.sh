#!/usr/bin/env bash
# Held timing against the kernel it times (cli/timing.c): the probe experiments/timing_hold.cu
# times the 1024-bit leaf of thread-rowchain-karatsuba plainly, held with the hold's flags kept
# (mpgpu since this probe was added) and held with the flags allocated for every repetition
# (mpgpu before), on 2^20 and 10240 products. Runs on the GPU machine (nvcc there) and writes
# $RESULTS/timing_hold.txt.
source "$(dirname "$0")/common.sh"
build_probe timing_hold
"$probe" "$commit" >"$RESULTS/timing_hold.txt"
echo "timing_hold: wrote $RESULTS/timing_hold.txt" >&2
