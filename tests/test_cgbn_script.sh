#!/usr/bin/env bash
# experiments/peers/cgbn.sh (issue 39) without CGBN and without a GPU: with no CGBN_DIR, or one
# without cgbn/cgbn.h, it says "skipped" and exits 0 before writing anything; a CGBN_BENCH that
# is no program is refused (exit 2), as is an unknown table in CGBN_PARTS; and its ratio table
# (--ratios), read from a CSV in mpgpu's schema written here by hand, sets each case's best CGBN
# method (TPI and block size) against mpgpu's best method, and the marginal Montgomery rates
# 100 n / (t(chain 200) - t(chain 100)), with the right numbers, leaving out a row with a
# mismatch however fast. The Nsight Compute scripts beside it refuse without a harness or
# without ncu; cgbn_rounds.sh skips and refuses as cgbn.sh does, and its summary over rounds has
# the right numbers.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
script="$repo/experiments/peers/cgbn.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_skip DESCRIPTION ENV...: the script skips, exit 0, and leaves no results folder.
expect_skip() {
    local what=$1 out status=0
    shift
    out=$(env -u CGBN_DIR -u CGBN_BENCH RESULTS="$work/results" "$@" bash "$script" 2>&1) || status=$?
    [ "$status" -eq 0 ] || fail "$what: exit $status, expected 0: $out"
    grep -q "skipped" <<<"$out" || fail "$what: no 'skipped' in: $out"
    [ ! -e "$work/results" ] || fail "$what: wrote $work/results"
}
expect_skip "no CGBN_DIR"
expect_skip "CGBN_DIR without cgbn/cgbn.h" CGBN_DIR="$work"
status=0
out=$(env -u CGBN_DIR -u CGBN_BENCH bash "$script" --build-only "$work/out" 2>&1) || status=$?
[ "$status" -eq 0 ] && grep -q skipped <<<"$out" || fail "--build-only without CGBN_DIR: exit $status: $out"
[ ! -e "$work/out" ] || fail "--build-only without CGBN_DIR made $work/out"

status=0
out=$(env -u CGBN_DIR CGBN_BENCH="$work/no_such_program" RESULTS="$work/results" bash "$script" 2>&1) ||
    status=$?
[ "$status" -eq 2 ] || fail "CGBN_BENCH that is no program: exit $status, expected 2: $out"
grep -q "no_such_program" <<<"$out" || fail "CGBN_BENCH refusal does not name it: $out"

status=0
out=$(CGBN_PARTS="gcd modexp" RESULTS="$work/results" bash "$script" 2>&1) || status=$?
[ "$status" -eq 2 ] && grep -q "unknown table 'modexp'" <<<"$out" ||
    fail "CGBN_PARTS naming an unknown table: exit $status, expected 2 naming it: $out"
[ ! -e "$work/results" ] || fail "CGBN_PARTS refusal wrote $work/results"

