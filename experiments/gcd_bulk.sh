#!/usr/bin/env bash
# Issue 38: the bulk GCD (mpgpu gcd --method bulk-lehmer,bulk-binary, one pair a thread) on
# this GPU, every result of a sample of about 1000 a size checked against mpz_gcd:
#   - rates: 2^20 and 10240 random pairs at 64..8192 bits (2^18 pairs at 8192: 2^20 would take
#     minutes of binary GCDs), held kernel time, median of 10 (BULK_REPS);
#   - the crossover of --method auto: bulk-lehmer against lehmer (the whole GPU on one pair at a
#     time) at 1024..8192 bits and 1..256 pairs, median of 3: the smallest count at which bulk
#     is faster, a size, goes into cli/cmd_gcd.c's auto rule (docs/shared-factors.md).
# CGBN's cgbn_gcd beside the bulk rows, in the same run, is experiments/peers/cgbn.sh's.
source "$(dirname "$0")/common.sh"
start_experiment gcd_bulk
reps=${BULK_REPS:-10}
big=$((1 << 20)) few=10240
[ "${QUICK:-0}" = 1 ] && big=4096 few=1024 reps=2
for bits in 64 256 512 1024 2048 4096 8192; do
    n=$big
    [ "$bits" -lt 8192 ] || n=$((big / 4))
    for count in "$n" "$few"; do
        "$MPGPU" gcd --method bulk-lehmer,bulk-binary --bits "$bits" --count "$count" \
            --reps "$reps" --verify sample --csv "$CSV" --quiet ||
            echo "gcd_bulk: FAILED: $bits bits x $count" >&2
    done
done
for bits in 1024 2048 4096 8192; do
    for count in 1 4 16 64 256; do
        "$MPGPU" gcd --method bulk-lehmer,lehmer --bits "$bits" --count "$count" --reps 3 \
            --warmup 1 --csv "$CSV" --quiet ||
            echo "gcd_bulk: FAILED: crossover $bits bits x $count" >&2
    done
done
