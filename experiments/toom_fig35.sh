#!/usr/bin/env bash
# 000 Fig. 3.5: 10240 products, Comba (sum-rotate over 1024-bit blocks) and Toom-2..9 on
# sum-rotate, 1024 to 65536 bits. Kernel time, median of 10; every product checked against GMP.
source "$(dirname "$0")/common.sh"
start_experiment toom_fig35
for kbit in 1 2 3 4 5 6 8 10 12 14 16 20 24 28 32 40 48 56 64; do
    "$MPGPU" toom --bits $((kbit * 1024)) --count 10240 --reps 10 --csv "$CSV"
done
