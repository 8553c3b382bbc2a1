#!/usr/bin/env bash
# cpu suite: the command line. Every bad input gets exit status 2 and exactly one line on stderr
# naming the offending value; help, version and the CSV schema are checked too. Runs without a
# GPU (the GMP baseline and the GPU-less message are part of what it checks).
source "$(dirname "$0")/cli_expect.sh" "$@"

# --- top level
expect_ok "subcommands:" -- --help
expect_ok "mul" -- --help
expect_ok "commit" -- --version
# A stray argument after --version or --help is refused (it was taken as nothing).
expect_fail 2 "--version: unexpected argument 'x'; accepted: mpgpu --version alone" -- --version x
expect_fail 2 "--help: unexpected argument 'x'; accepted: mpgpu --help alone" -- --help x
expect_fail 2 "unknown subcommand 'frobnicate'" -- frobnicate
expect_fail 2 "accepted: mul" -- frobnicate
# same_output "WANT ARGS" GOT ARGS...: mpgpu GOT ARGS exits 0, says nothing on stderr, and prints
# on stdout byte for byte what mpgpu WANT ARGS prints.
same_output() {
    local want=$1
    shift
    checks=$((checks + 1))
    # shellcheck disable=SC2086
    "$MPGPU" $want >"$tmp/want" 2>&1 </dev/null
    "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local st=$?
    if [ "$st" -ne 0 ] || [ -s "$tmp/err" ] || ! cmp -s "$tmp/out" "$tmp/want"; then
        echo "FAIL: mpgpu $* -> status $st, not the output of mpgpu $want"
        fails=$((fails + 1))
    fi
}
# mpgpu help SUB is SUB --help, which is SUB's usage
for sub in mul toom tune collatz delay fixed ctt-vs-ctw gcd compare; do
    same_output "$sub --help" help "$sub"
    check "mpgpu help $sub prints its usage" grep -q "^usage: mpgpu $sub" "$tmp/out"
done
expect_ok "mpgpu help <subcommand>" -- help
# help --help and help -h are mpgpu --help
same_output --help help --help
same_output --help help -h
expect_fail 2 "help: unknown subcommand 'frobnicate'; accepted: mul, toom" -- help frobnicate
expect_fail 2 "help: unexpected argument 'extra'; accepted: mpgpu help <subcommand>" -- help mul extra
# No subcommand: the usage goes to stderr (it is an error), nothing to stdout, status 2.
checks=$((checks + 1))
"$MPGPU" >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
if [ "$st" -ne 2 ] || [ -s "$tmp/out" ] || ! grep -q "^usage: mpgpu <subcommand>" "$tmp/err"; then
    echo "FAIL: mpgpu without arguments -> status $st (want 2), usage on stderr and nothing on stdout"
    fails=$((fails + 1))
fi
# Every help fits 80 columns and says how numbers are written.
for sub in "" mul toom tune collatz delay fixed ctt-vs-ctw gcd compare; do
    checks=$((checks + 1))
    "$MPGPU" $sub --help >"$tmp/out" 2>&1
    if awk 'length > 80 { bad = 1 } END { exit !bad }' "$tmp/out"; then
        echo "FAIL: mpgpu $sub --help has lines over 80 columns:"
        awk 'length > 80' "$tmp/out" | sed 's/^/    /'
        fails=$((fails + 1))
    fi
    [ -n "$sub" ] && [ "$sub" != compare ] &&
        expect_ok "are decimal (leading zeros do not make them octal), 2^N," -- $sub --help
done
# --method selects what runs in every subcommand that runs methods (compare runs none).
for sub in mul toom tune collatz delay fixed ctt-vs-ctw gcd; do
    expect_ok "--method M[,M...]" -- $sub --help
done

# --- mul: help documents every option
expect_ok "--include-transfers" -- mul --help
expect_ok "--include-launch" -- mul --help
# collatz and delay time whole passes: no held region to leave out; gcd's bulk methods have one
expect_fail 2 "unknown option '--include-launch'" -- delay --include-launch
expect_fail 2 "unknown option '--include-launch'" -- collatz --include-launch
expect_ok "--include-launch" -- gcd --help
for opt in --count --bits --method --reps --warmup --seed --device --threads --csv --verify \
           --quiet --input --output --devices --min-time --max-noise --json --markdown; do
    expect_ok "$opt" -- mul --help
