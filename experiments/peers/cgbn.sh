#!/usr/bin/env bash
# Issue 39: NVIDIA CGBN beside mpgpu, like for like. Builds the peer harness
# (experiments/peers/cgbn_bench.c and cgbn_kernels.cu, our own code) against a CGBN checkout
# named by $CGBN_DIR, then runs the issue's tables with CGBN and with mpgpu in one run, into one
# CSV in mpgpu's schema ($RESULTS/cgbn.csv; method cgbn-tpiN for CGBN's rows in 128-thread
# blocks, as CGBN's samples launch, cgbn-tpiN-bM in blocks of M threads), each case timed held
# and with the launch (--include-launch), every result checked against GMP; and writes
# $RESULTS/cgbn_ratios.md, mpgpu's best method against CGBN's best TPI and block size from those
# rows. No CGBN code is in this project: without $CGBN_DIR (or a harness built before) it says so
# and skips.
#
#   CGBN_DIR=DIR experiments/peers/cgbn.sh                  build the harness and run (a GPU host
#                                                           with nvcc and GMP's headers)
#   CGBN_DIR=DIR experiments/peers/cgbn.sh --build-only OUT  build OUT/cgbn_bench only (no GPU)
#   CGBN_BENCH=OUT/cgbn_bench experiments/peers/cgbn.sh     run a harness built before (the GPU
#                                                           machine, which has no GMP headers)
#   experiments/peers/cgbn.sh --ratios FILE.csv             the ratio table of a CSV, on stdout
#
# DIR is CGBN's include folder, the one holding cgbn/cgbn.h (ours: ../shared/peers/CGBN/include).
# Building needs mpgpu's build (BUILD, default: the folder above $MPGPU's cli/, or build): the
# harness links its cli/, kernels/ and cpu_ref/ libraries, so that the command line, timing,
# checks and rows are mpgpu's own. QUICK=1 runs small counts with 2 repetitions (a smoke run).
# CGBN_PARTS (default "mul fixed gcd") runs some of the tables only, into
# $RESULTS/cgbn_PART[_PART...].csv and its _ratios.md unless it names all three; with
# CGBN_SIZES="1024:4 2048:4 4096:4" the harness is built for the GCD table alone.
set -euo pipefail
source "$(dirname "$0")/../script_help.sh" "$@"
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)

# The tables to run (CGBN_PARTS), checked before anything else; the experiment's name.
CGBN_PARTS=${CGBN_PARTS:-"mul fixed gcd"}
experiment=cgbn
for part in $CGBN_PARTS; do
    case $part in
    mul | fixed | gcd) ;;
    *) echo "cgbn: CGBN_PARTS: unknown table '$part' (mul, fixed, gcd)" >&2; exit 2 ;;
    esac
done
# shellcheck disable=SC2086 # the parts are words
[ "$(printf '%s\n' $CGBN_PARTS | sort -u | tr '\n' ' ')" = "fixed gcd mul " ] ||
    experiment=cgbn_$(printf '%s\n' $CGBN_PARTS | sort -u | paste -sd_)
has_part() { [[ " $CGBN_PARTS " == *" $1 "* ]]; }

