#!/usr/bin/env bash
# compute-sanitizer's memcheck, racecheck, synccheck and initcheck over the GPU methods of every
# subcommand at small sizes, on the GPU machine (docs/sanitizers.md says what each tool checks
# and what it reported). Each run's command line, the tool's summary line, pass or FAIL,
# mpgpu's own line on what it checked against the reference, and the first reports of a failing
# run go to $RESULTS/sanitize_<commit>.log (the commit of `mpgpu --version`, as run_all.sh names
# its log); the last line sums up. A run fails when the tool reports an error (racecheck: a
# hazard of level error; its warnings are shown, not failed) or mpgpu exits non-zero. Exits 1
# when any run failed. About 3 minutes on an H200.
#   MPGPU=build/cli/mpgpu RESULTS=results experiments/sanitize.sh
# TOOLS (default memcheck,racecheck,synccheck,initcheck) picks the tools, SANITIZER the program.
source "$(dirname "$0")/common.sh"
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
TOOLS=${TOOLS:-memcheck,racecheck,synccheck,initcheck}
[ -x "$SANITIZER" ] || { echo "sanitize: no compute-sanitizer at $SANITIZER (set SANITIZER)" >&2; exit 2; }
# The gcd moduli are sieved on the first run and read from this cache by the others.
export MPGPU_CACHE=${MPGPU_CACHE:-$(mktemp -d)}

# One line of mpgpu arguments a run: every GPU method of every subcommand, --devices 0,0 (two
# host threads and streams on one GPU) where a subcommand splits work over GPUs, both table
# memories of collatz and delay, and fixed's other layouts; sizes that take a few seconds under
# the slowest tool. The gcd lehmer run is issue 36's racecheck reproduction. The second mul run
# takes the plain comba-reg kernels at 64 words, their largest chunks. The third
# takes the warp Karatsuba levels over both of their leaves, with one level and with two, the
# halves unequal (9600 and 16416 bits: 300 and 513 words), which 1024 bits does not reach. The
# fourth takes thread-rowchain-karatsuba's block kernel at two and three in-block levels (its
# leaves write their products over their operands in shared memory).
RUNS=(
    "mul --method all --bits 1024 --count 64 --reps 1 --warmup 0"
    "mul --method thread-rowchain-karatsuba,sumrotate-shuffle,quad-comba-reg,octo-comba-reg --bits 2048 --count 64 --devices 0,0 --reps 1 --warmup 0"
    "mul --method warp-tensor-karatsuba,sumrotate-shuffle-karatsuba2,sumrotate-shared-karatsuba --bits 9600,16416 --count 8 --reps 1 --warmup 0"
    "mul --method thread-rowchain-karatsuba --bits 4096,8192 --count 40 --reps 1 --warmup 0"
    "toom --method all --bits 1024 --count 64 --reps 1 --warmup 0"
    "fixed --op add,sub,addm,subm,mul,karatsuba,montred,montmul,powm --impl ptx,c,fp64,hybrid --bits 256 --count 256 --reps 1 --warmup 0"
    "fixed --op add,montmul --bits 109,384 --mem global --operands interleaved --word-order contiguous --count 256 --reps 1 --warmup 0"
    "gcd --method gpu --barrier all --inverse all --bits 4096 --count 2 --reps 1 --warmup 0"
    "gcd --method kary --bits 4096 --count 2 --reps 1 --warmup 0"
    "gcd --method lehmer --bits 16384 --count 1 --reps 1 --warmup 0"
    "ctt-vs-ctw --op mul --words 64 --sigma 64 --count 256 --method ctt,ctw,auto --reps 1 --warmup 0"
    "ctt-vs-ctw --op sub --signed --words 64 --sigma 64 --count 256 --method ctt,ctw,auto --reps 1 --warmup 0"
    "ctt-vs-ctw --op qdiv --words 16 --sigma 16 --count 256 --method ctt,ctw,auto --reps 1 --warmup 0"
    "collatz --method gpu --start 2^62 --count 2^24 --s-bits 16 --verify all --reps 1 --warmup 0"
    "collatz --method gpu --start 2^62 --count 2^24 --s-bits 16 --table-memory global --devices 0,0 --verify all --reps 1 --warmup 0"
    "delay --method gpu --start 1 --count 2^22 --records --verify all --reps 1 --warmup 0"
    "delay --method gpu --start 2^62 --count 2^22 --table-memory global --devices 0,0 --verify all --reps 1 --warmup 0"
)

version=$("$MPGPU" --version)
commit=$(sed -nE 's/.*\(commit ([^)]+)\).*/\1/p' <<<"$version")
log="$RESULTS/sanitize_${commit:-unknown}.log"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# summary TOOL: the tool's summary line in $out, and whether it counts an error (exit 1 if so).
summary() {
    local line
    if [ "$1" = racecheck ]; then
        line=$(grep -m1 'RACECHECK SUMMARY' "$out") || { echo "no RACECHECK SUMMARY line"; return 1; }
        echo "${line#========= }"
        grep -qE '\(0 errors' <<<"$line" || return 1
    else
        line=$(grep -m1 'ERROR SUMMARY' "$out") || { echo "no ERROR SUMMARY line"; return 1; }
        echo "${line#========= }"
        grep -qE 'SUMMARY: 0 errors' <<<"$line" || return 1
    fi
}

runs=0 failed=0
start=$SECONDS
# The block runs in a subshell (the pipe into tee): its counts reach the log's last line, and
# the exit status comes from the log.
{
    echo "compute-sanitizer over mpgpu's GPU methods (experiments/sanitize.sh)"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "mpgpu: $version"
    echo "sanitizer: $SANITIZER, $("$SANITIZER" --version | tail -1)"
    echo "host: $(hostname), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader 2>/dev/null ||
        echo "nvidia-smi: not available"
    echo
    for tool in ${TOOLS//,/ }; do
        for run in "${RUNS[@]}"; do
            runs=$((runs + 1))
            t0=$SECONDS
            status=0
            # shellcheck disable=SC2086 # each run is a list of arguments
            "$SANITIZER" --tool "$tool" --print-limit 20 "$MPGPU" $run >"$out" 2>&1 || status=$?
            verdict=pass
            line=$(summary "$tool") || verdict=FAIL
            [ "$status" -eq 0 ] || { verdict=FAIL; line+="; mpgpu exit status $status"; }
            echo "$verdict  $tool  mpgpu $run"
            echo "      $line ($((SECONDS - t0)) s)"
            # What mpgpu checked against the reference, where it says (bench.c's last line).
            grep -E '^# [0-9]+ row\(s\)' "$out" | sed 's/^/      mpgpu: /' || true
            if [ "$verdict" = FAIL ]; then
                failed=$((failed + 1))
                { grep -E '^========= +(Error|Invalid|Race|Barrier|Uninitialized|Program hit|Potential)|^mpgpu:' \
                    "$out" || true; } | head -20 | sed 's/^/      | /'
            fi
        done
    done
    echo
    echo "sanitize: $runs runs ($TOOLS), $failed failed, $((SECONDS - start)) s"
} | tee "$log"
echo "sanitize: log in $log" >&2
! grep -q '^FAIL' "$log"
