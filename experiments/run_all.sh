#!/usr/bin/env bash
# Everything the GPU machine is needed for, in one go: the gpu test suite, then every experiment
# script given (default: all), each writing into $RESULTS. The test log is kept next to the CSVs
# so a results folder always says whether the code that produced it passed its tests.
#   RESULTS=results experiments/run_all.sh [experiments/mul_table33.sh ...]
set -uo pipefail
here=$(dirname "$0")
RESULTS=${RESULTS:-results}
BUILD=${BUILD:-build}
export RESULTS MPGPU=${MPGPU:-$BUILD/cli/mpgpu}
mkdir -p "$RESULTS"
# The programs of the gpu suite (tests/meson.build), run directly: the GPU host's Meson may be
# newer than the one that configured $BUILD and then refuses to read it.
{
    "$BUILD/tests/test_mul_gpu" && bash "$here/../tests/test_cli_gpu.sh" "$MPGPU" &&
        "$BUILD/tests/test_collatz_gpu"
} 2>&1 | tee "$RESULTS/gpu_tests.log" | tail -15
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || echo "run_all: the gpu suite failed (status $status); experiments still run" >&2
scripts=("$@")
[ ${#scripts[@]} -gt 0 ] || scripts=("$here"/mul_*.sh "$here"/toom_*.sh "$here"/collatz_*.sh)
for s in "${scripts[@]}"; do
    [ -f "$s" ] || continue
    echo "== $s" >&2
    bash "$s" || { echo "run_all: $s failed" >&2; status=1; }
done
exit "$status"
