#!/usr/bin/env bash
# What --records costs at the start of a range (cli/cmd_delay.c, FLOOR_PREFIX_BITS): 2^37
# numbers from the seed's random start, without records and with them, on one GPU and on the
# same GPU as two workers (--devices 0,0, the way several GPUs hand out segments). With
# MPGPU_BEFORE set to an older binary, its --records runs are repeated beside (the binary's
# commit is in each row). The log keeps the tables, with each worker's share.
source "$(dirname "$0")/common.sh"
start_experiment delay_records_start
log="$RESULTS/delay_records_start.log"
: >"$log"
count=${COUNT:-2^37}
run() {
    echo "\$ $("$1" --version) delay ${*:2}" >>"$log"
    # stderr less the progress lines
    "$1" delay "${@:2}" --count "$count" --reps 1 --warmup 0 --csv "$CSV" 2>&1 >>"$log" | { grep -v "pass [0-9]*:" >&2 || true; }
}
run "$MPGPU"
for bin in ${MPGPU_BEFORE:-} "$MPGPU"; do
    for d in 0 0,0; do
        run "$bin" --records --devices "$d"
    done
done
