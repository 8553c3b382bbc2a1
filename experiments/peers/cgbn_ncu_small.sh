#!/usr/bin/env bash
# Issue 39: at 10240 products of 256 to 2048 bits, CGBN and mpgpu both take a few microseconds
# more than the shortest kernel at this count (docs/peers.md), so their ratio, timed by CUDA
# events, stays near 1. This times the kernels alone: Nsight Compute's gpu__time_duration of
# each launch (the grid's start to its end on the GPU, without the launch's front end and the
# events), clocks and caches left as they are, for CGBN's fastest method (TPI and block size) and
# mpgpu's fastest method at each size, held, in the cgbn_mul.csv of the same $RESULTS (cgbn.sh,
# run first), and the shortest kernel (10240 products of 64 bits, thread-comba). Every run checks
# all its results against GMP. Runs on the GPU machine, with a harness built by
# `cgbn.sh --build-only OUT`:
#   CGBN_BENCH=OUT/cgbn_bench MPGPU=... RESULTS=... experiments/peers/cgbn_ncu_small.sh
# Writes $RESULTS/cgbn_ncu_small.csv (one row a launch) and cgbn_ncu_small.md (the median,
# min and max a case, each side's method, and the ratios).
here=$(cd "$(dirname "$0")" && pwd)
ncu_script=cgbn_ncu_small ncu_needs_csv=cgbn_mul.csv
source "$here/ncu_common.sh"
start_experiment cgbn_ncu_small
COUNT=10240 LAUNCHES=20 WARMUP=2
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT

# profile NAME KERNEL_REGEX CMD...: gpu__time_duration of launches WARMUP+1 .. WARMUP+LAUNCHES
# of the kernels matching KERNEL_REGEX, into $raw/NAME.csv.
profile() {
    local name=$1 kernel=$2
    shift 2
    ncu --clock-control none --cache-control none -k "regex:$kernel" --launch-skip "$WARMUP" \
        -c "$LAUNCHES" --csv --page raw --metrics gpu__time_duration.sum \
        "$@" --count "$COUNT" --reps "$LAUNCHES" --warmup "$WARMUP" --verify all \
        >"$raw/$name.csv" 2>"$raw/$name.err" ||
        { cat "$raw/$name.err" >&2; echo "cgbn_ncu_small: $name failed" >&2; exit 1; }
}

# The kernel of each method that can be fastest at these sizes (Nsight Compute's filter).
kernel_of() {
    case $1 in
    *-comba-reg) echo comba_reg_kernel ;;
    *-comba-reg-shared) echo comba_reg_shared_kernel ;;
    warp-tensor-toeplitz) echo tensor_toeplitz_kernel ;;
    split-rowchain) echo split_rowchain_kernel ;;
    thread-rowchain-karatsuba) echo 'direct_kernel|karatsuba_block_kernel' ;;
    *) return 1 ;;
    esac
}
# Each side's fastest method at each size, 10240 products, held, verified, in this run's
# cgbn_mul.csv: bits:CGBN's:mpgpu's.
best=$(python3 - "$RESULTS/cgbn_mul.csv" <<'EOF'
import csv, sys
best = {}
for r in csv.DictReader(open(sys.argv[1])):
    if (r["subcommand"] == "mul" and r["count"] == "10240" and r["timed_region"] == "kernels"
            and r["bits"] in ("256", "512", "1024", "2048") and r["method"] != "gmp"
            and int(r["mismatches"] or 0) == 0):
        side = "cgbn" if r["method"].startswith("cgbn-") else "mpgpu"
        t = float(r["median_ms"])
        if (r["bits"], side) not in best or t < best[r["bits"], side][0]:
            best[r["bits"], side] = (t, r["method"])
for bits in ("256", "512", "1024", "2048"):
    for side in ("cgbn", "mpgpu"):
        if (bits, side) not in best:
            sys.exit(f"cgbn_ncu_small: no {side} row at {bits} bits x 10240 in {sys.argv[1]}")
    print(f"{bits}:{best[bits, 'cgbn'][1]}:{best[bits, 'mpgpu'][1]}")
EOF
) || exit 1

profile floor-64 'thread_comba_kernel' "$MPGPU" mul --bits 64 --method thread-comba
for run in $best; do
    IFS=: read -r bits cgbn_method method <<<"$run"
    kernel=$(kernel_of "$method") ||
        { echo "cgbn_ncu_small: no kernel name known for $method" >&2; exit 1; }
    echo "$cgbn_method" >"$raw/cgbn-method-$bits"
    echo "$method" >"$raw/method-$bits"
    profile "cgbn-$bits" 'op_kernel' "$CGBN_BENCH" mul --bits "$bits" --method "$cgbn_method"
    profile "mpgpu-$bits" "$kernel" "$MPGPU" mul --bits "$bits" --method "$method"
done

python3 - "$raw" "$CSV" "$RESULTS/cgbn_ncu_small.md" <<'EOF'
import csv, statistics, sys
raw, out_csv, out_md = sys.argv[1:]
scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
def launches(name):
    rows = list(csv.reader(open(f"{raw}/{name}.csv")))
    start = next(i for i, r in enumerate(rows) if "gpu__time_duration.sum" in r)
    col = rows[start].index("gpu__time_duration.sum")
    unit = scale[rows[start + 1][col]]
    kcol = rows[start].index("Kernel Name")
    return [(r[kcol], float(r[col].replace(",", "")) * unit)
            for r in rows[start + 2:] if len(r) == len(rows[start])]
with open(out_csv, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["case", "launch", "kernel", "gpu_time_duration_us"])
    summary = {}
    cases = [f"{s}-{b}" for b in (256, 512, 1024, 2048) for s in ("cgbn", "mpgpu")]
    for name in ["floor-64"] + cases:
        got = launches(name)
        if len(got) == 0:
            sys.exit(f"cgbn_ncu_small: no launch of {name} was profiled")
        for i, (kernel, us) in enumerate(got):
            w.writerow([name, i, kernel[:80], f"{us:.3f}"])
        t = [us for _, us in got]
        summary[name] = (statistics.median(t), min(t), max(t), len(t))
with open(out_md, "w") as f:
    m, lo, hi, n = summary["floor-64"]
    f.write(f"Shortest kernel, 10240 products of 64 bits (thread-comba): {m:.3f} us "
            f"(min {lo:.3f}, max {hi:.3f}, {n} launches)\n\n")
    f.write("| bits | CGBN, us | CGBN method | mpgpu, us | mpgpu method | CGBN / mpgpu |\n"
            "| ---: | ---: | --- | ---: | --- | ---: |\n")
    for b in (256, 512, 1024, 2048):
        c, m_ = summary[f"cgbn-{b}"], summary[f"mpgpu-{b}"]
        cgbn_method = open(f"{raw}/cgbn-method-{b}").read().strip()
        method = open(f"{raw}/method-{b}").read().strip()
        f.write(f"| {b} | {c[0]:.3f} ({c[1]:.3f}-{c[2]:.3f}) | {cgbn_method} "
                f"| {m_[0]:.3f} ({m_[1]:.3f}-{m_[2]:.3f}) | {method} | {c[0] / m_[0]:.2f}x |\n")
EOF
cat "$RESULTS/cgbn_ncu_small.md"
