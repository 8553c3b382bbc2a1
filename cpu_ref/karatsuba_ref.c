#include "karatsuba_ref.h"

#include <stdlib.h>

#include "mul_school_ref.h"
#include "words_ref.h"

int ref_mul_karatsuba(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned n,
                      unsigned depth)
{
    if (n == 0 || n % (1u << depth) != 0)
        return -1;
    if (depth == 0) {
        ref_mul_school(c, a, n, b, n);
        return 0;
    }
    unsigned h = n / 2;
    uint32_t *da = malloc(h * sizeof *da), *db = malloc(h * sizeof *db);
    uint32_t *p = malloc((2 * h + 1) * sizeof *p), *mid = malloc((2 * h + 1) * sizeof *mid);
    int status = -1;
    if (!da || !db || !p || !mid)
        goto out;
    int neg = ref_abs_diff_n(da, a, a + h, h) ^ ref_abs_diff_n(db, b + h, b, h);
    if (ref_mul_karatsuba(c, a, b, h, depth - 1) ||                 /* x0 y0 */
        ref_mul_karatsuba(c + 2 * h, a + h, b + h, h, depth - 1) || /* x1 y1 */
        ref_mul_karatsuba(p, da, db, h, depth - 1))                 /* |x0 - x1| |y1 - y0| */
        goto out;
    /* mid = x0 y0 + x1 y1 + (x0 - x1)(y1 - y0), the last term being -p when neg, +p else;
     * it equals x0 y1 + x1 y0: 2h words and one bit. */
    for (unsigned k = 0; k < 2 * h; k++)
        mid[k] = c[k];
    mid[2 * h] = ref_add_n(mid, mid, c + 2 * h, 2 * h);
    p[2 * h] = 0;
    if (neg)
        ref_sub_n(mid, mid, p, 2 * h + 1);
    else
        ref_add_n(mid, mid, p, 2 * h + 1);
    /* c += mid beta^h; the product fits in 2n words, so no carry leaves c. */
    uint32_t carry = ref_add_n(c + h, c + h, mid, 2 * h + 1);
    for (unsigned k = 3 * h + 1; k < 2 * n; k++) {
        uint64_t t = (uint64_t)c[k] + carry;
        c[k] = (uint32_t)t;
        carry = (uint32_t)(t >> 32);
    }
    status = 0;
out:
    free(da);
    free(db);
    free(p);
    free(mid);
    return status;
}
