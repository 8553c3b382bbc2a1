#!/usr/bin/env bash
# gpu suite: the command line's GPU paths end to end. Device batches, --include-transfers,
# --verify sample, the I/O mode and --method all must all give GMP-verified results.
# Exits 77 (skipped) without a GPU.
set -u
MPGPU=${1:?usage: test_cli_gpu.sh path/to/mpgpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The I/O mode's random pairs follow the test seed (CI draws a fresh one each run).
RANDOM=${MPGPU_TEST_SEED:-20261122}
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
    if [[ "$(field "$csv" $row 15)" != "words=32;batches=4;devices=0;pass_wall_ms="[0-9]* ]] || [ "$(field "$csv" $row 28)" != 1000 ] ||
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

# --min-time, --max-noise and --json (issue 40): repetitions past --reps (a noise of 0.001 % is
# never met, so --min-time or the cap of 1000 stops them), every sample in the JSON, schema 2;
# where the driver has NVML, the SM clock at the row's start (column 32) is read.
csv="$tmp/n.csv"
run "min-time, max-noise, json" mul --bits 1024 --count 10240 --reps 5 --min-time 0.05 --max-noise 0.001 \
    --json "$tmp/n.json" --csv "$csv" --method sumrotate-shuffle && {
    checks=$((checks + 1))
    samples=$(field "$csv" 1 31)
    json_samples=$(command -v jq >/dev/null && jq '.rows[0].samples_ms | length' "$tmp/n.json" || echo "$samples")
    if ! [ "$samples" -gt 5 ] 2>/dev/null || [ "$(field "$csv" 1 42)" != 2 ] || [ "$json_samples" != "$samples" ] ||
       { [ -e /dev/nvidiactl ] && ldconfig -p | grep -q libnvidia-ml.so.1 && ! [ "$(field "$csv" 1 32)" -gt 0 ] 2>/dev/null; }; then
        echo "FAIL: --min-time/--max-noise/--json: $samples samples (JSON $json_samples):"; sed 's/^/    /' "$csv"
        fails=$((fails + 1))
    fi
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

# --devices (issue 14): the same GPU twice takes the batches in two host threads and streams;
# every product is checked against GMP, and --output equals GMP's products.
csv="$tmp/d.csv"
run "mul --devices 0,0" mul --bits 1024 --count 1000 --batch 300 --reps 2 --csv "$csv" --devices 0,0 \
    --method sumrotate-shuffle,thread-comba &&
for row in 1 2; do
    checks=$((checks + 1))
    if [[ "$(field "$csv" $row 15)" != "words=32;batches=4;devices=0/0;pass_wall_ms="[0-9]* ]] || [ "$(field "$csv" $row 28)" != 1000 ] ||
       [ "$(field "$csv" $row 29)" != 0 ] || [ "$(grep -c "^#   .* on GPU 0 (thread [12]): [0-9]* products" "$tmp/out")" -ne 4 ]; then
        echo "FAIL: --devices 0,0 row $row: $(sed -n "$((row + 1))p" "$csv")"; sed 's/^/    /' "$tmp/out"; fails=$((fails + 1))
    fi
done
# A wrong product made on the second GPU (worker 1 of --devices 0,0; the test-only hook spoils the
# first product of each batch it ran, after the download) is caught: exit 1, naming a product
# at the start of a batch; the same hook aimed at a worker that does not exist changes nothing.
checks=$((checks + 1))
MPGPU_TEST_SPOIL=mul-worker:1 "$MPGPU" mul --bits 1024 --count 1000 --batch 300 --reps 1 --warmup 0 \
    --devices 0,0 --method thread-comba >"$tmp/out" 2>"$tmp/err"
st=$?
bad=$(sed -nE 's/.*differ from the reference; first bad product ([0-9]+)$/\1/p' "$tmp/err")
if [ "$st" -ne 1 ] || [ -z "$bad" ] || [ $((bad % 300)) -ne 0 ]; then
    echo "FAIL: a spoiled product of GPU worker 1: status $st, first bad '$bad'"; sed 's/^/    /' "$tmp/err"; fails=$((fails + 1))
fi
checks=$((checks + 1))
MPGPU_TEST_SPOIL=mul-worker:1 "$MPGPU" mul --bits 1024 --count 1000 --batch 300 --reps 1 --warmup 0 \
    --method thread-comba >"$tmp/out" 2>"$tmp/err" ||
    { echo "FAIL: the hook for worker 1 spoiled a run of one worker"; sed 's/^/    /' "$tmp/err"; fails=$((fails + 1)); }
run "mul --devices 0,0, an equal share each" mul --bits 2048 --count 1001 --devices 0,0 --reps 1 \
    --method thread-rowchain-karatsuba --csv "$tmp/e.csv" && {
    checks=$((checks + 1))
    [[ "$(field "$tmp/e.csv" 1 15)" == "words=64;batches=2;devices=0/0;pass_wall_ms="[0-9]* ]] && [ "$(field "$tmp/e.csv" 1 29)" = 0 ] ||
        { echo "FAIL: --devices 0,0 share: $(sed -n 2p "$tmp/e.csv")"; fails=$((fails + 1)); }
}
run "I/O mode, --devices 0,0" mul --input "$tmp/pairs.txt" --output "$tmp/dev.txt" --method thread-comba \
    --batch 7 --devices 0,0 --reps 1 && {
    checks=$((checks + 1))
    cmp -s "$tmp/gmp.txt" "$tmp/dev.txt" || { echo "FAIL: --output with --devices 0,0 differs from gmp"; fails=$((fails + 1)); }
}

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
   ! grep -q '^sumrotate-shuffle .* ok 500 .*;auto_bits=1024;auto_count=10240;devices=0;pass_wall_ms=[0-9.e+-]*$' "$tmp/out" ||
   ! grep -q ',mul,sumrotate-shuffle,1024,words=32;batches=1;auto_bits=1024;auto_count=10240;devices=0;pass_wall_ms=[0-9.e+-]*,500,' "$tmp/auto.csv"; then
    echo "FAIL: --method auto with another GPU's table"; sed 's/^/    /' "$tmp/err" "$tmp/out"; fails=$((fails + 1))
fi

# tune writes a table that --method auto reads only once MPGPU_TUNE_TABLE names it: it says so,
# with the table's absolute path, and auto then picks from that table.
mpgpu_abs=$(cd "$(dirname "$MPGPU")" && pwd)/$(basename "$MPGPU")
(cd "$tmp" && "$mpgpu_abs" tune --bits 64 --count 100 --method thread-comba --reps 1 --warmup 0 \
    --table t.csv >"$tmp/out" 2>"$tmp/err")
st=$?
checks=$((checks + 1))
if [ $st -ne 0 ] || ! grep -q "^mpgpu mul --method auto reads it with MPGPU_TUNE_TABLE=$tmp/t.csv (else" "$tmp/out" ||
   ! MPGPU_TUNE_TABLE="$tmp/t.csv" "$MPGPU" mul --method auto --bits 64 --count 100 --reps 1 >"$tmp/out" 2>"$tmp/err" ||
   ! grep -q '^thread-comba .* ok 100 .*;auto_bits=64;auto_count=100;' "$tmp/out"; then
    echo "FAIL: tune, then --method auto with its table (status $st)"; sed 's/^/    /' "$tmp/err" "$tmp/out"
    fails=$((fails + 1))
fi

# --devices (issue 14) on one GPU: the same GPU named twice runs two host threads and streams that
# take the segments in turns, so the in-order merge is exercised; totals, overflows (settled by
# GMP) and records must be those of the one-GPU run. Segments are 2^44 (collatz) and 2^34 (delay)
# numbers; the starts are not aligned, so the first and last segments are partial. These ranges
# are checked against each other only (--verify none): the CPU twin would take hours to redo a
# whole segment of them (issue 36 checks the segments themselves, below).
devtotals() { grep -E '^# ' "$1" | grep -vE '^# (mpgpu|GPU)|^#   GPU ' | sed 's/ in [0-9.]* ms per pass//'; }
# same_as_one NAME ARGS...: the run with --devices 0,0 prints the totals of the default run.
same_as_one() {
    local what=$1
    shift
    rm -f "$tmp/dev.csv"
    run "$what, one GPU" "$@" && cp "$tmp/out" "$tmp/one" &&
    run "$what, --devices 0,0" "$@" --devices 0,0 --csv "$tmp/dev.csv" && {
        checks=$((checks + 1))
        if ! diff <(devtotals "$tmp/one") <(devtotals "$tmp/out") >"$tmp/diff"; then
            echo "FAIL: $what: --devices 0,0 gives other totals than one GPU:"; sed 's/^/    /' "$tmp/diff"
            fails=$((fails + 1))
        fi
        checks=$((checks + 1))
        if [ "$(grep -c '^#   GPU 0 (thread [12]): ' "$tmp/out")" -ne 2 ] ||
           [[ "$(field "$tmp/dev.csv" 1 15)" != *";devices=0/0" ]]; then
            echo "FAIL: $what: no rate per thread or no devices=0/0 in the CSV row"; sed 's/^/    /' "$tmp/out" "$tmp/dev.csv"
            fails=$((fails + 1))
        fi
    }
}
C="collatz --start 4611694814520410112 --count 2^46 --s-bits 32 --reps 1 --warmup 0 --verify none"
same_as_one "collatz, 2^46 from 2^62 + 2^43" $C
cp "$tmp/one" "$tmp/c_one"
checks=$((checks + 1))
grep -qE '; [1-9][0-9]* overflowed 96 bits' "$tmp/one" ||
    { echo "FAIL: the collatz range of --devices had no overflows:"; sed 's/^/    /' "$tmp/one"; fails=$((fails + 1)); }
# --devices all: every GPU of the machine (on a machine of one GPU, that one), the same totals.
gpus=$(nvidia-smi -L | grep -c '^GPU ')
all_ids=$(seq -s/ 0 $((gpus - 1)))
rm -f "$tmp/all.csv"
run "collatz --devices all" $C --devices all --csv "$tmp/all.csv" && {
    checks=$((checks + 1))
    diff <(devtotals "$tmp/c_one") <(devtotals "$tmp/out") >"$tmp/diff" && [[ "$(field "$tmp/all.csv" 1 15)" == *";devices=$all_ids" ]] ||
        { echo "FAIL: --devices all ($gpus GPUs) gives other totals than one GPU, or not devices=$all_ids:"; sed 's/^/    /' "$tmp/diff" "$tmp/all.csv"; fails=$((fails + 1)); }
}
same_as_one "delay --records, the last 2^36 below 2^64" delay --start 18446744004990074880 --end 2^64 --records --reps 1 --warmup 0 \
    --verify none
same_as_one "delay --records from 1" delay --start 1 --end 2^36 --records --reps 1 --warmup 0 --verify none

# A checkpointed --devices 0,0 run, stopped by Ctrl-C and resumed, ends with the totals of an
# unbroken one.
K="$C --devices 0,0 --checkpoint $tmp/dev.ckpt"
"$MPGPU" $K >/dev/null 2>"$tmp/kerr" &
pid=$!
sleep 4
kill -INT "$pid" 2>/dev/null
wait "$pid"
st=$?
checks=$((checks + 1))
if [ "$st" -eq 130 ]; then
    grep -qE "interrupted(; finished exactly \[4611694814520410112, | before the first segment finished)" "$tmp/kerr" ||
        { echo "FAIL: --devices 0,0 Ctrl-C does not name the finished prefix"; sed 's/^/    /' "$tmp/kerr"; fails=$((fails + 1)); }
    run "--devices 0,0 resumed" $K && {
        checks=$((checks + 1))
        diff <(devtotals "$tmp/c_one" | grep -v ' row(s): ') \
             <(devtotals "$tmp/out" | grep -v ' row(s): ' | sed 's/ (resumed from --checkpoint)//') >"$tmp/diff" ||
            { echo "FAIL: --devices 0,0 resumed totals differ from one GPU's:"; sed 's/^/    /' "$tmp/diff"; fails=$((fails + 1)); }
    }
elif [ "$st" -ne 0 ]; then
    echo "FAIL: --devices 0,0 --checkpoint run: status $st"; sed 's/^/    /' "$tmp/kerr"; fails=$((fails + 1))
fi
# fixed's layout options take lists (issue 36, fault 14): every combination, the last option
# varying fastest.
csv="$tmp/fx.csv"
run "fixed --mem local,global --operands separate,interleaved" fixed --bits 109 --op add \
    --mem local,global --operands separate,interleaved --count 1000 --reps 1 --warmup 0 --csv "$csv" && {
    checks=$((checks + 1))
    got=$(for row in 1 2 3 4; do p=$(field "$csv" $row 15); m=${p#*;mem=}; o=${p#*;operands=}; \
          echo -n "${m%%;*}/${o%%;*}/$(field "$csv" $row 29) "; done)
    [ "$got" = "local/separate/0 local/interleaved/0 global/separate/0 global/interleaved/0 " ] ||
        { echo "FAIL: fixed layout list rows (mem/operands/mismatches): $got"; fails=$((fails + 1)); }
}
# --method selects what runs in every subcommand, by the names the rows carry: fixed's (op,
# impl) pairs, not their every pairing; toom's Toom-k, its Comba line and GMP.
csv="$tmp/fm.csv"
run "fixed --method montmul-ptx,powm-fp64" fixed --bits 256 --method powm-fp64,montmul-ptx \
    --count 300 --reps 1 --warmup 0 --csv "$csv" && {
    checks=$((checks + 1))
    got=$(for row in 1 2 3; do echo -n "$(field "$csv" $row 13)/$(field "$csv" $row 29) "; done)
    [ "$got" = "montmul-ptx/0 powm-fp64/0 / " ] ||
        { echo "FAIL: fixed --method rows (method/mismatches): $got"; fails=$((fails + 1)); }
}
csv="$tmp/tm.csv"
run "toom --method toom-3,gmp,sumrotate-shuffle" toom --bits 1024 --method toom-3,gmp,sumrotate-shuffle \
    --count 300 --reps 1 --warmup 0 --csv "$csv" && {
    checks=$((checks + 1))
    got=$(for row in 1 2 3 4; do echo -n "$(field "$csv" $row 13)/$(field "$csv" $row 29) "; done)
    [ "$got" = "sumrotate-shuffle/0 toom-3/0 gmp/0 / " ] ||
        { echo "FAIL: toom --method rows (method/mismatches): $got"; fails=$((fails + 1)); }
}
# The check of the timed pass itself (issue 36): each segment a GPU computed is recomputed by the
# CPU twin and compared, a spread sample of them (at least one of each worker) or all. Each range
# has two short segments, one each side of a multiple of the segment size, so that with
# --devices 0,0 each thread takes one (the other starts long before the first segment is done).
# The totals are the CPU twin's over the same range (computed at 9c13ca9, 3 overflows for
# collatz). A segment spoiled by the test hook, as a faulty GPU would, fails the run (exit 1),
# named with its range and thread; without the hook the row checks both and the summary names
# both threads.
# check_run NAME SPOIL WANT_STATUS WANT_STDERR_LINE ARGS...: SPOIL is MPGPU_TEST_SPOIL ('' none).
check_run() {
    local what=$1 spoil=$2 want=$3 line=$4
    shift 4
    checks=$((checks + 1))
    rm -f "$tmp/chk.csv"
    MPGPU_TEST_SPOIL=$spoil "$MPGPU" "$@" --csv "$tmp/chk.csv" >"$tmp/out" 2>"$tmp/err"
    local st=$?
    if [ "$st" -ne "$want" ] || { [ -n "$line" ] && ! grep -qxE "$line" "$tmp/err"; }; then
        echo "FAIL: $what: status $st (want $want), stderr lacks a line '$line':"; sed 's/^/    /' "$tmp/err" "$tmp/out"
        fails=$((fails + 1))
        return 1
    fi
}
CC="collatz --start 18446726447163768832 --count 2^36 --s-bits 32 --reps 1 --warmup 0 --devices 0,0"
check_run "collatz --devices 0,0, both segments checked" "" 0 "" $CC && {
    checks=$((checks + 1))
    [ "$(field "$tmp/chk.csv" 1 27),$(field "$tmp/chk.csv" 1 28),$(field "$tmp/chk.csv" 1 29)" = sample,2,0 ] &&
        [[ "$(field "$tmp/chk.csv" 1 15)" == *";mandatory=661559728;steps=1561152973;overflows=3;"* ]] &&
        grep -qx '#   checked chunks: GPU 0 (thread 1): 1 of 1, GPU 0 (thread 2): 1 of 1' "$tmp/out" ||
        { echo "FAIL: collatz check of both segments:"; sed 's/^/    /' "$tmp/out" "$tmp/chk.csv"; fails=$((fails + 1)); }
}
check_run "collatz, the first segment spoiled" collatz-chunk:0 1 \
    'mpgpu: collatz gpu: 1 of 2 checked chunks differ from the reference; first bad chunk \[18446726447163768832, 18446726481523507199\] on GPU 0 \(thread [12]\)' $CC
check_run "collatz, the last segment spoiled" collatz-chunk:1 1 \
    'mpgpu: collatz gpu: 1 of 2 checked chunks differ from the reference; first bad chunk \[18446726481523507200, 18446726515883245567\] on GPU 0 \(thread [12]\)' $CC
CD="delay --start 18446744056462573568 --count 2^27 --records --reps 1 --warmup 0 --devices 0,0"
check_run "delay --records --devices 0,0, both segments checked" "" 0 "" $CD && {
    checks=$((checks + 1))
    [ "$(field "$tmp/chk.csv" 1 27),$(field "$tmp/chk.csv" 1 28),$(field "$tmp/chk.csv" 1 29)" = sample,2,0 ] &&
        [[ "$(field "$tmp/chk.csv" 1 15)" == *";sum=61753694477;max=1398;argmax=18446744056500738843;overflows=0;"*";records=7;"* ]] &&
        grep -qx '#   checked chunks: GPU 0 (thread 1): 1 of 1, GPU 0 (thread 2): 1 of 1' "$tmp/out" ||
        { echo "FAIL: delay check of both segments:"; sed 's/^/    /' "$tmp/out" "$tmp/chk.csv"; fails=$((fails + 1)); }
}
check_run "delay, the last segment spoiled" delay-chunk:1 1 \
    'mpgpu: delay gpu: 1 of 2 checked chunks differ from the reference; first bad chunk \[18446744056529682432, 18446744056596791295\] on GPU 0 \(thread [12]\)' $CD
# One GPU, --verify all: every segment, on the one thread.
check_run "delay --verify all on one GPU" "" 0 "" ${CD% --devices 0,0} --verify all && {
    checks=$((checks + 1))
    [ "$(field "$tmp/chk.csv" 1 27),$(field "$tmp/chk.csv" 1 28),$(field "$tmp/chk.csv" 1 29)" = all,2,0 ] &&
        grep -qx '#   checked chunks: GPU 0 (thread 1): 2 of 2' "$tmp/out" ||
        { echo "FAIL: delay --verify all on one GPU:"; sed 's/^/    /' "$tmp/out" "$tmp/chk.csv"; fails=$((fails + 1)); }
}

# An index past the last GPU is refused before any work.
checks=$((checks + 1))
"$MPGPU" collatz --devices 0,1023 --count 1000 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^mpgpu: --devices 0,1023: there is no GPU 1023; accepted: 0\.\." "$tmp/err" ||
    { echo "FAIL: --devices 0,1023"; sed 's/^/    /' "$tmp/err"; fails=$((fails + 1)); }
# So is a --device past the last GPU, in every subcommand that has --device (issue 36, fault 10:
# mul ran GMP instead).
for run_args in "mul --device 1023" "mul --devices 1023" "toom --device 1023" \
                "tune --bits 64 --count 1 --device 1023" "gcd --device 1023" "fixed --device 1023" \
                "ctt-vs-ctw --device 1023" "collatz --count 1000 --device 1023" \
                "delay --count 1000 --device 1023"; do
    checks=$((checks + 1))
    "$MPGPU" $run_args >/dev/null 2>"$tmp/err" </dev/null
    st=$?
    # The last line: gcd reports its moduli first.
    [ $st -eq 2 ] &&
        tail -1 "$tmp/err" | grep -qE "^mpgpu: --devices? 1023: there is no GPU 1023; accepted: 0\.\.[0-9]+$" ||
        { echo "FAIL: $run_args: status $st"; sed 's/^/    /' "$tmp/err"; fails=$((fails + 1)); }
done

source "$(dirname "$0")/cli_expect.sh" --finish-only
finish cli_gpu
