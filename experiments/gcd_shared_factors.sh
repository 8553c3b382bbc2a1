#!/usr/bin/env bash
# Issue 38's CPU baseline: the shared-factor search with the batch GCD tree and GMP on every
# host core (mpgpu gcd --shared-factors --method tree-cpu), on RSA-like moduli made by mpgpu gcd
# --make-moduli with every relation planted: N = 10^4 and 10^5 moduli of 1024 and 2048 bits, and
# 10^6 of 1024 bits unless QUICK=1. Each search is timed once (the row's median is that run:
# tree_ms and classify_ms in params), its g_i checked against the all-pairs twin on a sample
# of 200 moduli and the partners of up to 100 findings against pairwise GCDs; the findings go
# to RESULTS/gcd_shared_factors/. The moduli are made once and kept (common.sh's moduli_set,
# shared with gcd_search.sh), since their primes take longer to find than the search.
source "$(dirname "$0")/common.sh"
start_experiment gcd_shared_factors
OUT_DIR="$RESULTS/gcd_shared_factors"
mkdir -p "$OUT_DIR"
cases="10000:1024 10000:2048 100000:1024 100000:2048"
[ "${QUICK:-0}" = 1 ] || cases="$cases 1000000:1024"
for c in $cases; do
    n=${c%:*} bits=${c#*:}
    set_file=$(moduli_set "$n" "$bits")
    "$MPGPU" gcd --shared-factors "$set_file" --method tree-cpu --csv "$CSV" \
        --output "$OUT_DIR/found_${n}_${bits}.txt"
    # Every planted relation must be among the findings: 9 moduli, nothing else.
    found=$(grep -vc '^#' "$OUT_DIR/found_${n}_${bits}.txt")
    [ "$found" -eq 9 ] || echo "gcd_shared_factors: $n x $bits bits: $found findings, 9 planted" >&2
done
