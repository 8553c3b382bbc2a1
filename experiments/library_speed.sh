#!/usr/bin/env bash
# Issue 37: does going through libmpgpu slow the kernels? Runs mul_targets.sh, one size of 002
# Table 2 (gcd, 128 Kibit, 10 pairs, both inverses) and fixed_targets.sh with an mpgpu from
# before the library (MPGPU_BEFORE) and with this one (MPGPU), on the same GPU in one go, into
# RESULTS/before_* and RESULTS/after_*, then `mpgpu compare`s each pair into
# RESULTS/compare_*.txt. results/library_speed/ holds a run of these commands (docs/library.md,
# Speed).
#   MPGPU_BEFORE=old/mpgpu MPGPU=build/cli/mpgpu RESULTS=results/library_speed \
#       experiments/library_speed.sh
set -uo pipefail
source "$(dirname "$0")/script_args.sh" "$@"
here=$(dirname "$0")
RESULTS=${RESULTS:-results/library_speed}
MPGPU=${MPGPU:-build/cli/mpgpu}
: "${MPGPU_BEFORE:?set MPGPU_BEFORE to an mpgpu built before the library}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$RESULTS" "$tmp/before" "$tmp/after"
binary() { [ "$1" = before ] && echo "$MPGPU_BEFORE" || echo "$MPGPU"; }
for side in before after; do
    MPGPU=$(binary $side) RESULTS=$tmp/$side bash "$here/mul_targets.sh"
    "$(binary $side)" gcd --bits 131072 --count 10 --method gpu --inverse all \
        --csv "$tmp/$side/gcd_table2_128k.csv"
done
for side in before after; do
    MPGPU=$(binary $side) RESULTS=$tmp/$side bash "$here/fixed_targets.sh"
done
for side in before after; do
    for f in "$tmp/$side"/*; do cp "$f" "$RESULTS/${side}_$(basename "$f")"; done
done
for name in mul_targets fixed_targets gcd_table2_128k; do
    "$MPGPU" compare "$RESULTS/before_$name.csv" "$RESULTS/after_$name.csv" \
        >"$RESULTS/compare_$name.txt"
    tail -1 "$RESULTS/compare_$name.txt"
done
