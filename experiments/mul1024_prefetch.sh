#!/usr/bin/env bash
# Issue 13, 1024 bits x 2^20: Nsight Compute puts about a sixth of the direct kernel's leaf's warp
# cycles at the long scoreboard, most of them at the operand loads, and the leaf runs 4 warps a
# scheduler (128 registers). Does hiding the loads, or more warps a scheduler, pay? In one run of
# the probe experiments/mul1024_bound.cu: the leaf on carry-chain rows (kara-rows, its form when
# this ran as kara); the same leaf in a persistent loop with each product's operands copied ahead
# into shared memory by cp.async (kara-pf); the leaf with the 48 KiB of shared memory that kara-pf
# takes reserved and unused (kara-smem48); the leaf's three products on three warps at 72 and 80
# registers with a cheaper stand-in for their combination, a lower bound on that split
# (split3-bound-9, split3-bound-7); and the memory floor (memcpy, copy). Runs on the GPU machine
# (nvcc and Nsight Compute there) and writes $RESULTS/mul1024_prefetch.txt: the probe's CSV, then
# for kara-rows, kara-pf, kara-smem48 and split3-bound-9 Nsight Compute's average warps stalled per
# issued instruction, by reason, beside the IMAD pipe's load, the issue rate and the warps active a
# scheduler.
source "$(dirname "$0")/common.sh"
build_probe mul1024_bound
out="$RESULTS/mul1024_prefetch.txt"
{
    "$probe" "$commit" copy kara-rows kara-pf kara-smem48 split3-bound-9 split3-bound-7
    for run in kara-rows:'karaILb0E16carry_chain_rows' kara-pf:'kara_pf' kara-smem48:'kara_smem48' \
        split3-bound-9:'split35boundILi9E'; do
        echo
        echo "# Nsight Compute, one launch of the probe's ${run%%:*}: warps stalled per issue, by reason"
        ncu --clock-control none --kernel-name-base mangled -k regex:"${run#*:}" -c 1 \
            --metrics regex:'smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio',smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active,gpu__time_duration.sum \
            "$probe" "$commit" "${run%%:*}" 2>&1
    done
} >"$out"
echo "mul1024_prefetch: wrote $out" >&2
