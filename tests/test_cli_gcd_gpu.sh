#!/usr/bin/env bash
# gpu suite: `mpgpu gcd` end to end on the GPU. Every barrier at a size of one block and at one
# of many blocks, planted factors, --include-transfers, --verify sample, the I/O mode (zeros
# follow GMP) and --L 16 with --all-primes must give results equal to mpz_gcd; a row per case
# with its barrier in params; an unsupported barrier says why; the moduli cache is written, read
# back and rebuilt when damaged. Exits 77 (skipped) without a GPU.
source "$(dirname "$0")/cli_expect.sh" "$@"
export MPGPU_CACHE="$tmp/cache"
"$MPGPU" gcd --method gpu --L 16 --bits 64 --count 1 --reps 1 --warmup 0 --quiet 2>"$tmp/err"
if [ $? -eq 3 ] && grep -q "no CUDA-capable GPU" "$tmp/err"; then
    echo "skipped: $(cat "$tmp/err")"
    exit 77
fi

# run DESCRIPTION ARGS...: must exit 0.
run() {
    local what=$1
    shift
    checks=$((checks + 1))
    if ! "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: $what: mpgpu $*"
        sed 's/^/    /' "$tmp/err" "$tmp/out" | tail -20
        fails=$((fails + 1))
        return 1
    fi
}

# rows_ok CSV N: N data rows, every GPU row with all its results checked and none different, and
# none answered by GMP instead of the GPU (gmp_fallbacks=0: such a pair is not counted as
# checked, and none of these cases should run out of moduli).
rows_ok() {
    checks=$((checks + 1))
    if ! awk -F, -v n="$2" 'NR > 1 && $13 != "gmp" { ok = ok && $27 == "all" && $28 == $16 && $29 == 0 &&
                                                     $15 !~ /gmp_fallbacks=[1-9]/ }
                            NR == 1 { ok = 1 } END { exit !(ok && NR == n + 1) }' "$1"; then
        echo "FAIL: $1 is not $2 verified rows:"
        sed 's/^/    /' "$1"
        fails=$((fails + 1))
    fi
}

csv="$tmp/all.csv"
run "every barrier, kary and lehmer, one block and many" gcd --bits 512,16384 --count 4 \
    --gcd-bits 64 --method all --reps 2 --warmup 1 --csv "$csv" && rows_ok "$csv" 20
checks=$((checks + 1))
for b in coop cluster custom; do
    for i in euclid fermat; do
        grep -q "gpu-$b-$i,16384,.*barrier=$b;inverse=$i;" "$csv" ||
            { echo "FAIL: no gpu-$b-$i row at 16384 bits"; fails=$((fails + 1)); }
    done
done
for a in kary lehmer; do
    checks=$((checks + 1))
    grep -q "gpu-$a,16384,.*algorithm=$a;" "$csv" ||
        { echo "FAIL: no gpu-$a row at 16384 bits"; fails=$((fails + 1)); }
done
csv="$tmp/kary.csv"
run "kary, a planted half-size factor" gcd --bits 8192 --count 3 --gcd-bits 4096 --method kary \
    --reps 1 --warmup 0 --csv "$csv" && rows_ok "$csv" 1
csv="$tmp/auto.csv"
run "--barrier auto (the default) at a small and a large size" gcd --bits 4096,200000 --count 2 \
    --method gpu --reps 1 --warmup 0 --csv "$csv" && rows_ok "$csv" 2
csv="$tmp/shapes.csv"
run "--per-thread 8" gcd --bits 16384 --count 2 --method gpu --per-thread 8 --barrier coop \
    --reps 1 --warmup 0 --csv "$csv" && rows_ok "$csv" 1
checks=$((checks + 1))
grep -q "per_thread=8;state=registers;" "$csv" || { echo "FAIL: --per-thread 8 row"; fails=$((fails + 1)); }

csv="$tmp/planted.csv"
run "planted half-size factor" gcd --bits 8192 --count 3 --gcd-bits 4096 --method gpu --barrier all \
    --reps 1 --warmup 0 --csv "$csv" && rows_ok "$csv" 3
csv="$tmp/exact.csv"
run "L = 16, every prime (the exact remainder)" gcd --L 16 --all-primes --bits 2048 --count 5 \
    --method gpu --barrier coop,custom --reps 1 --warmup 0 --csv "$csv" && rows_ok "$csv" 2
csv="$tmp/transfers.csv"
run "--include-transfers" gcd --bits 4096 --count 3 --method gpu --include-transfers --reps 1 \
    --warmup 0 --csv "$csv" && rows_ok "$csv" 1
checks=$((checks + 1))
grep -q ",kernels+transfers," "$csv" || { echo "FAIL: --include-transfers row"; fails=$((fails + 1)); }
# The bulk methods (issue 38): many pairs, a count that is no multiple of a block, planted
# factors, every size class, --include-transfers, and auto's choice by count.
csv="$tmp/bulk.csv"
run "bulk, every size class" gcd --bits 64,100,256,1024,2048,4096,8192 --count 1000 --gcd-bits 40 \
    --method bulk-lehmer,bulk-binary --verify all --reps 1 --warmup 0 --csv "$csv" && rows_ok "$csv" 14
