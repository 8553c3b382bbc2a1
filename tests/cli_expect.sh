# Sourced by the command-line tests: the mpgpu binary under test, a scratch folder, counters,
# the two checks every error path and every help line goes through, and the last line.
#   source "$(dirname "$0")/cli_expect.sh" "$@"
#   ... checks ...
#   finish NAME

# finish NAME: the summary line "NAME: N checks, M failures: passed" and the script's exit
# status. A script that made no check fails, as the C tests do (tests/test_seed.h).
finish() {
    printf '%s: %d checks, %d failures: ' "$1" "$checks" "$fails"
    if [ "$checks" -eq 0 ]; then
        echo "FAILED, no check was made"
        exit 1
    fi
    if [ "$fails" -ne 0 ]; then
        echo "FAILED (MPGPU_TEST_SEED=${MPGPU_TEST_SEED:-unset}: the seed of the random inputs that follow it)"
        exit 1
    fi
    echo "passed"
    exit 0
}

# test_cli_gpu.sh keeps its own counters, scratch folder and GPU probe, and sources this file at
# its end for finish alone.
if [ "${1-}" = --finish-only ]; then
    return 0
fi

set -u
MPGPU=${1:?usage: $(basename "$0") path/to/mpgpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

# check NAME COMMAND...: COMMAND must succeed.
check() {
    local name=$1
    shift
    checks=$((checks + 1))
    if ! "$@"; then
        echo "FAIL: $name"
        fails=$((fails + 1))
    fi
}

# expect_fail STATUS SUBSTRING -- ARGS...: exit STATUS, one stderr line containing SUBSTRING.
expect_fail() {
    local want=$1 needle=$2
    shift 3
    checks=$((checks + 1))
    "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local got=$?
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -ne "$want" ] || ! grep -qF -- "$needle" "$tmp/err" || [ "$lines" -ne 1 ]; then
        echo "FAIL: mpgpu $* -> status $got (want $want), $lines stderr line(s) (want 1 with '$needle'):"
        sed 's/^/    /' "$tmp/err"
        fails=$((fails + 1))
    fi
}

# expect_ok SUBSTRING -- ARGS...: exit 0 and stdout containing SUBSTRING.
expect_ok() {
    local needle=$1
    shift 2
    checks=$((checks + 1))
    "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local got=$?
    if [ "$got" -ne 0 ] || ! grep -qF -- "$needle" "$tmp/out"; then
        echo "FAIL: mpgpu $* -> status $got, stdout lacks '$needle'"
        sed 's/^/    /' "$tmp/err" "$tmp/out" | head -20
        fails=$((fails + 1))
    fi
}

# stop_run NAME HOW WAIT PATTERN ARGS...: runs mpgpu ARGS in the background and stops it once
# its output shows PATTERN (an extended regex; empty: none awaited), or after WAIT seconds. HOW
# sigint, sigterm: kill -INT or -TERM, its stderr in $tmp/log and stdout in $tmp/out; ctrl-c: it
# runs on a terminal (script's), where progress draws its bar, Ctrl-C is typed there, and
# $tmp/log is the terminal's output. It must then end within 2 s with status 130 and a line
# saying it was interrupted.
stop_run() {
    local name=$1 how=$2 wait_s=$3 pattern=$4 i
    shift 4
    if [ "$how" = ctrl-c ]; then
        rm -f "$tmp/keys"
        mkfifo "$tmp/keys"
        script -qfec "exec $(printf '%q ' "$MPGPU" "$@")" /dev/null <"$tmp/keys" >"$tmp/log" 2>&1 &
        exec 3>"$tmp/keys"
    else
        "$MPGPU" "$@" >"$tmp/out" 2>"$tmp/log" </dev/null &
    fi
    local pid=$!
    for ((i = 0; i < wait_s * 10; i++)); do
        [ -n "$pattern" ] && grep -qE -- "$pattern" "$tmp/log" && break
        sleep 0.1
    done
    [ -z "$pattern" ] || check "$name: '$pattern' shown within $wait_s s" [ "$i" -lt $((wait_s * 10)) ]
    if [ "$how" = ctrl-c ]; then
        # A run that ended already has closed its terminal: the write fails (EPIPE), and the
        # checks below say how it ended.
        (trap '' PIPE; printf '\003' >&3) 2>/dev/null
    else
        kill -"$(echo "${how#sig}" | tr a-z A-Z)" "$pid"
    fi
    for ((i = 0; i < 20; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    [ "$how" = ctrl-c ] && exec 3>&-
    if kill -0 "$pid" 2>/dev/null; then
        check "$name: ended within 2 s of $how" false
        kill -KILL "$pid"
        wait "$pid" 2>/dev/null
        return
    fi
    wait "$pid"
    local st=$?
    check "$name: exit $st after $how (want 130)" [ "$st" -eq 130 ]
    check "$name: says it was interrupted" grep -q "^mpgpu: interrupted" "$tmp/log"
}
