#!/usr/bin/env bash
# Issue 10, where the k-ary GCD's time goes at 16, 128 and 352 Kibit: is a step the producer's
# chain (latency), or the consumers' updates of every modulus (throughput)? Nsight Compute's pipe
# and issue counters on one launch of the k-ary kernel, one random pair a size, beside the run's
# own row (steps and moduli in its params). Runs on the GPU machine (GPU.md: Nsight Compute is
# there) and writes RESULTS/gcd_kary_pipes_<commit>.txt. The instructions a warp issues a step
# are smsp__inst_executed.sum / (steps * grid * block / 32).
source "$(dirname "$0")/common.sh"
commit=$("$MPGPU" --version | sed -nE 's/.*\(commit ([^)]+)\).*/\1/p')
out="$RESULTS/gcd_kary_pipes_$commit.txt"
{
    echo "# Nsight Compute, one launch of the k-ary GCD kernel (kary_kernel) a size, one pair,"
    echo "# --clock-control none ($commit, $(date -u +%Y-%m-%dT%H:%M:%SZ))"
    nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv 2>&1
    for kib in 16 128 352; do
        echo
        echo "## $kib Kibit"
        ncu --clock-control none -k regex:kary_kernel -c 1 \
            --metrics sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread \
            "$MPGPU" gcd --bits $((kib * 1024)) --count 1 --method kary --reps 1 --warmup 0 2>&1
    done
} >"$out"
echo "gcd_kary_pipes: wrote $out" >&2
