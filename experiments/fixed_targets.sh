#!/usr/bin/env bash
# The performance targets of `mpgpu fixed` (issue 12): 256-bit Montgomery multiplication with a
# random odd modulus given at run time, 2^20 elements, --chain 100 in registers (target 3.6e10
# multiplications/s on an H200, twice CGBN's cgbn_mont_mul), beside 128..384 bits for scale; and
# add, sub, addm, subm, mul once per element at the study's precisions, against the memory
# ceiling.
source "$(dirname "$0")/common.sh"
start_experiment fixed_targets
for bits in 109 131 163 191 239 256 384; do
    "$MPGPU" fixed --bits "$bits" --op montmul --impl ptx,c --count 2^20 --chain 100 --reps 10 \
        --csv "$CSV" --verify sample --quiet
done
"$MPGPU" fixed --bits 256 --op montmul --impl ptx --count 2^22 --chain 1000 --reps 10 \
    --csv "$CSV" --verify sample --quiet
for bits in 109 131 163 191 239; do
    "$MPGPU" fixed --bits "$bits" --op add,sub,addm,subm,mul --impl ptx,c --count 2^24 --reps 10 \
        --csv "$CSV" --verify sample --quiet
done
# Operands in registers against operands used in place in device memory (004's _loc and _glo,
# section 3.6.3) for the multiplicative operations, which the study did not compare.
for mem in local global; do
    "$MPGPU" fixed --bits 256 --op mul,karatsuba,montred,montmul,powm --impl ptx --mem "$mem" \
        --count 2^20 --chain 10 --reps 10 --csv "$CSV" --verify sample --quiet
done
