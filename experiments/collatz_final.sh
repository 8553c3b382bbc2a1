#!/usr/bin/env bash
# The final rates of mpgpu collatz and mpgpu delay with their defaults (the optimal parameters of
# the sweeps) next to the paper's 1.31e12 and 1.01e9 per second on a GTX TITAN X: the GPU, the CPU
# twin on one thread with the paper's CPU settings (as the paper's i7-4790 figures 5.25e9 and
# 1.39e7) and on all cores. QUICK=1 runs 1/64 of each for a smoke test.
source "$(dirname "$0")/common.sh"
start_experiment collatz_final
shift_bits=0
reps="--reps 2 --warmup 1"
if [ "${QUICK:-0}" = 1 ]; then shift_bits=6; reps="--reps 1 --warmup 0"; fi
# The GPU defaults are S 37, B/C 12 bits in shared memory; --verify sample has the CPU twin (on
# every core) redo the first 2^37 starting values, one S period, and compare the totals exactly.
"$MPGPU" collatz --count "2^$((45 - shift_bits))" --verify sample $reps --quiet --csv "$CSV"
"$MPGPU" collatz --method cpu --threads 1 --bc-bits 12 --s-bits 32 --count "2^$((33 - shift_bits))" \
    --reps 1 --warmup 0 --quiet --csv "$CSV"
"$MPGPU" collatz --method cpu --threads 0 --bc-bits 12 --s-bits 32 --first-step jump --count "2^$((36 - shift_bits))" \
    --reps 1 --warmup 0 --quiet --csv "$CSV"
"$MPGPU" delay $reps --count "2^$((34 - shift_bits))" --quiet --csv "$CSV"
"$MPGPU" delay --method cpu --threads 1 --count "2^$((23 - shift_bits))" --reps 1 --warmup 0 --quiet --csv "$CSV"
"$MPGPU" delay --method cpu --threads 0 --count "2^$((27 - shift_bits))" --reps 1 --warmup 0 --quiet --csv "$CSV"
