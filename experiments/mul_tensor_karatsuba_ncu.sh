#!/usr/bin/env bash
# Issue 39: where warp-tensor-karatsuba's time goes at 16384 bits x 10240 products. Nsight
# Compute on one launch of it, and on one launch of its leaf alone, warp-tensor-toeplitz at
# 8192 bits x 30720 products (the same tensor products: three a product), each checked against
# GMP on a sample: throughput, pipes, issue, occupancy and warp stalls. Runs on the GPU machine
# (Nsight Compute there); writes $RESULTS/mul_tensor_karatsuba_ncu.txt with the machine above it.
source "$(dirname "$0")/common.sh"
start_experiment mul_tensor_karatsuba_ncu
out="$RESULTS/mul_tensor_karatsuba_ncu.txt"
{
    cat "$RESULTS/mul_tensor_karatsuba_ncu.machine.txt"
    for run in warp-tensor-karatsuba:16384:10240:tensor_karatsuba_kernel \
        warp-tensor-toeplitz:8192:30720:tensor_toeplitz_kernel; do
        IFS=: read -r method bits count kernel <<<"$run"
        echo
        echo "# Nsight Compute, one launch of $method, $bits bits x $count products"
        ncu --clock-control none -k regex:"$kernel" -c 1 \
            --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy \
            --section WarpStateStats --section LaunchStats \
            --metrics smsp__inst_executed.sum,gpu__time_duration.sum \
            "$MPGPU" mul --method "$method" --bits "$bits" --count "$count" --reps 1 \
            --warmup 0 --verify sample 2>&1
    done
} >"$out"
rm -f "$RESULTS/mul_tensor_karatsuba_ncu.machine.txt" "$RESULTS/mul_tensor_karatsuba_ncu.csv"
echo "mul_tensor_karatsuba_ncu: wrote $out" >&2
