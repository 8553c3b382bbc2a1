#!/usr/bin/env bash
# racecheck on the Lehmer kernel's handoff alone: the probe experiments/racecheck_mbarrier.cu,
# built with line information, in each of its modes, three runs each (racecheck's hazard
# reports vary from run to run with the timing), then synccheck and memcheck once each. Runs on
# the GPU machine (nvcc and compute-sanitizer there) and writes
# $RESULTS/racecheck_mbarrier_<commit>.txt; docs/sanitizers.md reads it.
source "$(dirname "$0")/common.sh"
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
build_probe racecheck_mbarrier -lineinfo
out="$RESULTS/racecheck_mbarrier_$commit.txt"
{
    echo "experiments/racecheck_mbarrier.cu under compute-sanitizer"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "mpgpu: $("$MPGPU" --version)"
    echo "sanitizer: $("$SANITIZER" --version | tail -1); nvcc: $("${NVCC:-nvcc}" --version | tail -1)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null ||
        echo "nvidia-smi: not available"
    for mode in top-after-red top-after-sync warp-leaders every-worker syncthreads; do
        for run in 1 2 3; do
            echo
            echo "== racecheck $mode, run $run"
            "$SANITIZER" --tool racecheck "$probe" "$mode" 2>&1 | sed "s#$probe_dir/##"
        done
        for tool in synccheck memcheck; do
            echo "== $tool $mode: $("$SANITIZER" --tool "$tool" "$probe" "$mode" 2>&1 | grep 'ERROR SUMMARY')"
        done
    done
} >"$out"
grep -E '^== |SUMMARY' "$out" >&2
echo "racecheck_mbarrier: wrote $out" >&2
