#!/usr/bin/env bash
# Montgomery multiplication on both pipes (issue 39): the probe experiments/fixed_pipes.cu times
# montmul chains of 100 and 200 at 256 and 384 bits, 2^20 elements, on the IMAD path, on the FP64
# pipe with column sums in doubles, both in one thread (an element on each), and with each word
# product split between the pipes (its low word by IMAD, the column sums by DFMA), checking a
# sample of every kernel's results; the opcodes of each 256-bit kernel's chain
# loop (cuobjdump). With Nsight Compute on PATH, the first launch of each 256-bit kernel is
# profiled for its pipes and issue slots. Runs on the GPU machine (nvcc and cuobjdump there) and
# writes $RESULTS/fixed_pipes.csv, fixed_pipes_sass.txt and, with ncu, fixed_pipes_ncu.txt.
source "$(dirname "$0")/common.sh"
start_experiment fixed_pipes
build_probe fixed_pipes --expt-relaxed-constexpr
"$probe" "$commit" >"$CSV"
# chain_kernel<8, K>: K = 0 imad, 1 imad2, 2 columns, 3 pipes, 4 carries, 5 carries2,
# 6 imad-regm (256 bits)
loop_mix "$probe" 'chain_kernelILi8ELi[0-6]E' >"$RESULTS/fixed_pipes_sass.txt"
if command -v ncu >/dev/null; then
    metrics=sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active
    metrics+=,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
    metrics+=,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active
    metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active
    metrics+=,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active
    metrics+=,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio
    metrics+=,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
    metrics+=,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
    metrics+=,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
    {
        "$MPGPU" --version
        nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv
        # the first launch of each: chain 100
        for k in 0 2 3 4 6; do
            echo "==== 256 bits, kernel $k (0 imad, 2 columns, 3 pipes, 4 carries, 6 imad-regm)"
            ncu --kernel-name-base mangled --kernel-name "regex:chain_kernelILi8ELi${k}E" \
                --launch-count 1 --metrics "$metrics" "$probe" "$commit" | grep -v -e '^commit,' -e "^$commit,"
        done
    } >"$RESULTS/fixed_pipes_ncu.txt" 2>&1
fi
