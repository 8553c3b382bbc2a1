#!/usr/bin/env bash
# cpu suite: the command line of `mpgpu collatz` and `mpgpu delay`. Bad input gets exit status 2
# and one line on stderr naming the offending value; --tables, the CSV row, checkpoint/resume
# (an extended range gives the totals of an unbroken run) and Ctrl-C are checked on the CPU twin,
# so no GPU is needed.
source "$(dirname "$0")/cli_expect.sh" "$@"

CPU="--method cpu --reps 1 --warmup 0"

# --- help names every option
expect_ok "collatz" -- --help
expect_ok "delay" -- --help
for opt in --start --count --end --bc-bits --s-bits --table-memory --first-step --interleave --checkpoint --tables \
           --devices --method --reps --warmup --seed --device --threads --csv --verify --quiet; do
    expect_ok "$opt" -- collatz --help
done
for opt in --start --count --end --bc-bits --a-bits --table-memory --interleave --records --record-floor --checkpoint \
           --devices --method --reps --warmup --seed --device --threads --csv --verify --quiet; do
    expect_ok "$opt" -- delay --help
done

# --- bad input
for sub in collatz delay; do
    expect_fail 2 "--bc-bits 0 is out of range; accepted: 1..20" -- $sub --bc-bits 0
    expect_fail 2 "--bc-bits 21 is out of range; accepted: 1..20" -- $sub --bc-bits 21
    expect_fail 2 "--start 0 is out of range" -- $sub --start 0
    expect_fail 2 "--start 'abc' is not a number" -- $sub --start abc
    expect_fail 2 "--count 0 is out of range" -- $sub --count 0
    expect_fail 2 "runs past 2^64" -- $sub $CPU --start 18446744073709551000 --count 1000
    expect_fail 2 "runs past 2^64" -- $sub $CPU --start 9223372036854775809 --count 2^63
    expect_fail 2 "--count and --end both" -- $sub $CPU --start 5 --count 10 --end 100
    expect_fail 2 "--end 5 is not above --start 9" -- $sub $CPU --start 9 --end 5
    expect_fail 2 "--end 2^65 is out of range; accepted: 2..2^64" -- $sub --end 2^65
    expect_fail 2 "--end 18446744073709551617 is out of range; accepted: 2..2^64" -- $sub --end 18446744073709551617
    expect_fail 2 "--start 2^64 is out of range; accepted: 1..2^64-1" -- $sub --start 2^64
    expect_fail 2 "--count 99999999999999999999999 is out of range; accepted: 1..2^64-1" -- $sub --count 99999999999999999999999
    expect_fail 2 "--method 'gpu,,cpu' is not accepted: it has an empty item" -- $sub --method gpu,,cpu
    expect_fail 2 "--checkpoint $tmp is a directory" -- $sub $CPU --count 2^20 --checkpoint "$tmp"
    expect_fail 2 "--checkpoint $tmp/no/such/dir/x.ckpt cannot be written: No such file or directory" -- $sub $CPU --count 2^20 --checkpoint "$tmp/no/such/dir/x.ckpt"
    expect_fail 2 "cannot be written: File name too long" -- $sub $CPU --count 2^20 --checkpoint "$tmp/$(printf 'x%.0s' {1..300})"
    # An empty path is refused before any work (it used to run, then fail at the first save).
    expect_fail 2 "--checkpoint '' is not accepted: it is empty; accepted: the path of a file" -- $sub $CPU --count 2^20 --checkpoint ''
    expect_fail 2 "--table-memory 'texture' is not a place; accepted: shared, global" -- $sub --table-memory texture
    expect_fail 2 "unknown method 'fpga'; accepted: gpu, cpu, all" -- $sub --method fpga
    expect_fail 2 "unknown option '--frob'" -- $sub --frob
    expect_fail 2 "needs a value" -- $sub --start
    expect_fail 2 "--checkpoint follows one run" -- $sub --method all --checkpoint "$tmp/x.ckpt"
    expect_fail 2 "--interleave 3 is out of range; accepted: 1..2" -- $sub --interleave 3
    # --devices (issue 14): refused before any work, GPU or not.
    expect_fail 2 "--devices '0,,1' is not accepted: it has an empty item" -- $sub --devices 0,,1
    expect_fail 2 "--devices '0,' is not accepted: it has an empty item" -- $sub --devices 0,
    expect_fail 2 "--devices '' is not accepted: it is empty" -- $sub --devices ''
    expect_fail 2 "--devices '0,gpu1': 'gpu1' is not a device index; accepted: all, or a comma list of device indices 0..1023" -- $sub --devices 0,gpu1
    expect_fail 2 "--devices 'all,0': 'all' is not a device index" -- $sub --devices all,0
    expect_fail 2 "--devices '-1': '-1' is not a device index" -- $sub --devices -1
    expect_fail 2 "--devices '1024': 1024 is out of range" -- $sub --devices 1024
    expect_fail 2 "names more than 64 devices" -- $sub --devices "$(seq -s, 0 64)"
    expect_fail 2 "--devices chooses GPUs, but --method cpu runs none" -- $sub --method cpu --devices all --count 1000
    expect_fail 2 "--device and --devices both choose the GPU; give one" -- $sub --device 1 --devices 0,0 --count 1000
