# Sourced by every experiment script: where the binary is, where results go, and a record of
# the machine next to each CSV (the CSV rows carry device, clocks, driver, commit and date too).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/script_args.sh"
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

# table2_sizes: 002 Table 2's sizes, 16..352 Kibit in steps of 16 Kibit, as one --bits list in
# $sizes, the last in $last (Kibit), and the repetitions in $reps; QUICK=1 stops at 48 Kibit with
# one rep and no warm-up.
table2_sizes() {
    local kib
    last=352
    reps="--reps 3 --warmup 1"
    if [ "${QUICK:-0}" = 1 ]; then last=48; reps="--reps 1 --warmup 0"; fi
    sizes=
    for kib in $(seq 16 16 "$last"); do
        sizes+="${sizes:+,}$((kib * 1024))"
    done
}

# supported METHOD BITS: true when BITS lies in METHOD's range as `mpgpu mul --list-methods`
# prints it (NAME MIN_BITS MAX_BITS MULTIPLE_BITS), so the scripts run every method at every size
# the binary supports instead of keeping their own copy of the registry's ranges (which went
# stale once).
METHODS_LIST=
supported() {
    local lo hi mult
    [ -n "$METHODS_LIST" ] || METHODS_LIST=$("$MPGPU" mul --list-methods)
    read -r _ lo hi mult < <(grep -E "^$1 " <<<"$METHODS_LIST") || return 1
    [ "$2" -ge "$lo" ] && [ "$2" -le "$hi" ] && [ $(($2 % mult)) -eq 0 ]
}

supported_list() {
    local bits=$1 m list=
    shift
    for m in "$@"; do
        if supported "$m" "$bits"; then
            list+="${list:+,}$m"
        elif ! grep -qE "^$m " <<<"$METHODS_LIST"; then
            echo "experiments: $MPGPU mul --list-methods lists no method '$m'" >&2
        fi
    done
    echo "$list"
}

# if_shared_fits CMD...: runs an mpgpu collatz/delay command with --table-memory shared. When
# the tables do not fit in this GPU's shared memory per block, mpgpu refuses with exit status 2
# and says so; that run is skipped with a note, so each GPU gets every table size it can hold
# (the scripts used to stop at 14 bits, the limit of the H100/H200). Any other failure fails.
if_shared_fits() {
    local status=0 err
    err=$("$@" 2>&1 >/dev/null) || status=$?
    if [ "$status" -eq 0 ]; then
        [ -z "$err" ] || printf '%s\n' "$err" >&2
        return 0
    fi
    if [ "$status" -eq 2 ] && grep -q 'this GPU gives a block at most' <<<"$err"; then
        echo "experiments: skipped, does not fit: $err" >&2
        return 0
    fi
    printf '%s\n' "$err" >&2
    return "$status"
}

# opcode_mix BINARY REGEX: the opcodes of the SASS of BINARY's functions matching REGEX
# (cuobjdump -sass), most frequent first.
opcode_mix() {
    cuobjdump -sass "$1" |
        awk -v fn="$2" '$0 ~ "Function : .*" fn {on = 1; next}
             /Function : / {on = 0}
             on && match($0, /\/\*[0-9a-f]+\*\/ +(@!?U?P[A-Z0-9]+ +)?[A-Z0-9_.]+/) {
                 n = split(substr($0, RSTART, RLENGTH), f, / +/); count[f[n]]++; total++ }
             END { for (op in count) printf "%6d %s\n", count[op], op; printf "%6d total\n", total }' |
        sort -rn
}

# loop_mix BINARY REGEX: opcode_mix of the longest loop of each of BINARY's functions matching
# REGEX (the instructions from a backward branch's target to the branch, the widest such span),
# after a "# FUNCTION" line.
loop_mix() {
    cuobjdump -sass "$1" | loop_mix_of "$2"
}
loop_mix_of() {
    awk -v fn="$1" '
        function hex(s,   i, v) {
            v = 0; s = tolower(s); sub(/^0x/, "", s)
            for (i = 1; i <= length(s); i++) v = 16 * v + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v
        }
        function flush(   k, op, total) {
            if (n && width >= 0) {
                delete count; total = 0
                for (k = 1; k <= n; k++)
                    if (addr[k] >= lo && addr[k] <= hi) { count[op_of[k]]++; total++ }
                printf "# %s\n", name
                for (op in count) printf "%6d %s\n", count[op], op | "sort -rn"
                close("sort -rn")
                printf "%6d total\n", total
            }
            n = 0; width = -1
        }
        $0 ~ "Function : .*" fn { flush(); on = 1; name = $3; next }
        /Function : / { flush(); on = 0 }
        on && $1 ~ /^\/\*[0-9a-f]+\*\/$/ {
            k = $2 ~ /^@/ ? 3 : 2; op = $k; sub(/;$/, "", op)
            addr[++n] = hex(substr($1, 3, length($1) - 4)); op_of[n] = op
            if (op ~ /^BRA/) {
                t = $(k + 1); sub(/;$/, "", t)
                if (t ~ /^0x/ && hex(t) < addr[n] && addr[n] - hex(t) > width) {
                    width = addr[n] - hex(t); lo = hex(t); hi = addr[n]
                }
            }
        }
        END { flush() }'
}

# pipe_cycles: passes opcode_mix's lines through, then what they ask of the IMAD pipe (fmaheavy:
# 4 cycles a warp for IMAD.WIDE, 2 for any other IMAD) and of the ALU pipe (2 cycles a warp for
# each IADD3, LOP3, SHF, LEA, ISETP, SEL, VIADD, PRMT and MOV).
pipe_cycles() {
    awk '{ print }
         $2 ~ /^IMAD\.WIDE/ { imad += 4 * $1; next }
         $2 ~ /^IMAD/ { imad += 2 * $1; next }
         $2 ~ /^(IADD3|LOP3|SHF|LEA|ISETP|SEL|VIADD|PRMT|MOV)/ { alu += 2 * $1 }
         END { printf "# IMAD pipe %d cycles, ALU pipe %d cycles a warp\n", imad, alu }'
}

# build_probe NAME [NVCC_FLAGS...]: builds the probe experiments/NAME.cu (outside the Meson
# build) with the GPU machine's nvcc ($NVCC) and any further flags into a temporary folder
# removed on exit; sets $probe (the program) and $commit (mpgpu's, which the probe's output
# names).
build_probe() {
    commit=$("$MPGPU" --version | sed -nE 's/.*\(commit ([^)]+)\).*/\1/p')
    probe_dir=$(mktemp -d)
    trap 'rm -rf "$probe_dir"' EXIT
    probe="$probe_dir/$1"
    "${NVCC:-nvcc}" -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 "${@:2}" -o "$probe" \
        "$(dirname "${BASH_SOURCE[0]}")/$1.cu"
}

# moduli_set N BITS: prints the path of a set of N RSA-like moduli of BITS bits with every
# relation planted (`mpgpu gcd --make-moduli N --bits BITS --plant all --seed 38`), made when
# absent, in MODULI (default RESULTS/moduli, which git ignores: 10^5 moduli of 2048 bits are
# 51 MB). The scripts that search sets share them, since making one takes longer than its search.
moduli_set() {
    local dir=${MODULI:-$RESULTS/moduli}
    local file="$dir/rsa_$1_$2.txt"
    mkdir -p "$dir"
    [ -s "$file" ] ||
        "$MPGPU" gcd --make-moduli "$1" --bits "$2" --plant all --seed 38 --output "$file" >&2 ||
        return 1
    echo "$file"
}
