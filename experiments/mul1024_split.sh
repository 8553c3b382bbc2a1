#!/usr/bin/env bash
# Issue 13, 1024 bits x 2^20: does the leaf gain when its work is split otherwise between the IMAD
# and ALU pipes? In one run of the probe experiments/mul1024_bound.cu: the direct kernel's leaf on
# carry-chain rows (kara-rows, its form when this ran as kara), the leaf on 29-bit digits with
# 64-bit column sums (kara29), the leaf with the zero high words of its addends made by LOP3 on the
# ALU pipe (kara-lop3, kara-lop3-h2, kara-lop3-half), and the memory floor (memcpy, copy). Runs on
# the GPU machine (nvcc and cuobjdump and Nsight Compute there) and writes
# $RESULTS/mul1024_split.txt: the probe's CSV, then each leaf's SASS opcode mix and what it asks of
# the IMAD pipe (fmaheavy: 4 cycles a warp for IMAD.WIDE, 2 for any other IMAD) and the ALU pipe (2
# cycles a warp for each IADD3, LOP3, SHF, LEA, ISETP, SEL, VIADD, PRMT and MOV); and Nsight
# Compute's pipe, issue and stall counters for kara-rows and kara-lop3.
source "$(dirname "$0")/common.sh"
build_probe mul1024_bound
out="$RESULTS/mul1024_split.txt"
{
    "$probe" "$commit" copy kara-rows kara29 kara-lop3 kara-lop3-h2 kara-lop3-half
    # kara_forms<LOP3 (3) or LOP3_HALF (4) for M, L, H, 4 blocks an SM>, as the probe names them
    for kernel in 'karaILb0E16carry_chain_rows' 'kara29' 'kara_formsIL4form3ELS0_3ELS0_3ELi4E' \
        'kara_formsIL4form3ELS0_3ELS0_4ELi4E' 'kara_formsIL4form4ELS0_4ELS0_4ELi4E'; do
        echo
        echo "# SASS opcodes of the probe's $kernel, most frequent first, and pipe cycles a warp"
        opcode_mix "$probe" "$kernel" | pipe_cycles
    done
    # What each leaf waits on: Nsight Compute on one launch of kara-rows and of kara-lop3.
    for run in kara-rows:'karaILb0E16carry_chain_rows' kara-lop3:'kara_formsIL4form3ELS0_3ELS0_3ELi4E'; do
        echo
        echo "# Nsight Compute, one launch of the probe's ${run%%:*}"
        ncu --clock-control none --kernel-name-base mangled -k regex:"${run#*:}" -c 1 \
            --section WarpStateStats \
            --metrics sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_issued.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum \
            "$probe" "$commit" "${run%%:*}" 2>&1
    done
} >"$out"
echo "mul1024_split: wrote $out" >&2
