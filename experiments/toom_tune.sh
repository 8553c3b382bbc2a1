#!/usr/bin/env bash
# `mpgpu tune` on this GPU: Comba on sum-rotate, Karatsuba over it (001 Table II), Toom-2..9
# and the methods named in FAST_METHODS at 000 Table 3.4's sizes and the midpoints above
# 1024 bits, 10240 products; writes RESULTS/tune_table.csv, the table `mpgpu mul --method auto`
# reads (copy it to results/ or point MPGPU_TUNE_TABLE at it). Median of 5 runs after one
# warm-up, a sample of each method's products checked against GMP: a table, not a figure.
source "$(dirname "$0")/common.sh"
start_experiment toom_tune
methods="sumrotate-shuffle,sumrotate-shuffle-karatsuba,sumrotate-shuffle-karatsuba2"
methods+=",toom-2,toom-3,toom-4,toom-5,toom-6,toom-7,toom-8,toom-9${FAST_METHODS:+,$FAST_METHODS}"
"$MPGPU" tune --count 10240 --reps 5 --warmup 1 --verify sample --method "$methods" \
    --table "$RESULTS/tune_table.csv" --csv "$CSV"