done
expect_fail 2 "--s-bits 41 is out of range; accepted: 0..40" -- collatz --s-bits 41
expect_fail 2 "--first-step 'leap' is not a first step; accepted: jump, table" -- collatz --first-step leap
expect_fail 2 "--a-bits 9 must exceed --bc-bits 9" -- delay --a-bits 9 --bc-bits 9
# ... also against the gpu method's default --a-bits, before the GPU is sought (without one it
# exited 3; with one it named an --a-bits never given).
for named in "--method gpu" "--method all" "--devices 0"; do
    # shellcheck disable=SC2086
    expect_fail 2 "--bc-bits 20 is not below --a-bits, whose default for the gpu method is 20" -- \
        delay $named --bc-bits 20 --count 16
done
expect_fail 2 "--a-bits 33 is out of range" -- delay --a-bits 33
expect_fail 2 "--record-floor 'x' is not a number" -- delay --record-floor x
# Without --records there is no record to floor (it was taken and dropped).
expect_fail 2 "--record-floor applies to --records" -- delay --method cpu --record-floor 500 --count 16

# Tables that exceed the host's memory are refused, naming the bytes (S for 39 bits: 28.9 GB, for
# 40 bits: 51.2 GB). Only where the machine is small enough for the refusal to be certain.
avail=$(awk '/MemAvailable/ {printf "%.0f", $2 * 1024}' /proc/meminfo)
if [ "$avail" -lt 28000000000 ]; then
    expect_fail 2 "table S (3611535862 residues, 26.91 GiB) needs" -- collatz $CPU --s-bits 39 --count 1000
elif [ "$avail" -lt 50000000000 ]; then
    expect_fail 2 "table S (6402835000 residues, 47.70 GiB) needs" -- collatz $CPU --s-bits 40 --count 1000
fi

# Without a GPU: an explicit gpu method is an error; the default falls back to the CPU twin.
if ! nvidia-smi >/dev/null 2>&1; then
    expect_fail 3 "no CUDA-capable GPU" -- collatz --method gpu --count 1000
    expect_fail 3 "no CUDA-capable GPU" -- delay --method gpu --count 1000
    # GPUs named by --devices are asked for, as a named gpu method is: no fallback to the CPU.
    expect_fail 3 "no CUDA-capable GPU" -- collatz --devices 0,0 --count 1000
    expect_fail 3 "no CUDA-capable GPU" -- delay --devices all --count 1000
    # ... as are the options of the gpu method's kernel (the CPU twin dropped them, exit 0).
    expect_fail 3 "the gpu method cannot run" -- collatz --interleave 2 --count 1000
    expect_fail 3 "the gpu method cannot run" -- delay --table-memory global --count 1000
    checks=$((checks + 1))
    if ! "$MPGPU" collatz --start 2^40 --count 2^20 --s-bits 16 --reps 1 --warmup 0 >"$tmp/out" 2>"$tmp/err" ||
        ! grep -q "running the CPU twin" "$tmp/err" || ! grep -q '^cpu ' "$tmp/out"; then
        echo "FAIL: collatz without a GPU does not fall back to the CPU twin"; sed 's/^/    /' "$tmp/err"
        fails=$((fails + 1))
    fi
    # gpu named beside cpu: the cpu method runs, then exit 3, as mul's GMP baseline (it exited 3
    # with no row).
    for args in "collatz --method gpu,cpu --s-bits 8" "delay --method all" "collatz --method cpu,gpu --devices 0 --s-bits 8"; do
        checks=$((checks + 1))
        # shellcheck disable=SC2086
        "$MPGPU" $args --count 2^12 --reps 1 --warmup 0 >"$tmp/out" 2>"$tmp/err"; st=$?
        if [ "$st" -ne 3 ] || [ "$(grep -c '^cpu ' "$tmp/out")" -ne 1 ] ||
            ! grep -q "; the gpu method cannot run, running the cpu method only$" "$tmp/err"; then
            echo "FAIL: $args without a GPU: status $st (want 3), a cpu row and the line:"
            sed 's/^/    /' "$tmp/out" "$tmp/err"; fails=$((fails + 1))
        fi
    done
