#!/usr/bin/env bash
# experiments/run_all.sh's arguments, without a GPU: --help prints its usage; a script that is not
# there, an option, or none beside a script is refused with one line and exit 2 before anything
# runs (it used to run the gpu suite and write its log into RESULTS, then skip the name silently).
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
checks=0
fails=0
export RESULTS="$work/results" MPGPU=${1:-mpgpu}

# run WANT_STATUS ARGS...: run_all.sh ARGS exits WANT_STATUS and leaves RESULTS unmade.
run() {
    local want=$1
    shift
    checks=$((checks + 2))
    (cd "$repo" && bash experiments/run_all.sh "$@") >"$work/out" 2>"$work/err" </dev/null
    local st=$?
    if [ "$st" -ne "$want" ]; then
        echo "FAIL: run_all.sh $* -> status $st (want $want)"
        sed 's/^/    /' "$work/err" | head -5
        fails=$((fails + 1))
    fi
    if [ -e "$RESULTS" ]; then
        echo "FAIL: run_all.sh $* made $RESULTS"
        fails=$((fails + 1))
        rm -rf "$RESULTS"
    fi
}

# refused BAD ARGS...: run_all.sh ARGS exits 2 with one stderr line naming BAD.
refused() {
    local bad=$1
    shift
    run 2 "$@"
    checks=$((checks + 1))
    if [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -qF -- "'$bad' is not an experiment script" "$work/err"; then
        echo "FAIL: run_all.sh $*: want one line naming '$bad':"
        sed 's/^/    /' "$work/err" | head -5
        fails=$((fails + 1))
    fi
}

for flag in --help -h; do
    run 0 "$flag"
    checks=$((checks + 1))
    grep -qF "experiments/run_all.sh none" "$work/out" ||
        { echo "FAIL: run_all.sh $flag does not print the usage"; fails=$((fails + 1)); }
done
refused experiments/no_such_table.sh experiments/no_such_table.sh
refused --frobnicate --frobnicate
refused none none experiments/mul_table33.sh
refused none experiments/mul_table33.sh none
refused experiments/mul_tabel33.sh experiments/mul_table33.sh experiments/mul_tabel33.sh

echo "run_all_script: $checks checks, $fails failures"
[ "$fails" -eq 0 ]
