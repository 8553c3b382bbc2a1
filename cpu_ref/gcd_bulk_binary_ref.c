/* Stein's binary GCD ("Computational problems associated with Racah algebra", J. Comput. Phys.
 * 1, 1967; Knuth, TAOCP vol. 2, 4.5.2, Algorithm B) as one thread of the bulk kernel runs it:
 * both numbers made odd, then the larger less the smaller, made odd again, until they are
 * equal. A round costs one subtraction and one shift over the larger's words, and removes
 * about 1.4 bits (Brent's analysis: about 0.7 rounds a bit of the inputs); no multiply, and
 * every step is the same for every thread of a warp but for the lengths and the shifts. */
#include "gcd_bulk_binary_ref.h"

#include <string.h>

/* x[0..n) >>= its trailing zeros (x != 0): a move of the zero words out and a funnel shift of
 * the rest, as a thread does it. Returns the zeros and updates *n. */
static uint32_t strip_twos(uint32_t *x, uint32_t *n, struct gcd_bulk_counts *c)
{
    uint32_t w = 0;
    while (!x[w]) {
        c->word_reads++;
        w++;
    }
    c->word_reads++;
    const uint32_t s = (uint32_t)__builtin_ctz(x[w]), len = *n - w;
    if (w == 0 && s == 0)
        return 0;
    for (uint32_t i = 0; i < len; i++) {
        const uint32_t above = i + 1 < len ? x[w + i + 1] : 0;
        x[i] = s ? x[w + i] >> s | above << (32 - s) : x[w + i];
    }
    c->word_shifts += len;
    memset(x + len, 0, 4 * (size_t)w);
    *n = gcd_bulk_trim(x, len, c);
    return 32 * w + s;
}

/* x[0..n) <<= k into g[0..width), the GCD's common power of two put back (it fits: g divides
 * an input of width words). */
static void put_twos(uint32_t *g, const uint32_t *x, uint32_t n, uint32_t k, uint32_t width,
                     struct gcd_bulk_counts *c)
{
    const uint32_t w = k / 32, s = k % 32;
    memset(g, 0, 4 * (size_t)width);
    for (uint32_t i = 0; i < n && w + i < width; i++) {
        g[w + i] |= x[i] << s;
        if (s && w + i + 1 < width)
            g[w + i + 1] = x[i] >> (32 - s);
    }
    c->word_shifts += n;
}

void gcd_bulk_binary(uint32_t *g, const uint32_t *a, const uint32_t *b, uint32_t n,
                     struct gcd_bulk_counts *counts)
{
    uint32_t x[2][GCD_BULK_MAX_WORDS];
    memcpy(x[0], a, 4 * (size_t)n);
    memcpy(x[1], b, 4 * (size_t)n);
    uint32_t len[2] = {gcd_bulk_trim(x[0], n, counts), gcd_bulk_trim(x[1], n, counts)};
    counts->gcds++;
    if (!len[0] || !len[1]) {
        memcpy(g, len[0] ? a : b, 4 * (size_t)n);
        return;
    }
    const uint32_t za = strip_twos(x[0], &len[0], counts), zb = strip_twos(x[1], &len[1], counts);
    /* Both odd from here: their difference is even and not 0 until they are equal. The larger
     * is found by length, then from the top word; which array holds it is an index. */
    uint32_t big = 0;
    for (;;) {
        const uint32_t small = 1 - big;
        int order = len[big] == len[small] ? gcd_bulk_compare(x[big], x[small], len[big], counts)
                                           : (len[big] > len[small] ? 1 : -1);
        if (order == 0)
            break;
        if (order < 0) {
            big = small;
            counts->swaps++;
        }
        counts->iterations++;
        gcd_bulk_sub(x[big], x[1 - big], len[big], counts);
        len[big] = gcd_bulk_trim(x[big], len[big], counts);
        strip_twos(x[big], &len[big], counts);
    }
    put_twos(g, x[big], len[big], za < zb ? za : zb, n, counts);
}
