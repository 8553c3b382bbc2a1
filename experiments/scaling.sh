#!/usr/bin/env bash
# Issue 14's strong scaling: one range, or one batch of products, on GPU 0 alone and then on every
# GPU of the host (--devices all), and the efficiency T(1) / (N T(N)). collatz and delay take a
# range of about 80 s per GPU on an H200 when all N run (N x 2^50 and N x 2^40 numbers; the issue
# asks for at least a minute a GPU), so the one-GPU run takes N times that; both write their
# totals into the CSV row's params, and the script fails unless the N-GPU row's equal the
# one-GPU row's. mul is 4096 bits x 2^22 products, kernel time, as the issue names it.
# Runs one pass of collatz and delay (a pass is minutes long) and mul's default repetitions.
#   SCALING="collatz delay mul" (default: all three; each fits in one 10-minute device call)
#   PER_GPU_SHIFT=k: 2^k times less work per GPU, for a smoke test.
# Each writes RESULTS/scaling_<what>.csv, .log (the tables with each GPU's rate) and .stderr
# (notes and progress: the rate over time shows a slow start, which the totals cannot).
source "$(dirname "$0")/common.sh"
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ') || true
if [ "${n:-0}" -lt 2 ]; then
    echo "experiments/scaling.sh: strong scaling needs at least 2 GPUs; nvidia-smi lists ${n:-0}" >&2
    exit 2
fi
for what in ${SCALING:-collatz delay mul}; do
    case $what in
    collatz | delay | mul) ;;
    *) echo "experiments/scaling.sh: SCALING names '$what'; it takes collatz, delay and mul" >&2; exit 2 ;;
    esac
done
all=$(seq -s, 0 $((n - 1)))
shift_bits=${PER_GPU_SHIFT:-0}

# logged CMD...: runs CMD with stdout into the log and stderr into the .stderr file, whose end is
# shown when CMD fails.
logged() { "$@" >>"$log" 2>>"$err" || { local rc=$?; tail -5 "$err" >&2; return "$rc"; }; }
# strip: params less what may differ with the number of GPUs: the devices, mul's batches, and
# the times spent settling overflows on the host and in a mul pass (times, not totals).
strip() { sed -E 's/;?(devices|batches|overflow_ms|pass_wall_ms)=[^;]*//g'; }
# wall ROW: mul's median pass wall time (params pass_wall_ms), empty for the other subcommands.
wall() { field "$1" 15 | sed -nE 's/.*pass_wall_ms=([^;]*).*/\1/p'; }
# field ROW COLUMN: a field of the CSV's data row ROW (1 = the first data row).
field() { sed -n "$(($1 + 1))p" "$CSV" | cut -d, -f"$2"; }

# compare NAME: the last two rows (one GPU, then all of them) must have the same totals (params
# less what strip drops), the same count and no mismatch; prints both times and the efficiency.
compare() {
    local rows one many t1 tn p1 pn
    rows=$(($(wc -l <"$CSV") - 1))
    one=$((rows - 1)) many=$rows
    p1=$(field $one 15 | strip) pn=$(field $many 15 | strip)
    if [ "$p1" != "$pn" ] || [ "$(field $one 16)" != "$(field $many 16)" ] ||
        [ "$(field $one 29)" != 0 ] || [ "$(field $many 29)" != 0 ]; then
        echo "scaling: $1: $n GPUs gave other totals than one: '$pn' against '$p1'" | tee -a "$log" >&2
        return 1
    fi
    t1=$(field $one 22) tn=$(field $many 22)
    awk -v name="$1" -v n="$n" -v t1="$t1" -v tn="$tn" 'BEGIN {
        printf "scaling: %s: 1 GPU %.3f ms, %d GPUs %.3f ms, speed-up %.3f, efficiency %.1f %%, same totals\n",
               name, t1, n, tn, t1 / tn, 100 * t1 / (n * tn) }' | tee -a "$log"
    # mul's row time is the busiest GPU's kernels, which cannot show what the batches' transfers
    # and host threads cost: the pass's wall time is judged too.
    t1=$(wall $one) tn=$(wall $many)
    [ -n "$t1" ] && [ -n "$tn" ] && awk -v name="$1" -v n="$n" -v t1="$t1" -v tn="$tn" 'BEGIN {
        printf "scaling: %s, pass wall time: 1 GPU %.3f ms, %d GPUs %.3f ms, speed-up %.3f, efficiency %.1f %%\n",
               name, t1, n, tn, t1 / tn, 100 * t1 / (n * tn) }' | tee -a "$log"
    return 0
}

for what in ${SCALING:-collatz delay mul}; do
    start_experiment "scaling_$what"
    log="$RESULTS/scaling_$what.log" err="$RESULTS/scaling_$what.stderr"
    : >"$err"
    echo "scaling: $n GPUs ($all), per-GPU shift $shift_bits" | tee "$log"
    nvidia-smi topo -m >>"$log" 2>&1 || true
    case $what in
    collatz)
        count=$((n << (50 - shift_bits)))
        for d in 0 "$all"; do
            logged "$MPGPU" collatz --count "$count" --devices "$d" --reps 1 --warmup 0 --csv "$CSV"
        done
        compare "collatz $count numbers" ;;
    delay)
        count=$((n << (40 - shift_bits)))
        for d in 0 "$all"; do
            logged "$MPGPU" delay --records --count "$count" --devices "$d" --reps 1 --warmup 0 --csv "$CSV"
        done
        compare "delay --records $count numbers" ;;
    mul)
        count=$((1 << (22 - shift_bits)))
        for d in 0 "$all"; do
            logged "$MPGPU" mul --method auto --bits 4096 --count "$count" --devices "$d" --csv "$CSV"
        done
        compare "mul 4096 bits x $count" ;;
    esac
done
