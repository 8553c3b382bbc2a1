#!/usr/bin/env bash
# 002 section 5's projection, remade: GMP's mpz_gcd on one host core at 64, 128 and 256 Mibit
# (one random pair each), where Fig. 4's fitted line for the modular GCD (plots/gcd_fig4.gp)
# meets GMP's time. The GPU is not needed, but its host is the one whose GMP the paper's
# comparison is about.
source "$(dirname "$0")/common.sh"
start_experiment gcd_projection
"$MPGPU" gcd --bits 67108864,134217728,268435456 --count 1 --method gmp --reps 1 --warmup 0 --csv "$CSV"
