#!/usr/bin/env bash
# cpu suite: the `mpgpu toom` command line. Bad input (an unknown --method, bits too small for
# the largest Toom-k's pieces, bits not a multiple of 32) gets exit status 2 and exactly one line
# on stderr naming the value and the accepted range; --method gmp runs without a GPU; --count-ops
# runs without one too and prints 000 Table 3.2 with every model product equal to GMP's. Also `mpgpu tune`'s --bits and --count lists and how
# `mpgpu mul --method auto` reads the table tune writes (the pick rule itself:
# test_tune_pick.c).
source "$(dirname "$0")/cli_expect.sh" "$@"

# --- help: the subcommand is listed, and its help documents every option and method
expect_ok "toom" -- --help
for opt in --method --count-ops --count --bits --reps --warmup --seed --device --threads --csv \
           --verify --include-transfers --include-launch --quiet sumrotate-shuffle \
           toom-2..toom-9 gmp all; do
    expect_ok "$opt" -- toom --help
done

# --- bad input: methods, as mul names them (toom-k and sumrotate-shuffle are mul's methods too)
accepted="accepted: sumrotate-shuffle, toom-2..toom-9, gmp, all"
expect_fail 2 "toom: unknown method 'toom-10'; $accepted" -- toom --method toom-10
expect_fail 2 "toom: unknown method 'toom-1'; $accepted" -- toom --method toom-1
expect_fail 2 "toom: unknown method 'toom-0'" -- toom --method toom-2,toom-0
expect_fail 2 "toom: unknown method '3'" -- toom --method 3
expect_fail 2 "toom: unknown method 'thread-comba'" -- toom --method thread-comba
# The GPU methods' options with GMP alone are refused (they were taken and dropped).
for opt in "--include-transfers" "--include-launch" "--device 0"; do
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --method gmp, which runs no GPU method" -- \
        toom --method gmp $opt --bits 1024 --count 4
done
expect_fail 2 "toom: unknown method 'auto'" -- toom --method auto
expect_fail 2 "--method '' is not accepted: it is empty" -- toom --method ""
expect_fail 2 "--method 'toom-2,,toom-3' is not accepted: it has an empty item" -- toom --method toom-2,,toom-3
expect_fail 2 "--method ',' is not accepted: it has an empty item" -- toom --method ,
expect_fail 2 "--method 'toom-2,' is not accepted: it has an empty item" -- toom --method toom-2,
expect_fail 2 "needs a value" -- toom --method
expect_fail 2 "unknown option '--k'" -- toom --k 2
expect_fail 2 "--method is not accepted with --count-ops" -- toom --count-ops --method toom-2

# --- bad input: bits
expect_fail 2 "--bits 256 is too small for Toom-9: 9 pieces of at least one word need 288 bits; accepted: a multiple of 32 in 288..65536" -- toom --method toom-9 --bits 256
expect_fail 2 "--bits 64 is too small for Toom-3" -- toom --method toom-2,toom-3 --bits 64
expect_fail 2 "--bits 96 is too small for Toom-4" -- toom --method toom-4 --bits 96
# The default and "all" run each Toom-k at the sizes it fits, as mul's "all" does (they refused
# 256 bits for Toom-9): the run gets as far as the GPU (exit 3 without one) and GMP's row.
for methods in "gmp,all" "gmp,sumrotate-shuffle,toom-2,toom-3,toom-4,toom-5,toom-6,toom-7,toom-8,toom-9"; do
    "$MPGPU" toom --method "$methods" --bits 64,256 --count 4 --reps 1 --warmup 0 >"$tmp/out" 2>"$tmp/err"; st=$?
    checks=$((checks + 1))
    if [ "$methods" = gmp,all ] && { [ $st -ne 0 ] && [ $st -ne 3 ] || [ "$(grep -c '^gmp ' "$tmp/out")" -ne 2 ]; }; then
        echo "FAIL: toom --method gmp,all --bits 64,256: status $st, want two gmp rows:"; sed 's/^/    /' "$tmp/err"
        fails=$((fails + 1))
    elif [ "$methods" != gmp,all ] && { [ $st -ne 2 ] || ! grep -q "too small for Toom-9" "$tmp/err"; }; then
        echo "FAIL: toom --method $methods --bits 64,256: status $st, want Toom-9 named and refused"
        fails=$((fails + 1))
    fi
