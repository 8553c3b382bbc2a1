#!/usr/bin/env bash
# Issue 39: how steady the ratio to CGBN is at 10240 products, where it lies nearest the issue's
# 1.2x (256 to 2048 bits, held). experiments/peers/cgbn.sh times each case once; this runs the
# same harness and mpgpu ROUNDS times (default 9) at those sizes, one seed a round (the seed is
# the round: both sides multiply the same operands in a round, other operands in the next), the
# side that runs first alternating from round to round, into $RESULTS/cgbn_rounds.csv, and writes
# $RESULTS/cgbn_rounds.md: each side's best per round (CGBN's best TPI and block size), their
# medians over the rounds (min-max), the ratio of the medians, the ratio's range over the rounds
# and how many rounds reach 1.2x.
#
#   CGBN_BENCH=OUT/cgbn_bench experiments/peers/cgbn_rounds.sh   the GPU machine (cgbn.sh
#                                                                --build-only OUT builds it)
#   experiments/peers/cgbn_rounds.sh --summary FILE.csv           the summary of a CSV, on stdout
#
# ROUNDS, SIZES (default "256 512 1024 2048"), REPS (default 50, as cgbn.sh at 10240 products)
# and ROUND_METHODS (mpgpu's methods; default those that lead at these sizes in
# results/cgbn_mul.csv, each where it applies) change the run; QUICK=1 is a smoke run (2 rounds,
# 1024 products, 2 repetitions).
set -euo pipefail
source "$(dirname "$0")/../script_help.sh" "$@"
here=$(cd "$(dirname "$0")" && pwd)

# summary CSV: per size and round (seed), CGBN's best TPI and block size and mpgpu's best method,
# held rows only; a row with a mismatch is left out, as in cgbn.sh's ratios. Columns by header
# name.
summary() {
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == "timestamp" { next }
        $col["mismatches"] + 0 > 0 || $col["timed_region"] != "kernels" { next }
        {
            side = $col["method"] ~ /^cgbn-/ ? "cgbn" : "mpgpu"
            k = $col["bits"] SUBSEP $col["count"] SUBSEP $col["seed"]
            t = $col["median_ms"] * 1000
            if (!((k, side) in best) || t < best[k, side]) best[k, side] = t
            cases[$col["bits"] SUBSEP $col["count"]] = 1; round[k] = 1
        }
        # median of the n values v[1..n], sorted in place
        function median(v, n,    i, j, x) {
            for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        END {
            print "| bits | count | rounds | CGBN, best TPI and block: median (min-max) | mpgpu, best method: median (min-max) | ratio of the medians | ratio, by round | rounds at 1.2x or more |"
            print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
            for (c in cases) {
                n = 0; reach = 0
                for (k in round) {
                    split(k, f, SUBSEP)
                    if (f[1] SUBSEP f[2] != c || !((k, "cgbn") in best) || !((k, "mpgpu") in best)) continue
                    n++; cg[n] = best[k, "cgbn"]; mp[n] = best[k, "mpgpu"]; r = cg[n] / mp[n]
                    if (n == 1) { rlo = rhi = r; lo_c = hi_c = cg[1]; lo_m = hi_m = mp[1] }
                    if (r < rlo) rlo = r; if (r > rhi) rhi = r
                    if (cg[n] < lo_c) lo_c = cg[n]; if (cg[n] > hi_c) hi_c = cg[n]
                    if (mp[n] < lo_m) lo_m = mp[n]; if (mp[n] > hi_m) hi_m = mp[n]
                    if (r >= 1.2) reach++
                }
                if (n == 0) continue
                mc = median(cg, n); mm = median(mp, n); split(c, f, SUBSEP)
                printf "| %s | %s | %d | %.3f us (%.3f-%.3f) | %.3f us (%.3f-%.3f) | %.3fx | %.2f-%.2fx | %d of %d |\n",
                       f[1], f[2], n, mc, lo_c, hi_c, mm, lo_m, hi_m, mc / mm, rlo, rhi, reach, n
            }
        }' "$1" | { read -r h; read -r r; echo "$h"; echo "$r"; sort -t'|' -k2,2n; }
}

if [ "${1:-}" = --summary ]; then
    if [ $# -ne 2 ] || [ ! -r "$2" ]; then
        echo "cgbn_rounds: --summary takes one readable CSV file" >&2
        exit 2
    fi
    summary "$2"
    exit 0
elif [ $# -gt 0 ]; then
    echo "cgbn_rounds: unknown argument '$1'; accepted: --summary FILE.csv, or none" >&2
    exit 2
fi

if [ -z "${CGBN_BENCH:-}" ]; then
    echo "cgbn_rounds: skipped: CGBN_BENCH is unset (experiments/peers/cgbn.sh --build-only OUT builds OUT/cgbn_bench against a CGBN checkout; CGBN is not part of mpgpu)"
    exit 0
fi
[ -x "$CGBN_BENCH" ] || { echo "cgbn_rounds: CGBN_BENCH=$CGBN_BENCH is not an executable harness" >&2; exit 2; }

ROUNDS=${ROUNDS:-9} SIZES=${SIZES:-"256 512 1024 2048"} REPS=${REPS:-50} count=10240
if [ "${QUICK:-0}" = 1 ]; then ROUNDS=2 REPS=2 count=1024; fi
case $ROUNDS in '' | *[!0-9]* | 0) echo "cgbn_rounds: ROUNDS=$ROUNDS: give a whole number of rounds, 1 or more" >&2; exit 2 ;; esac
ROUND_METHODS=${ROUND_METHODS:-"thread-comba-reg pair-comba-reg quad-comba-reg octo-comba-reg
    octo-comba-reg-shared warp-tensor-toeplitz"}

# shellcheck source=../common.sh
source "$here/../common.sh"
start_experiment cgbn_rounds
"$CGBN_BENCH" --list >>"$RESULTS/cgbn_rounds.machine.txt"
echo "rounds: $ROUNDS, sizes: $SIZES, count: $count, repetitions: $REPS, held" >>"$RESULTS/cgbn_rounds.machine.txt"

# side cgbn|mpgpu BITS: one side's run at BITS in this round, every result checked against GMP;
# a command that fails stops the run (a mismatch exits 1).
side() {
    local run=("$CGBN_BENCH" mul)
    # shellcheck disable=SC2086 # the methods are words
    [ "$1" = cgbn ] || run=("$MPGPU" mul --method "$(supported_list "$2" $ROUND_METHODS)")
    "${run[@]}" --bits "$2" --count "$count" --reps "$REPS" --seed "$round" --verify all \
        --csv "$CSV" --quiet
}
for round in $(seq 1 "$ROUNDS"); do
    echo "cgbn_rounds: round $round of $ROUNDS" >&2
    for bits in $SIZES; do
        if [ $((round % 2)) -eq 1 ]; then
            side cgbn "$bits"; side mpgpu "$bits"
        else
            side mpgpu "$bits"; side cgbn "$bits"
        fi
    done
done
summary "$CSV" >"$RESULTS/cgbn_rounds.md"
cat "$RESULTS/cgbn_rounds.md"
