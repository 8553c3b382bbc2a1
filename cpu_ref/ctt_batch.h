/* Batches of variable-length integer computations in the layout of Gusenbauer (here: 003)
 * section 4.2.1: every integer sits in one buffer of 32-bit words (least significant first),
 * contiguous, with no metadata in it; a computation is a small struct naming each operand and
 * the result by (offset, size) in that buffer, plus the operation. The result space follows the
 * operands and is handed out on the device (003 Algorithm 3.2), so the host only sizes it.
 *
 * 003 has unsigned integers only. Here an integer is sign and magnitude, the signs kept in the
 * computation struct, so that a difference that goes negative is exact (sub of |a| < |b| gives
 * the magnitude |b| - |a| and a minus sign). A result of value zero has length 0 and no sign
 * (x - x).
 *
 * A batch holds integer computations (struct ctt_comp) or rational ones (struct ctt_qcomp, 003
 * 4.4), never both: the first push decides. */
#ifndef MPGPU_CTT_BATCH_H
#define MPGPU_CTT_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Operand lengths, in words, that a batch accepts (--words, and lengths drawn around it). */
/* The inline helpers below are shared with the kernels. */
#ifdef __CUDACC__
#define CTT_HD __host__ __device__
#else
#define CTT_HD
#endif

#define CTT_MAX_WORDS 16384u

/* The integer operations, then the rational ones (003 4.4.2: unreduced, as in the thesis). */
enum ctt_op { CTT_ADD = 0, CTT_SUB = 1, CTT_MUL = 2, CTT_QADD, CTT_QSUB, CTT_QMUL, CTT_QDIV, CTT_N_OPS };

CTT_HD static inline bool ctt_op_rational(enum ctt_op op)
{
    return op >= CTT_QADD;
}

/* One computation (003 4.2.1 "Computation Representation"). Offsets are word indices into the
 * batch's buffer, so a batch holds fewer than 2^32 words. */
struct ctt_comp {
    uint32_t a_off, a_len, b_off, b_len;
    uint32_t r_off; /* where the result space was reserved (written by the mapping) */
    uint32_t r_len; /* the result's length without leading zero words (written by the mapping) */
    uint8_t op, a_neg, b_neg, r_neg;
};

/* Whether the magnitudes are added: add with equal signs, sub with opposite ones. */
CTT_HD static inline bool ctt_adds_magnitudes(const struct ctt_comp *c)
{
    return (c->a_neg ^ c->b_neg ^ (c->op == CTT_SUB)) == 0;
}

/* Words of result space a computation needs: a sum of magnitudes max(len) + 1 (one carry out,
 * 003 4.3.1), a difference of magnitudes max(len) (it never grows), mul a_len + b_len
 * (Algorithm B.1). With the non-negative operands of 003, add is the first and sub the second. */
CTT_HD static inline uint32_t ctt_result_capacity(const struct ctt_comp *c)
{
    const uint32_t m = c->a_len > c->b_len ? c->a_len : c->b_len;
    return c->op == CTT_MUL ? c->a_len + c->b_len : ctt_adds_magnitudes(c) ? m + 1 : m;
}

/* One rational computation R = F1 op F2, F1 = a/b, F2 = c/d, R = x/y (003 4.4.1): the
 * (offset, length) of the numerator and the denominator of each of the three rationals, the 12
 * values of the thesis' struct, so a mapping finds every integer with one look-up. Numerators
 * are sign and magnitude (the signs here, as in struct ctt_comp), denominators positive. The
 * mapping reserves the result's space at x_off: x, then y, then the temporaries of qadd and
 * qsub (ctt_rational.h lays it out). */
struct ctt_qcomp {
    uint32_t a_off, a_len, b_off, b_len;
    uint32_t c_off, c_len, d_off, d_len;
    uint32_t x_off, x_len, y_off, y_len; /* written by the mapping, the lengths normalized */
    uint8_t op, a_neg, c_neg, x_neg;
};

struct ctt_batch {
    uint32_t *words;        /* operands, then result space: operand_words + result_words */
    uint64_t operand_words; /* the result space starts here */
    uint64_t result_words;  /* sum of the result capacities */
    uint64_t cap_words;     /* allocated words of `words` */
    bool rational;          /* the computations are qcomps, else comps */
    struct ctt_comp *comps;
    struct ctt_qcomp *qcomps;
    size_t count, cap_comps;
};

/* How a random batch is drawn: `count` computations of `op`; every operand's length drawn from
 * a normal distribution of mean `mean_words` and deviation `sigma_words` (003 5.2), rounded and
 * clamped to 1..max_words; words from the seeded generator (random_words.h), the top word never
 * zero (so no denominator is zero); signs random when signed_operands, else all operands
 * non-negative (as 003). A rational computation's four integers are drawn alike, the signs of
 * its numerators only. */
struct ctt_gen {
    uint64_t seed;
    enum ctt_op op;
    size_t count;
    double mean_words, sigma_words;
    uint32_t max_words;
    bool signed_operands;
};

/* All return 0, or -1 when memory runs out (or the batch would pass 2^32 words, or mix integer
 * and rational computations). */
int ctt_batch_init(struct ctt_batch *b);
void ctt_batch_free(struct ctt_batch *b);
/* Appends an operand of len words (len >= 1) and returns its offset through *off. */
int ctt_batch_push_operand(struct ctt_batch *b, const uint32_t *w, uint32_t len, uint32_t *off);
/* Appends a computation on two operands already pushed; its result space is counted. */
int ctt_batch_push_comp(struct ctt_batch *b, enum ctt_op op, uint32_t a_off, uint32_t a_len,
                        bool a_neg, uint32_t b_off, uint32_t b_len, bool b_neg);
/* Appends a rational computation on operands already pushed: q's op, its operands' offsets,
 * lengths and numerator signs (the rest is ignored); its result space is counted. Returns -2,
 * appending nothing, when it would divide by zero: a denominator b or d is zero, or, for qdiv,
 * the numerator c (the result's denominator is b |c|). */
int ctt_batch_push_qcomp(struct ctt_batch *b, const struct ctt_qcomp *q);
/* Makes room for the result space after the last operand (call once, after the pushes). */
int ctt_batch_seal(struct ctt_batch *b);
/* A random batch as g says, sealed. watch (loop_watch.h; NULL: none) sees the computations
 * generated and may stop it: then LOOP_STOPPED, with b freed. */
struct loop_watch;
int ctt_batch_generate(struct ctt_batch *b, const struct ctt_gen *g, const struct loop_watch *watch);
/* One length drawn as ctt_gen says, for operand `stream` of the batch. */
uint32_t ctt_draw_length(uint64_t seed, uint64_t stream, double mean, double sigma, uint32_t max);

#ifdef __cplusplus
}
#endif

#endif