done
expect_fail 2 "--bits 64 is too small for Toom-3" -- toom --method toom-3 --bits 1024,64
expect_fail 2 "--bits 1000 is not accepted; accepted: a multiple of 32 in 64..65536" -- toom --method toom-2 --bits 1000
expect_fail 2 "--bits 65568 is not accepted" -- toom --bits 65568
expect_fail 2 "--bits 'big' is not a number" -- toom --bits big
expect_fail 2 "--bits 0 is not accepted; accepted: a multiple of 32 in 64..65536" -- toom --bits 0
expect_fail 2 "--bits 2^64 is not accepted; accepted: a multiple of 32 in 64..65536" -- toom --bits 2^64
expect_fail 2 "--bits 0 is not accepted; accepted: a multiple of 32 in 64..65536" -- tune --bits 0
expect_fail 2 "--bits '1024,,2048' is not accepted: it has an empty item" -- tune --bits 1024,,2048
expect_fail 2 "--count 0 is out of range" -- toom --count 0
expect_fail 2 "--bits 256 is too small for --count-ops" -- toom --count-ops --bits 256
expect_fail 2 "--csv is not accepted with --count-ops" -- toom --count-ops --csv "$tmp/x.csv"
# Options --count-ops would not use are refused, not dropped (--json wrote nothing, --quiet
# printed the table), and each --bits gets its table (only the first did).
for opt in "--json $tmp/x.json" --quiet "--reps 3" "--count 4"; do
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --count-ops" -- toom --count-ops $opt
done
check "--count-ops --json: no file" [ ! -e "$tmp/x.json" ]
"$MPGPU" toom --count-ops --bits 4096,8192 >"$tmp/ops" 2>"$tmp/err"
check "--count-ops --bits 4096,8192: a table each" \
    [ "$(grep -c '^# 000 Table 3.2 at w = \(128\|256\) words' "$tmp/ops")" -eq 2 ]

# --- --count-ops: every row, every model product equal to GMP, School and Comba as Table 3.1
for bits in 288 1024 1056 4096; do
    expect_ok "Toom-9" -- toom --count-ops --bits "$bits"
    checks=$((checks + 1))
    w=$((bits / 32))
    if grep -q "DIFFERS" "$tmp/out" || [ "$(grep -c '= GMP' "$tmp/out")" -ne 10 ] ||
       ! awk -v w="$w" '$6 != "|" { next }
                        $1 == "School" { s = ($2 == w * w && $7 == 2 * w * w && $10 == w * w + w) }
                        $1 == "Comba" { c = ($2 == w * w && $7 == 2 * w * w && $10 == 2 * w) }
                        END { exit !(s && c) }' "$tmp/out"; then
        echo "FAIL: toom --count-ops --bits $bits:"; sed 's/^/    /' "$tmp/out"
        fails=$((fails + 1))
    fi
done
# Toom-k does fewer word multiplications than Comba once the pieces are whole 1024-bit blocks.
checks=$((checks + 1))
"$MPGPU" toom --count-ops --bits 65536 >"$tmp/out" 2>&1
if ! awk '$6 != "|" { next } $1 == "Comba" { c = $2 } $1 ~ /^Toom-/ { t[$1] = $2 }
          END { for (k in t) if (t[k] >= c) exit 1; exit !(c > 0) }' "$tmp/out"; then
    echo "FAIL: toom --count-ops --bits 65536: a Toom-k row does not beat Comba:"
    sed 's/^/    /' "$tmp/out"
    fails=$((fails + 1))
fi

