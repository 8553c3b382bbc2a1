/* Sign and magnitude over the magnitude routines of 003 4.3.1 (003 has unsigned integers
 * only): which magnitude routine a computation takes, and the sign of its result. */
#include "ctt_ref.h"

uint32_t ctt_normalized_length(const uint32_t *r, uint32_t n)
{
    while (n > 0 && r[n - 1] == 0)
        n--;
    return n;
}

void ctt_compute(uint32_t *mem, struct mpgpu_ctt_comp *c)
{
    uint32_t *r = mem + c->r_off;
    const uint32_t *a = mem + c->a_off, *b = mem + c->b_off;
    bool neg;
    if (c->op == MPGPU_CTT_MUL) {
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
