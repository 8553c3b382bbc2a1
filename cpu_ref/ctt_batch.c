#include "ctt_batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctt_rational.h"
#include "loop_run.h"
#include "random_words.h"

int ctt_batch_init(struct ctt_batch *b)
{
    memset(b, 0, sizeof *b);
    return 0;
}

void ctt_batch_free(struct ctt_batch *b)
{
    free(b->words);
    free(b->comps);
    free(b->qcomps);
    memset(b, 0, sizeof *b);
}

static int reserve_words(struct ctt_batch *b, uint64_t need)
{
    /* Offsets are 32-bit (struct ctt_comp), so the whole buffer stays below 2^32 words. */
    if (need >= UINT64_C(1) << 32)
        return -1;
    if (need <= b->cap_words)
        return 0;
    uint64_t cap = b->cap_words ? b->cap_words : 1024;
    while (cap < need)
        cap *= 2;
    uint32_t *w = realloc(b->words, cap * sizeof *w);
    if (!w)
        return -1;
    b->words = w;
    b->cap_words = cap;
    return 0;
}

int ctt_batch_push_operand(struct ctt_batch *b, const uint32_t *w, uint32_t len, uint32_t *off)
{
    if (reserve_words(b, b->operand_words + len) != 0)
        return -1;
    memcpy(b->words + b->operand_words, w, (size_t)len * sizeof *w);
    *off = (uint32_t)b->operand_words;
    b->operand_words += len;
    return 0;
}

/* Room for one more computation of the batch's kind; -1 when out of memory or of the other
 * kind. */
static int reserve_comp(struct ctt_batch *b, bool rational)
{
    if (b->count > 0 && b->rational != rational)
        return -1;
    b->rational = rational;
    if (b->count < b->cap_comps)
        return 0;
    const size_t cap = b->cap_comps ? 2 * b->cap_comps : 256;
    if (rational) {
        struct ctt_qcomp *q = realloc(b->qcomps, cap * sizeof *q);
        if (!q)
            return -1;
        b->qcomps = q;
    } else {
        struct ctt_comp *c = realloc(b->comps, cap * sizeof *c);
        if (!c)
            return -1;
        b->comps = c;
    }
    b->cap_comps = cap;
    return 0;
}

int ctt_batch_push_comp(struct ctt_batch *b, enum ctt_op op, uint32_t a_off, uint32_t a_len,
                        bool a_neg, uint32_t b_off, uint32_t b_len, bool b_neg)
{
    if (reserve_comp(b, false) != 0)
        return -1;
    struct ctt_comp *c = &b->comps[b->count++];
    *c = (struct ctt_comp){.a_off = a_off, .a_len = a_len, .b_off = b_off, .b_len = b_len,
                           .op = (uint8_t)op, .a_neg = a_neg, .b_neg = b_neg};
    b->result_words += ctt_result_capacity(c);
    return 0;
}

static bool is_zero(const uint32_t *w, uint32_t n)
{
    while (n > 0 && w[n - 1] == 0)
        n--;
    return n == 0;
}

int ctt_batch_push_qcomp(struct ctt_batch *b, const struct ctt_qcomp *q)
{
    if (is_zero(b->words + q->b_off, q->b_len) || is_zero(b->words + q->d_off, q->d_len) ||
        (q->op == CTT_QDIV && is_zero(b->words + q->c_off, q->c_len)))
        return -2;
    if (reserve_comp(b, true) != 0)
        return -1;
    struct ctt_qcomp *c = &b->qcomps[b->count++];
    *c = (struct ctt_qcomp){.a_off = q->a_off, .a_len = q->a_len, .b_off = q->b_off,
                            .b_len = q->b_len, .c_off = q->c_off, .c_len = q->c_len,
                            .d_off = q->d_off, .d_len = q->d_len, .op = q->op,
                            .a_neg = q->a_neg, .c_neg = q->c_neg};
    b->result_words += ctt_q_capacity(c);
    return 0;
}

int ctt_batch_seal(struct ctt_batch *b)
{
    return reserve_words(b, b->operand_words + b->result_words);
}

static double unit_open(uint64_t x)
{
    return ((double)(x >> 11) + 0.5) * 0x1p-53; /* in (0, 1), so log() stays finite */
}

uint32_t ctt_draw_length(uint64_t seed, uint64_t stream, double mean, double sigma, uint32_t max)
{
    double len = mean;
    if (sigma > 0) {
        /* Box-Muller: one standard normal from two uniforms of this operand's own stream. */
        const uint64_t h = splitmix64(seed ^ splitmix64(stream ^ UINT64_C(0x6c656e677468)));
        const double u1 = unit_open(h), u2 = unit_open(splitmix64(h));
        len += sigma * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    }
    len = floor(len + 0.5);
    return len < 1 ? 1 : len > max ? max : (uint32_t)len;
}

int ctt_batch_generate(struct ctt_batch *b, const struct ctt_gen *g, const struct loop_watch *watch)
{
    ctt_batch_init(b);
    uint32_t *tmp = malloc((size_t)g->max_words * sizeof *tmp);
    if (!tmp)
        return -1;
    struct loop_run run;
    loop_run_start(&run, watch);
    int rc = 0;
    /* Operands a, b of an integer computation; a, b, c, d of a rational one (a/b and c/d), of
     * which a and c, the numerators, may be signed. */
    const bool rational = ctt_op_rational(g->op);
    const int operands = rational ? 4 : 2;
    for (size_t i = 0; i < g->count && rc == 0; i++) {
        if (loop_run_stopped(&run)) {
            rc = LOOP_STOPPED;
            break;
        }
        uint32_t off[4], len[4];
        bool neg[4];
        for (int k = 0; k < operands && rc == 0; k++) {
            const uint64_t stream = (uint64_t)operands * i + (uint64_t)k;
            len[k] = ctt_draw_length(g->seed, stream, g->mean_words, g->sigma_words, g->max_words);
            random_words(g->seed, stream, tmp, len[k]);
            if (tmp[len[k] - 1] == 0)
                tmp[len[k] - 1] = 1;
            neg[k] = g->signed_operands && (!rational || k % 2 == 0) &&
                     (splitmix64(g->seed + stream) & 1);
            rc = ctt_batch_push_operand(b, tmp, len[k], &off[k]);
        }
        if (rc == 0 && rational)
            rc = ctt_batch_push_qcomp(b, &(struct ctt_qcomp){
                .op = (uint8_t)g->op, .a_off = off[0], .a_len = len[0], .a_neg = neg[0],
                .b_off = off[1], .b_len = len[1], .c_off = off[2], .c_len = len[2],
                .c_neg = neg[2], .d_off = off[3], .d_len = len[3]});
        else if (rc == 0)
            rc = ctt_batch_push_comp(b, g->op, off[0], len[0], neg[0], off[1], len[1], neg[1]);
        loop_run_item_done(&run, i);
    }
    free(tmp);
    if (rc == 0)
        rc = ctt_batch_seal(b);
    if (rc != 0)
        ctt_batch_free(b);
    return rc;
}
