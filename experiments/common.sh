# Sourced by every experiment script: where the binary is, where results go, and a record of
# the machine next to each CSV (the CSV rows carry device, clocks, driver, commit and date too).
set -euo pipefail
MPGPU=${MPGPU:-build/cli/mpgpu}
RESULTS=${RESULTS:-results}
# mpgpu's own fastest multiplication methods, measured beside the papers' methods.
FAST_METHODS=${FAST_METHODS:-thread-rowchain-karatsuba}
mkdir -p "$RESULTS"
[ -x "$MPGPU" ] || { echo "experiments: $MPGPU is not built (meson compile -C build)" >&2; exit 2; }

# start_experiment NAME: truncates RESULTS/NAME.csv and writes RESULTS/NAME.machine.txt.
start_experiment() {
    CSV="$RESULTS/$1.csv"
    rm -f "$CSV"
    {
        echo "experiment: $1"
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "mpgpu: $("$MPGPU" --version)"
        echo "host: $(hostname), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
        nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,temperature.gpu,driver_version --format=csv 2>/dev/null || echo "nvidia-smi: not available"
    } >"$RESULTS/$1.machine.txt"
    echo "experiment $1 -> $CSV" >&2
}
