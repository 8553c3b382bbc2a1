#!/usr/bin/env bash
# cpu suite: faults of issue 36 (part 2) in how a run is chosen and carried out: --device and
# --devices alike when there is no GPU (10, checked on a host without one), the options that
# select what runs taking comma lists (14), and long phases that announce themselves and stop on
# Ctrl-C (4).
source "$(dirname "$0")/cli_expect.sh" "$@"

# status ARGS...: the exit status of mpgpu ARGS (stdout in $tmp/out, stderr in $tmp/err).
status() {
    "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    echo $?
}

# expect_status WANT NAME ARGS...: mpgpu ARGS exits WANT.
expect_status() {
    local want=$1 name=$2
    shift 2
    local got
    got=$(status "$@")
    check "$name: exit $got (want $want)" [ "$got" -eq "$want" ]
}

# rows METHOD: the table rows of METHOD in $tmp/out.
rows() { grep -c "^$1 " "$tmp/out"; }

# Items 10 and 14's fixed part are about a host without a GPU; on a GPU host the gpu suite
# (cli_gpu) checks --device past the last GPU and fixed's list rows instead.
"$MPGPU" mul --method thread-comba --count 1 --reps 1 --warmup 0 --quiet 2>"$tmp/err"
if [ $? -eq 3 ] && grep -q "no CUDA-capable GPU" "$tmp/err"; then gpu=no; else gpu=yes; fi

# --- 10: without a GPU, --devices is as --device: GPU methods skipped, the GMP baseline runs
quick=(--count 16 --reps 1 --warmup 0)
[ "$gpu" = no ] && for dev in "--device 3" "--devices all" "--devices 0,3"; do
    # shellcheck disable=SC2086
    expect_status 0 "mul $dev (default methods)" mul $dev "${quick[@]}"
    check "mul $dev: one gmp row" [ "$(rows gmp)" -eq 1 ]
    check "mul $dev: says the GMP baseline runs" grep -q "running the GMP baseline only" "$tmp/err"
    # GPU methods named: exit 3, after the GMP baseline when it was named too.
    # shellcheck disable=SC2086
    expect_status 3 "mul $dev with a named GPU method and gmp" mul $dev --method thread-comba,gmp "${quick[@]}"
    check "mul $dev --method thread-comba,gmp: one gmp row" [ "$(rows gmp)" -eq 1 ]
    # shellcheck disable=SC2086
    expect_status 3 "mul $dev with a named GPU method" mul $dev --method thread-comba "${quick[@]}"
done

