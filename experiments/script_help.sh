# Sourced first by every experiment script, with its arguments (directly, or through
# experiments/script_args.sh): -h or --help alone prints the script's opening comment and exits.
if [ $# -eq 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; }; then
    sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi
