# Sourced by the Nsight Compute scripts beside CGBN (cgbn_ncu_small.sh, mul1024_small_ncu.sh)
# with $ncu_script set to the script's name: both need a harness and ncu, and cgbn_ncu_small.sh
# the cgbn_mul.csv that cgbn.sh wrote into the same RESULTS ($ncu_needs_csv); each is refused
# without them (exit 2) before common.sh makes $RESULTS, so nothing is written.
source "$(dirname "${BASH_SOURCE[0]}")/../script_args.sh"
[ -x "${CGBN_BENCH:-}" ] ||
    { echo "$ncu_script: set CGBN_BENCH (cgbn.sh --build-only OUT builds one)" >&2; exit 2; }
command -v ncu >/dev/null ||
    { echo "$ncu_script: Nsight Compute (ncu) is not on PATH" >&2; exit 2; }
if [ -n "${ncu_needs_csv:-}" ] && [ ! -f "${RESULTS:-results}/$ncu_needs_csv" ]; then
    echo "$ncu_script: no ${RESULTS:-results}/$ncu_needs_csv: run cgbn.sh into the same RESULTS first" >&2
    exit 2
fi
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
