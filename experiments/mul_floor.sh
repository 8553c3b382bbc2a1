#!/usr/bin/env bash
# The floor under a product kernel at 10240 products of 256 to 2048 bits (issue 39): the probe
# experiments/mul_floor.cu times, held as mpgpu times, an empty kernel and a kernel that only
# moves each product's operands into its product's words (T = 1, 2, 4, 8 threads a product),
# checking every copied word. Runs on the GPU machine (nvcc there) and writes
# $RESULTS/mul_floor.csv. Run it in the same call as experiments/peers/cgbn.sh, whose
# cgbn_mul.csv has CGBN's and mpgpu's times of the same run, timed the same way (docs/peers.md).
source "$(dirname "$0")/common.sh"
start_experiment mul_floor
build_probe mul_floor
"$probe" "$commit" >"$CSV"
