#!/usr/bin/env bash
# 000 Table 3.4: GMP on one host thread (as the paper) and on all host cores against the GPU
# methods of 000 ch. 3 (Comba on sum-rotate, Toom-2..9) and the methods named in FAST_METHODS,
# each where it supports the size, 64..65536 bits, 10240 products. Kernel time, median of 10;
# every product checked against GMP. The table of docs/000-mul.md takes the best GPU row per size.
source "$(dirname "$0")/common.sh"
start_experiment toom_table34
candidates="sumrotate-shuffle toom-2 toom-3 toom-4 toom-5 toom-6 toom-7 toom-8 toom-9 ${FAST_METHODS//,/ }"
for bits in 64 128 256 512 1024 2048 4096 8192 16384 32768 65536; do
    methods=$(supported_list "$bits" $candidates)
    "$MPGPU" mul --bits "$bits" --count 10240 --reps 10 --csv "$CSV" --method "${methods:+$methods,}gmp"
    "$MPGPU" mul --bits "$bits" --count 10240 --reps 10 --csv "$CSV" --method gmp --threads 0
done
