#!/usr/bin/env bash
# 003 Figs. C.4-C.7: qadd, qsub, qmul and qdiv of 256, 512, 1024 and 2048 rational
# computations, mean numerator and denominator length 1 to 512 words (by doubling), deviation
# sigma = 1, 2, 4, 8, 16 and 32 words (003 names the rows "sigma = 1 to sigma = 32"), kernel
# time of the three GPU mappings beside GMP on all host cores (the same unreduced formulas,
# median of 5). CTW and auto: median of 32 runs after 2 warm-up runs, as Figs. 5.3/5.4; CTT:
# median of 8, since its runs of 256 and 512 words (10-100 ms each) took 325 of the script's
# 438 s at 32 (H200, 9442d21) and the spread is in the rows. Every result is checked against GMP.
source "$(dirname "$0")/common.sh"
start_experiment ctt_figC4_C7
words=1,2,4,8,16,32,64,128,256,512
for count in 256 512 1024 2048; do
    for sigma in 1 2 4 8 16 32; do
        for op in qadd qsub qmul qdiv; do
            "$MPGPU" ctt-vs-ctw --op "$op" --words "$words" --sigma "$sigma" --count "$count" \
                --reps 32 --method ctw,auto --csv "$CSV" --quiet
            "$MPGPU" ctt-vs-ctw --op "$op" --words "$words" --sigma "$sigma" --count "$count" \
                --reps 8 --method ctt --csv "$CSV" --quiet
            "$MPGPU" ctt-vs-ctw --op "$op" --words "$words" --sigma "$sigma" --count "$count" \
                --reps 5 --method gmp --threads 0 --csv "$CSV" --quiet
        done
    done
done
