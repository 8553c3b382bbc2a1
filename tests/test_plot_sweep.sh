#!/usr/bin/env bash
# The documented "plot your own sweep" command (docs/reproducing.md): from a directory other than
# the repository, `make -f REPO/Makefile.plots sweep CSV=FILE.csv` must write FILE.svg and FILE.png
# next to the CSV, and the SVG's key must name every method, verified or not. The CSV is written
# here by hand in the schema of docs/csv.md (with a quoted CPU name holding a comma, as mpgpu writes
# one), so the test needs no GPU and no mpgpu binary. Exit 77 (skipped) without gnuplot or make.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
command -v gnuplot >/dev/null || { echo "skipped: gnuplot is not installed"; exit 77; }
command -v make >/dev/null || { echo "skipped: make is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/data" "$work/elsewhere"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Header as docs/csv.md gives it; rows: two verified GPU methods at three sizes, GMP on
# one thread, and one method run with --verify none (to be drawn dashed, "(not verified)").
cat >"$work/data/my sweep.csv" <<'CSV'
timestamp,commit,host,cpu,gpu,compute_capability,sm_count,sm_clock_mhz,mem_clock_mhz,driver_version,runtime_version,subcommand,method,bits,params,count,reps,warmup,seed,cpu_threads,timed_region,median_ms,min_ms,max_ms,throughput_per_s,throughput_unit,verify_mode,checked,mismatches
2026-01-01T00:00:00Z,abc123def456,testhost,"Test CPU, 8 cores",Test GPU X,9.0,132,1980,3201,13.0,13.0,mul,thread-comba,1024,words=32;batches=1,10240,10,2,1,0,kernels,0.100000,0.090000,0.110000,1.024000e+08,products,all,10240,0
2026-01-01T00:00:01Z,abc123def456,testhost,"Test CPU, 8 cores",Test GPU X,9.0,132,1980,3201,13.0,13.0,mul,sumrotate-shuffle,1024,words=32;batches=1,10240,10,2,1,0,kernels,0.050000,0.040000,0.060000,2.048000e+08,products,all,10240,0
2026-01-01T00:00:02Z,abc123def456,testhost,"Test CPU, 8 cores",none,none,0,0,0,13.0,13.0,mul,gmp,1024,words=32,10240,10,2,1,1,cpu,2.000000,1.900000,2.100000,5.120000e+06,products,reference,0,0
2026-01-01T00:00:03Z,abc123def456,testhost,"Test CPU, 8 cores",Test GPU X,9.0,132,1980,3201,13.0,13.0,mul,thread-comba,2048,words=64;batches=1,10240,10,2,1,0,kernels,0.400000,0.390000,0.410000,2.560000e+07,products,all,10240,0
2026-01-01T00:00:04Z,abc123def456,testhost,"Test CPU, 8 cores",Test GPU X,9.0,132,1980,3201,13.0,13.0,mul,sumrotate-shuffle,2048,words=64;batches=1,10240,10,2,1,0,kernels,0.200000,0.190000,0.210000,5.120000e+07,products,all,10240,0
2026-01-01T00:00:05Z,abc123def456,testhost,"Test CPU, 8 cores",none,none,0,0,0,13.0,13.0,mul,gmp,2048,words=64,10240,10,2,1,1,cpu,6.000000,5.900000,6.100000,1.706667e+06,products,reference,0,0
2026-01-01T00:00:06Z,abc123def456,testhost,"Test CPU, 8 cores",Test GPU X,9.0,132,1980,3201,13.0,13.0,mul,thread-comba,4096,words=128;batches=1,10240,10,2,1,0,kernels,1.600000,1.590000,1.610000,6.400000e+06,products,all,10240,0
2026-01-01T00:00:07Z,abc123def456,testhost,"Test CPU, 8 cores",Test GPU X,9.0,132,1980,3201,13.0,13.0,mul,sumrotate-shuffle,4096,words=128;batches=1,10240,10,2,1,0,kernels,0.800000,0.790000,0.810000,1.280000e+07,products,all,10240,0
2026-01-01T00:00:08Z,abc123def456,testhost,"Test CPU, 8 cores",Test GPU X,9.0,132,1980,3201,13.0,13.0,mul,thread-karatsuba,4096,words=128;batches=1,10240,10,2,1,0,kernels,1.200000,1.190000,1.210000,8.533333e+06,products,none,0,0
CSV

# The documented command, run from a directory that is neither the repository nor the CSV's.
cd "$work/elsewhere"
make -s -f "$repo/Makefile.plots" sweep CSV="../data/my sweep.csv" >make.log 2>&1 ||
    { cat make.log >&2; fail "make sweep failed"; }
svg="$work/data/my sweep.svg"
[ -s "$svg" ] || fail "no SVG next to the CSV ($svg)"
[ -s "$work/data/my sweep.png" ] || fail "no PNG next to the CSV"
for name in thread-comba sumrotate-shuffle "gmp (1 thread)" "thread-karatsuba (not verified)"; do
    grep -qF ">$name<" "$svg" || fail "the SVG's key does not name '$name'"
done
grep -qF "Test GPU X, commit abc123def456" "$svg" || fail "the title does not name the CSV's GPU and commit"

# OUT=prefix writes prefix.svg and prefix.png instead.
make -s -f "$repo/Makefile.plots" sweep CSV="../data/my sweep.csv" OUT=out/fig >make.log 2>&1 ||
    { cat make.log >&2; fail "make sweep OUT=out/fig failed"; }
[ -s out/fig.svg ] && [ -s out/fig.png ] || fail "OUT=out/fig did not write out/fig.svg and out/fig.png"
echo "plot sweep: passed"