# Rows in the schema of docs/csv.md (the columns the table reads, by name, in another order
# than mpgpu writes them, to show that it finds them by the header). The thread-comba-reg row,
# the fastest but with 3 mismatches, must not be the best method of its case.
csv="$work/rows.csv"
cat >"$csv" <<'CSV'
subcommand,method,bits,count,timed_region,params,median_ms,mismatches
mul,cgbn-tpi4,256,1048576,kernels,words=8;tpi=4;block=128,0.1,0
mul,cgbn-tpi8,256,1048576,kernels,words=8;tpi=8;block=128,0.08,0
mul,cgbn-tpi8-b256,256,1048576,kernels,words=8;tpi=8;block=256,0.07,0
mul,split-rowchain,256,1048576,kernels,words=8;batches=1,0.05,0
mul,thread-rowchain-karatsuba,256,1048576,kernels,words=8;batches=1,0.04,0
mul,thread-comba-reg,256,1048576,kernels,words=8;batches=1,0.01,3
mul,cgbn-tpi8,256,1048576,kernels+launch,words=8;tpi=8;block=128,0.09,0
mul,split-rowchain,256,1048576,kernels+launch,words=8;batches=1,0.18,0
mul,cgbn-tpi32,32768,16384,kernels,words=1024;tpi=32;block=128,2.5,0
fixed,cgbn-tpi4,256,104857600,kernels,op=montmul;elements=1048576;chain=100;modulus=per-element;tpi=4;block=128,6,0
fixed,cgbn-tpi4,256,209715200,kernels,op=montmul;elements=1048576;chain=200;modulus=per-element;tpi=4;block=128,11,0
fixed,cgbn-tpi8,256,104857600,kernels,op=montmul;elements=1048576;chain=100;modulus=per-element;tpi=8;block=128,7,0
fixed,cgbn-tpi8,256,209715200,kernels,op=montmul;elements=1048576;chain=200;modulus=per-element;tpi=8;block=128,15,0
fixed,montmul-ptx,256,104857600,kernels,op=montmul;impl=ptx;elements=1048576;chain=100;operands=separate;word_order=coalesced;mem=local;grid=0;block=256;modulus=random,2,0
fixed,montmul-ptx,256,209715200,kernels,op=montmul;impl=ptx;elements=1048576;chain=200;operands=separate;word_order=coalesced;mem=local;grid=0;block=256;modulus=random,4,0
CSV
table=$(bash "$script" --ratios "$csv")
# row CASE_PATTERN EXPECTED: the table's line for the case holds the expected cells.
row() {
    grep -F -- "$1" <<<"$table" | grep -qF -- "$2" || fail "ratio table lacks '$2' for '$1': $table"
}
row "| mul | 256 | 1048576 | kernels |" "| 0.07 ms (cgbn-tpi8-b256) | 0.04 ms (thread-rowchain-karatsuba) | 1.75x |"
row "| mul | 256 | 1048576 | kernels+launch |" "| 0.09 ms (cgbn-tpi8) | 0.18 ms (split-rowchain) | 0.50x |"
row "| mul | 32768 | 16384 | kernels |" "| 2.5 ms (cgbn-tpi32) | - (no row) | - |"
# CGBN: 100 x 2^20 / 5 ms = 2.10e10/s at TPI 4 (TPI 8: 1.31e10); mpgpu: 100 x 2^20 / 2 ms.
row "| fixed | 256 | 1048576 | kernels |" "| 2.1e+10/s (cgbn-tpi4) | 5.24e+10/s (montmul-ptx) | 2.50x |"
[ "$(grep -c '^| ' <<<"$table")" -eq 6 ] || fail "ratio table: expected a header, a rule and 4 cases: $table"
# The Nsight Compute scripts beside it refuse, exit 2 and write nothing, without a harness and
# without ncu on PATH (a PATH of the system's folders only; skipped where ncu is there).
for ncu_script in cgbn_ncu_small.sh mul1024_small_ncu.sh; do
    path="$repo/experiments/peers/$ncu_script"
    status=0
    out=$(env -u CGBN_BENCH RESULTS="$work/results" bash "$path" 2>&1) || status=$?
    [ "$status" -eq 2 ] && grep -q "CGBN_BENCH" <<<"$out" ||
        fail "$ncu_script without CGBN_BENCH: exit $status, expected 2 naming it: $out"
    [ ! -e "$work/results" ] || fail "$ncu_script without CGBN_BENCH wrote $work/results"
    if ! PATH=/usr/bin:/bin command -v ncu >/dev/null; then
        status=0
        out=$(PATH=/usr/bin:/bin CGBN_BENCH=/bin/true RESULTS="$work/results" bash "$path" 2>&1) ||
            status=$?
        [ "$status" -eq 2 ] && grep -q "ncu" <<<"$out" ||
            fail "$ncu_script without ncu: exit $status, expected 2 naming it: $out"
        [ ! -e "$work/results" ] || fail "$ncu_script without ncu wrote $work/results"
    fi
done
# cgbn_ncu_small.sh takes mpgpu's fastest methods from cgbn.sh's CSV in the same RESULTS, and
# refuses the same way without it (a stand-in ncu on PATH, which the refusal must not run).
mkdir -p "$work/bin"
printf '#!/bin/sh\necho ran >"%s/ncu-ran"\n' "$work" >"$work/bin/ncu"
chmod +x "$work/bin/ncu"
status=0
out=$(PATH="$work/bin:$PATH" CGBN_BENCH=/bin/true RESULTS="$work/results" \
    bash "$repo/experiments/peers/cgbn_ncu_small.sh" 2>&1) || status=$?
[ "$status" -eq 2 ] && grep -q "cgbn_mul.csv" <<<"$out" ||
    fail "cgbn_ncu_small.sh without cgbn_mul.csv: exit $status, expected 2 naming it: $out"
[ ! -e "$work/results" ] && [ ! -e "$work/ncu-ran" ] ||
    fail "cgbn_ncu_small.sh without cgbn_mul.csv wrote $work/results or ran ncu"
# mul1024_small_ncu.sh profiles a comba-reg method and refuses any other before writing anything.
status=0
out=$(PATH="$work/bin:$PATH" CGBN_BENCH=/bin/true RESULTS="$work/results" METHOD=split-rowchain \
    bash "$repo/experiments/peers/mul1024_small_ncu.sh" 2>&1) || status=$?
