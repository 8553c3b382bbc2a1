#include "tensor_karatsuba_ref.h"

#include <stdlib.h>

#include "tensor_toeplitz_plan.h"
#include "tensor_toeplitz_ref.h"
#include "warp_karatsuba_plan.h"

/* dst[0, len) = x +- y, x read as xlen words and y as ylen, both zero-extended to len (the
 * kernel's add_sub); returns the carry or borrow out. dst may be x or y. */
static uint32_t add_sub(uint32_t *dst, const uint32_t *x, unsigned xlen, const uint32_t *y,
                        unsigned ylen, unsigned len, int subtract)
{
    uint32_t carry = 0;
    for (unsigned i = 0; i < len; i++) {
        const uint64_t xi = i < xlen ? x[i] : 0, yi = i < ylen ? y[i] : 0;
        const uint64_t r = subtract ? xi - yi - carry : xi + yi + carry;
        dst[i] = (uint32_t)r;
        carry = (uint32_t)(r >> 32) & 1;
    }
    return carry;
}

/* The kernel's abs_diff: |x - y| over len words, x of xlen words, y of ylen; 1 when x < y. */
static int abs_diff(uint32_t *dst, const uint32_t *x, unsigned xlen, const uint32_t *y,
                    unsigned ylen, unsigned len)
{
    int negative = 0;
    for (unsigned i = len; i-- > 0;) {
        const uint32_t xi = i < xlen ? x[i] : 0, yi = i < ylen ? y[i] : 0;
        if (xi != yi) {
            negative = xi < yi;
            break;
        }
    }
    if (negative)
        add_sub(dst, y, ylen, x, xlen, len, 1);
    else
        add_sub(dst, x, xlen, y, ylen, len, 1);
    return negative;
}

/* One level of kernels/warp_karatsuba.cuh's mul, scratch laid out as the kernel's. */
static int karatsuba(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned n,
                     unsigned depth, uint32_t *scratch, struct tk_ref_stats *s)
{
    if (depth == 0) {
        if (n > TT_MAX_WORDS)
            return -2;
        s->leaves++;
        if (n > s->largest_leaf)
            s->largest_leaf = n;
        return ref_mul_tensor_toeplitz(c, a, b, n, NULL);
    }
    const unsigned h = wk_split_words(n), m = n - h;
    if (m == 0 || m > h)
        return -2;
    uint32_t *da = scratch, *db = da + h, *middle = db + h, *t = middle + 2 * h;
    uint32_t *next = scratch + wk_level_words(n);
    const int a_negative = abs_diff(da, a, h, a + h, m, h);
    const int b_negative = abs_diff(db, b + h, m, b, h, h);
    int status;
    if ((status = karatsuba(a, b, c, h, depth - 1, next, s)) != 0 ||
        (status = karatsuba(a + h, b + h, c + 2 * h, m, depth - 1, next, s)) != 0 ||
        (status = karatsuba(da, db, middle, h, depth - 1, next, s)) != 0)
        return status;
    add_sub(t, c, 2 * h, c + 2 * h, 2 * m, 2 * h + 1, 0);
    add_sub(t, t, 2 * h + 1, middle, 2 * h, 2 * h + 1, a_negative != b_negative);
    s->negative_mids += a_negative != b_negative;
    const unsigned t_len = 2 * h + 1 < 2 * n - h ? 2 * h + 1 : 2 * n - h;
    for (unsigned i = t_len; i < 2 * h + 1; i++)
        if (t[i] != 0)
            return -2;
    return add_sub(c + h, c + h, 2 * n - h, t, t_len, 2 * n - h, 0) ? -2 : 0;
}

int ref_mul_tensor_karatsuba(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                             struct tk_ref_stats *stats)
{
    if (w <= TT_MAX_WORDS || w > 2048)
        return -1;
    struct tk_ref_stats s = {wk_depth(w, TT_MAX_WORDS), 0, 0, 0};
    uint32_t *scratch = malloc(wk_scratch_words(w, s.depth) * sizeof *scratch);
    if (!scratch)
        return -1;
    const int status = karatsuba(a, b, c, w, s.depth, scratch, &s);
    free(scratch);
    if (stats)
        *stats = s;
    return status;
}
