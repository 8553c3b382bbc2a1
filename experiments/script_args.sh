# Sourced first by experiments/common.sh and experiments/peers/ncu_common.sh, with the script's
# arguments: an experiment script takes none unless it reads its own before sourcing them (and
# exits or goes on without any). -h or --help prints the script's opening comment; anything else
# is refused with one line (exit 2), before a results file is touched (start_experiment
# truncates its CSV).
if [ $# -gt 0 ]; then
    if [ $# -eq 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; }; then
        sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
        exit 0
    fi
    echo "$(basename "$0" .sh): unknown argument '$1'; it takes none (--help says what it runs)" >&2
    exit 2
fi