[ "$status" -eq 2 ] && grep -q "METHOD=split-rowchain" <<<"$out" ||
    fail "mul1024_small_ncu.sh with METHOD=split-rowchain: exit $status, expected 2 naming it: $out"
[ ! -e "$work/results" ] && [ ! -e "$work/ncu-ran" ] ||
    fail "mul1024_small_ncu.sh with METHOD=split-rowchain wrote $work/results or ran ncu"
# cgbn_rounds.sh: skips without a harness, refuses one that is no program and a bad ROUNDS before
# writing anything; its summary takes each round's (seed's) best of each side from held rows
# without mismatches, the medians over the rounds and the ratio's range. Round 2's fastest mpgpu
# row has mismatches and round 3's fastest CGBN row is timed with the launch: both left out.
rounds="$repo/experiments/peers/cgbn_rounds.sh"
status=0
out=$(env -u CGBN_BENCH RESULTS="$work/results" bash "$rounds" 2>&1) || status=$?
[ "$status" -eq 0 ] && grep -q skipped <<<"$out" && [ ! -e "$work/results" ] ||
    fail "cgbn_rounds.sh without CGBN_BENCH: exit $status, expected 0 and a skip: $out"
status=0
out=$(CGBN_BENCH="$work/no_such_program" RESULTS="$work/results" bash "$rounds" 2>&1) || status=$?
[ "$status" -eq 2 ] && grep -q no_such_program <<<"$out" && [ ! -e "$work/results" ] ||
    fail "cgbn_rounds.sh with CGBN_BENCH that is no program: exit $status, expected 2 naming it: $out"
for bad in 0 nine; do
    status=0
    out=$(CGBN_BENCH=/bin/true ROUNDS=$bad RESULTS="$work/results" bash "$rounds" 2>&1) || status=$?
    [ "$status" -eq 2 ] && grep -q "ROUNDS=$bad" <<<"$out" && [ ! -e "$work/results" ] ||
        fail "cgbn_rounds.sh with ROUNDS=$bad: exit $status, expected 2 naming it: $out"
done
cat >"$work/rounds.csv" <<'CSV'
subcommand,method,bits,count,timed_region,seed,median_ms,mismatches
mul,cgbn-tpi4,256,10240,kernels,1,0.0050,0
mul,cgbn-tpi8,256,10240,kernels,1,0.0042,0
mul,thread-comba-reg,256,10240,kernels,1,0.0036,0
mul,pair-comba-reg,256,10240,kernels,1,0.0030,0
mul,cgbn-tpi8,256,10240,kernels,2,0.0044,0
mul,pair-comba-reg,256,10240,kernels,2,0.0040,0
mul,thread-comba-reg,256,10240,kernels,2,0.0010,2
mul,cgbn-tpi8,256,10240,kernels,3,0.0040,0
mul,pair-comba-reg,256,10240,kernels,3,0.0033,0
mul,cgbn-tpi8,256,10240,kernels+launch,3,0.0010,0
mul,cgbn-tpi8,1024,10240,kernels,1,0.0069,0
mul,cgbn-tpi8-b32,1024,10240,kernels,1,0.0066,0
mul,octo-comba-reg,1024,10240,kernels,1,0.0060,0
CSV
summary=$(bash "$rounds" --summary "$work/rounds.csv")
# Rounds of 256 bits: 4.2 / 3.0 = 1.40x, 4.4 / 4.0 = 1.10x, 4.0 / 3.3 = 1.21x; 4.2 / 3.3 = 1.27x.
grep -qF "| 256 | 10240 | 3 | 4.200 us (4.000-4.400) | 3.300 us (3.000-4.000) | 1.273x | 1.10-1.40x | 2 of 3 |" \
    <<<"$summary" || fail "cgbn_rounds.sh --summary, 256 bits: $summary"
grep -qF "| 1024 | 10240 | 1 | 6.600 us (6.600-6.600) | 6.000 us (6.000-6.000) | 1.100x | 1.10-1.10x | 0 of 1 |" \
    <<<"$summary" || fail "cgbn_rounds.sh --summary, 1024 bits: $summary"
[ "$(grep -c '^| ' <<<"$summary")" -eq 4 ] || fail "cgbn_rounds.sh --summary: expected 2 sizes: $summary"
echo "cgbn.sh: skips without CGBN, refuses a missing harness and an unknown table, ratio table right;"
echo "cgbn_ncu_small.sh, mul1024_small_ncu.sh: refuse without a harness or ncu;"
echo "cgbn_ncu_small.sh: refuses without cgbn.sh's CSV; mul1024_small_ncu.sh: refuses a method"
echo "that is not a comba-reg one; cgbn_rounds.sh: skips without a harness, refuses a bad one or"
echo "ROUNDS, summary right"