done

# --- mul: bad input
expect_fail 2 "--bits 1000 is not accepted; accepted: a multiple of 32 in 64..65536" -- mul --bits 1000
expect_fail 2 "--bits 32 is not accepted" -- mul --bits 32
expect_fail 2 "--bits 65568 is not accepted" -- mul --bits 65568
expect_fail 2 "--bits 'x12' is not a number" -- mul --bits x12
expect_fail 2 "--count 0 is out of range; accepted: 1.." -- mul --count 0
expect_fail 2 "--count 'ten' is not a number" -- mul --count ten
expect_fail 2 "--count '-5' is not a number" -- mul --count -5
expect_fail 2 "--count '12abc' is not a number" -- mul --count 12abc
expect_fail 2 "--count '10^x' is not a number" -- mul --count 10^x
expect_fail 2 "--count 2^64 is out of range; accepted: 1..2^40" -- mul --count 2^64
expect_fail 2 "--count 2^70 is out of range; accepted: 1..2^40" -- mul --count 2^70
expect_fail 2 "--count 99999999999999999999999 is out of range; accepted: 1..2^40" -- mul --count 99999999999999999999999
expect_fail 2 "--count 0x10000000000000000 is out of range" -- mul --count 0x10000000000000000
expect_fail 2 "--count '0x' is not a number; accepted: an integer in 1..2^40 (decimal, 2^N, 10^N, either minus one, or 0x hex)" -- mul --count 0x
expect_fail 2 "--count '2^' is not a number" -- mul --count 2^
expect_fail 2 "--seed 2^64 is out of range; accepted: 0..2^64-1" -- mul --seed 2^64
expect_fail 2 "--bits 0 is not accepted; accepted: a multiple of 32 in 64..65536" -- mul --bits 0
# --min-time and --max-noise (issue 40): seconds and percent, 0 turning them off
expect_fail 2 "--min-time 'abc' is not a number; accepted: seconds in 0..3600" -- mul --method gmp --min-time abc
expect_fail 2 "--min-time '' is not a number" -- mul --method gmp --min-time=
expect_fail 2 "--min-time -1 is out of range; accepted: seconds in 0..3600 (0: off)" -- mul --method gmp --min-time -1
expect_fail 2 "--min-time 3601 is out of range" -- mul --method gmp --min-time 3601
expect_fail 2 "--min-time 'nan' is not a number" -- mul --method gmp --min-time nan
expect_fail 2 "--max-noise '5%' is not a number; accepted: percent in 0..100" -- mul --method gmp --max-noise 5%
expect_fail 2 "--max-noise 101 is out of range; accepted: percent in 0..100 (0: off)" -- collatz --max-noise 101
expect_fail 2 "--max-noise 'inf' is not a number" -- gcd --max-noise inf
expect_fail 2 "option '--min-time' needs a value" -- mul --method gmp --min-time
expect_fail 2 "--bits 2^70 is not accepted; accepted: a multiple of 32 in 64..65536" -- mul --bits 2^70
expect_fail 2 "--bits 100 is not accepted" -- mul --bits 64,100
expect_fail 2 "--bits '64,,128' is not accepted: it has an empty item" -- mul --bits 64,,128
expect_fail 2 "--bits '' is not accepted: it is empty" -- mul --bits ""
expect_fail 2 "--method '' is not accepted: it is empty" -- mul --method ""
expect_fail 2 "--method ',' is not accepted: it has an empty item" -- mul --method ,
expect_fail 2 "--method 'gmp,,all' is not accepted: it has an empty item" -- mul --method gmp,,all
expect_ok "gmp" -- mul --count 0x10 --bits 64 --method gmp --reps 1
# Decimal with a leading zero is decimal: --count 010 is ten products, not eight (octal).
checks=$((checks + 1))
rm -f "$tmp/c010.csv"
"$MPGPU" mul --method gmp --bits 64 --count 010 --reps 1 --quiet --csv "$tmp/c010.csv" 2>"$tmp/err"
if ! awk -F, 'NR == 1 { ok = $16 == "count" } NR == 2 { ok = ok && $16 == 10 } END { exit !(ok && NR == 2) }' "$tmp/c010.csv"; then
    echo "FAIL: --count 010 is not 10 products:"; sed 's/^/    /' "$tmp/c010.csv" "$tmp/err"
    fails=$((fails + 1))
