#!/usr/bin/env bash
# Issue 13, 1024 bits x 2^20: the leaf on 29-bit digits with 64-bit column sums (kara29 in
# experiments/mul1024_bound.cu) beside the direct kernel's leaf on 32-bit words (kara), and the
# memory floor (memcpy, copy), in one run of the probe. Runs on the GPU machine (nvcc and
# cuobjdump there) and writes $RESULTS/mul1024_radix29.txt: the probe's CSV, then the SASS
# opcode mix of both leaves and what they ask of the IMAD pipe (fmaheavy: 4 cycles a warp for
# IMAD.WIDE, 2 for any other IMAD) and the ALU pipe (2 cycles a warp for each IADD3, LOP3, SHF,
# LEA, ISETP, SEL, VIADD, PRMT and MOV).
source "$(dirname "$0")/common.sh"
NVCC=${NVCC:-nvcc}
commit=$("$MPGPU" --version | sed -nE 's/.*\(commit ([^)]+)\).*/\1/p')
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
"$NVCC" -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -o "$probe_dir/mul1024_bound" \
    "$(dirname "$0")/mul1024_bound.cu"
out="$RESULTS/mul1024_radix29.txt"
{
    "$probe_dir/mul1024_bound" "$commit" copy kara kara29
    for kernel in 'karaILb0E' 'kara29'; do
        echo
        echo "# SASS opcodes of the probe's $kernel, most frequent first, and pipe cycles a warp"
        opcode_mix "$probe_dir/mul1024_bound" "$kernel" |
            awk '{ print }
                 $2 ~ /^IMAD\.WIDE/ { imad += 4 * $1; next }
                 $2 ~ /^IMAD/ { imad += 2 * $1; next }
                 $2 ~ /^(IADD3|LOP3|SHF|LEA|ISETP|SEL|VIADD|PRMT|MOV)/ { alu += 2 * $1 }
                 END { printf "# IMAD pipe %d cycles, ALU pipe %d cycles a warp\n", imad, alu }'
    done
} >"$out"
echo "mul1024_radix29: wrote $out" >&2
