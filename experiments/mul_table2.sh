#!/usr/bin/env bash
# 001 Table II: 100000 products of 1024..32768 bits; one thread / one warp with shared memory /
# one warp with shuffles, each with Comba, Karatsuba and Karatsuba^2. Kernel time, median of 10.
source "$(dirname "$0")/common.sh"
start_experiment mul_table2
for bits in 1024 2048 4096 8192 16384 32768; do
    methods=thread-comba,sumrotate-shared,sumrotate-shuffle
    [ "$bits" -ge 2048 ] && methods+=,thread-karatsuba,sumrotate-shared-karatsuba,sumrotate-shuffle-karatsuba
    [ "$bits" -ge 4096 ] && methods+=,thread-karatsuba2,sumrotate-shared-karatsuba2,sumrotate-shuffle-karatsuba2
    "$MPGPU" mul --bits "$bits" --count 100000 --reps 10 --csv "$CSV" --method "$methods"
done