fi
expect_ok "gmp" -- mul --count 10^2 --bits 64 --method gmp --reps 1
expect_ok "gmp" -- mul --count 2^7 --bits 64 --method gmp --reps 1
expect_fail 2 "--reps 0 is out of range" -- mul --reps 0
expect_fail 2 "--batch 0 is out of range" -- mul --batch 0
expect_fail 2 "--seed 'abc' is not a number" -- mul --seed abc
expect_fail 2 "--threads 'many' is not a number" -- mul --threads many
expect_fail 2 "--device '-1' is not a number" -- mul --device -1
# --devices (issue 14): the same parsing as collatz and delay (tests/test_cli_collatz.sh).
expect_fail 2 "--devices '0,,1' is not accepted: it has an empty item" -- mul --devices 0,,1
expect_fail 2 "--devices 'x': 'x' is not a device index" -- mul --devices x
expect_fail 2 "--devices '2000': 2000 is out of range" -- mul --devices 2000
expect_fail 2 "--devices chooses GPUs, but --method gmp runs none" -- mul --method gmp --devices all --count 10
expect_fail 2 "--device and --devices both choose the GPU; give one" -- mul --device 0 --devices 0,0 --count 10
expect_fail 2 "unknown method 'nosuch'; accepted:" -- mul --method nosuch
expect_fail 2 "unknown method 'nosuch'" -- mul --method gmp,nosuch
expect_fail 2 "--verify 'some' is not a mode; accepted: all, sample, none" -- mul --verify some
expect_fail 2 "unknown option '--frob'" -- mul --frob
expect_fail 2 "needs a value" -- mul --bits
expect_fail 2 "unexpected argument 'extra'" -- mul extra
expect_fail 2 "--input '$tmp/missing.txt' cannot be opened for reading: No such file or directory" -- mul --input "$tmp/missing.txt"
mkdir -p "$tmp/indir"
expect_fail 2 "--input '$tmp/indir' is a directory" -- mul --input "$tmp/indir" --method gmp

printf '1234 5678\nnot-hex ff\n' >"$tmp/bad.txt"
expect_fail 2 "line 2: 'not-hex' is not a hexadecimal number" -- mul --input "$tmp/bad.txt" --method gmp
printf '1234\n' >"$tmp/one.txt"
expect_fail 2 "line 1: expected two hexadecimal numbers 'HEX_A HEX_B'" -- mul --input "$tmp/one.txt" --method gmp
printf 'ff ff ff\n' >"$tmp/three.txt"
expect_fail 2 "line 1: expected two hexadecimal numbers 'HEX_A HEX_B'" -- mul --input "$tmp/three.txt" --method gmp
printf '# only a comment\n\n' >"$tmp/empty.txt"
expect_fail 2 "holds no operand pairs" -- mul --input "$tmp/empty.txt" --method gmp
printf '1%0100d 2\n' 0 >"$tmp/wide.txt"
expect_fail 2 "does not fit --bits 64" -- mul --input "$tmp/wide.txt" --bits 64 --method gmp
expect_fail 2 "--count 3 differs from the 1 pairs" -- mul --input "$tmp/wide.txt" --count 3 --method gmp

# --- mul: the GMP baseline runs everywhere; I/O mode gives exact products
printf '# comment\nffffffffffffffffffff 0x2\n0 123456789abcdef\n\n1 1\nFFFFFFFF FFFFFFFF\n' >"$tmp/pairs.txt"
expect_ok "gmp" -- mul --input "$tmp/pairs.txt" --output "$tmp/prod.txt" --method gmp --reps 2
checks=$((checks + 1))
printf '1fffffffffffffffffffe\n0\n1\nfffffffe00000001\n' >"$tmp/want.txt"
if ! cmp -s "$tmp/prod.txt" "$tmp/want.txt"; then
    echo "FAIL: --output products differ:"; diff "$tmp/want.txt" "$tmp/prod.txt" | sed 's/^/    /'
    fails=$((fails + 1))
fi
# The pairs zero-padded to --bits: the row's size is 256 bits (80 without it, rounded up to 96),
# and the products are the same.
expect_ok "gmp                               256            4" -- mul --input "$tmp/pairs.txt" --bits 256 \
    --output "$tmp/prod256.txt" --method gmp --reps 2