# --- 14: every option that selects what runs takes a comma list (and repeats); the cases are
# every combination, in the order the help states.
# params ROW: the params column (the last) of table row ROW of $tmp/out.
params() { grep -v '^#' "$tmp/out" | sed -n "$(($1 + 1))p" | awk '{ print $NF }'; }
# method ROW: the method column of table row ROW.
method() { grep -v '^#' "$tmp/out" | sed -n "$(($1 + 1))p" | awk '{ print $1 }'; }
ctt_quick=(--count 50 --method gmp,cpu-port --reps 1 --warmup 0)
for ops in "--op qdiv,mul" "--op qdiv --op mul"; do
    # shellcheck disable=SC2086
    expect_status 0 "ctt-vs-ctw $ops" ctt-vs-ctw $ops --words 2,3 "${ctt_quick[@]}"
    want="mul:2:cpu-port mul:2:gmp mul:3:cpu-port mul:3:gmp qdiv:2:cpu-port qdiv:2:gmp qdiv:3:cpu-port qdiv:3:gmp"
    got=""
    for row in 1 2 3 4 5 6 7 8; do
        p=$(params $row)
        op=${p#op=}
        op=${op%%;*}
        words=${p#*;words=}
        words=${words%%;*}
        got="$got $op:$words:$(method $row)"
    done
    check "ctt-vs-ctw $ops: cases by op, then --words, then method: got$got" [ "${got# }" = "$want" ]
    check "ctt-vs-ctw $ops: every cpu-port result checked" [ "$(grep -c ' ok 50 ' "$tmp/out")" -eq 4 ]
done
expect_fail 2 "--op 'mul,,qdiv' is not accepted: it has an empty item" -- ctt-vs-ctw --op mul,,qdiv
expect_fail 2 "--op 'div' is not accepted; accepted: add, sub, mul, qadd, qsub, qmul, qdiv" -- ctt-vs-ctw --op mul,div
expect_fail 2 "--reduce applies to the rational operations qadd, qsub, qmul and qdiv; --op add is an integer operation" \
    -- ctt-vs-ctw --op qadd,add --reduce --method gmp
expect_ok "--op OP[,OP...]" -- ctt-vs-ctw --help
# fixed runs on the GPU only: a list is accepted when the run gets as far as looking for one.
[ "$gpu" = no ] && for variants in "--mem local,global" "--mem local --mem global" "--operands separate,interleaved" \
                "--word-order contiguous,coalesced" "--impl ptx,c --op add,mul --bits 109,256"; do
    # shellcheck disable=SC2086
    expect_fail 3 "fixed runs on the GPU only" -- fixed $variants --count 10
done
expect_fail 2 "--mem 'local,,global' is not accepted: it has an empty item" -- fixed --mem local,,global
expect_fail 2 "--mem 'shared' is not accepted; accepted: local, global, all (a comma list)" -- fixed --mem local,shared
expect_fail 2 "--word-order 'rows' is not accepted; accepted: contiguous, coalesced" -- fixed --word-order rows
for help in "--mem local|global[,...]" "--operands separate|interleaved[,...]" \
            "--word-order contiguous|coalesced[,...]" "every combination runs"; do
    expect_ok "$help" -- fixed --help
done

# --- 4: a long phase says what it does and how long it will take, and stops within about a
# second of Ctrl-C (exit 130, saying so).
# A CPU pass of ~50 s (schoolbook products of 8192 words on one thread): announced with its
# estimate once its rate is measured (after 1 s), then stopped part-way.
ctt_port=(ctt-vs-ctw --method cpu-port --words 8192 --count 512 --reps 1 --warmup 0)
stop_run "ctt-vs-ctw cpu-port pass" sigint 5 \
    "^mpgpu: ctt-vs-ctw cpu-port, mul at 8192 words: pass 1: about [0-9:]+ more" "${ctt_port[@]}"
# With --quiet no progress, and still Ctrl-C.
stop_run "ctt-vs-ctw cpu-port pass --quiet" sigint 1 "" "${ctt_port[@]}" --quiet
check "ctt-vs-ctw --quiet: nothing on stderr but the interruption" \
    [ "$(grep -v "interrupted" "$tmp/log" | grep -c .)" -eq 0 ]
# collatz's first estimate is that of a warm-up pass: it names the passes to come (it read as the
# whole run's, 12 times too short).
timeout -k 10 -s INT 5 "$MPGPU" collatz --method cpu --start 2^62 --count 2^40 >/dev/null 2>"$tmp/log"
check "collatz: the first estimate names the passes to come" \
    grep -qE "^mpgpu: collatz cpu warm-up 1 of 2, then 10 passes: about [0-9:]+ more" "$tmp/log"
# gcd's GMP baseline at sizes where a pair takes GMP a while: the pass is predicted before it
# starts (its first pair passed in silence, and a pair of 2^30 bits takes minutes), then stopped
# between pairs.
stop_run "gcd gmp pass" sigint 20 \
    "^mpgpu: gcd gmp at 4194304 bits: about [0-9:]+ a pass of 64 pairs, 1 pass or more \\(predicted" \
    gcd --method gmp --bits 2^22 --count 64 --reps 1 --warmup 0
if command -v script >/dev/null; then
    # Converting the batch for GMP (issue 36: 40-90 s at 2^26, deaf to Ctrl-C): Ctrl-C during
    # it. (Whether the shorter phases before it draw a bar depends on how fast this host is, so
    # it is not asserted.)
    stop_run "ctt-vs-ctw gmp setup" ctrl-c 20 "converting the batch to GMP values \\[" \
        ctt-vs-ctw --method gmp --count 2^23 --words 2 --reps 1 --warmup 0
    # mul's GMP baseline: Ctrl-C in the pass (seconds here).
    stop_run "mul gmp pass" ctrl-c 20 "gmp at 65536 bits: pass 1 \\[" \
        mul --method gmp --bits 65536 --count 2^14 --reps 1 --warmup 0
else
    echo "note: no 'script' here: Ctrl-C on a terminal not tested"
fi

# --- Bad input is one line and exit 2 whatever the methods and whether there is a GPU: the
# outputs are opened, and the range checked, before "no GPU" is said (on a host without one,
# mul, toom, ctt-vs-ctw, collatz and delay said it first, and toom --csv BAD exited 3).
bad_csv=/nonexistent/dir/r.csv
csv_needle="--csv '$bad_csv' cannot be opened for appending"
for args in "mul" "mul --method thread-comba" "mul --method thread-comba,gmp" "toom --bits 1024" \
    "toom --bits 1024 --method toom-3" "ctt-vs-ctw" "ctt-vs-ctw --method ctt" "collatz" "delay" \
    "gcd" "tune --bits 64 --table $tmp/tune.csv" "fixed --bits 256"; do
    # shellcheck disable=SC2086
    expect_fail 2 "$csv_needle" -- $args --csv "$bad_csv"
done
printf '15\n21\n' >"$tmp/moduli.txt"
for method in tree-cpu tree-gpu pairs-gpu; do
    expect_fail 2 "$csv_needle" -- gcd --shared-factors "$tmp/moduli.txt" --method $method --csv "$bad_csv"
done
expect_fail 2 "--json '/nonexistent/dir/r.json'" -- mul --json /nonexistent/dir/r.json
expect_fail 2 "--output '/nonexistent/dir/p.txt' cannot be opened for writing" -- \
    mul --bits 64 --count 10 --output /nonexistent/dir/p.txt
for sub in collatz delay; do
    expect_fail 2 "--device chooses the GPU, but --method cpu runs none; give --method gpu or all" -- \
        $sub --method cpu --device 0
    for method in "" "--method gpu"; do
        # shellcheck disable=SC2086
        expect_fail 2 "--end 5 is not above --start 9" -- $sub $method --start 9 --end 5
        # shellcheck disable=SC2086
        expect_fail 2 "--checkpoint /nonexistent/dir/ck cannot be written" -- \
            $sub $method --checkpoint /nonexistent/dir/ck
    done
    expect_fail 2 "$csv_needle" -- $sub --method gpu --csv "$bad_csv"
done

# --- Options a run would drop, refused (a fourth audit as a new user): --seed where nothing is
# drawn, fixed's modulus options with ops that take none, gcd's --include-launch where every
# method times its launches anyway, --reps and its kin with a checkpoint's one pass, and --plant
# none beside kinds.
expect_fail 2 "--seed draws the start of the range; it does not apply with --start" -- \
    collatz --method cpu --start 2^40 --count 16 --seed 7
expect_fail 2 "--seed draws the start of the range; it does not apply with --start" -- \
    delay --method cpu --start 2^40 --count 16 --seed 7
printf '15\n21\n35\n' >"$tmp/m3.txt"
expect_fail 2 "--seed is not accepted with --shared-factors, which reads its moduli and draws nothing" -- \
    gcd --shared-factors "$tmp/m3.txt" --seed 3
expect_fail 2 "--seed draws random operands; it does not apply to --input" -- \
    fixed --op add --bits 256 --input "$tmp/m3.txt" --seed 5
expect_fail 2 "--modulus is not accepted with --op add,mul, which take no modulus" -- fixed --op add,mul --modulus 5
expect_fail 2 "--moduli is not accepted with --op add, which takes no modulus" -- fixed --op add --moduli per-element
expect_fail 2 "--include-launch is not accepted with --method gpu,lehmer, whose times hold their launches always" -- \
    gcd --method gpu,lehmer --include-launch --bits 64 --count 4
expect_fail 2 "--include-launch is not accepted with the default methods (gpu, kary, lehmer, gmp)" -- \
    gcd --include-launch --bits 64 --count 4
for opt in "--reps 5" "--warmup 1" "--min-time 1" "--max-noise 2"; do
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --checkpoint, whose run is one pass" -- \
        delay --method cpu --count 16 --checkpoint "$tmp/d.ckpt" $opt
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --checkpoint, whose run is one pass" -- \
        gcd --shared-factors "$tmp/m3.txt" --method pairs-gpu --checkpoint "$tmp/g.ckpt" $opt
done
check "no checkpoint made by a refused run" [ ! -e "$tmp/d.ckpt" -a ! -e "$tmp/g.ckpt" ]
expect_fail 2 "--plant 'none,shared' names none and kinds to plant; accepted: none alone, or kinds" -- \
    gcd --make-moduli 10 --plant none,shared --output "$tmp/mm.txt"
# --min-time and --max-noise apply to gcd --shared-factors (its one pass took them and dropped them);
# a second is well past its first pass (milliseconds; 50 ms on a loaded host with its threads starting).
"$MPGPU" gcd --shared-factors "$tmp/m3.txt" --min-time 1 --csv "$tmp/sf.csv" --quiet 2>"$tmp/err"
samples=$(awk -F, 'NR == 2 { print $31 }' "$tmp/sf.csv")
check "gcd --shared-factors --min-time 1: more than one pass ($samples samples)" [ "${samples:-0}" -gt 1 ]

finish cli_run_faults
