#!/usr/bin/env bash
# 002 Table 2 and Fig. 3: the modular integer GCD on one GPU at 16..352 Kibit in steps of
# 16 Kibit, ten random pairs a size (as the paper), with the default barrier (auto: the fastest
# for the size) and both inverses (Fermat, mpgpu's default, and the paper's Euclid), and GMP's
# mpz_gcd on one host core beside them; then every barrier at five sizes, the measurement behind
# --barrier auto. Every GPU result is checked against mpz_gcd. A row's median_ms is one pass over
# the ten pairs: the paper's per-pair average is median_ms / 10. The moduli (L = 32, the cheap
# category, as the paper's runs) are sieved once into the cache; that one-time initialisation is
# in each GPU row's params (init_ms), not in its time, as the paper keeps its 300 ms apart.
# QUICK=1 runs the first three sizes with one rep.
source "$(dirname "$0")/common.sh"
start_experiment gcd_table2
table2_sizes
compare=
for kib in 16 32 48 128 352; do
    if [ "$kib" -le "$last" ]; then compare+="${compare:+,}$((kib * 1024))"; fi
done
"$MPGPU" gcd --bits "$sizes" --count 10 --method gpu,gmp --inverse all $reps --csv "$CSV"
"$MPGPU" gcd --bits "$compare" --count 10 --method gpu --barrier all $reps --csv "$CSV"