# --- mul --method auto reads the table `mpgpu tune` writes
MPGPU_TUNE_TABLE="$tmp/none.csv" expect_fail 2 "--method auto: no tune table at '$tmp/none.csv'" -- mul --method auto --bits 1024 --count 4
printf '# comment\nbits,count,method,median_ms\n1024,10,nosuch-method,1.0\n' >"$tmp/t1.csv"
MPGPU_TUNE_TABLE="$tmp/t1.csv" expect_fail 2 "has no method for 1024 bits" -- mul --method auto --bits 1024 --count 4
printf 'bits,count,method,median_ms\n1024,10,toom-2\n' >"$tmp/t2.csv"
MPGPU_TUNE_TABLE="$tmp/t2.csv" expect_fail 2 "line 2, is not 'bits,count,method,median_ms'" -- mul --method auto --bits 1024 --count 4
# From any folder: without $MPGPU_TUNE_TABLE the installed or built-in table decides, with it
# that file, and a relative $MPGPU_TUNE_TABLE is relative to the folder mpgpu runs in. Without
# a GPU the pick is then skipped (status 3); with one it runs (status 0).
MPGPU=$(realpath "$MPGPU") # the binary, as these checks see it from /tmp
printf '# gpu: Some Other GPU, 8 SMs, SM clock 1000 MHz\nbits,count,method,median_ms\n1024,10,sumrotate-shuffle,1.0\n' >"$tmp/t3.csv"
auto_anywhere() {
    local label=$1
    shift
    checks=$((checks + 1))
    (cd /tmp && env "$@" "$MPGPU" mul --method auto --bits 1024 --count 4 --reps 1) >"$tmp/out" 2>"$tmp/err" </dev/null
    local st=$?
    if { [ "$st" -ne 0 ] && [ "$st" -ne 3 ]; } || grep -q "tune table" "$tmp/err"; then
        echo "FAIL: --method auto from /tmp $label -> status $st (want 0, or 3 without a GPU):"
        sed 's/^/    /' "$tmp/err"
        fails=$((fails + 1))
    fi
}
auto_anywhere "without MPGPU_TUNE_TABLE" -u MPGPU_TUNE_TABLE
auto_anywhere "with MPGPU_TUNE_TABLE" MPGPU_TUNE_TABLE="$tmp/t3.csv"
cp "$tmp/t3.csv" /tmp/mpgpu_test_tune_$$.csv
auto_anywhere "with a relative MPGPU_TUNE_TABLE" MPGPU_TUNE_TABLE=mpgpu_test_tune_$$.csv
rm -f /tmp/mpgpu_test_tune_$$.csv
pushd /tmp >/dev/null
MPGPU_TUNE_TABLE=no_such_table.csv expect_fail 2 "no tune table at 'no_such_table.csv' (from \$MPGPU_TUNE_TABLE): No such file or directory" -- mul --method auto --bits 1024 --count 4
popd >/dev/null
# auto picks by the run's count, --count's or --input's number of pairs: at 1024 bits this table
# has no usable method at 10240 products, one at 2^20; the classes meet at 103621.6 products.
printf 'bits,count,method,median_ms\n1024,10240,nosuch-method,1.0\n1024,1048576,sumrotate-shuffle,1.0\n' >"$tmp/t4.csv"
for count in 4 10240 103621; do
    MPGPU_TUNE_TABLE="$tmp/t4.csv" expect_fail 2 "--method auto: tune table '$tmp/t4.csv' has no method for 1024 bits at its entry of 1024 bits, 10240 products" -- mul --method auto --bits 1024 --count "$count"
done
printf '%s %s\n' "$(printf 'f%.0s' {1..256})" "$(printf 'e%.0s' {1..256})" >"$tmp/pairs.txt"
MPGPU_TUNE_TABLE="$tmp/t4.csv" expect_fail 2 "at its entry of 1024 bits, 10240 products" -- mul --method auto --input "$tmp/pairs.txt"
# Nearer 2^20 the pick is made: the run goes on (status 0 with a GPU, 3 without one).
checks=$((checks + 1))
MPGPU_TUNE_TABLE="$tmp/t4.csv" "$MPGPU" mul --method auto --bits 1024 --count 103622 --reps 1 \
    --verify sample >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
if { [ "$st" -ne 0 ] && [ "$st" -ne 3 ]; } || grep -q "tune table" "$tmp/err"; then
    echo "FAIL: --method auto at 103622 products -> status $st (want 0, or 3 without a GPU):"
    sed 's/^/    /' "$tmp/err"
    fails=$((fails + 1))
fi

