#!/usr/bin/env bash
# 000 Figs. 4.2 and 4.3: starting values verified per second against the base bits k of table S,
# on the GPU (Fig. 4.2; B and C as the defaults of mpgpu collatz) and on the CPU twin, one thread
# (Fig. 4.3; d = 12 as the paper's CPU, published first step). The GPU covers 2^42 starting values
# per point (2^44 from k = 36, so each S entry still gets runs of 2^(44-k) values); the CPU 2^32
# up to k = 32 (at k = 33 one S entry holds one value of 2^32, so the CPU point covers 2^33).
# Every GPU point is checked with --verify sample: the CPU twin redoes the first 2^max(33, k)
# starting values (one S period from k = 33 on) and its totals must equal the GPU's.
# QUICK=1 runs 1/64 of each for a smoke test.
source "$(dirname "$0")/common.sh"
shift_bits=0
reps="--reps 2 --warmup 1"
if [ "${QUICK:-0}" = 1 ]; then shift_bits=6; reps="--reps 1 --warmup 0"; fi
start_experiment collatz_fig42
for k in 16 20 24 28 30 32 33 34 35 36 37; do
    bits=42
    [ "$k" -ge 36 ] && bits=44
    "$MPGPU" collatz --s-bits "$k" --count "2^$((bits - shift_bits))" --verify sample $reps --quiet --csv "$CSV"
done
start_experiment collatz_fig43
for k in 16 20 24 28 30 32 33; do
    bits=32
    [ "$k" -ge 33 ] && bits=33
    "$MPGPU" collatz --method cpu --threads 1 --first-step table --bc-bits 12 --s-bits "$k" \
        --count "2^$((bits - shift_bits))" --reps 1 --warmup 0 --quiet --csv "$CSV"
done