expect_ok "gmp                                96            4" -- mul --input "$tmp/pairs.txt" --method gmp --reps 2
check "mul --input --bits 256: the same products" cmp -s "$tmp/prod256.txt" "$tmp/want.txt"

# Without a GPU, GPU methods are skipped with one clear line, and the baseline still prints.
if ! nvidia-smi >/dev/null 2>&1; then
    checks=$((checks + 1))
    "$MPGPU" mul --bits 4096 --count 64 --reps 2 >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ $st -ne 0 ] || ! grep -q "no CUDA-capable GPU" "$tmp/err" || ! grep -q '^gmp ' "$tmp/out"; then
        echo "FAIL: default mul without a GPU: status $st"; cat "$tmp/err" "$tmp/out" | sed 's/^/    /'
        fails=$((fails + 1))
    fi
    expect_fail 3 "no CUDA-capable GPU" -- mul --method thread-comba --count 4
    # Without a GPU --devices is as --device (the GMP baseline runs): test_cli_run_faults.sh.
fi

# --- CSV: header once, then one row per method, every row with the header's column count
checks=$((checks + 1))
csv="$tmp/r.csv"
"$MPGPU" mul --method gmp --bits 128 --count 100 --reps 3 --csv "$csv" --quiet &&
"$MPGPU" mul --method gmp --bits 256 --count 50 --reps 3 --threads 2 --csv "$csv" --quiet
header=$(head -1 "$csv")
# Schema 2: schema 1's columns, then those appended by issue 40 (docs/csv.md); never reordered.
want="timestamp,commit,host,cpu,gpu,compute_capability,sm_count,sm_clock_mhz,mem_clock_mhz,driver_version,runtime_version,subcommand,method,bits,params,count,reps,warmup,seed,cpu_threads,timed_region,median_ms,min_ms,max_ms,throughput_per_s,throughput_unit,verify_mode,checked,mismatches,noise_rsd_pct,samples,sm_clock_start_mhz,sm_clock_end_mhz,mem_clock_start_mhz,mem_clock_end_mhz,temp_start_c,temp_end_c,power_start_w,power_end_w,throttled_samples,throttle_reasons,schema_version"
ncols=$(echo "$want" | awk -F, '{print NF}')
if [ "$header" != "$want" ] || [ "$(grep -c '^timestamp,' "$csv")" -ne 1 ] || [ "$(wc -l <"$csv")" -ne 3 ] ||
   awk -F, -v n="$ncols" 'NR > 1 && NF != n { bad = 1 } END { exit !bad }' "$csv" ||
   ! awk -F, 'NR == 3 { exit !($12 == "mul" && $13 == "gmp" && $14 == 256 && $16 == 50 && $17 == 3 && $20 == 2 && $22 > 0 && $22 >= $23 && $22 <= $24) }' "$csv"; then
    echo "FAIL: CSV schema:"; sed 's/^/    /' "$csv"
    fails=$((fails + 1))
fi
# The quiet flag prints nothing on stdout.
checks=$((checks + 1))
if [ -n "$("$MPGPU" mul --method gmp --bits 64 --count 10 --reps 1 --quiet 2>/dev/null)" ]; then
    echo "FAIL: --quiet printed to stdout"; fails=$((fails + 1))
fi
# An unwritable CSV path is an error, not silence.
expect_fail 2 "cannot be opened for appending" -- mul --method gmp --bits 64 --count 10 --reps 1 --quiet --csv /nonexistent/dir/r.csv

# --- The run loop: outputs are opened before any work, sweeps give a row per size, --csv - is CSV
# An unwritable --csv stops a run that would take about half a minute at once.
checks=$((checks + 1))
t0=$(date +%s)
"$MPGPU" mul --method gmp --bits 4096 --count 2^20 --csv /nonexistent/dir/r.csv >/dev/null 2>"$tmp/err"
st=$?
if [ $st -ne 2 ] || [ $(( $(date +%s) - t0 )) -gt 5 ] || ! grep -qF -- "--csv '/nonexistent/dir/r.csv'" "$tmp/err"; then
    echo "FAIL: unwritable --csv: status $st after $(( $(date +%s) - t0 )) s"; sed 's/^/    /' "$tmp/err"
    fails=$((fails + 1))
