# Sourced by the Nsight Compute scripts beside CGBN (cgbn_ncu_small.sh, mul1024_small_ncu.sh)
# with $ncu_script set to the script's name: both need a harness and ncu, and are refused
# without them (exit 2) before common.sh makes $RESULTS, so nothing is written.
[ -x "${CGBN_BENCH:-}" ] ||
    { echo "$ncu_script: set CGBN_BENCH (cgbn.sh --build-only OUT builds one)" >&2; exit 2; }
command -v ncu >/dev/null ||
    { echo "$ncu_script: Nsight Compute (ncu) is not on PATH" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
