/* The reference twin of thread-, pair-, quad- and octo-comba-reg and their -shared variants
 * (kernels/mul_thread_comba_reg.cu, T = 1, 2, 4, 8 threads a product): the T threads of one
 * product are simulated one after the other, step by step as the lanes take them: each multiplies
 * its N / T words of a by all of b by product scanning with a 96-bit column accumulator, one
 * (thread-comba-reg) or two columns at a time, then the rotation that sends each chunk of the
 * partial products to the thread that owns it, summed in one chain that is split into the low
 * and the high chunk's shares, the chunk sums, one shift of their carries, and carry lookahead
 * over the 2T chunks of c (which the kernels skip when no chunk generated one). */
#ifndef MPGPU_COMBA_THREADS_REF_H
#define MPGPU_COMBA_THREADS_REF_H

#include <stdint.h>

#define COMBA_THREADS_MAX_WORDS 64u
#define COMBA_THREADS_MAX 8u
#define COMBA_THREADS_MAX_GROUP 2u /* columns summed at a time */

/* What the twin observed in one product. */
struct comba_threads_stats {
    unsigned products[COMBA_THREADS_MAX]; /* word products of each thread */
    unsigned group_carries; /* carries out of lo when a column of a group took the one before's */
    unsigned chunk_carries; /* carried out of the chunk sums, shifted by the first carry step */
    unsigned generated;     /* chunks that carried out when that step added its carry */
    unsigned propagated;    /* all-ones chunks that the lookahead carried into (and through) */
    unsigned lookahead_skipped; /* 1 when no chunk generated a carry: the kernels skip the lookahead */
    uint32_t top_carry;     /* out of the last chunk: the kernel drops it, so it must be 0 */
};

/* c[0 .. 2n) = a[0 .. n) * b[0 .. n) by t threads, t = 1, 2, 4 or 8 and n a multiple of t in
 * t .. COMBA_THREADS_MAX_WORDS, summing `group` (1 .. COMBA_THREADS_MAX_GROUP) columns at a
 * time; c must not overlap a or b. */
void comba_threads_ref_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned n,
                           unsigned t, unsigned group, struct comba_threads_stats *stats);

#endif
