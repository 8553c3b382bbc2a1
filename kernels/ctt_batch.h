/* Batches of variable-length integer computations in the layout of Gusenbauer (here: 003)
 * section 4.2.1, as mpgpu.h gives them to callers (mpgpu_ctt_batch, mpgpu_ctt_comp,
 * mpgpu_ctt_qcomp, built by mpgpu_ctt_batch_*: ctt_batch.c): every integer sits in one buffer
 * of 32-bit words (least significant first), contiguous, with no metadata in it; a computation
 * is a small struct naming each operand and the result by (offset, size) in that buffer, plus
 * the operation. The result space follows the operands and is handed out on the device (003
 * Algorithm 3.2), so the host only sizes it.
 *
 * 003 has unsigned integers only. Here an integer is sign and magnitude, the signs kept in the
 * computation struct, so that a difference that goes negative is exact (sub of |a| < |b| gives
 * the magnitude |b| - |a| and a minus sign). A result of value zero has length 0 and no sign
 * (x - x).
 *
 * This header holds what the kernels, the library and the CPU twins (cpu_ref/) share about
 * the layout: the operations' numbering and the result space a computation takes. */
#ifndef MPGPU_CTT_BATCH_H
#define MPGPU_CTT_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The inline helpers below are shared with the kernels. */
#ifdef __CUDACC__
#define CTT_HD __host__ __device__
#else
#define CTT_HD
#endif

/* Operand lengths, in words, that a batch accepts (--words, and lengths drawn around it). */
#define CTT_MAX_WORDS MPGPU_CTT_MAX_WORDS

/* The operations are mpgpu.h's mpgpu_ctt_op: the integer ones, then the rational ones (003
 * 4.4.2: unreduced, as in the thesis). */
CTT_HD static inline bool ctt_op_rational(mpgpu_ctt_op op)
{
    return MPGPU_CTT_OP_IS_RATIONAL(op);
}

/* Whether the magnitudes are added: add with equal signs, sub with opposite ones. */
CTT_HD static inline bool ctt_adds_magnitudes(const struct mpgpu_ctt_comp *c)
{
    return (c->a_neg ^ c->b_neg ^ (c->op == MPGPU_CTT_SUB)) == 0;
}

/* Words of result space a computation needs: a sum of magnitudes max(len) + 1 (one carry out,
 * 003 4.3.1), a difference of magnitudes max(len) (it never grows), mul a_len + b_len
 * (Algorithm B.1). With the non-negative operands of 003, add is the first and sub the second. */
CTT_HD static inline uint32_t ctt_result_capacity(const struct mpgpu_ctt_comp *c)
{
    const uint32_t m = c->a_len > c->b_len ? c->a_len : c->b_len;
    return c->op == MPGPU_CTT_MUL ? c->a_len + c->b_len : ctt_adds_magnitudes(c) ? m + 1 : m;
}

/* A rational computation (struct mpgpu_ctt_qcomp, 003 4.4.1) keeps the 12 values of the
 * thesis' struct, so a mapping finds every integer with one look-up; ctt_rational.h lays out
 * the result space the mapping reserves at x_off: x, then y, then the temporaries of qadd and
 * qsub. */

/* Whether the batch's words reach its result space: sealed since its last push. */
static inline bool ctt_batch_sealed(const struct mpgpu_ctt_batch *b)
{
    return b->sealed && b->cap_words >= b->operand_words + b->result_words;
}

#ifdef __cplusplus
}
#endif

#endif
