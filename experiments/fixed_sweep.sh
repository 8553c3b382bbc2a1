#!/usr/bin/env bash
# The launch sweeps of the EPFL study (004 section 3.2): grid and block sizes, powers of two
# from 1 to 1024, one element per thread (count = grid x block), 10 timed executions per kernel.
#   Fig. 3.5:  C against PTX, 131-bit add, local operands (Fig. 3.6, their registers, is
#              `mpgpu fixed --resources --bits 131`, recorded at build time);
#   Fig. 3.20: local against global operands, 239-bit add;
#   Fig. 3.21: column-order mul against Karatsuba, 131-bit;
#   the launch sweep at the five precisions: 2^20 elements, every block size, as many blocks as
#   make one element per thread, add, mul and montmul.
source "$(dirname "$0")/common.sh"
start_experiment fixed_sweep
pow2=(1 2 4 8 16 32 64 128 256 512 1024)
for g in "${pow2[@]}"; do
    for b in "${pow2[@]}"; do
        n=$((g * b))
        common=(--count "$n" --grid "$g" --block "$b" --reps 10 --warmup 2 --csv "$CSV" --quiet)
        "$MPGPU" fixed --bits 131 --op add --impl ptx,c --mem local "${common[@]}"
        for mem in local global; do
            "$MPGPU" fixed --bits 239 --op add --impl ptx --mem "$mem" "${common[@]}"
        done
        "$MPGPU" fixed --bits 131 --op mul,karatsuba --impl ptx "${common[@]}"
    done
done
for bits in 109 131 163 191 239; do
    for b in "${pow2[@]}"; do
        "$MPGPU" fixed --bits "$bits" --op add,mul,montmul --impl ptx,c --count 2^20 --block "$b" \
            --reps 10 --warmup 2 --csv "$CSV" --verify sample --quiet ||
            echo "fixed_sweep: --bits $bits --block $b did not run (over 64 registers a thread cannot launch 1024 a block: mpgpu fixed --resources)" >&2
    done
done
