#!/usr/bin/env bash
# Issue 10, "then go beyond, as far as the moduli allow, at least to 16 Mibit": the modular GCD
# with the default barrier and inverse from 512 Kibit to 16 Mibit (two random pairs a size, one
# at 16 Mibit; from about 3 Mibit the moduli no longer fit the registers and stream through
# device memory), each checked against mpz_gcd, with mpz_gcd on one host core beside it; then
# mpz_gcd alone at 32 and 64 Mibit, one pair each, for section 5's projection (where the
# modular GCD's fitted line would cross GMP's time). QUICK=1 stops at 1 Mibit.
source "$(dirname "$0")/common.sh"
start_experiment gcd_beyond
sizes="524288,1048576,2097152,4194304"
[ "${QUICK:-0}" = 1 ] && sizes="524288,1048576"
"$MPGPU" gcd --bits "$sizes" --count 2 --method gpu,gmp --reps 1 --warmup 1 --csv "$CSV"
[ "${QUICK:-0}" = 1 ] || "$MPGPU" gcd --bits 16777216 --count 1 --method gpu,gmp --reps 1 --warmup 0 --csv "$CSV"
[ "${QUICK:-0}" = 1 ] || "$MPGPU" gcd --bits 33554432,67108864 --count 1 --method gmp --reps 1 --warmup 0 --csv "$CSV"
