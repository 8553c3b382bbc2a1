#!/usr/bin/env bash
# `mpgpu tune` on this GPU in two count classes, for `mpgpu mul --method auto`, which picks the
# class nearest its --count in log scale (cli/tune_table.h): Comba on sum-rotate, Karatsuba over
# it (001 Table II), Toom-2..9, thread-comba, the tensor-core warp-tensor-toeplitz and
# split-rowchain (issue 13), warp-tensor-karatsuba above 8192 bits (issue 39), and the methods
# named in FAST_METHODS,
#   - at 10240 products (the papers' count), at 000 Table 3.4's sizes and the midpoints above
#     1024 bits, median of 5 runs after one warm-up;
#   - at 2^20 products (the count of the mul targets), at those sizes up to 8192 bits, the
#     largest target size, median of 3 runs after one warm-up. Above it the operands and
#     products of 2^20 products take 6 to 32 GiB per size, and their transfers and the Toom
#     kernels would take the run past a few minutes; auto uses the 10240 class there.
# A sample of each method's products is checked against GMP: a table, not a figure. The two runs'
# tables are merged into RESULTS/tune_table.csv, the table auto reads (copy it to results/ or
# point MPGPU_TUNE_TABLE at it); the CSV holds the rows of both.
source "$(dirname "$0")/common.sh"
start_experiment toom_tune
methods="sumrotate-shuffle,sumrotate-shuffle-karatsuba,sumrotate-shuffle-karatsuba2"
methods+=",thread-comba,warp-tensor-toeplitz,warp-tensor-karatsuba,split-rowchain"
methods+=",toom-2,toom-3,toom-4,toom-5,toom-6,toom-7,toom-8,toom-9${FAST_METHODS:+,$FAST_METHODS}"
small_table="$RESULTS/tune_table_10240.csv"
large_table="$RESULTS/tune_table_2p20.csv"
"$MPGPU" tune --count 10240 --reps 5 --warmup 1 --verify sample --method "$methods" \
    --table "$small_table" --csv "$CSV"
"$MPGPU" tune --bits 64,128,256,512,1024,2048,3072,4096,6144,8192 --count 2^20 --reps 3 \
    --warmup 1 --verify sample --method "$methods" --table "$large_table" --csv "$CSV"
# One table: the first run's header (GPU, commit, date), then the rows of both in tune's order
# (bits, count, then time).
{
    grep '^#' "$small_table"
    echo "# merged by experiments/toom_tune.sh: 10240 products at 64..65536 bits (median of 5),"
    echo "# 2^20 products at 64..8192 bits (median of 3)"
    echo "bits,count,method,median_ms"
    grep -hv '^#\|^bits,' "$small_table" "$large_table" | LC_ALL=C sort -t, -k1,1n -k2,2n -k4,4g
} >"$RESULTS/tune_table.csv"
rm -f "$small_table" "$large_table"