# ratios CSV: for every case of CGBN rows (subcommand, bits, count, timed region), CGBN's best
# method (TPI and block size) against mpgpu's best method of the same case; for fixed, the
# marginal rate of the chain, 100 elements / (t(chain 200) - t(chain 100)), of each side's best.
# Columns by header name.
ratios() {
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == "timestamp" { next }
        # A published ratio comes from verified rows only: a row with a mismatch is left out.
        "mismatches" in col && $col["mismatches"] + 0 > 0 { next }
        {
            sub_ = $col["subcommand"]; m = $col["method"]; side = m ~ /^cgbn-/ ? "cgbn" : "mpgpu"
            t = $col["median_ms"] + 0; region = $col["timed_region"]; bits = $col["bits"]
            if (sub_ == "fixed") {
                p = $col["params"]
                if (!match(p, /(^|;)chain=[0-9]+/)) next
                chain = substr(p, RSTART, RLENGTH); sub(/.*=/, "", chain)
                if (!match(p, /(^|;)elements=[0-9]+/)) next
                n = substr(p, RSTART, RLENGTH); sub(/.*=/, "", n)
                g = sub_ SUBSEP bits SUBSEP n SUBSEP region
                fixed_t[g, side, m, chain] = t; fixed_m[g, side, m] = 1; fixed_g[g] = 1
                next
            }
            g = sub_ SUBSEP bits SUBSEP $col["count"] SUBSEP region
            if (side == "cgbn") case_g[g] = 1
            if (!((g, side) in best) || t < best[g, side]) { best[g, side] = t; who[g, side] = m }
        }
        function row(g, unit, cv, cm, mv, mm,    k) {
            split(g, k, SUBSEP)
            printf "| %s | %s | %s | %s | %s (%s) | %s (%s) | %s |\n", k[1], k[2], k[3], k[4], cv, cm,
                   mv == "" ? "-" : mv, mm == "" ? "no row" : mm,
                   mv == "" ? "-" : sprintf("%.2fx", unit == "ms" ? cv / mv : mv / cv)
        }
        END {
            print "| subcommand | bits | count | timed region | CGBN, best TPI and block | mpgpu, best method | mpgpu / CGBN |"
            print "| --- | ---: | ---: | --- | ---: | ---: | ---: |"
            for (g in case_g)
                row(g, "ms", sprintf("%.4g ms", best[g, "cgbn"]), who[g, "cgbn"],
                    (g, "mpgpu") in best ? sprintf("%.4g ms", best[g, "mpgpu"]) : "",
                    who[g, "mpgpu"])
            for (g in fixed_g) {
                split(g, k, SUBSEP)
                for (s = 0; s < 2; s++) {
                    side = s ? "mpgpu" : "cgbn"; rate[side] = ""; name[side] = ""
                    for (key in fixed_m) {
                        split(key, q, SUBSEP)
                        if (q[1] SUBSEP q[2] SUBSEP q[3] SUBSEP q[4] != g || q[5] != side) continue
                        if (!((g, side, q[6], 200) in fixed_t) || !((g, side, q[6], 100) in fixed_t)) continue
                        dt = fixed_t[g, side, q[6], 200] - fixed_t[g, side, q[6], 100]
                        if (dt <= 0) continue
                        r = 100 * k[3] / (dt / 1000)
                        if (rate[side] == "" || r > rate[side]) { rate[side] = r; name[side] = q[6] }
                    }
                }
                if (rate["cgbn"] == "") continue
                row(g, "rate", sprintf("%.3g/s", rate["cgbn"]), name["cgbn"],
                    rate["mpgpu"] == "" ? "" : sprintf("%.3g/s", rate["mpgpu"]), name["mpgpu"])
            }
        }' "$1" | { read -r h; read -r r; echo "$h"; echo "$r"; sort -t'|' -k2,2 -k3,3n -k4,4n -k5,5; }
}

