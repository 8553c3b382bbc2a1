#!/usr/bin/env bash
# Beyond 002: Lehmer's GCD on the numbers themselves in one thread block (mpgpu gcd --method
# lehmer; kernels/gcd_lehmer.h) at the sizes of 002 Table 2, 16..352 Kibit in steps of 16 Kibit,
# ten random pairs a size as the paper, with GMP's mpz_gcd on one host core in the same run; then
# 512 Kibit (shared memory still) and 1 Mibit (device memory) with two pairs. Every result is
# checked against mpz_gcd. A row's median_ms is one pass over the pairs: the paper's per-pair
# average is median_ms / count. QUICK=1 runs the first three sizes with one rep.
source "$(dirname "$0")/common.sh"
start_experiment gcd_lehmer
table2_sizes
"$MPGPU" gcd --bits "$sizes" --count 10 --method lehmer,gmp $reps --csv "$CSV"
[ "${QUICK:-0}" = 1 ] || "$MPGPU" gcd --bits 524288,1048576 --count 2 --method lehmer,gmp $reps --csv "$CSV"