# --- tune --count: a list, as --bits; every item in --count's range, checked before any work
expect_ok "--count N[,N...]" -- tune --help
expect_fail 2 "--count 0 is out of range; accepted: 1..2^40" -- tune --count 0
expect_fail 2 "--count 0 is out of range; accepted: 1..2^40" -- tune --count 10240,0
expect_fail 2 "--count 2^41 is out of range; accepted: 1..2^40" -- tune --count 2^20,2^41
expect_fail 2 "--count 'x' is not a number; accepted: an integer in 1..2^40" -- tune --count 10240,x
expect_fail 2 "--count '-1' is not a number" -- tune --count -1
expect_fail 2 "--count '10240,,2^20' is not accepted: it has an empty item; accepted: counts separated by single commas, each an integer in 1..2^40" -- tune --count 10240,,2^20
expect_fail 2 "--count '10240,' is not accepted: it has an empty item" -- tune --count 10240,
expect_fail 2 "--count ',' is not accepted: it has an empty item" -- tune --count ,
expect_fail 2 "--count '' is not accepted: it is empty" -- tune --count ""
expect_fail 2 "needs a value" -- tune --count
expect_fail 2 "--count: more than 16 counts given; accepted: at most 16" -- tune --count "$(seq -s, 1 17)"
expect_fail 2 "--count: more than 16 counts given" -- tune --count "$(seq -s, 1 10)" --count "$(seq -s, 11 17)"
# Each count's host memory is checked before any work, the largest too.
expect_fail 2 "--count 1099511627776 of 65536-bit products needs" -- tune --count 10240,2^40 --bits 65536
# A good list is accepted. With a GPU the run writes one row per (bits, count, method), the
# counts sorted and given once; without one it stops before any work, saying so.
checks=$((checks + 1))
"$MPGPU" tune --bits 128,64,128 --count 2^12,100,2^12 --count 0x64 --method sumrotate-shuffle,toom-2 \
    --reps 1 --warmup 0 --table "$tmp/tuned.csv" >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
want="64,100,2 64,4096,2 128,100,2 128,4096,2 "
if [ "$st" -eq 0 ]; then
    got=$(awk -F, '/^[0-9]/ { n[$1 "," $2]++ } END { for (k in n) print k "," n[k] }' "$tmp/tuned.csv" |
          sort -t, -k1,1n -k2,2n | tr '\n' ' ')
    if [ "$got" != "$want" ] || ! grep -q "^fastest method per size at 4096 products:" "$tmp/out"; then
        echo "FAIL: tune --count 2^12,100,2^12 --count 0x64: (bits,count,rows) $got, want $want"
        sed 's/^/    /' "$tmp/tuned.csv" "$tmp/out"
        fails=$((fails + 1))
    fi
elif [ "$st" -ne 3 ] || ! grep -q "tune measures the GPU" "$tmp/err" || [ -e "$tmp/tuned.csv" ]; then
    echo "FAIL: tune with a good --count list -> status $st (want 0, or 3 without a GPU)"
    sed 's/^/    /' "$tmp/err"
    fails=$((fails + 1))
fi
expect_fail 2 "--bits 100 is not accepted" -- tune --bits 1024,100
expect_fail 2 "unknown method 'nosuch'" -- tune --method nosuch
expect_ok "--bits B" -- tune --help

# --- GMP alone runs anywhere, one row a size, named gmp
checks=$((checks + 1))
"$MPGPU" toom --method gmp --bits 1024,2048 --count 64 --reps 1 --warmup 0 --csv "$tmp/gmp.csv" \
    >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
got=$(grep -o ',toom,[a-z0-9-]*,[0-9]*,' "$tmp/gmp.csv" 2>/dev/null | tr '\n' ' ')
if [ "$st" -ne 0 ] || [ "$got" != ",toom,gmp,1024, ,toom,gmp,2048, " ]; then
    echo "FAIL: toom --method gmp -> status $st, rows '$got' (want 0, gmp at 1024 and 2048 bits):"
    sed 's/^/    /' "$tmp/err"
    fails=$((fails + 1))
fi

# --- without a GPU the GPU run says so on one line; named with gmp, GMP still runs, then exit 3
if ! nvidia-smi >/dev/null 2>&1; then
    expect_fail 3 "no CUDA-capable GPU" -- toom --bits 1024 --count 4
    expect_fail 3 "toom's GPU methods skipped (--count-ops" -- toom --method toom-2 --count 4
    checks=$((checks + 1))
    "$MPGPU" toom --method toom-2,gmp --count 64 --reps 1 --csv "$tmp/skip.csv" >"$tmp/out" \
        2>"$tmp/err" </dev/null
    st=$?
    if [ "$st" -ne 3 ] || ! grep -q "running the GMP baseline only" "$tmp/err" ||
       [ "$(grep -c ',toom,gmp,1024,' "$tmp/skip.csv")" -ne 1 ]; then
        echo "FAIL: toom --method toom-2,gmp without a GPU -> status $st (want 3 and a gmp row):"
        sed 's/^/    /' "$tmp/err"
        fails=$((fails + 1))
    fi
fi

finish cli_toom
