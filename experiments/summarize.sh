#!/usr/bin/env bash
# Prints a Markdown table of one results CSV: subcommand, method, bits, count, median/min/max ms,
# rate, verification, device. Used to paste measured numbers into docs/ unchanged.
#   experiments/summarize.sh results/mul_table2.csv
set -euo pipefail
source "$(dirname "$0")/script_help.sh" "$@"
[ $# -eq 1 ] && [ -r "$1" ] ||
    { echo "summarize: '${1-}' is no readable results CSV; usage: summarize.sh RESULTS.csv" >&2; exit 2; }
csv=$1
awk -F, '$1 == "timestamp" { next }
    {
        threads = ($20 > 0) ? sprintf(" (%d thr)", $20) : ""
        verified = ($27 == "reference") ? "reference" : ($27 == "none") ? "not checked" : \
                   ($29 == 0 ? "ok " $28 : "FAIL " $29 "/" $28)
        printf "| %s | %s%s | %s | %s | %.4g | %.4g | %.4g | %.4g | %s | %s |\n", $12, $13, threads, $14, $16, $22, $23, $24, $25, verified, $5
    }
    BEGIN {
        print "| subcommand | method | bits | count | median ms | min ms | max ms | per s | verified | device |"
        print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
    }' "$csv"
