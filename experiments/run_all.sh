#!/usr/bin/env bash
# Everything the GPU machine is needed for, in one go: the gpu test suite, then every experiment
# script given (default: all), each writing into $RESULTS. The test log is kept next to the CSVs,
# named after the commit (RESULTS/gpu_tests_<commit>.log), so a results folder holds the gpu
# suite log of every commit that produced some of its CSVs and says whether that code passed.
#   RESULTS=results experiments/run_all.sh [experiments/mul_table33.sh ...]
#   RESULTS=results experiments/run_all.sh none      # the gpu suite alone
# GPU_SUITE_PART=K/N runs the K-th of N equal shares of the suite's programs alone, into
# RESULTS/gpu_tests_<commit>_partKofN.log, for a machine that holds a run for less time than
# the whole suite takes; the N logs together are the suite. MPGPU (default BUILD/cli/mpgpu) and
# BUILD (default build) name the binary and the build or staged folder (experiments/stage.sh).
# A script that is not there is refused before anything runs (exit 2).
set -uo pipefail

# The arguments before any work: -h or --help prints the lines above; every other one must be
# a script, or the one word none.
if [ $# -eq 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; }; then
    sed -n '2,/^set -uo pipefail$/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi
for a in "$@"; do
    if [ "$a" = none ] && [ $# -eq 1 ]; then
        continue
    fi
    if [ "$a" = none ] || [[ $a == -* ]] || [ ! -f "$a" ]; then
        echo "run_all: '$a' is not an experiment script here; accepted: paths of" \
            "experiments/*.sh, or none alone for the gpu suite only (--help)" >&2
        exit 2
    fi
done

# The programs of the gpu suite (tests/meson.build, suite 'gpu'), in the order they run. A name
# ending in .sh is a script in the source tree, run with bash and given the mpgpu binary (as
# meson passes it); any other name is a program built under $BUILD. Add each new gpu test here.
GPU_TESTS=(
    tests/test_mul_gpu
    tests/test_cli_gpu.sh
    tests/test_collatz_gpu
    tests/test_fixed_gpu
    tests/test_ctt_gpu
    tests/test_gcd_gpu
    tests/test_gcd_kary_gpu
    tests/test_gcd_lehmer_gpu
    tests/test_cli_gcd_gpu.sh
    tests/test_gcd_bulk_gpu
    tests/test_cli_gcd_shared_gpu.sh
    tests/test_shared_factors_gpu
    tests/test_mpgpu_gcd_gpu
    tests/test_mpgpu_gpu
    tests/test_mpgpu_fixed_gpu
    tests/test_mpgpu_ctt_gpu
    tests/test_mpgpu_collatz_gpu
    tests/test_mpgpu_install.sh
)

part=${GPU_SUITE_PART:-}
if [ -n "$part" ]; then
    if ! [[ $part =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] || ((BASH_REMATCH[1] > BASH_REMATCH[2])); then
        echo "run_all: GPU_SUITE_PART '$part' is not K/N with 1 <= K <= N" >&2
        exit 2
    fi
    k=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]} total=${#GPU_TESTS[@]}
    first=$(((k - 1) * total / n)) last=$((k * total / n))
    GPU_TESTS=("${GPU_TESTS[@]:first:last-first}")
fi

here=$(dirname "$0")
src=$(cd "$here/.." && pwd)
RESULTS=${RESULTS:-results}
BUILD=${BUILD:-build}
export RESULTS MPGPU=${MPGPU:-$BUILD/cli/mpgpu}
mkdir -p "$RESULTS"

# The commit names the log: the one the binary was built from (meson.build's vcs_tag), which is
# the code that ran; a copied tree may carry a .git that is not the one it was built from.
version=$("$MPGPU" --version 2>&1) || version="($MPGPU --version failed: $version)"
commit=$(sed -nE 's/.*\(commit ([^)]+)\).*/\1/p' <<<"$version")
commit=${commit:-unknown}
log="$RESULTS/gpu_tests_$commit${part:+_part${part%/*}of${part#*/}}.log"

# The programs run directly, not through `meson test`: the GPU host's Meson may be newer than
# the one that configured $BUILD and then refuses to read it.
{
    echo "mpgpu gpu test suite"
    echo "commit: $commit (the binary's)"
    echo "mpgpu --version: $version"
    echo "device (nvidia-smi):"
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv 2>&1
    else
        echo "nvidia-smi: not available"
    fi
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "build: $BUILD"
    [ -z "$part" ] || echo "part: $part of the suite's programs: ${GPU_TESTS[*]}"
    echo
    failed=0
    for t in "${GPU_TESTS[@]}"; do
        echo "== $t"
        started=$SECONDS
        if [[ $t == tests/test_mpgpu_install.sh ]]; then
            # Built here by experiments/stage.sh when $BUILD is a staged folder; else meson's.
            if [ -d "$BUILD/mpgpu_install" ]; then
                bash "$src/$t" --staged "$BUILD/mpgpu_install"
            else
                bash "$src/$t" "$BUILD" "$src" gpu
            fi
        elif [[ $t == *.sh ]]; then
            bash "$src/$t" "$MPGPU"
        else
            "$BUILD/$t"
        fi
        rc=$?
        took="$((SECONDS - started)) s"
        case $rc in
            0) echo "== $t: passed ($took)" ;;
            77) echo "== $t: skipped (exit 77, $took)"; failed=1 ;;
            *) echo "== $t: FAILED (exit $rc, $took)"; failed=1 ;;
        esac
    done
    echo "gpu suite${part:+ part $part}: $([ "$failed" -eq 0 ] && echo "all ${#GPU_TESTS[@]} programs passed" || echo "NOT passed")"
    exit "$failed"
} 2>&1 | tee "$log" | tail -15
status=${PIPESTATUS[0]}
echo "run_all: gpu suite log in $log" >&2
[ "$status" -eq 0 ] || echo "run_all: the gpu suite did not pass (see $log); experiments still run" >&2

scripts=("$@")
[ "${scripts[*]}" != none ] || scripts=()
[ $# -gt 0 ] || scripts=("$here"/mul_*.sh "$here"/toom_*.sh "$here"/collatz_*.sh "$here"/gcd_*.sh "$here"/ctt_*.sh "$here"/fixed_*.sh)
for s in "${scripts[@]}"; do
    echo "== $s" >&2
    bash "$s" || { echo "run_all: $s failed" >&2; status=1; }
done
exit "$status"