if [ "${1:-}" = --ratios ]; then
    if [ $# -ne 2 ] || [ ! -r "$2" ]; then
        echo "cgbn: --ratios takes one readable CSV file" >&2
        exit 2
    fi
    ratios "$2"
    exit 0
fi

build_only=
if [ "${1:-}" = --build-only ]; then
    [ $# -eq 2 ] || { echo "cgbn: --build-only takes the folder to build cgbn_bench in" >&2; exit 2; }
    build_only=$2
elif [ $# -gt 0 ]; then
    echo "cgbn: unknown argument '$1'; accepted: --build-only OUT, --ratios FILE.csv, or none" >&2
    exit 2
fi

if [ -n "${CGBN_BENCH:-}" ] && [ -z "$build_only" ]; then
    [ -x "$CGBN_BENCH" ] || { echo "cgbn: CGBN_BENCH=$CGBN_BENCH is not an executable harness (cgbn.sh --build-only OUT makes OUT/cgbn_bench)" >&2; exit 2; }
elif [ -z "${CGBN_DIR:-}" ]; then
    echo "cgbn: skipped: CGBN_DIR is unset (CGBN's include folder, the one holding cgbn/cgbn.h; CGBN is not part of mpgpu)"
    exit 0
elif [ ! -f "$CGBN_DIR/cgbn/cgbn.h" ]; then
    echo "cgbn: skipped: CGBN_DIR=$CGBN_DIR holds no cgbn/cgbn.h (give CGBN's include folder)"
    exit 0
fi

MPGPU=${MPGPU:-build/cli/mpgpu}

# Sizes the harness is built for and the operations at each (cgbn_kernels.cu's CGBN_BENCH_OPS:
# 1 mul, 2 montmul, 4 gcd), every TPI (4, 8, 16, 32) at every size: the issue's tables; each in
# blocks of CGBN_BLOCKS threads (cgbn_kernels.cu's CGBN_BENCH_BLOCKS, a sum of 32, 64, 128, 256
# and 512; default all five).
CGBN_SIZES=${CGBN_SIZES:-"256:3 384:2 512:3 1024:5 2048:5 4096:5 8192:1 16384:1 32768:1"}
CGBN_BLOCKS=${CGBN_BLOCKS:-992}

# build_harness OUT: OUT/cgbn_bench from the harness's sources, CGBN and mpgpu's build; says how
# long it took. Kernel objects are compiled ${JOBS:-2} at a time.
build_harness() {
    local out=$1 build=${BUILD:-$(dirname "$(dirname "$MPGPU")")}
    local nvcc=${NVCC:-nvcc} cc=${CC:-cc} cxx=${CXX:-c++}
    command -v "$nvcc" >/dev/null || { echo "cgbn: no nvcc ($nvcc): set NVCC or PATH" >&2; exit 2; }
    echo '#include <gmp.h>' | "$cc" -E - >/dev/null 2>&1 ||
        { echo "cgbn: GMP's headers are missing (gmp.h): build where they are (--build-only) and set CGBN_BENCH" >&2; exit 2; }
    local lib
    for lib in cli/libmpgpu_cli.a kernels/libmpgpu.a cpu_ref/libmpgpu_cpu_ref.a kernels/mpgpu.h; do
        [ -e "$build/$lib" ] || { echo "cgbn: $build/$lib is missing: build mpgpu first (meson compile -C $build) or set BUILD" >&2; exit 2; }
    done
    local cudart
    cudart="$(dirname "$(dirname "$(command -v "$nvcc")")")/lib64/libcudart_static.a"
    local gmp_a=${GMP_A:-/usr/lib/x86_64-linux-gnu/libgmp.a}
    [ -f "$gmp_a" ] || { echo "cgbn: no static GMP at $gmp_a: set GMP_A" >&2; exit 2; }
    mkdir -p "$out"
    local obj
    obj=$(mktemp -d)
    local start=$SECONDS
    local inc=(-I"$src/cli" -I"$src/kernels" -I"$src/cpu_ref" -I"$build/kernels" -I"$build/cli")
    "$cc" -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -fopenmp "${inc[@]}" \
        -I"$(dirname "$(dirname "$(command -v "$nvcc")")")/include" \
        -c "$here/cgbn_bench.c" -o "$obj/cgbn_bench.o"
    "$cc" -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L "${inc[@]}" \
        -c "$src/cli/hostmem.c" -o "$obj/hostmem.o"
    local spec objs=()
    for spec in $CGBN_SIZES; do objs+=("$obj/cgbn_${spec%%:*}.o"); done
    # shellcheck disable=SC2016,SC2086 # the inner script's own variables; a list of words
    printf '%s\n' $CGBN_SIZES | xargs -P "${JOBS:-2}" -I{} bash -c '
        bits=${1%%:*} ops=${1##*:}
        "$2" -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -I"$3" -I"$4" \
            -DCGBN_BENCH_BITS=$bits -DCGBN_BENCH_TPIS=60 -DCGBN_BENCH_BLOCKS=$6 -DCGBN_BENCH_OPS=$ops \
            -c "$4/cgbn_kernels.cu" -o "$5/cgbn_$bits.o"' _ {} "$nvcc" "$CGBN_DIR" "$here" "$obj" "$CGBN_BLOCKS"
    # shellcheck disable=SC2016,SC2046 # $ORIGIN is the linker's; the flags are words
    "$cxx" -o "$out/cgbn_bench" "$obj/cgbn_bench.o" "$obj/hostmem.o" "${objs[@]}" \
        -Wl,--as-needed '-Wl,-rpath,$ORIGIN/../lib' -Wl,--start-group \
        "$build/cli/libmpgpu_cli.a" "$build"/kernels/*.a "$build/cpu_ref/libmpgpu_cpu_ref.a" \
        "$gmp_a" "$cudart" -Wl,--end-group -fopenmp -ldl -lrt -pthread -lm \
        $(pkg-config --libs libcjson 2>/dev/null || true)
    rm -rf "$obj"
    echo "cgbn: built $out/cgbn_bench (sizes $CGBN_SIZES, blocks $CGBN_BLOCKS) in $((SECONDS - start)) s on ${JOBS:-2} jobs" >&2
}

if [ -n "$build_only" ]; then
    build_harness "$build_only"
    exit 0
fi

# shellcheck source=../common.sh
source "$here/../common.sh"
if [ -z "${CGBN_BENCH:-}" ]; then
    harness_dir=$(mktemp -d)
    trap 'rm -rf "$harness_dir"' EXIT
    build_harness "$harness_dir"
    CGBN_BENCH=$harness_dir/cgbn_bench
fi

start_experiment "$experiment"
"$CGBN_BENCH" --list >>"$RESULTS/$experiment.machine.txt"

# Counts as the issue's tables: 2^20 products up to 8192 bits, 2^16 at 16384, 2^14 at 32768,
# and 10240 at every size (median of 50, as the issue's mpgpu column); QUICK=1: a smoke run.
big=$((1 << 20)) big16k=$((1 << 16)) big32k=$((1 << 14)) few=10240 reps=10 few_reps=50
gcd_count=$((1 << 20)) mont_count=$((1 << 20))
if [ "${QUICK:-0}" = 1 ]; then
    big=4096 big16k=256 big32k=64 few=1024 reps=2 few_reps=2 gcd_count=1024 mont_count=4096
fi
# mpgpu's fastest multiplication methods, each where it applies (the issue's best per size).
MUL_METHODS=${MUL_METHODS:-"thread-comba-reg thread-comba-reg-shared pair-comba-reg pair-comba-reg-shared
    quad-comba-reg quad-comba-reg-shared octo-comba-reg octo-comba-reg-shared split-rowchain
    thread-rowchain-karatsuba warp-tensor-toeplitz warp-tensor-karatsuba"}

# One GPU run holds the whole table: a command that fails (a result that differs from GMP exits
# 1, a CUDA error 3) is reported and counted, the run goes on, and the script exits 1 at the end.
failures=0
attempt() {
    local status=0
    "$@" || status=$?
    [ "$status" -ne 130 ] || exit 130 # Ctrl-C: mpgpu's loop stopped cleanly; so does the run
    [ "$status" -eq 0 ] || { echo "cgbn: FAILED (exit $status): $*" >&2; failures=$((failures + 1)); }
    return "$status"
}

# tpi_methods OP TPI: the harness's methods built for OP with TPI threads an instance (every
# block size), comma-separated; empty when none.
tpi_methods() {
    "$CGBN_BENCH" --list | awk -v op="$1" -v t="cgbn-tpi$2" '
        $1 == op { n = split($3, m, ","); for (i = 1; i <= n; i++) if (m[i] == t || index(m[i], t "-b") == 1) seen[m[i]] = 1 }
        END { for (k in seen) out = out (out == "" ? "" : ",") k; print out }'
}

# both CMD...: the command timed held, then with the launch, into the CSV. The harness runs every
# method of a size in one process; should that stop on an error other than a mismatch (after
# which every row is written), each TPI (in every block size) runs alone, so that a TPI whose
# kernel faults (which ends the process) loses only its own rows (a method that ran before it
# then has two rows of the case; the ratio table takes the best).
both() {
    local launch status methods
    for launch in "" --include-launch; do
        status=0
        # shellcheck disable=SC2086 # $launch: no word or one
        attempt "$@" --csv "$CSV" --quiet $launch || status=$?
        if [ "$status" -le 1 ] || [ "$1" != "$CGBN_BENCH" ]; then
            continue
        fi
        for tpi in 4 8 16 32; do
            methods=$(tpi_methods "$2" "$tpi")
            [ -n "$methods" ] || continue
            # shellcheck disable=SC2086
            attempt "$@" --csv "$CSV" --quiet $launch --method "$methods" || true
        done
    done
}

# mul BITS COUNT REPS: CGBN's every TPI and block size and mpgpu's methods at one size and count;
# every product checked up to 2^24 product words, a spread sample of about 1000 beyond.
mul() {
    local verify=all
    [ $(($1 * $2 / 32)) -le $((1 << 24)) ] || verify=sample
    both "$CGBN_BENCH" mul --bits "$1" --count "$2" --reps "$3" --verify "$verify"
    # shellcheck disable=SC2086
    both "$MPGPU" mul --bits "$1" --count "$2" --reps "$3" --verify "$verify" \
        --method "$(supported_list "$1" $MUL_METHODS)"
}

if has_part mul; then
    for bits in 256 512 1024 2048 4096 8192; do mul "$bits" "$big" "$reps"; done
    mul 16384 "$big16k" "$reps"
    mul 32768 "$big32k" "$reps"
    for bits in 256 512 1024 2048 4096 8192 16384 32768; do mul "$bits" "$few" "$few_reps"; done
fi

# Montgomery multiplication: chains of 100 and 200, for the marginal rate; both with a random odd
# modulus per element (CGBN's setting), mpgpu on the IMAD pipe (ptx), the FP64 pipe (fp64) and
# both (hybrid).
for chain in 100 200; do
    has_part fixed || break
    both "$CGBN_BENCH" fixed --bits 256,384,512 --count "$mont_count" --chain "$chain" \
        --reps "$reps" --verify sample
    both "$MPGPU" fixed --op montmul --impl ptx,fp64,hybrid --moduli per-element --bits 256,384,512 \
        --count "$mont_count" --chain "$chain" --reps "$reps" --verify sample
done

# GCD, one pair an instance (CGBN) or a thread (mpgpu's bulk-lehmer; bulk-binary, 2-44x slower,
# is experiments/gcd_bulk.sh's), at issue 38's counts: 2^20 pairs and 10240.
for count in "$gcd_count" "$few"; do
    has_part gcd || break
    both "$CGBN_BENCH" gcd --bits 1024,2048,4096 --count "$count" --reps "$reps" --verify sample
    both "$MPGPU" gcd --method bulk-lehmer --bits 1024,2048,4096 --count "$count" \
        --reps "$reps" --verify sample
done

ratios "$CSV" >"$RESULTS/${experiment}_ratios.md"
echo "cgbn: wrote $CSV and $RESULTS/${experiment}_ratios.md; $failures command(s) failed" >&2
[ "$failures" -eq 0 ]
