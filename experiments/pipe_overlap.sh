#!/usr/bin/env bash
# Do the IMAD and the FP64 pipes run at the same time (issue 39)? The probe
# experiments/pipe_overlap.cu times independent chains of IMAD, IMAD.HI, IMAD.WIDE and DFMA alone
# and mixed in one loop, with operands from the kernel's parameters and from registers. Runs on
# the GPU machine (nvcc and cuobjdump there) and writes $RESULTS/pipe_overlap.csv and the opcodes
# of each kernel's loop, $RESULTS/pipe_overlap_sass.txt.
source "$(dirname "$0")/common.sh"
start_experiment pipe_overlap
build_probe pipe_overlap
"$probe" "$commit" >"$CSV"
loop_mix "$probe" rate_kernel >"$RESULTS/pipe_overlap_sass.txt"
