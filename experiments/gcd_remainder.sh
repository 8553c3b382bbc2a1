#!/usr/bin/env bash
# 002 section 3.1 says the fast remainder of Cavagnino and Werbrouck is "significantly faster"
# than the % operator: the same GCDs (ten random pairs at 16, 128 and 352 Kibit, the default
# barrier and inverse) with every remainder of the kernel by the fast path and by %, each result
# checked against mpz_gcd.
source "$(dirname "$0")/common.sh"
start_experiment gcd_remainder
for r in fast mod; do
    "$MPGPU" gcd --bits 16384,131072,360448 --count 10 --method gpu --remainder "$r" --reps 3 \
        --warmup 1 --csv "$CSV"
done
