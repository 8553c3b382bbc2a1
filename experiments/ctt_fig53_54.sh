#!/usr/bin/env bash
# 003 Figs. 5.3 and 5.4: qadd, qsub, qmul and qdiv of 256 and of 2048 rational computations,
# numerator and denominator lengths drawn around a mean of 1 to 512 words (by doubling) with
# deviation sigma = 1 word (32 bits, 003 5.2), kernels alone and with the transfers of the whole
# memory block (003 5.1, 6.3: "2048 computations hide the transfers; 256 do not"). 003 repeats
# each setting 32 times and averages; here the GPU mappings take the median of 32 runs after 2
# warm-up runs, and GMP (the same unreduced formulas in mpz, on one and on all host cores) and
# the CTT code ported to the CPU the median of 5. Every result is checked against GMP.
source "$(dirname "$0")/common.sh"
start_experiment ctt_fig53_54
words=1,2,4,8,16,32,64,128,256,512
for count in 256 2048; do
    for op in qadd qsub qmul qdiv; do
        for transfers in "" --include-transfers; do
            "$MPGPU" ctt-vs-ctw --op "$op" --words "$words" --sigma 1 --count "$count" --reps 32 \
                --method ctt,ctw,auto $transfers --csv "$CSV" --quiet
        done
        "$MPGPU" ctt-vs-ctw --op "$op" --words "$words" --sigma 1 --count "$count" --reps 5 \
            --method cpu-port,gmp --csv "$CSV" --quiet
        "$MPGPU" ctt-vs-ctw --op "$op" --words "$words" --sigma 1 --count "$count" --reps 5 \
            --method gmp --threads 0 --csv "$CSV" --quiet
    done
done
