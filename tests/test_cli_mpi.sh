#!/usr/bin/env bash
# cpu suite: several MPI ranks on one range (issue 14). `mpirun -np 2 --oversubscribe` over the
# CPU twin gives the totals and records of one process, also when stopped and resumed with
# --checkpoint, and when a rank is killed; only rank 0 prints and writes. The chunks rank 1
# computed are checked on rank 0 against its CPU twin (issue 36), and one spoiled by the test
# hook fails the run, named. Exits 77 (skipped) when mpgpu was built without MPI (the second
# argument, from tests/meson.build, says which).
#   test_cli_mpi.sh path/to/mpgpu mpi|none
source "$(dirname "$0")/cli_expect.sh" "$@"
if [ "${2-}" != mpi ]; then
    echo "skipped: mpgpu was built without MPI (meson -Dmpi)"
    exit 77
fi
if ! command -v mpirun >/dev/null 2>&1; then
    echo "skipped: mpgpu was built with MPI, but there is no mpirun on PATH"
    exit 77
fi
# mpirun [ARGS...] -- two ranks of mpgpu ARGS, stdout and stderr to $tmp/out and $tmp/err.
mpi2() { mpirun -np 2 --oversubscribe "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; }
# The totals and records of a table, without what differs between runs (time, rates, resumption,
# and the check: one process's CPU twin checks nothing, two ranks' check rank 1's chunks).
totals() {
    grep -E '^# ' "$1" | grep -vE '^# (mpgpu|GPU)|^#   (rank [0-9]+ )?(CPU|GPU)|^#   checked chunks: |^# [0-9]+ row\(s\): ' |
        sed 's/ (resumed from --checkpoint)//; s/ (before this run)//; s/ in [0-9.]* ms per pass//'
}

# Delays from 1 (the records of the literature) in segments of 2^24: 8 segments, the first partial.
D="delay --method cpu --reps 1 --warmup 0 --start 1 --end 2^27 --bc-bits 10 --a-bits 16 --records"
"$MPGPU" $D >"$tmp/d_one" 2>/dev/null
check "one process: delay records up to 2^27 (63728127, 949)" grep -q "n = 63728127, D(n) = 949" "$tmp/d_one"
mpi2 $D --csv "$tmp/d.csv"
check "2 ranks: delay exits 0" [ $? -eq 0 ]
check "2 ranks: delay totals and records equal one process's" diff <(totals "$tmp/d_one") <(totals "$tmp/out")
check "2 ranks: each rank's rate, both ranks busy" [ "$(grep -cE '^#   rank [01] CPU \(thread 1\): [1-9][0-9]* numbers' "$tmp/out")" -eq 2 ]
check "2 ranks: one table" [ "$(grep -c '^method ' "$tmp/out")" -eq 1 ]
check "2 ranks: rank 0 alone speaks (one 'ready' line)" [ "$(grep -c 'tables B, C, J' "$tmp/err")" -eq 1 ]
check "2 ranks: one CSV row, devices=host+host" awk -F, 'NR == 2 { ok = $12 == "delay" && $15 ~ /;devices=host\+host$/ }
    END { exit !(ok && NR == 2) }' "$tmp/d.csv"
# Rank 1's chunks are checked against rank 0's CPU twin (rank 0's are the twin's own): the row is a
# sample with results checked, and the summary counts them.
check "2 ranks: delay checks chunks of rank 1" grep -qE '^#   checked chunks: rank 1 CPU \(thread 1\): [1-9][0-9]* of [1-9][0-9]*; rank 0.s are the CPU twin.s own$' "$tmp/out"
check "2 ranks: delay's CSV row is a sample, checked, no mismatch" awk -F, 'NR == 2 { ok = $27 == "sample" && $28 >= 1 && $29 == 0 }
    END { exit !ok }' "$tmp/d.csv"
# A chunk of rank 1 spoiled as a faulty worker would (the first chunk the pass records: rank 1's
# first): the sample meets it, the run exits 1 and names it.
MPGPU_TEST_SPOIL=delay-chunk:0 mpi2 $D
st=$?
check "2 ranks, rank 1's first delay chunk spoiled: exit 1 (got $st)" [ "$st" -eq 1 ]
check "2 ranks, rank 1's first delay chunk spoiled: named" grep -qE '^mpgpu: delay cpu: 1 of [0-9]+ checked .* differ from the reference; first bad chunk \[[0-9]+, [0-9]+\] on rank 1 CPU \(thread 1\)$' "$tmp/err"

# Collatz convergence in segments of 2^32: 4, the last partial.
C="collatz --method cpu --reps 1 --warmup 0 --start 2^50 --count 14000000000 --s-bits 20 --bc-bits 10"
"$MPGPU" $C >"$tmp/c_one" 2>/dev/null
mpi2 $C
check "2 ranks: collatz exits 0" [ $? -eq 0 ]
check "2 ranks: collatz totals equal one process's" diff <(totals "$tmp/c_one") <(totals "$tmp/out")
check "2 ranks: collatz checks chunks of rank 1" grep -qE '^#   checked chunks: rank 1 CPU \(thread 1\): [1-9][0-9]* of [1-9]' "$tmp/out"
MPGPU_TEST_SPOIL=collatz-chunk:0 mpi2 $C --verify all
st=$?
check "2 ranks, rank 1's first collatz chunk spoiled: exit 1 (got $st)" [ "$st" -eq 1 ]
check "2 ranks, rank 1's first collatz chunk spoiled: named" grep -qE '; first bad chunk \[[0-9]+, [0-9]+\] on rank 1 CPU \(thread 1\)$' "$tmp/err"

# Several passes (a warm-up and two timed): a rank's request for the next pass, made while rank 0
# ends this one, is kept for it; a pass whose totals differ from the first fails the run.
mpi2 delay --method cpu --reps 2 --warmup 1 --start 1 --end 2^26 --bc-bits 10 --a-bits 16
st=$?
check "2 ranks, 3 passes: exit 0 (got $st)" [ "$st" -eq 0 ]
check "2 ranks, 3 passes: one process's totals" grep -q "delays of \[1, 67108863\]: 67108863 numbers, sum 11748210259, largest 949 at n = 63728127" "$tmp/out"

# Stopped once 3 segments are handed out (as Ctrl-C stops: the segments in flight finish, so
# exactly [1, 3 * 2^24 - 1] is done, in whatever order the ranks finished them), then resumed by
# 2 ranks from the checkpoint: the totals and records of one unbroken process.
MPGPU_STOP_AFTER_CHUNKS=3 mpi2 $D --checkpoint "$tmp/d.ckpt"
st=$?
check "stopped: exit 130 (got $st)" [ "$st" -eq 130 ]
check "stopped: the exact finished prefix is named" grep -q "delay interrupted; finished exactly \[1, 50331647\]" "$tmp/err"
check "stopped: the checkpoint has that prefix" grep -qx "done 50331647" "$tmp/d.ckpt"
mpi2 $D --checkpoint "$tmp/d.ckpt"
check "resumed by 2 ranks: exits 0" [ $? -eq 0 ]
check "resumed by 2 ranks: totals and records equal one unbroken process's" diff <(totals "$tmp/d_one") <(totals "$tmp/out")
check "resumed by 2 ranks: it says so" grep -q "resumed from --checkpoint" "$tmp/out"

# SIGUSR1 to mpirun, which forwards it to every rank, stops as Ctrl-C does (sent once rank 0 has
# saved a first segment, so every rank is past its start).
mpirun -np 2 --oversubscribe "$MPGPU" $D --checkpoint "$tmp/u.ckpt" >/dev/null 2>"$tmp/uerr" </dev/null &
mpirun_pid=$!
for _ in $(seq 300); do
    [ -s "$tmp/u.ckpt" ] && break
    sleep 0.1
done
kill -USR1 "$mpirun_pid"
wait "$mpirun_pid"
st=$?
check "SIGUSR1 to mpirun: exit 130 (got $st)" [ "$st" -eq 130 ]
check "SIGUSR1 to mpirun: the checkpoint holds the exact prefix named" \
    grep -qx "done $(sed -nE 's/.*finished exactly \[1, ([0-9]+)\].*/\1/p' "$tmp/uerr")" "$tmp/u.ckpt"

# A follower killed mid-run ends the job (mpirun); the checkpoint rank 0 keeps is still a finished
# prefix, and a one-process run resumes from it to the unbroken totals.
rm -f "$tmp/k.ckpt"
mpirun -np 2 --oversubscribe "$MPGPU" $C --checkpoint "$tmp/k.ckpt" >/dev/null 2>"$tmp/kerr" </dev/null &
mpirun_pid=$!
follower=
for _ in $(seq 100); do
    for pid in $(pgrep -P "$mpirun_pid"); do
        tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1" && follower=$pid
    done
    [ -n "$follower" ] && [ -s "$tmp/k.ckpt" ] && break
    sleep 0.2
done
[ -n "$follower" ] && kill -KILL "$follower"
wait "$mpirun_pid"
st=$?
check "a killed rank ends the job (status $st)" [ -n "$follower" ] && [ "$st" -ne 0 ]
"$MPGPU" $C --checkpoint "$tmp/k.ckpt" >"$tmp/out" 2>"$tmp/err"
check "after a killed rank: the checkpoint resumes in one process" [ $? -eq 0 ]
check "after a killed rank: resumed totals equal unbroken ones" diff <(totals "$tmp/c_one") <(totals "$tmp/out")

# Refused under several ranks, with one line from rank 0 (and mpirun's own report after it).
mpi2 mul --count 10
check "mul under 2 ranks: exit 2, one line" [ $? -eq 2 ] && [ "$(grep -c '^mpgpu: mul runs in one process, not in 2 MPI ranks' "$tmp/err")" -eq 1 ]
mpi2 collatz --method all --count 1000
check "--method all under 2 ranks: exit 2, one line" [ $? -eq 2 ] && [ "$(grep -c '^mpgpu: --method all compares two runs' "$tmp/err")" -eq 1 ]
# A bad command line: every rank parses it, rank 0 alone says so.
mpi2 collatz --method cpu --count 0
check "--count 0 under 2 ranks: exit 2, one line" [ $? -eq 2 ] && [ "$(grep -c '^mpgpu: --count' "$tmp/err")" -eq 1 ]
# Ranks given other table parameters (mpirun's MPMD form) would add other totals: refused.
mpirun -np 1 --oversubscribe "$MPGPU" collatz --method cpu --count 1000 --s-bits 10 : \
    -np 1 --oversubscribe "$MPGPU" collatz --method cpu --count 1000 --s-bits 11 >"$tmp/out" 2>"$tmp/err" </dev/null
check "other table parameters on rank 1: exit 2, one line" [ $? -eq 2 ] &&
    [ "$(grep -c '^mpgpu: MPI rank 1 was given other table parameters than rank 0 (bc_bits=12;s_bits=10;first_step=table)' "$tmp/err")" -eq 1 ]

finish cli_mpi
