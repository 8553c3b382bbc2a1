#!/usr/bin/env bash
# 000 Table 4.4: starting values verified per second for the convergence, against the base bits
# d = 10..20 of tables B and C, with S of 32 base bits as in the paper: the GPU with B and C in
# shared memory (as far as a block's shared memory holds them) and in global memory, and the
# CPU twin on one thread as the paper's CPU. The GPU runs 2^42 starting values per point
# (the paper 2^50), the CPU 2^32 (the paper 2^35) with the published first step, as the paper's
# CPU code. QUICK=1 runs 1/64 of each for a smoke test.
source "$(dirname "$0")/common.sh"
start_experiment collatz_table44
shift_bits=0
reps="--reps 2 --warmup 1"
if [ "${QUICK:-0}" = 1 ]; then shift_bits=6; reps="--reps 1 --warmup 0"; fi
gpu_count="2^$((42 - shift_bits))"
cpu_count="2^$((32 - shift_bits))"
for d in 10 11 12 13 14 15 16 17 18 19 20; do
    "$MPGPU" collatz --s-bits 32 --bc-bits "$d" --table-memory global --count "$gpu_count" $reps --quiet --csv "$CSV"
    if_shared_fits "$MPGPU" collatz --s-bits 32 --bc-bits "$d" --table-memory shared --count "$gpu_count" $reps --quiet --csv "$CSV"
    "$MPGPU" collatz --method cpu --threads 1 --first-step table --s-bits 32 --bc-bits "$d" --count "$cpu_count" \
        --reps 1 --warmup 0 --quiet --csv "$CSV"
done
