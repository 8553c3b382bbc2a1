#!/usr/bin/env bash
# Issue 39: Montgomery multiplication on the IMAD pipe (--impl ptx), on the FP64 pipe (fp64:
# 52-bit limbs) and on both (hybrid: the ptx path with the even words' products of its product
# rows on the FP64 pipe), at 256, 384 and 512 bits, 2^20 elements, one random odd modulus for
# all and one per element (CGBN's setting). montmul as a chain of 100 and of 200 in registers,
# so that the marginal rate 100 x 2^20 / (t(200) - t(100)) leaves out loading and storing;
# powm (exponents of the precision's bits) once per element. Every result is checked against GMP
# on a sample (the gpu suite checks them all). With Nsight Compute on PATH, one launch of each
# 256-bit montmul chain of 100 is profiled for its pipes, issue and occupancy.
# Writes $RESULTS/fixed_montgomery_pipes.{csv,md,machine.txt} and, with ncu,
# $RESULTS/fixed_montgomery_pipes_ncu.txt.
#   experiments/fixed_montgomery_pipes.sh                   the run (on the GPU machine)
#   experiments/fixed_montgomery_pipes.sh --summary F.csv   the rate table of such a CSV
set -euo pipefail
source "$(dirname "$0")/script_help.sh" "$@"

# summary CSV: the marginal montmul rate of each case, from the medians of its chains of 100 and
# 200, verified rows only; "-" where a chain is missing or the longer one was not the slower.
summary() {
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
            p = $col["params"]
            split(p, kv, ";")
            delete f
            for (k in kv) { split(kv[k], e, "="); f[e[1]] = e[2] }
            if (f["op"] != "montmul" || $col["mismatches"] != 0) next
            key = $col["bits"] SUBSEP f["impl"] SUBSEP f["modulus"]
            t[key, f["chain"]] = $col["median_ms"]; n[key] = f["elements"]; keys[key] = 1
            gpu = $col["gpu"]; commit = $col["commit"]
        }
        END {
            printf "Marginal montmul rate, 100 x elements / (t(chain 200) - t(chain 100)), held kernel time, median of 10; %s, commit %s\n\n", gpu, commit
            print "| bits | moduli | ptx (IMAD) | fp64 | hybrid | hybrid / ptx |"
            print "| ---: | --- | ---: | ---: | ---: | ---: |"
            split("256 384 512", bits, " ")
            split("random per-element", mods, " ")
            for (b = 1; b <= 3; b++)
                for (m = 1; m <= 2; m++) {
                    line = "| " bits[b] " | " (mods[m] == "random" ? "one for all" : "one per element")
                    split("ptx fp64 hybrid", impl, " ")
                    for (i = 1; i <= 3; i++) {
                        key = bits[b] SUBSEP impl[i] SUBSEP mods[m]
                        dt = (key in keys) ? t[key, 200] - t[key, 100] : 0
                        r[i] = dt > 0 ? 100 * n[key] / (dt / 1000) : 0
                        line = line (r[i] > 0 ? sprintf(" | %.3g/s", r[i]) : " | -")
                    }
                    print line (r[1] > 0 && r[3] > 0 ? sprintf(" | %.2fx |", r[3] / r[1]) : " | - |")
                }
        }' "$1"
}

if [ "${1:-}" = --summary ]; then
    if [ $# -ne 2 ] || [ ! -r "$2" ]; then
        echo "fixed_montgomery_pipes: --summary takes one readable CSV file" >&2
        exit 2
    fi
    summary "$2"
    exit 0
elif [ $# -gt 0 ]; then
    echo "fixed_montgomery_pipes: unknown argument '$1'; accepted: --summary FILE.csv, or none" >&2
    exit 2
fi

source "$(dirname "$0")/common.sh"
start_experiment fixed_montgomery_pipes
impls=ptx,fp64,hybrid
count=2^20
if [ "${QUICK:-0}" = 1 ]; then count=2^12; fi
for moduli in shared per-element; do
    for chain in 100 200; do
        "$MPGPU" fixed --bits 256,384,512 --op montmul --impl "$impls" --moduli "$moduli" \
            --count "$count" --chain "$chain" --reps 10 --csv "$CSV" --verify sample --quiet
    done
done
"$MPGPU" fixed --bits 256,384,512 --op powm --impl "$impls" --count "$count" --reps 5 \
    --csv "$CSV" --verify sample --quiet
summary "$CSV" >"$RESULTS/fixed_montgomery_pipes.md"
cat "$RESULTS/fixed_montgomery_pipes.md"

if ! command -v ncu >/dev/null; then
    echo "fixed_montgomery_pipes: Nsight Compute (ncu) is not on PATH: no profile" >&2
    exit 0
fi
{
    cat "$RESULTS/fixed_montgomery_pipes.machine.txt"
    for impl in ptx fp64 hybrid; do
        echo
        echo "# Nsight Compute, one launch: montmul --impl $impl, 256 bits, chain 100, $count elements"
        ncu --clock-control none -k regex:fixed_local --launch-skip 2 -c 1 \
            --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
            --section WarpStateStats --section InstructionStats \
            --metrics sm__inst_executed.sum,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum \
            "$MPGPU" fixed --bits 256 --op montmul --impl "$impl" --count "$count" --chain 100 \
            --reps 3 --verify sample 2>&1
    done
} >"$RESULTS/fixed_montgomery_pipes_ncu.txt"
echo "fixed_montgomery_pipes: wrote $RESULTS/fixed_montgomery_pipes_ncu.txt" >&2
