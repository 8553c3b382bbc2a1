#!/usr/bin/env bash
# The performance targets of `mpgpu toom` (issue 3): 65536 bits x 10240 products against GMP on
# one and on all host cores; 16384 bits x 2^16 and 32768 bits x 2^14 products per second.
# Kernel time, median of 10; every product checked against GMP.
source "$(dirname "$0")/common.sh"
start_experiment toom_targets
"$MPGPU" toom --bits 65536 --count 10240 --reps 10 --csv "$CSV" --method all
"$MPGPU" mul --bits 65536 --count 10240 --reps 10 --csv "$CSV" --method gmp --threads 0
"$MPGPU" toom --bits 16384 --count 2^16 --reps 10 --csv "$CSV"
"$MPGPU" toom --bits 32768 --count 2^14 --reps 10 --csv "$CSV"
if [ -n "${FAST_METHODS:-}" ]; then
    for spec in "65536 10240" "16384 2^16" "32768 2^14"; do
        set -- $spec
        "$MPGPU" mul --bits "$1" --count "$2" --reps 10 --csv "$CSV" --method "$FAST_METHODS"
    done
fi
