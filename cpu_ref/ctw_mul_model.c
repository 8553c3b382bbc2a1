#include "ctw_mul_model.h"

/* The carries of one 32-lane addition from its votes, as mp::lookahead_carries: bit l is the
 * carry into lane l, bit 32 the carry out. */
static uint64_t lookahead(uint64_t generate, uint64_t either, uint32_t carry_in)
{
    return (generate + either + carry_in) ^ generate ^ either;
}

void ctw_mul_model(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    for (uint32_t i = 0; i < na; i++) {
        uint32_t high_in = 0, carry = 0;
        for (uint32_t base = 0; base <= nb; base += 32) {
            uint32_t lo[32], hi[32], s[32];
            uint64_t generate = 0, either = 0;
            for (unsigned lane = 0; lane < 32; lane++) {
                const uint32_t j = base + lane;
                const uint64_t bj = j < nb ? b[j] : 0;
                const uint64_t p = a[i] * bj + (i > 0 && j < nb ? r[i + j] : 0);
                lo[lane] = (uint32_t)p;
                hi[lane] = (uint32_t)(p >> 32);
            }
            for (unsigned lane = 0; lane < 32; lane++) {
                const uint32_t from_below = lane ? hi[lane - 1] : high_in; /* shfl_up by one */
                s[lane] = lo[lane] + from_below;
                generate |= (uint64_t)(s[lane] < lo[lane]) << lane;
                either |= (uint64_t)(s[lane] < lo[lane] || s[lane] == 0xffffffffu) << lane;
            }
            const uint64_t c = lookahead(generate, either, carry);
            for (unsigned lane = 0; lane < 32; lane++)
                if (base + lane <= nb)
                    r[i + base + lane] = s[lane] + (uint32_t)(c >> lane & 1);
            carry = (uint32_t)(c >> 32) & 1;
            high_in = hi[31];
        }
    }
}