fi

# Options --tables would not use are refused (--csv made no file, without a word), and the gpu
# method's kernel options with --method cpu alone (the row said interleave=1, memory=host).
expect_fail 2 "--csv is not accepted with --tables" -- collatz --tables --csv "$tmp/t.csv"
expect_fail 2 "--count is not accepted with --tables" -- collatz --tables --count 10
expect_fail 2 "--interleave is not accepted with --method cpu" -- collatz --method cpu --interleave 2
expect_fail 2 "--table-memory is not accepted with --method cpu" -- delay --method cpu --table-memory global

# --- --tables: Table 4.1 exactly; Table 4.3 agrees up to 33 bits and flags the paper's 34.
expect_ok "(0000)_2     1     0 0111     |     1     0 0111" -- collatz --tables --s-bits 20
checks=$((checks + 1))
if grep -q DIFFERS "$tmp/out"; then
    echo "FAIL: --tables --s-bits 20 reports a difference from the paper:"; grep DIFFERS "$tmp/out" | sed 's/^/    /'
    fails=$((fails + 1))
fi
expect_ok "151917636" -- collatz --tables --s-bits 34
check "--tables flags |S_34| (paper 151917639)" grep -q "^34 .*151917639.*DIFFERS" "$tmp/out"

# --tables counts S up to 40 bits in one search (8 s on 2 cores, 16 s on one): it says how long
# once its first second measures its rate, and SIGTERM stops it within 2 s with Tables 4.1 and
# 4.2 kept (it ran deaf to signals for 12 s, ended by the second with status 143).
stop_run "collatz --tables, one thread" sigterm 10 \
    "^mpgpu: collatz --tables: counting table S up to 40 bits: about [0-9:]+ more" collatz --tables --threads 1
check "collatz --tables stopped: Tables 4.1 and 4.2 kept" grep -q "^Table 4.2" "$tmp/out"
check "collatz --tables stopped: says Table 4.3 was not counted" grep -q "Table 4.3 was not counted" "$tmp/log"
# Table A of delay: its build says how long once its first second measures its rate (a build of
# 2^20 entries scaled up said 1:05 or 11:33 where 2^32 took 2:01) and stops at Ctrl-C within 2 s
# (it finished the build first, minutes). 2^31 entries (4 GiB) take about 25 s on 2 cores; larger
# hosts get 2^32 (8 GiB). The waits allow for a host busy with other tests.
a_bits=$(( $(nproc) <= 4 ? 31 : 32 ))
stop_run "delay table A of 2^$a_bits" sigint 20 \
    "^mpgpu: delay: building table A of 2\\^$a_bits delays: about [0-9:]+ more at .* entries/s \\(measured" \
    delay $CPU --a-bits "$a_bits" --count 10
# ... and S of collatz, counted then built, stops as soon as its count starts.
stop_run "collatz counting table S" sigint 1 "" collatz $CPU --s-bits 40 --count 10
check "collatz stopped while counting S: no tables said ready" [ "$(grep -c "ready in" "$tmp/log")" -eq 0 ]

# --- the CSV row
csv="$tmp/r.csv"
"$MPGPU" collatz $CPU --start 2^45 --count 2^24 --s-bits 20 --bc-bits 10 --csv "$csv" --quiet &&
    "$MPGPU" delay $CPU --start 2^45 --count 2^16 --bc-bits 8 --a-bits 12 --csv "$csv" --quiet
