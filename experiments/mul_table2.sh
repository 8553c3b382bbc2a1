#!/usr/bin/env bash
# 001 Table II: 100000 products of 1024..32768 bits; one thread / one warp with shared memory /
# one warp with shuffles, each with Comba, Karatsuba and Karatsuba^2. Kernel time, median of 10.
# Every method runs at every size it supports (ranges from `mpgpu mul --help`): the paper has
# no one-warp Karatsuba below 2048 bits nor Karatsuba^2 below 4096, and neither has mpgpu, but
# it does have one-thread Karatsuba and Karatsuba^2 at 1024 and 2048 bits, as the paper does.
source "$(dirname "$0")/common.sh"
start_experiment mul_table2
methods=(thread-comba thread-karatsuba thread-karatsuba2
         sumrotate-shared sumrotate-shared-karatsuba sumrotate-shared-karatsuba2
         sumrotate-shuffle sumrotate-shuffle-karatsuba sumrotate-shuffle-karatsuba2)
for bits in 1024 2048 4096 8192 16384 32768; do
    "$MPGPU" mul --bits "$bits" --count 100000 --reps 10 --csv "$CSV" \
        --method "$(supported_list "$bits" "${methods[@]}")"
done
