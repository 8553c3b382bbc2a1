#!/usr/bin/env bash
# gpu suite: `mpgpu gcd --shared-factors --method pairs-gpu` and `tree-gpu` (issue 38): on sets
# with every plant (one tile, and several: more than 1024 moduli), the same --output as
# tree-cpu, line for line, and every g_i checked against the all-pairs twin; tree-gpu also on
# random odd numbers of 64 to 32767 bits (with the planted sets, 1, 2, 4, 5, 6 and 7 GPU levels,
# odd levels padded) and on 10^5 moduli of 1024 bits;
# --checkpoint written complete, a rerun resuming from it (resumed_tiles in the row) with the
# same --output, and from a checkpoint of no tiles; Ctrl-C stops a long search with exit 130
# and a checkpoint of fewer tiles than all, from which a rerun ends with tree-cpu's --output.
# Exits 77 (skipped) without a GPU.
source "$(dirname "$0")/cli_expect.sh" "$@"
SEED=${MPGPU_TEST_SEED:-7}
"$MPGPU" gcd --bits 64 --count 1 --method bulk-lehmer --reps 1 --warmup 0 --quiet 2>"$tmp/err"
if [ $? -eq 3 ] && grep -q "no CUDA-capable GPU" "$tmp/err"; then
    echo "skipped: $(cat "$tmp/err")"
    exit 77
fi

# same_findings A B: the findings of two --output files (their # lines name the method) equal.
same_findings() {
    checks=$((checks + 1))
    if ! cmp -s <(grep -v '^#' "$1") <(grep -v '^#' "$2"); then
        echo "FAIL: $1 and $2 differ:"
        diff <(grep -v '^#' "$1") <(grep -v '^#' "$2") | head -20 | sed 's/^/    /'
        fails=$((fails + 1))
    fi
}

for set in "300 256" "2500 512"; do
    set -- $set
    m=$tmp/m$1.txt
    expect_ok "" -- gcd --make-moduli "$1" --bits "$2" --plant all --seed "$SEED" --output "$m"
    expect_ok "" -- gcd --shared-factors "$m" --method tree-cpu --output "$tmp/tree$1.txt"
    check "tree-cpu found the plants in $1 moduli" [ "$(grep -vc '^#' "$tmp/tree$1.txt")" -ge 9 ]
    rm -f "$tmp/ck$1"
    expect_ok "" -- gcd --shared-factors "$m" --method pairs-gpu --output "$tmp/pairs$1.txt" \
        --checkpoint "$tmp/ck$1" --csv "$tmp/p$1.csv"
    same_findings "$tmp/tree$1.txt" "$tmp/pairs$1.txt"
    check "pairs-gpu row checked all its moduli" awk -F, 'NR == 2 { exit !($27 == "all" && $29 == 0) }' "$tmp/p$1.csv"
    check "checkpoint of $1 moduli complete" grep -q "^tiles \([0-9]*\) of \1$" "$tmp/ck$1"
    expect_ok "" -- gcd --shared-factors "$m" --method pairs-gpu --output "$tmp/again$1.txt" \
        --checkpoint "$tmp/ck$1" --csv "$tmp/a$1.csv"
    same_findings "$tmp/tree$1.txt" "$tmp/again$1.txt"
    check "the rerun resumed after every tile" grep -q "resumed_tiles=[1-9]" "$tmp/a$1.csv"
    sed -i 's/^tiles [0-9]* of/tiles 0 of/; /^[0-9]* [0-9]*$/d; s/^pairs .*/pairs 0/' "$tmp/ck$1"
    expect_ok "" -- gcd --shared-factors "$m" --method pairs-gpu --output "$tmp/zero$1.txt" \
        --checkpoint "$tmp/ck$1"
    same_findings "$tmp/tree$1.txt" "$tmp/zero$1.txt"
    expect_ok "" -- gcd --shared-factors "$m" --method tree-gpu --output "$tmp/tg$1.txt" \
        --csv "$tmp/tg$1.csv"
    same_findings "$tmp/tree$1.txt" "$tmp/tg$1.txt"
    check "tree-gpu row checked all its moduli" awk -F, 'NR == 2 { exit !($13 == "tree-gpu" && $21 == "cpu+gpu" && $27 == "all" && $29 == 0) }' "$tmp/tg$1.csv"