check "collatz/delay CSV rows" awk -F, 'NR == 1 { ok = $12 == "subcommand" && $26 == "throughput_unit" }
    NR == 2 { ok = ok && $12 == "collatz" && $13 == "cpu" && $16 == 16777216 && $26 == "numbers" && $15 ~ /bc_bits=10;s_bits=20/ }
    NR == 3 { ok = ok && $12 == "delay" && $16 == 65536 && $15 ~ /a_bits=12/ }
    END { exit !(ok && NR == 3) }' "$csv"

# --- checkpoint: a run resumed with a later end gives the totals of an unbroken run
totals() { grep -E '^# ' "$1" | grep -vE '^# (mpgpu|GPU)' | sed 's/ (resumed from --checkpoint)//; s/ in [0-9.]* ms per pass//'; }
A="$CPU --threads 0 --start 2^50 --s-bits 24 --bc-bits 12"
"$MPGPU" collatz $A --count 2^33 >"$tmp/whole" 2>/dev/null
"$MPGPU" collatz $A --count 2^31 --checkpoint "$tmp/c.ckpt" >/dev/null 2>&1
"$MPGPU" collatz $A --count 2^33 --checkpoint "$tmp/c.ckpt" >"$tmp/resumed" 2>/dev/null
check "collatz resumed totals equal unbroken totals" diff <(totals "$tmp/whole") <(totals "$tmp/resumed")
check "collatz resume says so" grep -q "resumed from --checkpoint" "$tmp/resumed"
D="$CPU --threads 0 --start 1 --bc-bits 10 --a-bits 16 --records"
"$MPGPU" delay $D --end 2^22 >"$tmp/dwhole" 2>/dev/null
"$MPGPU" delay $D --end 2^20 --checkpoint "$tmp/d.ckpt" >/dev/null 2>&1
"$MPGPU" delay $D --end 2^22 --checkpoint "$tmp/d.ckpt" >"$tmp/dresumed" 2>/dev/null
check "delay resumed totals and records equal unbroken ones" diff <(totals "$tmp/dwhole" | grep -v "before this run") \
    <(totals "$tmp/dresumed" | sed 's/ (before this run)//')
check "delay records include 837799 with 524" grep -q "n = 837799, D(n) = 524" "$tmp/dwhole"

# A checkpoint of other parameters, of the other subcommand, or damaged is refused.
expect_fail 2 "was made with bc_bits=12;s_bits=24;first_step=table, not bc_bits=11;s_bits=24;first_step=table (bc_bits 12 there, 11 here); give the options of the run that made it" -- collatz $CPU --start 2^50 --s-bits 24 --bc-bits 11 --count 2^33 --checkpoint "$tmp/c.ckpt"
expect_fail 2 "belongs to 'mpgpu collatz', not 'mpgpu delay'" -- delay $CPU --count 2^20 --checkpoint "$tmp/c.ckpt"
expect_fail 2 "starts at 1125899906842624, not --start 5" -- collatz $CPU --start 5 --s-bits 24 --bc-bits 12 --count 2^33 --checkpoint "$tmp/c.ckpt"
expect_fail 2 "has finished 8589934592 starting values, more than the 1024" -- collatz $CPU --s-bits 24 --bc-bits 12 --count 1024 --checkpoint "$tmp/c.ckpt"
sed 's/^done \([0-9]*\)1$/done \12/; s/^done \([0-9]*\)[02-9]$/done \11/' "$tmp/c.ckpt" >"$tmp/bad.ckpt"
expect_fail 2 "checksum does not match" -- collatz $CPU --s-bits 24 --bc-bits 12 --checkpoint "$tmp/bad.ckpt"
head -c 40 "$tmp/c.ckpt" >"$tmp/short.ckpt"
expect_fail 2 "does not end with a checksum line" -- collatz $CPU --checkpoint "$tmp/short.ckpt"
printf 'not a checkpoint\n' >"$tmp/foreign.ckpt"
expect_fail 2 "does not end with a checksum line" -- collatz $CPU --checkpoint "$tmp/foreign.ckpt"

