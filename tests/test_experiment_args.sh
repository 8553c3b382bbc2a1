#!/usr/bin/env bash
# The arguments of experiments/run_all.sh and of every experiment script, without a GPU.
# run_all.sh: --help prints its usage; a script that is not there, an option, or none beside a
# script is refused with one line and exit 2 before anything runs (it used to run the gpu suite
# and write its log into RESULTS, then skip the name silently). Every other script prints its
# opening comment for --help (experiments/script_help.sh) and refuses what it does not take
# before RESULTS is touched (experiments/script_args.sh for those that take none; --help used to
# run the experiment and truncate its CSV).
source "$(dirname "$0")/cli_expect.sh" "$@"
repo=$(cd "$(dirname "$0")/.." && pwd)
# No binary and no build: every case here must stop at its arguments, and a script that did not
# would fail at once instead of running an experiment or the gpu suite.
export RESULTS="$tmp/results" MPGPU="$tmp/no-mpgpu" BUILD="$tmp/no-build"

# run SCRIPT WANT_STATUS ARGS...: bash SCRIPT ARGS, from the top folder, exits WANT_STATUS and
# leaves RESULTS unmade (stdout in $tmp/out, stderr in $tmp/err).
run() {
    local script=$1 want=$2
    shift 2
    checks=$((checks + 2))
    (cd "$repo" && bash "$script" "$@") >"$tmp/out" 2>"$tmp/err" </dev/null
    local st=$?
    if [ "$st" -ne "$want" ]; then
        echo "FAIL: $script $* -> status $st (want $want)"
        sed 's/^/    /' "$tmp/err" | head -5
        fails=$((fails + 1))
    fi
    if [ -e "$RESULTS" ]; then
        echo "FAIL: $script $* made $RESULTS"
        fails=$((fails + 1))
        rm -rf "$RESULTS"
    fi
}

# refused BAD ARGS...: run_all.sh ARGS exits 2 with one stderr line naming BAD.
refused() {
    local bad=$1
    shift
    run experiments/run_all.sh 2 "$@"
    checks=$((checks + 1))
    if [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
        ! grep -qF -- "'$bad' is not an experiment script" "$tmp/err"; then
        echo "FAIL: run_all.sh $*: want one line naming '$bad':"
        sed 's/^/    /' "$tmp/err" | head -5
        fails=$((fails + 1))
    fi
}

for flag in --help -h; do
    run experiments/run_all.sh 0 "$flag"
    checks=$((checks + 1))
    grep -qF "experiments/run_all.sh none" "$tmp/out" ||
        { echo "FAIL: run_all.sh $flag does not print the usage"; fails=$((fails + 1)); }
done
refused experiments/no_such_table.sh experiments/no_such_table.sh
refused --frobnicate --frobnicate
refused none none experiments/mul_table33.sh
refused none experiments/mul_table33.sh none
refused experiments/mul_tabel33.sh experiments/mul_table33.sh experiments/mul_tabel33.sh

# Every script (the sourced helpers, without a #! line, and run_all.sh above aside): --help prints
# its opening comment (scripts with arguments of their own said "unknown argument '--help'", and
# provenance.sh and library_speed.sh ran), and an argument it does not take is refused with one
# line naming it.
n_scripts=0
for f in "$repo"/experiments/*.sh "$repo"/experiments/peers/*.sh; do
    case $f in */run_all.sh) continue ;; esac
    head -1 "$f" | grep -q '^#!' || continue
    n_scripts=$((n_scripts + 1))
    name=${f#"$repo"/}
    run "$name" 0 --help
    checks=$((checks + 1))
    if [ "$(head -1 "$tmp/out")" != "$(sed -n 2p "$f" | sed 's/^# //')" ]; then
        echo "FAIL: $name --help does not print its opening comment"
        fails=$((fails + 1))
    fi
    run "$name" 2 --frobnicate
    checks=$((checks + 1))
    if [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
        ! grep -qF "'--frobnicate'" "$tmp/err"; then
        echo "FAIL: $name --frobnicate: want one line naming it:"
        sed 's/^/    /' "$tmp/err" | head -3
        fails=$((fails + 1))
    fi
done
checks=$((checks + 1))
if [ "$n_scripts" -lt 60 ]; then
    echo "FAIL: only $n_scripts experiment scripts found"
    fails=$((fails + 1))
fi

echo "experiment_args: $n_scripts experiment scripts"
finish experiment_args
