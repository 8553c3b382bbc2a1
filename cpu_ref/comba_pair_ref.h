/* The reference twin of pair-comba-reg[-shared] (kernels/mul_thread_comba_reg.cu, T = 2): the two
 * threads of one product are simulated one after the other, each multiplying its half of a by
 * all of b by product scanning with a 96-bit column accumulator, then the exchange of the words
 * that overlap the other's half of c, each thread's N-word sum and the low thread's carry into
 * the high one, as the lanes take them. With one thread a product the kernel is product scanning
 * alone, whose twin is comba_product in cpu_ref/rowchain_karatsuba_ref.c. */
#ifndef MPGPU_COMBA_PAIR_REF_H
#define MPGPU_COMBA_PAIR_REF_H

#include <stdint.h>

#define COMBA_PAIR_MAX_WORDS 32u

/* What the twin observed in one product. */
struct comba_pair_stats {
    unsigned products[2];  /* word products of each thread */
    uint32_t carry_out[2]; /* each thread's carry out of its N-word sum, before the carry in */
};

/* c[0 .. 2n) = a[0 .. n) * b[0 .. n), n even, 2 <= n <= COMBA_PAIR_MAX_WORDS; c must not
 * overlap a or b. */
void comba_pair_ref_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned n,
                        struct comba_pair_stats *stats);

#endif
