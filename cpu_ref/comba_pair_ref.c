#include "comba_pair_ref.h"

/* c[0 .. na + nb) = a * b, column q summing a_i b_(q-i) from the highest i down into
 * {c2, lo}, as rowchain::comba_rect; returns the word products taken. */
static unsigned comba_rect(uint32_t *c, const uint32_t *a, unsigned na, const uint32_t *b,
                           unsigned nb)
{
    unsigned products = 0;
    uint64_t lo = 0;
    for (unsigned q = 0; q + 1 < na + nb; q++) {
        uint32_t c2 = 0;
        for (unsigned i = na; i-- > 0;) {
            if (q < i || q - i >= nb)
                continue;
            const unsigned __int128 t = (unsigned __int128)lo + (uint64_t)a[i] * b[q - i];
            lo = (uint64_t)t;
            c2 += (uint32_t)(t >> 64);
            products++;
        }
        c[q] = (uint32_t)lo;
        lo = lo >> 32 | (uint64_t)c2 << 32;
    }
    c[na + nb - 1] = (uint32_t)lo;
    return products;
}

void comba_pair_ref_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned n,
                        struct comba_pair_stats *stats)
{
    const unsigned h_words = n / 2;
    uint32_t part[2][COMBA_PAIR_MAX_WORDS * 3 / 2], sent[2][COMBA_PAIR_MAX_WORDS / 2];
    for (unsigned h = 0; h < 2; h++)
        stats->products[h] = comba_rect(part[h], a + h * h_words, h_words, b, n);
    /* The shuffle: the low thread sends part0[n, n + H), the high one part1[0, H). */
    for (unsigned h = 0; h < 2; h++)
        for (unsigned k = 0; k < h_words; k++)
            sent[h][k] = h ? part[h][k] : part[h][n + k];
    for (unsigned h = 0; h < 2; h++) {
        const uint32_t *received = sent[h ^ 1];
        uint32_t *out = c + h * n;
        uint64_t carry = 0;
        for (unsigned k = 0; k < n; k++) {
            const uint32_t u = h ? part[h][h_words + k] : part[h][k];
            const uint32_t v = k < h_words ? (h ? received[k] : 0) : (h ? 0 : received[k - h_words]);
            const uint64_t t = (uint64_t)u + v + carry;
            out[k] = (uint32_t)t;
            carry = t >> 32;
        }
        stats->carry_out[h] = (uint32_t)carry;
    }
    /* The second shuffle: the high thread adds the low one's carry out. */
    uint64_t carry = stats->carry_out[0];
    for (unsigned k = 0; k < n; k++) {
        const uint64_t t = (uint64_t)c[n + k] + carry;
        c[n + k] = (uint32_t)t;
        carry = t >> 32;
    }
}
