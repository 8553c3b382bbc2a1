#!/usr/bin/env bash
# Issue 38's search target on the GPU machine: the shared-factor search over 10^5 RSA-like
# 2048-bit moduli every way, the batch GCD tree with GMP on every host core (tree-cpu), the same
# tree with its bottom levels on the GPU in mpgpu mul (tree-gpu), and every pair on the GPU with
# the bulk GCD (pairs-gpu), and the N at which a tree overtakes all pairs: each method on the
# first N moduli of the set for N in SIZES, each search timed once (--reps 1 --warmup 0: the
# row's median is that run), its g_i checked against the all-pairs twin (all of them up to 4096
# moduli, else a sample). Every method's findings must be tree-cpu's line for line at every N;
# the 9 planted relations are all found at 10^5.
#
# SET is the moduli file (default common.sh's moduli_set of 10^5 moduli of 2048 bits, made when
#   absent by mpgpu gcd --make-moduli 100000 --bits 2048 --plant all --seed 38, which takes about
#   10 minutes of 16 cores, longer than the searches: give a set made before to save the GPU
#   machine's time; gcd_shared_factors.sh shares it).
# SIZES (default "1000 2000 5000 10000 20000 50000 100000") are prefixes of it; METHODS (default
# "tree-cpu tree-gpu pairs-gpu") the methods, tree-cpu first (the others are compared with it).
source "$(dirname "$0")/common.sh"
start_experiment gcd_search
OUT_DIR="$RESULTS/gcd_search"
mkdir -p "$OUT_DIR"
SET=${SET:-$(moduli_set 100000 2048)}
SIZES=${SIZES:-"1000 2000 5000 10000 20000 50000 100000"}
METHODS=${METHODS:-"tree-cpu tree-gpu pairs-gpu"}
[[ $METHODS == tree-cpu* ]] || { echo "gcd_search: METHODS must begin with tree-cpu" >&2; exit 2; }
available=$(grep -vc '^#' "$SET" || true)
failures=0
for n in $SIZES; do
    [ "$n" -le "$available" ] || { echo "gcd_search: $SET has $available moduli, not $n" >&2; exit 2; }
    part="$OUT_DIR/first_$n.txt"
    awk -v n="$n" '!/^#/ && ++k <= n' "$SET" >"$part"
    for method in $METHODS; do
        "$MPGPU" gcd --shared-factors "$part" --method "$method" --csv "$CSV" \
            --output "$OUT_DIR/found_${method}_$n.txt" ||
            { echo "gcd_search: FAILED: $method on $n moduli" >&2; failures=$((failures + 1)); }
        # The findings, less the header comment that names the method, must agree.
        if ! cmp -s <(grep -v '^# mpgpu' "$OUT_DIR/found_tree-cpu_$n.txt") \
            <(grep -v '^# mpgpu' "$OUT_DIR/found_${method}_$n.txt"); then
            echo "gcd_search: tree-cpu and $method differ on $n moduli" >&2
            failures=$((failures + 1))
        fi
    done
    rm -f "$part"
done
echo "gcd_search: wrote $CSV; $failures failure(s)" >&2
[ "$failures" -eq 0 ]
