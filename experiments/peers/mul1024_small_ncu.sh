#!/usr/bin/env bash
# Issue 39: where the time goes at 1024 bits x 10240 products, the one size at this count where
# mpgpu's kernel itself, not the fixed cost of a grid, keeps it furthest below 1.2x CGBN (by
# Nsight Compute's durations, results/cgbn_ncu_small.md). Nsight Compute on one launch each of
# mpgpu's METHOD (default octo-comba-reg, the fastest there; any comba-reg method) and CGBN's
# TPI 8, and of the shortest kernel at this count (10240 products of 64 bits, thread-comba):
# throughput, pipes, occupancy, issue, warp stalls and memory, every result checked against GMP.
# Runs on the GPU machine, with a harness built by `cgbn.sh --build-only OUT`:
#   CGBN_BENCH=OUT/cgbn_bench MPGPU=... RESULTS=... [METHOD=...] \
#       experiments/peers/mul1024_small_ncu.sh
# Writes $RESULTS/mul1024_small_ncu.txt with the machine above it.

# The method's kernel, for Nsight Compute's filter; checked before anything is written.
METHOD=${METHOD:-octo-comba-reg}
case $METHOD in
*-comba-reg) kernel=comba_reg_kernel ;;
*-comba-reg-shared) kernel=comba_reg_shared_kernel ;;
*) echo "mul1024_small_ncu: METHOD=$METHOD: not a comba-reg method" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
ncu_script=mul1024_small_ncu
source "$here/ncu_common.sh"
start_experiment mul1024_small_ncu
out="$RESULTS/mul1024_small_ncu.txt"
# profile TITLE KERNEL_REGEX CMD...: one launch after two warm-ups.
profile() {
    local title=$1 kernel=$2
    shift 2
    echo
    echo "# Nsight Compute, one launch of $title, 10240 products"
    ncu --clock-control none --cache-control none -k "regex:$kernel" --launch-skip 2 -c 1 \
        --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy \
        --section LaunchStats \
        --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis \
        --metrics smsp__inst_executed.sum,gpu__time_duration.sum,smsp__cycles_active.avg \
        "$@" --count 10240 --reps 3 --warmup 2 --verify all 2>&1
}
{
    cat "$RESULTS/mul1024_small_ncu.machine.txt"
    profile "mpgpu $METHOD, 1024 bits" "$kernel" "$MPGPU" mul --bits 1024 --method "$METHOD"
    profile "CGBN TPI 8, 1024 bits" op_kernel "$CGBN_BENCH" mul --bits 1024 --method cgbn-tpi8
    profile "mpgpu thread-comba, 64 bits (the shortest kernel)" thread_comba_kernel \
        "$MPGPU" mul --bits 64 --method thread-comba
} >"$out"
rm -f "$RESULTS/mul1024_small_ncu.machine.txt" "$RESULTS/mul1024_small_ncu.csv"
echo "mul1024_small_ncu: wrote $out" >&2
