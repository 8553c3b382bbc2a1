# Sourced first by experiments/common.sh and experiments/peers/ncu_common.sh, and by the scripts
# that source neither but take no arguments, with the script's arguments: an experiment script
# takes none unless it reads its own before sourcing them (and exits or goes on without any).
# -h or --help prints the script's opening comment (experiments/script_help.sh); anything else
# is refused with one line (exit 2), before a results file is touched (start_experiment
# truncates its CSV).
# shellcheck source=script_help.sh
source "$(dirname "${BASH_SOURCE[0]}")/script_help.sh" "$@"
if [ $# -gt 0 ]; then
    echo "$(basename "$0" .sh): unknown argument '$1'; it takes none (--help says what it runs)" >&2
    exit 2
fi
