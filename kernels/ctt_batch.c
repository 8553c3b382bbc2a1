/* Building a batch of ctt-vs-ctw on the host (mpgpu.h's mpgpu_ctt_batch_*): operands appended
 * to one buffer of words, descriptors to their array, the result space counted as they come
 * and made room for by the seal. */
#include "ctt_batch.h"

#include <stdlib.h>
#include <string.h>

#include "ctt_rational.h"

void mpgpu_ctt_batch_init(struct mpgpu_ctt_batch *b)
{
    memset(b, 0, sizeof *b);
    b->sealed = 1; /* nothing to make room for */
}

void mpgpu_ctt_batch_free(struct mpgpu_ctt_batch *b)
{
    if (!b)
        return;
    free(b->words);
    free(b->comps);
    free(b->qcomps);
    mpgpu_ctt_batch_init(b);
}

static mpgpu_status reserve_words(struct mpgpu_ctt_batch *b, uint64_t need)
{
    /* Offsets are 32-bit (struct mpgpu_ctt_comp), so the whole buffer stays below 2^32 words. */
    if (need >= UINT64_C(1) << 32)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    if (need <= b->cap_words)
        return MPGPU_OK;
    uint64_t cap = b->cap_words ? b->cap_words : 1024;
    while (cap < need)
        cap *= 2;
    uint32_t *w = realloc(b->words, cap * sizeof *w);
    if (!w)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    b->words = w;
    b->cap_words = cap;
    return MPGPU_OK;
}

mpgpu_status mpgpu_ctt_batch_push_operand(struct mpgpu_ctt_batch *b, const uint32_t *w,
                                          uint32_t len, uint32_t *off)
{
    if (!b || !w || !off || len < 1 || len > CTT_MAX_WORDS)
        return MPGPU_ERR_BAD_ARGUMENT;
    const mpgpu_status st = reserve_words(b, b->operand_words + len);
    if (st != MPGPU_OK)
        return st;
    memcpy(b->words + b->operand_words, w, (size_t)len * sizeof *w);
    *off = (uint32_t)b->operand_words;
    b->operand_words += len;
    b->sealed = 0;
    return MPGPU_OK;
}

/* Room for one more computation of the batch's kind, which must be that of those before. */
static mpgpu_status reserve_comp(struct mpgpu_ctt_batch *b, bool rational)
{
    if (b->count > 0 && (bool)b->rational != rational)
        return MPGPU_ERR_BAD_ARGUMENT;
    b->rational = rational;
    if (b->count < b->cap_comps)
        return MPGPU_OK;
    const size_t cap = b->cap_comps ? 2 * b->cap_comps : 256;
    if (rational) {
        struct mpgpu_ctt_qcomp *q = realloc(b->qcomps, cap * sizeof *q);
        if (!q)
            return MPGPU_ERR_OUT_OF_HOST_MEMORY;
        b->qcomps = q;
    } else {
        struct mpgpu_ctt_comp *c = realloc(b->comps, cap * sizeof *c);
        if (!c)
            return MPGPU_ERR_OUT_OF_HOST_MEMORY;
        b->comps = c;
    }
    b->cap_comps = cap;
    return MPGPU_OK;
}

/* Whether an operand lies within the words pushed, with a length the kernels take. */
static bool operand_ok(const struct mpgpu_ctt_batch *b, uint32_t off, uint32_t len)
{
    return len >= 1 && len <= CTT_MAX_WORDS && (uint64_t)off + len <= b->operand_words;
}

/* The batch's words, operands and result space, must stay below 2^32 with `more` result words. */
static bool result_space_fits(const struct mpgpu_ctt_batch *b, uint32_t more)
{
    return b->operand_words + b->result_words + more < UINT64_C(1) << 32;
}

mpgpu_status mpgpu_ctt_batch_push_comp(struct mpgpu_ctt_batch *b, mpgpu_ctt_op op, uint32_t a_off,
                                       uint32_t a_len, int a_neg, uint32_t b_off, uint32_t b_len,
                                       int b_neg)
{
    if (!b || (op != MPGPU_CTT_ADD && op != MPGPU_CTT_SUB && op != MPGPU_CTT_MUL) ||
        !operand_ok(b, a_off, a_len) || !operand_ok(b, b_off, b_len))
        return MPGPU_ERR_BAD_ARGUMENT;
    const struct mpgpu_ctt_comp c = {.a_off = a_off, .a_len = a_len, .b_off = b_off,
                                     .b_len = b_len, .op = (uint8_t)op, .a_neg = a_neg != 0,
                                     .b_neg = b_neg != 0};
    if (!result_space_fits(b, ctt_result_capacity(&c)))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    const mpgpu_status st = reserve_comp(b, false);
    if (st != MPGPU_OK)
        return st;
    b->comps[b->count++] = c;
    b->result_words += ctt_result_capacity(&c);
    b->sealed = 0;
    return MPGPU_OK;
}

static bool is_zero(const uint32_t *w, uint32_t n)
{
    while (n > 0 && w[n - 1] == 0)
        n--;
    return n == 0;
}

mpgpu_status mpgpu_ctt_batch_push_qcomp(struct mpgpu_ctt_batch *b, const struct mpgpu_ctt_qcomp *q)
{
    if (!b || !q || q->op < MPGPU_CTT_QADD || q->op > MPGPU_CTT_QDIV ||
        !operand_ok(b, q->a_off, q->a_len) || !operand_ok(b, q->b_off, q->b_len) ||
        !operand_ok(b, q->c_off, q->c_len) || !operand_ok(b, q->d_off, q->d_len))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (is_zero(b->words + q->b_off, q->b_len) || is_zero(b->words + q->d_off, q->d_len) ||
        (q->op == MPGPU_CTT_QDIV && is_zero(b->words + q->c_off, q->c_len)))
        return MPGPU_ERR_BAD_ARGUMENT;
    const struct mpgpu_ctt_qcomp c = {.a_off = q->a_off, .a_len = q->a_len, .b_off = q->b_off,
                                      .b_len = q->b_len, .c_off = q->c_off, .c_len = q->c_len,
                                      .d_off = q->d_off, .d_len = q->d_len, .op = q->op,
                                      .a_neg = q->a_neg != 0, .c_neg = q->c_neg != 0};
    if (!result_space_fits(b, ctt_q_capacity(&c)))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    const mpgpu_status st = reserve_comp(b, true);
    if (st != MPGPU_OK)
        return st;
    b->qcomps[b->count++] = c;
    b->result_words += ctt_q_capacity(&c);
    b->sealed = 0;
    return MPGPU_OK;
}

mpgpu_status mpgpu_ctt_batch_seal(struct mpgpu_ctt_batch *b)
{
    if (!b)
        return MPGPU_ERR_BAD_ARGUMENT;
    const mpgpu_status st = reserve_words(b, b->operand_words + b->result_words);
    b->sealed = st == MPGPU_OK;
    return st;
}

uint32_t mpgpu_ctt_capacity(const struct mpgpu_ctt_comp *c)
{
    return c ? ctt_result_capacity(c) : 0;
}

uint32_t mpgpu_ctt_qcapacity(const struct mpgpu_ctt_qcomp *q)
{
    return q ? ctt_q_capacity(q) : 0;
}
