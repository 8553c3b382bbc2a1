#!/usr/bin/env bash
# cpu suite: the `mpgpu ctt-vs-ctw` command line. Bad input (words outside 1..16384, sigma < 0,
# an unknown operation or method, a batch past the 2^32 words its offsets reach) gets exit
# status 2 and one stderr line naming the value and the accepted range; --help documents every
# option within 80 columns; the CPU methods (gmp, cpu-port) run without a GPU, with every
# cpu-port result checked against GMP, on equal and mixed lengths, signed operands and a sweep;
# the same for the rational operations qadd, qsub, qmul and qdiv (003 4.4), also reduced to
# lowest terms (--reduce, which integer operations refuse).
source "$(dirname "$0")/cli_expect.sh" "$@"

# --- help
expect_ok "ctt-vs-ctw" -- --help
checks=$((checks + 1))
"$MPGPU" ctt-vs-ctw --help >"$tmp/out" 2>&1
if awk 'length > 80 { bad = 1 } END { exit !bad }' "$tmp/out"; then
    echo "FAIL: mpgpu ctt-vs-ctw --help has lines over 80 columns:"
    awk 'length > 80' "$tmp/out" | sed 's/^/    /'
    fails=$((fails + 1))
fi
for opt in --op --words --sigma --signed --count --method --reps --warmup --seed --device \
           --threads --csv --verify --include-transfers --include-launch --quiet cpu-port auto ctw ctt gmp \
           qadd qsub qmul qdiv "(ad+cb)/bd" "(ad-cb)/bd" "ac/bd" "ad/bc" "rationals" --reduce; do
    expect_ok "$opt" -- ctt-vs-ctw --help
done

# --- bad input
# The GPU methods' options with CPU methods alone are refused (they were taken and dropped).
expect_fail 2 "--threads is not accepted with --method cpu-port, which runs on one thread" -- \
    ctt-vs-ctw --method cpu-port --threads 2 --count 4
for opt in "--include-transfers" "--include-launch" "--device 0"; do
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --method gmp, which runs no GPU method" -- \
        ctt-vs-ctw --method gmp $opt --count 4
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --method cpu-port,gmp, which run no GPU method" -- \
        ctt-vs-ctw --method cpu-port,gmp,cpu-port $opt --count 4
done
expect_fail 2 "--words 0 is out of range; accepted: 1..16384" -- ctt-vs-ctw --words 0
expect_fail 2 "--words 16385 is out of range; accepted: 1..16384" -- ctt-vs-ctw --words 16385
expect_fail 2 "--words 2^64 is out of range" -- ctt-vs-ctw --words 2^64
expect_fail 2 "--words 'x' is not a number" -- ctt-vs-ctw --words x
expect_fail 2 "--words '4,,8' is not accepted: it has an empty item" -- ctt-vs-ctw --words 4,,8
expect_fail 2 "--words '' is not accepted" -- ctt-vs-ctw --words ""
expect_fail 2 "--sigma -1 is out of range; accepted: a deviation in words in 0..16384" -- ctt-vs-ctw --sigma -1
expect_fail 2 "--sigma -0.5 is out of range; accepted: a deviation in words in 0..16384" -- ctt-vs-ctw --sigma -0.5
expect_fail 2 "--sigma 1e9 is out of range; accepted: a deviation in words in 0..16384" -- ctt-vs-ctw --sigma 1e9
# The notations of every number (--sigma '2^4' was "not a number", ' 4' and 2^64 taken or named
# wrongly).
expect_fail 2 "--sigma 2^64 is out of range" -- ctt-vs-ctw --sigma 2^64
expect_fail 2 "--sigma ' 4' is not a number; accepted: a deviation in words in 0..16384 (decimal, e.g. 0.5, 2^N, 10^N or 0x hex)" -- ctt-vs-ctw --sigma ' 4'
for pair in 2^4=16 10^1=10 0x10=16 1.5e1=15; do
    expect_ok ";sigma=${pair#*=};" -- ctt-vs-ctw --op add --words 8 --sigma "${pair%=*}" --count 64 --method gmp --reps 1 --warmup 0 --csv -
done
expect_fail 2 "--sigma 'wide' is not a number" -- ctt-vs-ctw --sigma wide
expect_fail 2 "--sigma 'nan' is not a number" -- ctt-vs-ctw --sigma nan
expect_fail 2 "--op 'div' is not accepted; accepted: add, sub, mul, qadd, qsub, qmul, qdiv" -- ctt-vs-ctw --op div
expect_fail 2 "--op 'QADD' is not accepted; accepted: add, sub, mul, qadd, qsub, qmul, qdiv" -- ctt-vs-ctw --op QADD
expect_fail 2 "--op 'q' is not accepted" -- ctt-vs-ctw --op q --method gmp
# "all" names every operation, as in every list of names (gcd --barrier, fixed --impl, ...).
"$MPGPU" ctt-vs-ctw --op all --method gmp --words 2 --count 8 --reps 1 --warmup 0 --csv "$tmp/all_ops.csv" \
    >"$tmp/out" 2>&1
