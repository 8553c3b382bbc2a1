#!/usr/bin/env bash
# gpu suite: the command line's GPU paths end to end. Device batches, --include-transfers,
# --verify sample, the I/O mode and --method all must all give GMP-verified results.
# Exits 77 (skipped) without a GPU.
set -u
MPGPU=${1:?usage: test_cli_gpu.sh path/to/mpgpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$MPGPU" mul --method sumrotate-shuffle --bits 64 --count 1 --reps 1 --warmup 0 --quiet 2>"$tmp/err"
if [ $? -eq 3 ] && grep -q "no CUDA-capable GPU" "$tmp/err"; then
    echo "skipped: $(cat "$tmp/err")"
    exit 77
fi
fails=0
checks=0
# run DESCRIPTION ARGS...: must exit 0.
run() {
    local what=$1
    shift
    checks=$((checks + 1))
    if ! "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: $what: mpgpu $*"; sed 's/^/    /' "$tmp/err" "$tmp/out" | tail -20
        fails=$((fails + 1))
        return 1
    fi
}
# field CSV ROW COLUMN
field() { awk -F, -v r="$2" -v c="$3" 'NR == r + 1 { print $c }' "$1"; }

csv="$tmp/b.csv"
run "batches" mul --bits 1024 --count 1000 --batch 300 --reps 2 --csv "$csv" \
    --method sumrotate-shuffle,thread-comba &&
for row in 1 2; do
    checks=$((checks + 1))
    if [ "$(field "$csv" $row 15)" != "words=32;batches=4" ] || [ "$(field "$csv" $row 28)" != 1000 ] ||
       [ "$(field "$csv" $row 29)" != 0 ]; then
        echo "FAIL: batch row $row: $(sed -n "$((row + 1))p" "$csv")"; fails=$((fails + 1))
    fi
done

csv="$tmp/t.csv"
run "include transfers" mul --bits 2048 --count 500 --include-transfers --reps 2 --csv "$csv" \
    --method sumrotate-shuffle && {
    checks=$((checks + 1))
    [ "$(field "$csv" 1 21)" = "kernels+transfers" ] || { echo "FAIL: timed_region $(field "$csv" 1 21)"; fails=$((fails + 1)); }
}

csv="$tmp/l.csv"
run "include launch" mul --bits 2048 --count 500 --include-launch --reps 2 --csv "$csv" \
    --method sumrotate-shuffle && {
    checks=$((checks + 1))
    [ "$(field "$csv" 1 21)" = "kernels+launch" ] || { echo "FAIL: timed_region $(field "$csv" 1 21)"; fails=$((fails + 1)); }
}

csv="$tmp/s.csv"
run "verify sample" mul --bits 512 --count 20000 --verify sample --reps 2 --csv "$csv" \
    --method sumrotate-shuffle && {
    checks=$((checks + 1))
    n=$(field "$csv" 1 28)
    { [ "$(field "$csv" 1 27)" = sample ] && [ "$n" -ge 1000 ] && [ "$n" -le 1002 ]; } ||
        { echo "FAIL: sample verification checked $n"; fails=$((fails + 1)); }
}

# The I/O mode gives the same products on the GPU as GMP does.
for i in $(seq 1 40); do
    printf '%x%08x%08x %x%08x\n' $((RANDOM * i)) $((RANDOM * RANDOM)) $((RANDOM)) $((RANDOM + i)) $((RANDOM * 7))
done >"$tmp/pairs.txt"
printf 'ffffffffffffffffffffffffffffffff ffffffffffffffffffffffffffffffff\n0 1\n' >>"$tmp/pairs.txt"
run "I/O mode, GMP" mul --input "$tmp/pairs.txt" --output "$tmp/gmp.txt" --method gmp --reps 1 &&
for m in sumrotate-shuffle thread-comba warp-column-shuffle; do
    run "I/O mode, $m" mul --input "$tmp/pairs.txt" --output "$tmp/$m.txt" --method "$m" --reps 1 && {
        checks=$((checks + 1))
        cmp -s "$tmp/gmp.txt" "$tmp/$m.txt" || { echo "FAIL: --output of $m differs from gmp"; fails=$((fails + 1)); }
    }
done

# Every method that supports a size, in one run.
for bits in 96 1056 4096; do
    run "all methods at $bits bits" mul --bits "$bits" --count 300 --method all --reps 1 --warmup 1
done

# A sweep over sizes: one verified row per (size, method), multi-batch included.
csv="$tmp/w.csv"
run "sweep" mul --bits 1024,4096 --count 3000 --batch 1000 --reps 2 --csv "$csv" \
    --method thread-rowchain-karatsuba,sumrotate-shuffle && {
    checks=$((checks + 1))
    got=$(awk -F, 'NR > 1 { print $14 ":" $13 ":" $28 ":" $29 }' "$csv" | sort | tr '\n' ' ')
    want="1024:sumrotate-shuffle:3000:0 1024:thread-rowchain-karatsuba:3000:0 4096:sumrotate-shuffle:3000:0 4096:thread-rowchain-karatsuba:3000:0 "
    [ "$got" = "$want" ] ||
        { echo "FAIL: sweep rows: $got"; fails=$((fails + 1)); }
}

# --method auto with a table measured on another GPU says so, and still runs and verifies; its
# row and CSV row name the entry it came from (500 products: the 10240 class).
printf '# gpu: Some Other GPU, 8 SMs, SM clock 1000 MHz\nbits,count,method,median_ms\n1024,10240,sumrotate-shuffle,1.0\n1024,1048576,thread-rowchain-karatsuba,1.0\n' >"$tmp/other.csv"
checks=$((checks + 1))
if ! MPGPU_TUNE_TABLE="$tmp/other.csv" "$MPGPU" mul --method auto --bits 1024 --count 500 --reps 1 --csv "$tmp/auto.csv" >"$tmp/out" 2>"$tmp/err" ||
   ! grep -q "was measured on Some Other GPU" "$tmp/err" ||
   ! grep -q '^sumrotate-shuffle .* ok 500 .*;auto_bits=1024;auto_count=10240$' "$tmp/out" ||
   ! grep -q ',mul,sumrotate-shuffle,1024,words=32;batches=1;auto_bits=1024;auto_count=10240,500,' "$tmp/auto.csv"; then
    echo "FAIL: --method auto with another GPU's table"; sed 's/^/    /' "$tmp/err" "$tmp/out"; fails=$((fails + 1))
fi

source "$(dirname "$0")/cli_expect.sh" --finish-only
finish cli_gpu
