#include "words_ref.h"

uint32_t ref_add_n(uint32_t *r, const uint32_t *x, const uint32_t *y, unsigned n)
{
    uint64_t carry = 0;
    for (unsigned k = 0; k < n; k++) {
        carry += (uint64_t)x[k] + y[k];
        r[k] = (uint32_t)carry;
        carry >>= 32;
    }
    return (uint32_t)carry;
}

uint32_t ref_sub_n(uint32_t *r, const uint32_t *x, const uint32_t *y, unsigned n)
{
    uint32_t borrow = 0;
    for (unsigned k = 0; k < n; k++) {
        uint64_t t = (uint64_t)x[k] - y[k] - borrow;
        r[k] = (uint32_t)t;
        borrow = (uint32_t)(t >> 63);
    }
    return borrow;
}

void ref_neg_n(uint32_t *x, unsigned n)
{
    uint64_t carry = 1;
    for (unsigned k = 0; k < n; k++) {
        carry += (uint32_t)~x[k];
        x[k] = (uint32_t)carry;
        carry >>= 32;
    }
}

int ref_abs_diff_n(uint32_t *d, const uint32_t *x, const uint32_t *y, unsigned n)
{
    int x_less = 0;
    for (unsigned k = n; k-- > 0;)
        if (x[k] != y[k]) {
            x_less = x[k] < y[k];
            break;
        }
    ref_sub_n(d, x_less ? y : x, x_less ? x : y, n);
    return x_less;
}
