#!/usr/bin/env bash
# experiments/fixed_montgomery_pipes.sh (issue 39) without a GPU: its argument errors exit 2 and
# name the argument; its rate table (--summary), read from a CSV in mpgpu's schema written here by
# hand, gives each case's marginal montmul rate 100 n / (t(chain 200) - t(chain 100)) and the
# hybrid's ratio to ptx with the right numbers, leaves out a row with a mismatch however fast, and
# prints "-" for a case with a chain missing or a longer chain no slower.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
script="$repo/experiments/fixed_montgomery_pipes.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
checks=0
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_refusal DESCRIPTION TEXT ARGS...: exit 2, TEXT in the message, nothing written.
expect_refusal() {
    local what=$1 text=$2 out status=0
    shift 2
    out=$(cd "$work" && RESULTS="$work/results" bash "$script" "$@" 2>&1) || status=$?
    [ "$status" -eq 2 ] || fail "$what: exit $status, expected 2: $out"
    grep -qF -- "$text" <<<"$out" || fail "$what: no '$text' in: $out"
    [ ! -e "$work/results" ] || fail "$what: wrote $work/results"
    checks=$((checks + 1))
}
expect_refusal "unknown argument" "unknown argument '--chain'" --chain 100
expect_refusal "--summary without a file" "--summary takes one readable CSV file" --summary
expect_refusal "--summary of no file" "--summary takes one readable CSV file" --summary "$work/none.csv"

# row OP IMPL BITS MODULUS CHAIN MEDIAN_MS MISMATCHES: one CSV row, the columns the summary reads
# set and the others placeholders.
header="timestamp,commit,host,cpu,gpu,compute_capability,sm_count,sm_clock_mhz,mem_clock_mhz,driver_version,runtime_version,subcommand,method,bits,params,count,reps,warmup,seed,cpu_threads,timed_region,median_ms,min_ms,max_ms,throughput_per_s,throughput_unit,verify_mode,checked,mismatches,noise_rsd_pct,samples,sm_clock_start_mhz,sm_clock_end_mhz,mem_clock_start_mhz,mem_clock_end_mhz,temp_start_c,temp_end_c,power_start_w,power_end_w,throttled_samples,throttle_reasons,schema_version"
row() {
    echo "2026-11-29T00:00:00Z,abc,vm,cpu,TEST GPU,9.0,132,1980,3201,13.0,13.0,fixed,$1-$2,$3,op=$1;impl=$2;elements=1000000;chain=$5;operands=separate;word_order=coalesced;mem=local;grid=0;block=256;modulus=$4,0,10,2,1,0,kernels,$6,$6,$6,0,ops,sample,1000,$7,0,10,1980,1980,3201,3201,40,40,100,100,0,,2"
}
{
    echo "$header"
    # 256 bits, one modulus: ptx 1 ms a 100 links (1e11/s), fp64 2 ms (5e10/s), hybrid 4 ms (2.5e10/s)
    row montmul ptx 256 random 100 1.5 0; row montmul ptx 256 random 200 2.5 0
    row montmul fp64 256 random 100 2.5 0; row montmul fp64 256 random 200 4.5 0
    row montmul hybrid 256 random 100 4.5 0; row montmul hybrid 256 random 200 8.5 0
    # a faster hybrid row with a mismatch is left out: the case has no chain of 200
    row montmul hybrid 256 per-element 100 0.5 0; row montmul hybrid 256 per-element 200 0.6 3
    row montmul ptx 256 per-element 100 1.5 0; row montmul ptx 256 per-element 200 2.5 0
    # 512 bits: a longer chain no slower is no rate
    row montmul ptx 512 random 100 3.0 0; row montmul ptx 512 random 200 3.0 0
    # powm rows are not montmul's
    row powm ptx 384 random 1 9.0 0
} >"$work/in.csv"
bash "$script" --summary "$work/in.csv" >"$work/out.md" || fail "--summary exited non-zero"
expect_line() {
    grep -qxF -- "$1" "$work/out.md" || { cat "$work/out.md" >&2; fail "no line '$1'"; }
    checks=$((checks + 1))
}
expect_line "| 256 | one for all | 1e+11/s | 5e+10/s | 2.5e+10/s | 0.25x |"
expect_line "| 256 | one per element | 1e+11/s | - | - | - |"
expect_line "| 384 | one for all | - | - | - | - |"
expect_line "| 512 | one for all | - | - | - | - |"
grep -q "TEST GPU, commit abc" "$work/out.md" || fail "the table does not name the GPU and commit"
checks=$((checks + 1))
[ "$(grep -c '^| [0-9]' "$work/out.md")" -eq 6 ] || fail "want 6 rows: $(cat "$work/out.md")"
checks=$((checks + 1))
echo "fixed_pipes_script: $checks checks, 0 failures: passed"