# A checkpoint whose checksum holds but whose fields cannot be a state of its range is refused,
# naming the field (one such resumed run reported 3145719 numbers for a range of 2097151).
# reseal FILE: the checksum line after an edit, FNV-1a 64 of every byte before it
# (cli/collatz_checkpoint.c); bash arithmetic wraps at 2^64 as the hash does.
reseal() {
    local h=$((0xcbf29ce484222325)) b
    for b in $(grep -v '^checksum ' "$1" | od -An -v -tu1); do
        h=$(((h ^ b) * 0x100000001b3))
    done
    { grep -v '^checksum ' "$1"; printf 'checksum %016x\n' "$h"; } >"$1.new" && mv "$1.new" "$1"
}
# unfit SED_EDIT MESSAGE -- ARGS: the edited copy of $tmp/f.ckpt is refused with MESSAGE.
unfit() {
    local edit=$1 message=$2
    shift 3
    sed "$edit" "$tmp/f.ckpt" >"$tmp/u.ckpt"
    reseal "$tmp/u.ckpt"
    expect_fail 2 "$message" -- "$@" --checkpoint "$tmp/u.ckpt"
}
F="$CPU --threads 0 --start 1 --bc-bits 10 --a-bits 16 --records --end 2^21"
"$MPGPU" delay $F --checkpoint "$tmp/f.ckpt" >/dev/null 2>&1
cp "$tmp/f.ckpt" "$tmp/u.ckpt"
reseal "$tmp/u.ckpt"
check "reseal reproduces the checksum" cmp -s "$tmp/f.ckpt" "$tmp/u.ckpt"
unfit 's/^total numbers .*/total numbers 3145719/' "numbers is 3145719, not done 2097151" -- delay $F
unfit 's/^total max .*/total max 557/' "max 557 is not the delay of argmax" -- delay $F
unfit 's/^total argmax .*/total argmax 2097152/' "argmax 2097152 is outside the finished [1, 2097151]" -- delay $F
unfit 's/^total sum .*/total sum 5/' "sum 5 cannot be 2097151 delays of at most max" -- delay $F
unfit 's/^total overflows .*/total overflows 2097152/' "overflows 2097152 exceed numbers 2097151" -- delay $F
unfit 's/^total floor_plus_one .*/total floor_plus_one 3/' "floor_plus_one 3 is not above max" -- delay $F
unfit 's/^record 27 111$/record 27 112/' "record 9 gives D(27) = 112; it is 111" -- delay $F
unfit 's/^record 27 111$/record 4000000 111/' "record 9, n = 4000000, is outside the finished [1, 2097151]" -- delay $F
unfit '/^total sum /d' "it lacks the total 'sum'" -- delay $F
unfit 's/^total sum /total summ /' "it holds a total 'summ', which 'mpgpu delay' does not keep" -- delay $F
G="$CPU --start 2^50 --s-bits 20 --bc-bits 10 --count 2^26"
rm -f "$tmp/f.ckpt"
"$MPGPU" collatz $G --checkpoint "$tmp/f.ckpt" >/dev/null 2>&1
unfit 's/^total mandatory .*/total mandatory 67108865/' "mandatory 67108865 exceeds done 67108864" -- collatz $G
unfit 's/^total steps .*/total steps 5/' "steps 5 are fewer than mandatory" -- collatz $G
unfit 's/^total overflows .*/total overflows 67108864/' "overflows 67108864 exceed mandatory" -- collatz $G
unfit 's/^checksum/record 5 5\nchecksum/' "delay records, which 'mpgpu collatz' does not keep" -- collatz $G

# A checkpoint that can no longer be saved stops the run with the reason, not a warning.
mkdir "$tmp/gone"
"$MPGPU" collatz $CPU --start 2^52 --s-bits 24 --bc-bits 12 --count 2^35 --threads 1 \
    --checkpoint "$tmp/gone/x.ckpt" >/dev/null 2>"$tmp/gerr" &
pid=$!
sleep 2
rm -rf "$tmp/gone"
wait "$pid"
st=$?
check "a failed checkpoint save ends the run (status $st)" [ "$st" -ne 0 ] && [ "$st" -ne 130 ]
check "a failed checkpoint save says why" grep -q "checkpoint $tmp/gone/x.ckpt could not be saved: No such file or directory" "$tmp/gerr"

# When the save that finishes the whole range fails, the run's results are still printed and
# written (the table row, the CSV row), then one line says why the checkpoint was not saved, and
# the run exits 2. The range is one segment, so its only save is the last: the checkpoint's path
# becomes a directory once the tables are ready, while the segment runs (about 1.8 s).
L="delay $CPU --threads 1 --start 2^40 --count 2^24 --bc-bits 8 --a-bits 12 --records"
"$MPGPU" $L --checkpoint "$tmp/l.ckpt" --csv "$tmp/l.csv" >"$tmp/lout" 2>"$tmp/lerr" &
pid=$!
for _ in $(seq 500); do
    grep -q "ready in" "$tmp/lerr" && break
    sleep 0.02