fi
expect_fail 2 "--csv '$tmp' is a directory" -- mul --method gmp --bits 64 --count 10 --csv "$tmp"
expect_fail 2 "--output '/nonexistent/dir/p.txt' cannot be opened for writing" -- mul --method gmp --bits 64 --count 10 --output /nonexistent/dir/p.txt
expect_fail 2 "--output writes the products of one size" -- mul --method gmp --bits 64,128 --count 10 --output "$tmp/p.txt"
# More host memory than any machine has is refused up front, naming the bytes (malloc would not say).
expect_fail 2 "of host memory;" -- mul --method gmp --bits 65536 --count 2^30
expect_fail 2 "of host memory;" -- mul --method gmp --bits 1024 --count 2^36
# A sweep: one row per size, in the order given.
checks=$((checks + 1))
csv="$tmp/sweep.csv"
"$MPGPU" mul --method gmp --bits 64,1024 --bits 256 --count 20 --reps 1 --warmup 0 --csv "$csv" --quiet
if [ "$(awk -F, 'NR > 1 { printf "%s ", $14 }' "$csv")" != "64 1024 256 " ]; then
    echo "FAIL: --bits sweep rows:"; sed 's/^/    /' "$csv"; fails=$((fails + 1))
fi
# --csv - writes the CSV, and only the CSV, to stdout; the table goes to stderr.
checks=$((checks + 1))
"$MPGPU" mul --method gmp --bits 64,128 --count 20 --reps 1 --csv - >"$tmp/out" 2>"$tmp/err"
if [ "$(head -1 "$tmp/out")" != "$want" ] || [ "$(wc -l <"$tmp/out")" -ne 3 ] || ! grep -q '^gmp ' "$tmp/err" ||
   awk -F, -v n="$ncols" 'NR > 1 && NF != n { bad = 1 } END { exit !bad }' "$tmp/out"; then
    echo "FAIL: --csv -:"; sed 's/^/    /' "$tmp/out" "$tmp/err"; fails=$((fails + 1))
fi
# Each row is stamped when it is written, in the format of docs/csv.md.
checks=$((checks + 1))
if ! awk -F, 'NR > 1 && $1 !~ /^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z$/ { bad = 1 } END { exit bad }' "$csv"; then
    echo "FAIL: timestamp format:"; cut -d, -f1 "$csv" | sed 's/^/    /'; fails=$((fails + 1))
fi
# Scripts read the methods and their size ranges from --list-methods (experiments/common.sh).
expect_ok "thread-karatsuba2 128 65536 128" -- mul --list-methods
# A list item given twice counts once, as a method does (a size ran twice, its rows duplicates).
"$MPGPU" mul --method gmp,gmp --bits 64,2^6,128 --bits 64 --count 4 --reps 1 --warmup 0 >"$tmp/dup.out" 2>&1
check "mul --bits 64,2^6,128 --bits 64: two rows" [ "$(grep -c '^gmp ' "$tmp/dup.out")" -eq 2 ]
"$MPGPU" ctt-vs-ctw --method gmp --words 1,1 --count 4 --reps 1 --warmup 0 >"$tmp/dup.out" 2>&1
check "ctt-vs-ctw --words 1,1: one row" [ "$(grep -c '^gmp ' "$tmp/dup.out")" -eq 1 ]
# An option of one value given twice is refused: the last silently won. Lists and flags repeat.
expect_fail 2 "--count given twice ('4', then '8'); accepted: once" -- mul --method gmp --count 4 --count 8
expect_fail 2 "--verify given twice ('all', then 'none'); accepted: once" -- mul --verify all --verify=none
expect_fail 2 "--devices given twice ('0', then '1'); accepted: once" -- mul --devices 0 --devices 1
expect_fail 2 "--threshold given twice ('1', then '50'); accepted: once" -- compare a.csv b.csv --threshold 1 --threshold 50
expect_fail 2 "--csv given twice ('x.csv', then 'y.csv'); accepted: once" -- compare a.csv b.csv --csv x.csv --csv=y.csv
expect_ok ",mul,gmp,128," -- mul --method gmp --method gmp --quiet --quiet --bits 64 --bits 128 --count 2 --reps 1 --csv -
expect_ok "usage: mpgpu compare BASE NEW" -- compare -h
# The lists hold 64 values; a duplicate does not take a place (the 65 items below are 64 values).
"$MPGPU" mul --method gmp --bits "$(seq -s, 64 32 2080),64" --count 2 --reps 1 --warmup 0 >"$tmp/dup.out" 2>&1
check "mul --bits 64 sizes and a repeat: 64 rows" [ "$(grep -c '^gmp ' "$tmp/dup.out")" -eq 64 ]
expect_fail 2 "--bits: more than 64 sizes given; accepted: at most 64" -- mul --bits "$(seq -s, 64 32 2112)"
expect_fail 2 "--bits: more than 64 sizes given; accepted: at most 64" -- \
    mul --bits "$(seq -s, 64 32 1024)" --bits "$(seq -s, 1056 32 2112)"
