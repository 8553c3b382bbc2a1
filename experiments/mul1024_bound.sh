#!/usr/bin/env bash
# Issue 13, 1024 bits x 2^20 (target 6.5e9/s): what bounds it. Runs on the GPU machine, which has
# nvcc, cuobjdump and Nsight Compute (GPU.md), and writes into $RESULTS:
# - mul1024_bound.txt: the probe experiments/mul1024_bound.cu (built here with nvcc): the memory
#   floor as memcpy and a copy kernel reach it, and the leaf's arithmetic with operands from
#   device memory and from L2;
# - mul1024_bound.csv: `mpgpu mul` at the same size, thread-rowchain-karatsuba, in the same run;
# - mul1024_pipes_<commit>.txt: Nsight Compute's pipe and issue counters for that kernel, and
#   the instruction mix of its code (cuobjdump), to say which pipe it waits on. At 1024 bits the
#   method runs the direct kernel (kernels/rowchain_direct.cu) since c397d77, the block
#   kernel's K = 0 instance before; and the instruction mixes of two of the probe's leaves.
source "$(dirname "$0")/common.sh"
start_experiment mul1024_bound
build_probe mul1024_bound
"$probe" "$commit" >"$RESULTS/mul1024_bound.txt"
"$MPGPU" mul --bits 1024 --count 2^20 --reps 20 --csv "$CSV" --method thread-rowchain-karatsuba

pipes="$RESULTS/mul1024_pipes_$commit.txt"
{
    echo "# Nsight Compute, one launch of thread-rowchain-karatsuba, 1024 bits x 2^20 ($commit)"
    ncu --clock-control none -k regex:'direct_kernel|karatsuba_block_kernel' -c 1 \
        --section ComputeWorkloadAnalysis --section WarpStateStats \
        --metrics sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,gpu__time_duration.sum \
        "$MPGPU" mul --bits 1024 --count 2^20 --method thread-rowchain-karatsuba --reps 1 \
        --warmup 0 2>&1
    echo
    echo "# Instruction mix of the 1024-bit kernel (rowchain's direct_kernel), opcodes counted in"
    echo "# its SASS (cuobjdump -sass), most frequent first"
    opcode_mix "$MPGPU" 'rowchain.*direct_kernel'
    echo
    echo "# Instruction mix of the probe's FP64 path alone (fp64_x3 at 3 blocks an SM: three"
    echo "# 16x16-word products a thread, experiments/mul1024_bound.cu)"
    opcode_mix "$probe" 'fp64_x3ILi3E'
    echo
    echo "# Instruction mix of the probe's leaf with folded carries in all three products"
    echo "# (kara-folded: kara_forms<FOLDED, FOLDED, FOLDED, 4>)"
    opcode_mix "$probe" 'kara_formsIL4form1ELS0_1ELS0_1ELi4E'
} >"$pipes"
echo "mul1024_bound: wrote $RESULTS/mul1024_bound.txt, $CSV and $pipes" >&2