check "bulk rows are timed held (kernels) by default" grep -q ",gpu-bulk-binary,.*,kernels," "$csv"
csv="$tmp/bulk_transfers.csv"
run "bulk --include-transfers" gcd --bits 2048 --count 3000 --method bulk-lehmer --include-transfers \
    --reps 1 --warmup 0 --csv "$csv" && rows_ok "$csv" 1
csv="$tmp/auto_bulk.csv"
run "auto: many small pairs go to bulk-lehmer" gcd --bits 4096 --count 4 --method auto --reps 1 \
    --warmup 0 --csv "$csv" && rows_ok "$csv" 1
check "auto with 4 pairs of 4096 bits runs bulk-lehmer" grep -q "gpu-bulk-lehmer" "$csv"
csv="$tmp/auto_lehmer.csv"
run "auto: few pairs go to lehmer" gcd --bits 8192 --count 15 --method auto --reps 1 --warmup 0 \
    --csv "$csv" && rows_ok "$csv" 1
check "auto with 15 pairs of 8192 bits runs lehmer" grep -q ",gpu-lehmer," "$csv"
csv="$tmp/bulk_launch.csv"
run "bulk --include-launch" gcd --bits 1024 --count 5000 --method bulk-lehmer --include-launch \
    --reps 2 --warmup 1 --csv "$csv" && rows_ok "$csv" 1
check "bulk --include-launch: a kernels+launch row" grep -q ",gpu-bulk-lehmer,.*,kernels+launch," "$csv"

run "--verify sample" gcd --bits 1024 --count 20 --method gpu --verify sample --reps 1 --warmup 0

printf '# u v\n0x1c 8\n0 0\n0 ff\nFF 0\n%s %s\n1 1\n' \
    "$(printf 'f%.0s' {1..3000})" "$(printf 'f%.0s' {1..1000})" >"$tmp/pairs.txt"
printf '4\n0\nff\nff\n%s\n1\n' "$(printf 'f%.0s' {1..1000})" >"$tmp/want.txt"
printf '# u v\n0x1c 8\n0 0\n0 ff\nFF 0\n%s %s\n1 1\n' \
    "$(printf 'f%.0s' {1..2000})" "$(printf 'f%.0s' {1..1000})" >"$tmp/pairs_bulk.txt"
for b in coop cluster custom; do
    rm -f "$tmp/got.txt"
    run "--input/--output, $b" gcd --method gpu --barrier "$b" --input "$tmp/pairs.txt" \
        --output "$tmp/got.txt" --reps 1 --warmup 0
    checks=$((checks + 1))
    cmp -s "$tmp/want.txt" "$tmp/got.txt" || { echo "FAIL: --output with $b"; fails=$((fails + 1)); }
done
for m in kary lehmer bulk-lehmer bulk-binary; do
    rm -f "$tmp/got.txt"
    pairs=$tmp/pairs.txt
    # The bulk methods take up to 8192 bits: 2^8000 - 1 for 2^12000 - 1 (the same GCD).
    case $m in bulk-*) pairs=$tmp/pairs_bulk.txt ;; esac
    run "--input/--output, $m" gcd --method "$m" --input "$pairs" --output "$tmp/got.txt" \
        --reps 1 --warmup 0
    checks=$((checks + 1))
    cmp -s "$tmp/want.txt" "$tmp/got.txt" || { echo "FAIL: --output with $m"; fails=$((fails + 1)); }
done

# --- the moduli cache: built once in $MPGPU_CACHE and reported apart, then read back; a damaged
# one is rebuilt with a message. (The moduli are sieved only for a modular method that runs.)
export MPGPU_CACHE="$tmp/fresh cache"
"$MPGPU" gcd --L 16 --bits 64 --count 1 --reps 1 --warmup 0 >/dev/null 2>"$tmp/err1"
check "first run sieves the moduli into \$MPGPU_CACHE" grep -qF "sieved into $MPGPU_CACHE/gcd_moduli_L16_cheap.bin" "$tmp/err1"
check "the initialisation is timed apart" grep -q "one-time initialisation, not timed" "$tmp/err1"
"$MPGPU" gcd --L 16 --bits 64 --count 1 --reps 1 --warmup 0 >/dev/null 2>"$tmp/err2"
check "second run reads the cache" grep -qF "read from $MPGPU_CACHE/gcd_moduli_L16_cheap.bin" "$tmp/err2"
printf 'garbage' | dd of="$MPGPU_CACHE/gcd_moduli_L16_cheap.bin" bs=1 seek=60 conv=notrunc 2>/dev/null
"$MPGPU" gcd --L 16 --bits 64 --count 1 --reps 1 --warmup 0 >/dev/null 2>"$tmp/err3"
check "a damaged cache is rebuilt, saying why" grep -q "gcd moduli cache .*: .*; building the 16-bit cheap moduli" "$tmp/err3"
XDG_CACHE_HOME="$tmp/xdg" MPGPU_CACHE= "$MPGPU" gcd --L 16 --bits 64 --count 1 --reps 1 --warmup 0 >/dev/null 2>&1
check "without \$MPGPU_CACHE the cache goes to \$XDG_CACHE_HOME/mpgpu" test -s "$tmp/xdg/mpgpu/gcd_moduli_L16_cheap.bin"

finish test_cli_gcd_gpu
