#!/usr/bin/env bash
# The study's layout questions at its five precisions and at 256 and 384 bits (004 sections 2.4,
# 3.4): separate against interleaved operand arrays, coalesced (COAL_IDX) against contiguous
# (IDX) word order, C against PTX, for every operation once per element, 2^20 elements,
# 10 timed executions as in 004 section 3.2.
source "$(dirname "$0")/common.sh"
start_experiment fixed_layout
for bits in 109 131 163 191 239 256 384; do
    for operands in separate interleaved; do
        for order in coalesced contiguous; do
            "$MPGPU" fixed --bits "$bits" --op add,sub,addm,subm,mul,karatsuba,montred,montmul \
                --impl ptx,c --operands "$operands" --word-order "$order" --count 2^20 \
                --reps 10 --csv "$CSV" --verify sample --quiet
        done
    done
done
