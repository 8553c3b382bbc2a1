/* Rational computations of `mpgpu ctt-vs-ctw --op qadd|qsub|qmul|qdiv` (003 4.4.2): as 003
 * builds them, from the integer computations of 003 4.3.1, unreduced (003 6.2 leaves the GCD to
 * future work). With F1 = a/b, F2 = c/d and R = x/y:
 *   qadd  x = a d + c b, y = b d      qmul  x = a c, y = b d
 *   qsub  x = a d - c b, y = b d      qdiv  x = a d, y = b |c|, the sign of c moved to x
 * The steps below are shared by the CPU port and every GPU mapping, which run them one after
 * another with their own integer routine (sign and magnitude, struct mpgpu_ctt_comp), so the formulas
 * live here once.
 *
 * The result space a mapping reserves at x_off holds, in this order: x (its integer step's
 * capacity), y (b_len + d_len words, b_len + c_len for qdiv), and for qadd and qsub the
 * temporaries t1 = a d and t2 = c b, which the sum x = t1 +- t2 reads. Keeping the temporaries
 * in the reserved region lets one reservation (003 Algorithm 3.2) serve the whole computation,
 * at the cost of (a_len + d_len) + (c_len + b_len) more words of result space, left holding the
 * products. */
#ifndef MPGPU_CTT_RATIONAL_H
#define MPGPU_CTT_RATIONAL_H

#include "ctt_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CTT_Q_MAX_STEPS 4

CTT_HD static inline void ctt_q_step(struct mpgpu_ctt_comp *s, mpgpu_ctt_op op, uint32_t a_off,
                                     uint32_t a_len, uint8_t a_neg, uint32_t b_off, uint32_t b_len,
                                     uint8_t b_neg)
{
    s->a_off = a_off;
    s->a_len = a_len;
    s->b_off = b_off;
    s->b_len = b_len;
    s->op = (uint8_t)op;
    s->a_neg = a_neg;
    s->b_neg = b_neg;
    s->r_off = s->r_len = 0;
    s->r_neg = 0;
}

/* The integer computations of q in the order they run, their result offsets set from q->x_off;
 * returns how many (2 or 4). The last step computes x, the one before it y. */
CTT_HD static inline unsigned ctt_q_steps(const struct mpgpu_ctt_qcomp *q, struct mpgpu_ctt_comp s[CTT_Q_MAX_STEPS])
{
    const uint32_t na = q->a_len, nb = q->b_len, nc = q->c_len, nd = q->d_len;
    unsigned n = 2;
    if (q->op == MPGPU_CTT_QADD || q->op == MPGPU_CTT_QSUB) {
        /* t1 = a d and t2 = c b carry their numerator's sign, so x = t1 +- t2 is a signed sum;
         * it reads them at their full product lengths (a top word may be zero). */
        n = 4;
        ctt_q_step(&s[0], MPGPU_CTT_MUL, q->a_off, na, q->a_neg, q->d_off, nd, 0);
        ctt_q_step(&s[1], MPGPU_CTT_MUL, q->c_off, nc, q->c_neg, q->b_off, nb, 0);
        ctt_q_step(&s[2], MPGPU_CTT_MUL, q->b_off, nb, 0, q->d_off, nd, 0);
        ctt_q_step(&s[3], q->op == MPGPU_CTT_QADD ? MPGPU_CTT_ADD : MPGPU_CTT_SUB, 0, na + nd, q->a_neg, 0, nc + nb,
                   q->c_neg);
    } else if (q->op == MPGPU_CTT_QMUL) {
        ctt_q_step(&s[0], MPGPU_CTT_MUL, q->b_off, nb, 0, q->d_off, nd, 0);
        ctt_q_step(&s[1], MPGPU_CTT_MUL, q->a_off, na, q->a_neg, q->c_off, nc, q->c_neg);
    } else {
        /* qdiv: y = b |c| is positive; d takes c's sign, so x = a d gets sign(a) sign(c). */
        ctt_q_step(&s[0], MPGPU_CTT_MUL, q->b_off, nb, 0, q->c_off, nc, 0);
        ctt_q_step(&s[1], MPGPU_CTT_MUL, q->a_off, na, q->a_neg, q->d_off, nd, q->c_neg);
    }
    struct mpgpu_ctt_comp *x = &s[n - 1], *y = &s[n - 2];
    x->r_off = q->x_off;
    y->r_off = x->r_off + ctt_result_capacity(x);
    if (n == 4) {
        s[0].r_off = y->r_off + ctt_result_capacity(y);
        s[1].r_off = s[0].r_off + ctt_result_capacity(&s[0]);
        x->a_off = s[0].r_off;
        x->b_off = s[1].r_off;
    }
    return n;
}

/* After the steps ran: the result's place, lengths and sign from those of its steps. */
CTT_HD static inline void ctt_q_finish(struct mpgpu_ctt_qcomp *q, const struct mpgpu_ctt_comp *s, unsigned n)
{
    q->x_len = s[n - 1].r_len;
    q->x_neg = s[n - 1].r_neg;
    q->y_off = s[n - 2].r_off;
    q->y_len = s[n - 2].r_len;
}

/* Words of result space q needs: x, y and the temporaries. */
CTT_HD static inline uint32_t ctt_q_capacity(const struct mpgpu_ctt_qcomp *q)
{
    struct mpgpu_ctt_comp s[CTT_Q_MAX_STEPS];
    const unsigned n = ctt_q_steps(q, s);
    uint32_t words = 0;
    for (unsigned k = 0; k < n; k++)
        words += ctt_result_capacity(&s[k]);
    return words;
}

/* The longest product among q's steps, in words (what a mapping's multiplication scratch must
 * hold, step after step). */
CTT_HD static inline uint32_t ctt_q_longest_product(const struct mpgpu_ctt_qcomp *q)
{
    struct mpgpu_ctt_comp s[CTT_Q_MAX_STEPS];
    const unsigned n = ctt_q_steps(q, s);
    uint32_t most = 0;
    for (unsigned k = 0; k < n; k++)
        if (s[k].op == MPGPU_CTT_MUL && ctt_result_capacity(&s[k]) > most)
            most = ctt_result_capacity(&s[k]);
    return most;
}

#ifdef __cplusplus
}
#endif

#endif
