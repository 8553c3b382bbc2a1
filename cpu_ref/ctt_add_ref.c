/* Schoolbook addition of one computation by one thread (003 4.3.1 "Addition"). */
#include "ctt_ref.h"

void ctt_add_magnitude(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    const uint32_t n = na > nb ? na : nb;
    uint32_t carry = 0;
    /* 003 detects the overflow with three comparisons; a 64-bit sum says the same in one: the
     * carry out is bit 32 of w1 + w2 + c, at most 2^33 - 1. */
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t s = (uint64_t)(i < na ? a[i] : 0) + (i < nb ? b[i] : 0) + carry;
        r[i] = (uint32_t)s;
        carry = (uint32_t)(s >> 32);
    }
    r[n] = carry; /* the result has max(len) + 1 words: one carry out at most */
}
