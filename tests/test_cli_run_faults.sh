#!/usr/bin/env bash
# cpu suite: faults of issue 36 (part 2) in how a run is chosen and carried out, on a host without
# a GPU: --device and --devices alike when there is no GPU (10), the options that select what runs
# taking comma lists (14), and long phases that announce themselves and stop on Ctrl-C (4).
source "$(dirname "$0")/cli_expect.sh" "$@"

# status ARGS...: the exit status of mpgpu ARGS (stdout in $tmp/out, stderr in $tmp/err).
status() {
    "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    echo $?
}

# expect_status WANT NAME ARGS...: mpgpu ARGS exits WANT.
expect_status() {
    local want=$1 name=$2
    shift 2
    local got
    got=$(status "$@")
    check "$name: exit $got (want $want)" [ "$got" -eq "$want" ]
}

# rows METHOD: the table rows of METHOD in $tmp/out.
rows() { grep -c "^$1 " "$tmp/out"; }

# --- 10: without a GPU, --devices is as --device: GPU methods skipped, the GMP baseline runs
quick=(--count 16 --reps 1 --warmup 0)
for dev in "--device 3" "--devices all" "--devices 0,3"; do
    # shellcheck disable=SC2086
    expect_status 0 "mul $dev (default methods)" mul $dev "${quick[@]}"
    check "mul $dev: one gmp row" [ "$(rows gmp)" -eq 1 ]
    check "mul $dev: says the GMP baseline runs" grep -q "running the GMP baseline only" "$tmp/err"
    # GPU methods named: exit 3, after the GMP baseline when it was named too.
    # shellcheck disable=SC2086
    expect_status 3 "mul $dev with a named GPU method and gmp" mul $dev --method thread-comba,gmp "${quick[@]}"
    check "mul $dev --method thread-comba,gmp: one gmp row" [ "$(rows gmp)" -eq 1 ]
    # shellcheck disable=SC2086
    expect_status 3 "mul $dev with a named GPU method" mul $dev --method thread-comba "${quick[@]}"
done

finish cli_run_faults
