#include "karatsuba_ref.h"

#include <stdlib.h>

#include "mul_school_ref.h"

/* d = |x - y| (n words); returns 1 when x < y. */
static int abs_diff(uint32_t *d, const uint32_t *x, const uint32_t *y, unsigned n)
{
    int x_less = 0;
    for (unsigned k = n; k-- > 0;)
        if (x[k] != y[k]) {
            x_less = x[k] < y[k];
            break;
        }
    const uint32_t *big = x_less ? y : x, *small = x_less ? x : y;
    uint32_t borrow = 0;
    for (unsigned k = 0; k < n; k++) {
        uint64_t t = (uint64_t)big[k] - small[k] - borrow;
        d[k] = (uint32_t)t;
        borrow = (uint32_t)(t >> 63);
    }
    return x_less;
}

/* r[0 .. n) += s[0 .. n) (neg == 0) or -= (neg == 1); returns the carry or borrow out. */
static uint32_t add_or_sub(uint32_t *r, const uint32_t *s, unsigned n, int neg)
{
    uint32_t carry = 0;
    for (unsigned k = 0; k < n; k++) {
        uint64_t t = neg ? (uint64_t)r[k] - s[k] - carry : (uint64_t)r[k] + s[k] + carry;
        r[k] = (uint32_t)t;
        carry = neg ? (uint32_t)(t >> 63) : (uint32_t)(t >> 32);
    }
    return carry;
}

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
    int neg = abs_diff(da, a, a + h, h) ^ abs_diff(db, b + h, b, h);
    if (ref_mul_karatsuba(c, a, b, h, depth - 1) ||                 /* x0 y0 */
        ref_mul_karatsuba(c + 2 * h, a + h, b + h, h, depth - 1) || /* x1 y1 */
        ref_mul_karatsuba(p, da, db, h, depth - 1))                 /* |x0 - x1| |y1 - y0| */
        goto out;
    /* mid = x0 y0 + x1 y1 + (x0 - x1)(y1 - y0), the last term being -p when neg, +p else;
     * it equals x0 y1 + x1 y0: 2h words and one bit. */
    for (unsigned k = 0; k < 2 * h; k++)
        mid[k] = c[k];
    mid[2 * h] = add_or_sub(mid, c + 2 * h, 2 * h, 0);
    p[2 * h] = 0;
    add_or_sub(mid, p, 2 * h + 1, neg);
    /* c += mid beta^h; the product fits in 2n words, so no carry leaves c. */
    uint32_t carry = add_or_sub(c + h, mid, 2 * h + 1, 0);
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