check "ctt-vs-ctw --op all: a row for each of the 7 operations" [ "$(grep -c ',gmp,' "$tmp/all_ops.csv")" -eq 7 ]
expect_fail 2 "unknown method 'thread'; accepted: ctt, ctw, auto, cpu-port, gmp, all" -- ctt-vs-ctw --method thread
expect_fail 2 "--method ',' is not accepted: it has an empty item" -- ctt-vs-ctw --method ,
expect_fail 2 "unknown option '--bits'" -- ctt-vs-ctw --bits 1024
expect_fail 2 "needs a value" -- ctt-vs-ctw --words
expect_fail 2 "--count 0 is out of range" -- ctt-vs-ctw --count 0
expect_fail 2 "more than the 2^32 its 32-bit offsets reach; accepted: --count up to 2096128 here" -- ctt-vs-ctw --count 2^30 --words 512 --method gmp
# The limit named is the first count refused: one more than it is.
expect_fail 2 "accepted: --count up to 2096128 here" -- ctt-vs-ctw --count 2096129 --words 512 --method gmp
expect_fail 2 "more than the 2^32 its 32-bit offsets reach" -- ctt-vs-ctw --count 2^20 --words 16,16384 --method gmp
# A rational computation takes about three times the words of an integer one (four operands,
# x, y and qadd's temporaries): 2^20 muls of 1000 words stay below 2^32 words, qadds do not.
expect_fail 2 "more than the 2^32 its 32-bit offsets reach; accepted: --count up to" -- ctt-vs-ctw --op qadd --count 2^20 --words 1000 --method gmp
expect_fail 2 "--words 0 is out of range; accepted: 1..16384" -- ctt-vs-ctw --op qdiv --words 0
expect_fail 2 "--reduce applies to the rational operations qadd, qsub, qmul and qdiv; --op mul is an integer operation" -- ctt-vs-ctw --reduce --method gmp

# --- the CPU methods, every cpu-port result checked against GMP
for op in add sub mul; do
    expect_ok "# 2 row(s): 300 result(s) checked, all equal to the reference" -- \
        ctt-vs-ctw --op "$op" --words 5 --sigma 3 --count 300 --method gmp,cpu-port --reps 2 --warmup 0
    expect_ok "ok 300" -- ctt-vs-ctw --op "$op" --words 40 --count 300 --signed --method cpu-port \
        --reps 1 --warmup 0
done
for op in qadd qsub qmul qdiv; do
    expect_ok "# 2 row(s): 300 result(s) checked, all equal to the reference" -- \
        ctt-vs-ctw --op "$op" --words 5 --sigma 3 --count 300 --method gmp,cpu-port --reps 2 --warmup 0
    expect_ok "ok 257" -- ctt-vs-ctw --op "$op" --words 40 --sigma 40 --count 257 --signed \
        --method cpu-port --reps 1 --warmup 0
    expect_ok "op=$op;words=1;sigma=0;signed=1" -- ctt-vs-ctw --op "$op" --words 1 --count 1000 \
        --signed --method gmp,cpu-port --threads 2 --reps 1 --warmup 0
    # --reduce: the port's results in lowest terms, checked against GMP's reduced values.
    expect_ok "# 2 row(s): 300 result(s) checked, all equal to the reference" -- \
        ctt-vs-ctw --op "$op" --words 3 --sigma 2 --count 300 --signed --reduce \
        --method gmp,cpu-port --threads 2 --reps 2 --warmup 0
done
expect_ok "op=mul;words=1;sigma=0;signed=0" -- ctt-vs-ctw --words 1 --count 64 --method gmp --reps 1
# A sweep: one row per length, in the CSV too (header and two rows).
expect_ok "# 2 row(s)" -- ctt-vs-ctw --op sub --words 1,64 --sigma 8 --count 200 --method cpu-port \
    --reps 1 --warmup 0 --csv "$tmp/sweep.csv"
checks=$((checks + 1))
if [ "$(wc -l <"$tmp/sweep.csv")" -ne 3 ] || ! grep -q "ctt-vs-ctw,cpu-port,2048," "$tmp/sweep.csv"; then
    echo "FAIL: the sweep's CSV lacks its two rows:"; sed 's/^/    /' "$tmp/sweep.csv"
    fails=$((fails + 1))
fi

finish test_cli_ctt
