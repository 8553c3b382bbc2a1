#!/usr/bin/env bash
# The 256-bit Montgomery multiplication target of `mpgpu fixed` (issue 12: 3.6e10/s, a random odd
# modulus given at run time, chain >= 100, >= 2^20 elements) across block sizes and element
# counts: the launch configuration the study left open (004 section 3.2), for the one kernel the
# target is about.
source "$(dirname "$0")/common.sh"
start_experiment fixed_montmul_launch
for count in 2^20 2^22; do
    for b in 64 128 256 512; do
        "$MPGPU" fixed --bits 256 --op montmul --impl ptx,c --count "$count" --chain 100 --block "$b" \
            --reps 10 --csv "$CSV" --verify sample --quiet ||
            echo "fixed_montmul_launch: --block $b did not run" >&2
    done
done