done
mkdir -p "$tmp/l.ckpt/in-the-way"
wait "$pid"
st=$?
check "a failed last save: exit 2 (got $st)" [ "$st" -eq 2 ]
check "a failed last save: the table row is printed" grep -q "^cpu .* reference .*start=1099511627776;" "$tmp/lout"
check "a failed last save: the CSV row is written" awk -F, 'NR == 2 { ok = $12 == "delay" && $16 == 16777216 } END { exit !(ok && NR == 2) }' "$tmp/l.csv"
check "a failed last save: one line says why" [ "$(grep -c "^mpgpu: --checkpoint $tmp/l.ckpt could not be saved: Is a directory; the results above are complete" "$tmp/lerr")" -eq 1 ]

# --- SIGTERM (a batch system's time limit), taken as Ctrl-C: stops at a segment boundary, names the
# finished prefix, and the resumed run ends with the totals of an unbroken one.
B="$CPU --start 2^52 --s-bits 24 --bc-bits 12 --count 2^35"
"$MPGPU" collatz $B --threads 1 --checkpoint "$tmp/i.ckpt" >"$tmp/iout" 2>"$tmp/ierr" &
pid=$!
sleep 2
kill -TERM "$pid" 2>/dev/null
wait "$pid"
st=$?
if [ "$st" -eq 130 ]; then
    check "SIGTERM: said so" grep -q "^mpgpu: interrupted by SIGTERM" "$tmp/ierr"
    check "SIGTERM names the finished prefix" grep -q "interrupted; finished exactly \[4503599627370496, " "$tmp/ierr"
    "$MPGPU" collatz $B --threads 0 --checkpoint "$tmp/i.ckpt" >"$tmp/iresumed" 2>/dev/null
    "$MPGPU" collatz $B --threads 0 >"$tmp/iwhole" 2>/dev/null
    check "interrupted and resumed totals equal unbroken totals" diff <(totals "$tmp/iwhole") <(totals "$tmp/iresumed")
else
    check "SIGTERM: exit status 130 (got $st; the run may have ended before the signal)" false
fi

# The same stop at a known point (MPGPU_STOP_AFTER_CHUNKS, the tests' Ctrl-C once the first
# segment of 2^24 is handed out): exit 130, the checkpoint holds the prefix the message names, and
# the resumed run ends with the totals and records of an unbroken one.
S="$D --end 2^25"
"$MPGPU" delay $S >"$tmp/swhole" 2>/dev/null
MPGPU_STOP_AFTER_CHUNKS=1 "$MPGPU" delay $S --checkpoint "$tmp/s.ckpt" >/dev/null 2>"$tmp/serr"
st=$?
check "a stop after one segment: exit 130 (got $st)" [ "$st" -eq 130 ]
check "a stop after one segment: the message names [1, 16777215]" grep -q "interrupted; finished exactly \[1, 16777215\]" "$tmp/serr"
check "a stop after one segment: the checkpoint holds it" grep -qx "done 16777215" "$tmp/s.ckpt"
"$MPGPU" delay $S --checkpoint "$tmp/s.ckpt" >"$tmp/sresumed" 2>/dev/null
check "stopped and resumed delay totals and records equal unbroken ones" diff <(totals "$tmp/swhole" | grep -v "before this run") \
    <(totals "$tmp/sresumed" | sed 's/ (before this run)//')

# A collatz or delay row says what was timed: the whole pass, with the host's settlement of
# overflows, not CUDA events around the kernels. The CPU twin in one process is the reference
# itself: its row checks nothing (issue 36 checks the chunks of GPUs and of other MPI ranks).
for sub in collatz delay; do
    rm -f "$tmp/p.csv"
    "$MPGPU" $sub --method cpu --start 2^40 --count 2^24 --reps 1 --warmup 0 --quiet --csv "$tmp/p.csv"
    check "$sub: timed_region is pass" [ "$(awk -F, 'NR == 2 { print $21 }' "$tmp/p.csv")" = pass ]
    check "$sub: the CPU twin's row is a reference, 0 checked" [ "$(awk -F, 'NR == 2 { print $27 "," $28 "," $29 }' "$tmp/p.csv")" = reference,0,0 ]
done

finish cli_collatz
