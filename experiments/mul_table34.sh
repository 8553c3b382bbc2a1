#!/usr/bin/env bash
# 000 Table 3.4 and 001 Table III: GMP (one thread, as the papers, and all host cores) against
# the GPU methods, 64..65536 bits, 10240 products. Kernel time, median of 10 runs. Each GPU
# method runs at every size it supports (`mpgpu mul --help`), so any FAST_METHODS can be given.
source "$(dirname "$0")/common.sh"
start_experiment mul_table34
for bits in 64 128 256 512 1024 2048 4096 8192 16384 32768 65536; do
    "$MPGPU" mul --bits "$bits" --count 10240 --reps 10 --csv "$CSV" \
        --method "$(supported_list "$bits" sumrotate-shuffle ${FAST_METHODS//,/ }),gmp"
    "$MPGPU" mul --bits "$bits" --count 10240 --reps 10 --csv "$CSV" --method gmp --threads 0
done
