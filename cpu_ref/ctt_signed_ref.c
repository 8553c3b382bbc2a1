/* Sign and magnitude over the magnitude routines of 003 4.3.1 (003 has unsigned integers
 * only): which magnitude routine a computation takes, the sign of its result, and the CPU port
 * of a whole batch. */
#include "ctt_ref.h"
#include "ctt_rational.h"
#include "loop_run.h"

uint32_t ctt_normalized_length(const uint32_t *r, uint32_t n)
{
    while (n > 0 && r[n - 1] == 0)
        n--;
    return n;
}

void ctt_compute(uint32_t *mem, struct ctt_comp *c)
{
    uint32_t *r = mem + c->r_off;
    const uint32_t *a = mem + c->a_off, *b = mem + c->b_off;
    bool neg;
    if (c->op == CTT_MUL) {
        ctt_mul_schoolbook(r, a, c->a_len, b, c->b_len);
        neg = c->a_neg ^ c->b_neg;
    } else if (ctt_adds_magnitudes(c)) {
        ctt_add_magnitude(r, a, c->a_len, b, c->b_len);
        neg = c->a_neg;
    } else if (ctt_cmp_magnitude(a, c->a_len, b, c->b_len) >= 0) {
        ctt_sub_magnitude(r, a, c->a_len, b, c->b_len);
        neg = c->a_neg;
    } else {
        ctt_sub_magnitude(r, b, c->b_len, a, c->a_len);
        neg = !c->a_neg; /* |b| > |a|: the sign of the second term as it enters the sum */
    }
    c->r_len = ctt_normalized_length(r, ctt_result_capacity(c));
    c->r_neg = neg && c->r_len > 0;
}

int ctt_run_serial(struct ctt_batch *b, const struct loop_watch *watch)
{
    uint64_t next = b->operand_words;
    struct loop_run run;
    loop_run_start(&run, watch);
    for (size_t i = 0; i < b->count; i++) {
        if (loop_run_stopped(&run))
            return LOOP_STOPPED;
        if (b->rational) {
            struct ctt_qcomp *q = &b->qcomps[i];
            q->x_off = (uint32_t)next;
            next += ctt_q_capacity(q);
            ctt_qcompute(b->words, q);
        } else {
            struct ctt_comp *c = &b->comps[i];
            c->r_off = (uint32_t)next;
            next += ctt_result_capacity(c);
            ctt_compute(b->words, c);
        }
        loop_run_item_done(&run, i);
    }
    return 0;
}
