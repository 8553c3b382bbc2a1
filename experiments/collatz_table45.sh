#!/usr/bin/env bash
# 000 Table 4.5: numbers whose delay is computed per second, against the base bits d = 8..20 of
# tables B, C and J, with A of 25 base bits as in the paper: the GPU with B, C and J in shared
# memory (as far as a block's shared memory holds them) and in global memory, and the CPU twin
# on one thread. The GPU covers 2^32 numbers per point (the paper 2^30), the CPU 2^22 (the paper
# 2^27). QUICK=1 runs 1/64 of each for a smoke test.
source "$(dirname "$0")/common.sh"
start_experiment collatz_table45
shift_bits=0
reps="--reps 2 --warmup 1"
if [ "${QUICK:-0}" = 1 ]; then shift_bits=6; reps="--reps 1 --warmup 0"; fi
for d in 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    "$MPGPU" delay --a-bits 25 --bc-bits "$d" --table-memory global --count "2^$((32 - shift_bits))" $reps --quiet --csv "$CSV"
    if_shared_fits "$MPGPU" delay --a-bits 25 --bc-bits "$d" --table-memory shared --count "2^$((32 - shift_bits))" $reps --quiet --csv "$CSV"
    "$MPGPU" delay --method cpu --threads 1 --a-bits 25 --bc-bits "$d" --count "2^$((22 - shift_bits))" \
        --reps 1 --warmup 0 --quiet --csv "$CSV"
done