expect_fail 2 "--words: more than 64 lengths given; accepted: at most 64" -- ctt-vs-ctw --words "$(seq -s, 1 65)"
expect_fail 2 "--method: more than 64 methods given; accepted: at most 64" -- mul --method "$(printf 'gmp,%.0s' $(seq 64))gmp"
# A print-and-exit mode: other options are refused, not dropped.
expect_fail 2 "--list-methods prints every GPU method and exits; it takes no other option or argument (got '--bits')" -- \
    mul --list-methods --bits 64
expect_fail 2 "it takes no other option or argument (got '--csv')" -- mul --list-methods --csv /dev/null
# --seed draws random operands: with --input it would be dropped (the row said seed 0).
printf '3 5\n' >"$tmp/seed_pairs.txt"
expect_fail 2 "--seed draws random operands; it does not apply to --input" -- \
    mul --method gmp --input "$tmp/seed_pairs.txt" --seed 5
expect_fail 2 "--seed draws random pairs; it does not apply to --input" -- \
    gcd --method gmp --input "$tmp/seed_pairs.txt" --seed 5
# thread-comba-reg[-shared] are unrolled for 8..32 words in steps of 4 (whole 16-byte vectors),
# pair-comba-reg[-shared] in steps of 8 (whole vectors in each half of a), quad- and
# octo-comba-reg[-shared] in steps of 16 and 32 up to 64 words.
expect_ok "thread-comba-reg 256 1024 128" -- mul --list-methods
expect_ok "thread-comba-reg-shared 256 1024 128" -- mul --list-methods
expect_ok "pair-comba-reg 256 1024 256" -- mul --list-methods
expect_ok "pair-comba-reg-shared 256 1024 256" -- mul --list-methods
expect_ok "quad-comba-reg 512 2048 512" -- mul --list-methods
expect_ok "octo-comba-reg 1024 2048 1024" -- mul --list-methods
expect_ok "quad-comba-reg-shared 512 2048 512" -- mul --list-methods
expect_ok "octo-comba-reg-shared 1024 2048 1024" -- mul --list-methods
expect_fail 2 "method thread-comba-reg does not support 288 bits; accepted: multiples of 128 bits in 256..1024" -- mul --method thread-comba-reg --bits 288 --count 10
expect_fail 2 "method thread-comba-reg-shared does not support 2048 bits; accepted: multiples of 128 bits in 256..1024" -- mul --method thread-comba-reg-shared --bits 2048 --count 10
expect_fail 2 "method pair-comba-reg does not support 384 bits; accepted: multiples of 256 bits in 256..1024" -- mul --method pair-comba-reg --bits 384 --count 10
expect_fail 2 "method quad-comba-reg-shared does not support 768 bits; accepted: multiples of 512 bits in 512..2048" -- mul --method quad-comba-reg-shared --bits 768 --count 10
expect_fail 2 "method octo-comba-reg does not support 3072 bits; accepted: multiples of 1024 bits in 1024..2048" -- mul --method octo-comba-reg --bits 3072 --count 10
expect_fail 2 "method octo-comba-reg-shared does not support 1536 bits; accepted: multiples of 1024 bits in 1024..2048" -- mul --method octo-comba-reg-shared --bits 1536 --count 10
# The table names the unit of every column and shows short times in us.
expect_ok "products/s" -- mul --method gmp --bits 64 --count 10 --reps 1
checks=$((checks + 1))
if ! "$MPGPU" mul --method gmp --bits 64 --count 10 --reps 1 | grep -Eq '^gmp +64 +10 +[0-9.]+ us '; then
    echo "FAIL: short times are not shown in us"; fails=$((fails + 1))
fi

finish cli
