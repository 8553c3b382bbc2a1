#!/usr/bin/env bash
# One Karatsuba level inside octo-comba-reg at 2048 bits x 10240 products (issue 39): the probe
# experiments/mul_octo_karatsuba.cu times it and the committed octo-comba-reg kernel, held as
# mpgpu times, in nine rounds, checking every product of both. Runs on the GPU machine (nvcc
# there) and writes $RESULTS/mul_octo_karatsuba.csv.
source "$(dirname "$0")/common.sh"
start_experiment mul_octo_karatsuba
build_probe mul_octo_karatsuba
"$probe" "$commit" >"$CSV"