done

# tree-gpu on COUNT random odd numbers of BITS bits, the first repeated at the end (a relation
# to find in every set): its --output the same as tree-cpu's, every g_i checked against the
# all-pairs twin (--verify all).
random_odd() { # BITS: a random odd hex number of exactly BITS bits
    local bits=$1 i d hex
    printf -v hex '%x' $((1 << ((bits - 1) % 4)))
    for ((i = 0; i < (bits - 1) / 4 - 1; i++)); do
        printf -v d '%x' $((RANDOM % 16))
        hex+=$d
    done
    printf -v d '%x' $((RANDOM % 16 | 1))
    echo "$hex$d"
}
RANDOM=$SEED
for set in "2 64" "3 64" "33 96" "129 2048" "37 8192" "9 16384" "5 32767"; do
    set -- $set
    f=$tmp/r$1_$2.txt
    for ((i = 0; i < $1 - 1; i++)); do random_odd "$2"; done >"$f"
    head -1 "$f" >>"$f" # a duplicate: every set has a relation to find
    expect_ok "" -- gcd --shared-factors "$f" --method tree-cpu --output "$tmp/rc$1_$2.txt"
    expect_ok "" -- gcd --shared-factors "$f" --method tree-gpu --output "$tmp/rg$1_$2.txt" \
        --csv "$tmp/rg$1_$2.csv"
    same_findings "$tmp/rc$1_$2.txt" "$tmp/rg$1_$2.txt"
    check "tree-gpu on $1 random odd numbers of $2 bits: all checked, none wrong" \
        awk -F, 'NR == 2 { exit !($27 == "all" && $29 == 0 && $28 >= '"$1"') }' "$tmp/rg$1_$2.csv"
    check "the duplicate found in $1 numbers of $2 bits" grep -q "duplicate" "$tmp/rg$1_$2.txt"
done

# --- Ctrl-C: 100000 moduli of 1024 bits (4950 tiles, tens of seconds), stopped once the first
# checkpoint is written, then resumed to the end.
big=$tmp/big.txt
"$MPGPU" gcd --make-moduli 100000 --bits 1024 --plant all --seed "$SEED" --output "$big" --quiet >"$tmp/out" \
    2>"$tmp/err" </dev/null
st=$?
check "--make-moduli 100000 --quiet: made ($st), nothing printed, the four plants in the file" \
    test "$st" -eq 0 -a ! -s "$tmp/out" -a "$(grep -c '^# planted' "$big")" -eq 4
rm -f "$tmp/bigck"
"$MPGPU" gcd --shared-factors "$big" --method pairs-gpu --checkpoint "$tmp/bigck" \
    --output "$tmp/big-pairs.txt" >"$tmp/out" 2>"$tmp/log" </dev/null &
pid=$!
for ((i = 0; i < 600; i++)); do [ -e "$tmp/bigck" ] && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
st=$?
check "Ctrl-C: exit $st (want 130)" [ "$st" -eq 130 ]
check "Ctrl-C: no --output file" [ ! -e "$tmp/big-pairs.txt" ]
check "Ctrl-C: the checkpoint holds some tiles, not all" \
    awk '/^tiles / { exit !($2 > 0 && $2 < $4) }' "$tmp/bigck"
expect_ok "" -- gcd --shared-factors "$big" --method pairs-gpu --checkpoint "$tmp/bigck" \
    --output "$tmp/big-pairs.txt" --verify sample
expect_ok "" -- gcd --shared-factors "$big" --method tree-cpu --output "$tmp/big-tree.txt" --verify none
same_findings "$tmp/big-tree.txt" "$tmp/big-pairs.txt"
expect_ok "" -- gcd --shared-factors "$big" --method tree-gpu --output "$tmp/big-tg.txt" \
    --verify sample --csv "$tmp/big-tg.csv"
same_findings "$tmp/big-tree.txt" "$tmp/big-tg.txt"
check "tree-gpu on 10^5 moduli: a sample checked, none wrong" \
    awk -F, 'NR == 2 { exit !($27 == "sample" && $28 > 100 && $29 == 0) }' "$tmp/big-tg.csv"

finish test_cli_gcd_shared_gpu
