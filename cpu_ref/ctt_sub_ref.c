/* Schoolbook subtraction of magnitudes by one thread (003 4.3.1 "Subtraction"), with the
 * comparison that orders the operands so the difference is a magnitude and a sign. */
#include "ctt_ref.h"

int ctt_cmp_magnitude(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    for (uint32_t i = na > nb ? na : nb; i-- > 0;) {
        const uint32_t x = i < na ? a[i] : 0, y = i < nb ? b[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

void ctt_sub_magnitude(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    const uint32_t n = na > nb ? na : nb;
    uint32_t borrow = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t x = i < na ? a[i] : 0, y = i < nb ? b[i] : 0;
        r[i] = x - y - borrow;
        /* 003 4.3.1 states the condition inverted (w1 > w2); a borrow goes out when the word
         * of the minuend is the smaller, or equal with a borrow coming in. */
        borrow = x < y || (x == y && borrow);
    }
}
