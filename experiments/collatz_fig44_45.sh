#!/usr/bin/env bash
# 000 Figs. 4.4 and 4.5: numbers whose delay is computed per second against the base bits a of
# table A (t = 2^a), on the GPU (Fig. 4.4; B, C and J as the defaults of mpgpu delay) and on the
# CPU twin, one thread (Fig. 4.5; d = 11, the paper's CPU optimum). The GPU covers 2^32 numbers
# per point, the CPU 2^22. QUICK=1 runs 1/64 of each for a smoke test.
source "$(dirname "$0")/common.sh"
shift_bits=0
reps="--reps 2 --warmup 1"
if [ "${QUICK:-0}" = 1 ]; then shift_bits=6; reps="--reps 1 --warmup 0"; fi
start_experiment collatz_fig44
for a in 14 16 18 20 22 24 26 28; do
    "$MPGPU" delay --a-bits "$a" --count "2^$((32 - shift_bits))" $reps --quiet --csv "$CSV"
done
start_experiment collatz_fig45
for a in 12 14 16 18 20 22 24 26 28; do
    "$MPGPU" delay --method cpu --threads 1 --bc-bits 11 --a-bits "$a" --count "2^$((22 - shift_bits))" \
        --reps 1 --warmup 0 --quiet --csv "$CSV"
done
