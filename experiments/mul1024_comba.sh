#!/usr/bin/env bash
# Issue 13, 1024 bits x 2^20 at 6.5e9/s (0.161 ms): the direct kernel's leaf by product scanning
# (kernels/rowchain_leaf.cuh, comba_product: one IMAD.WIDE with a carry out a word product, the
# carries gathered two at a time) against the same leaf on carry-chain rows, its form before. In
# one run of the probe experiments/mul1024_bound.cu: the leaf in 64-thread blocks as the kernel
# launches it (kara) and in 128-thread blocks (kara-128), with its operands folded into L2
# (kara-l2), on carry-chain rows (kara-rows), and the memory floor (memcpy, copy). Runs on the
# GPU machine (nvcc, cuobjdump and Nsight Compute there) and writes $RESULTS/mul1024_comba.txt:
# the probe's CSV, each leaf's SASS opcode mix with what it asks of the IMAD and ALU pipes
# (pipe_cycles in common.sh), and Nsight Compute's pipe, issue and stall counters for both.
source "$(dirname "$0")/common.sh"
build_probe mul1024_bound
out="$RESULTS/mul1024_comba.txt"
{
    "$probe" "$commit" copy kara kara-128 kara-l2 kara-rows
    # kara<false, comba_columns, 64> and kara<false, carry_chain_rows, 64>, as the probe names them
    for run in kara:'karaILb0EN8rowchain13comba_columnsELj64E' \
        kara-rows:'karaILb0E16carry_chain_rowsLj64E'; do
        echo
        echo "# SASS opcodes of the probe's ${run%%:*}, most frequent first, and pipe cycles a warp"
        opcode_mix "$probe" "${run#*:}" | pipe_cycles
    done
    for run in kara:'karaILb0EN8rowchain13comba_columnsELj64E' \
        kara-rows:'karaILb0E16carry_chain_rowsLj64E'; do
        echo
        echo "# Nsight Compute, one launch of the probe's ${run%%:*}: pipes, issue, warps stalled per issue"
        ncu --clock-control none --kernel-name-base mangled -k regex:"${run#*:}" -c 1 \
            --metrics regex:'smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio',smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,gpu__time_duration.sum \
            "$probe" "$commit" "${run%%:*}" 2>&1
    done
} >"$out"
echo "mul1024_comba: wrote $out" >&2
