/* What a pass over a range yields and how its parts combine, shared by the kernels
 * (kernels/collatz.h), the library (mpgpu_collatz.c) and the CPU twins (cpu_ref/collatz_*.h): the
 * totals (mpgpu.h), how passes over adjacent ranges add up, the delay's shared prefix, the
 * settlement of the values that overflowed the fixed-width paths, and the delay records. */
#ifndef MPGPU_COLLATZ_PASS_H
#define MPGPU_COLLATZ_PASS_H

#include <stdint.h>

#include "collatz_list.h"
#include "mpgpu.h"

/* How a mandatory starting value m = 2^k * m_H + s begins.
 *   TABLE: Algorithm 5 as published: table operations from n = m.
 *   JUMP:  the operations over the k bits of s do not depend on m_H, so they are applied once
 *          per S entry and shared by the 256 starting values of a thread (Fig. 4.1): n = 3^j *
 *          m_H + c with (j, c) the state of s (collatz_prefix_state). Consecutive m_H then
 *          differ by 3^j, so each further start costs one 96-bit addition. Iterating from any
 *          later point of the trajectory is still a proof: it falls below m at some point. */
enum collatz_first_step { COLLATZ_FIRST_TABLE, COLLATZ_FIRST_JUMP };

/* Each total is a sum over starting values, so passes over adjacent ranges add up to one pass
 * over their union (what --checkpoint relies on). */
static inline void collatz_conv_add(struct mpgpu_collatz_conv_totals *t, const struct mpgpu_collatz_conv_totals *x)
{
    t->mandatory += x->mandatory;
    t->steps += x->steps;
    t->overflows += x->overflows;
}

/* Sums and maxima over numbers: passes over adjacent ranges combine into one pass over their
 * union. */
static inline void collatz_delay_add(struct mpgpu_collatz_delay_totals *t, const struct mpgpu_collatz_delay_totals *x)
{
    if (x->numbers && (t->numbers == 0 || x->max > t->max || (x->max == t->max && x->argmax < t->argmax))) {
        t->max = x->max;
        t->argmax = x->argmax;
    }
    t->numbers += x->numbers;
    t->sum += x->sum;
    t->overflows += x->overflows;
}

/* Adds the delay of one number n to *t. */
static inline void collatz_delay_note(struct mpgpu_collatz_delay_totals *t, uint64_t n, uint32_t delay)
{
    if (t->numbers == 0 || delay > t->max || (delay == t->max && n < t->argmax)) {
        t->max = delay;
        t->argmax = n;
    }
    t->numbers++;
    t->sum += delay;
}

/* The shared table operations of a delay pass over [first, first + count) with base bits d: as
 * many as keep 2^(Y+1) <= first for Y = ops * d (so they cannot pass through 1) and still give
 * each residue about COLLATZ_RUN_LEN numbers, with Y <= COLLATZ_PREFIX_MAX_BITS. Both twins use
 * it. */
unsigned collatz_delay_prefix_ops(unsigned d, uint64_t first, uint64_t count);

/* Resolves the overflowed numbers of a delay pass by plain iteration (collatz_plain.h, GMP
 * beyond 128 bits): adds their delays to *totals (and the ones above floor to candidates, when
 * not NULL). Returns 0, or -1 when a trajectory ran past COLLATZ_PLAIN_MAX_OPS (then *runaway
 * holds it) or memory is short (then *runaway is 0). */
int collatz_delay_resolve(const struct mpgpu_collatz_list *overflows, int64_t floor, int threads,
                          struct mpgpu_collatz_delay_totals *totals, struct mpgpu_collatz_pairs *candidates,
                          uint64_t *runaway);

/* Delay records among candidates (sorted here by n): appends each n whose delay exceeds *floor
 * and every earlier candidate's to *records, raising *floor. With *floor = the largest delay
 * below the first candidate's range, these are the records of 000 section 4.1. Returns 0, or -1
 * when memory is short. */
int collatz_records_extract(struct mpgpu_collatz_pairs *candidates, int64_t *floor,
                            struct mpgpu_collatz_pairs *records);

#endif
