#include "comba_threads_ref.h"

#include <string.h>

#include "words_ref.h"

#define MAX_H COMBA_THREADS_MAX_WORDS

/* c[0 .. na + nb) = a * b, column q summing a_i b_(q-i) from the highest i down into
 * {c2, lo}, as rowchain::comba_rect with `group` columns at a time: the first of a group starts
 * from the carry of the columns before, the others from zero, and each takes the carry of the one
 * before it when the group is summed (counted in *group_carries when that addition carries out
 * of lo). Returns the word products taken. */
static unsigned comba_rect(uint32_t *c, const uint32_t *a, unsigned na, const uint32_t *b,
                           unsigned nb, unsigned group, unsigned *group_carries)
{
    const unsigned columns = na + nb - 1; /* columns with terms */
    unsigned products = 0;
    uint64_t lo = 0; /* the carry of the columns before */
    for (unsigned q0 = 0; q0 < columns; q0 += group) {
        uint64_t acc[COMBA_THREADS_MAX_GROUP];
        uint32_t top[COMBA_THREADS_MAX_GROUP];
        for (unsigned g = 0; g < group; g++) {
            acc[g] = g == 0 ? lo : 0;
            top[g] = 0;
        }
        for (unsigned i = na; i-- > 0;)
            for (unsigned g = 0; g < group; g++) {
                const unsigned q = q0 + g;
                if (q >= columns || q < i || q - i >= nb)
                    continue;
                const unsigned __int128 t = (unsigned __int128)acc[g] + (uint64_t)a[i] * b[q - i];
                acc[g] = (uint64_t)t;
                top[g] += (uint32_t)(t >> 64);
                products++;
            }
        for (unsigned g = 0; g < group && q0 + g < columns; g++) {
            if (g > 0) {
                const unsigned __int128 t = (unsigned __int128)acc[g] + lo;
                acc[g] = (uint64_t)t;
                top[g] += (uint32_t)(t >> 64);
                *group_carries += (uint32_t)(t >> 64);
            }
            c[q0 + g] = (uint32_t)acc[g];
            lo = acc[g] >> 32 | (uint64_t)top[g] << 32;
        }
    }
    c[columns] = (uint32_t)lo;
    return products;
}

/* v[0 .. h) += carry; returns the carry out (mp::add_spill's carry and mp::add_bit). */
static uint32_t add_carry(uint32_t *v, uint32_t carry, unsigned h)
{
    uint64_t sum = carry;
    for (unsigned k = 0; k < h; k++) {
        sum += v[k];
        v[k] = (uint32_t)sum;
        sum >>= 32;
    }
    return (uint32_t)sum;
}

static int all_ones(const uint32_t *v, unsigned h)
{
    for (unsigned k = 0; k < h; k++)
        if (v[k] != ~0u)
            return 0;
    return 1;
}

void comba_threads_ref_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned n,
                           unsigned t, unsigned group, struct comba_threads_stats *stats)
{
    const unsigned hw = n / t; /* H, the words of a chunk */
    uint32_t part[COMBA_THREADS_MAX][COMBA_THREADS_MAX_WORDS + MAX_H];
    uint32_t chunk[2][COMBA_THREADS_MAX][MAX_H]; /* [0]: the low chunk h, [1]: the high T + h */
    uint32_t sum_carry[2][COMBA_THREADS_MAX], gen[2][COMBA_THREADS_MAX];
    memset(stats, 0, sizeof *stats);
    for (unsigned h = 0; h < t; h++) {
        stats->products[h] = comba_rect(part[h], a + h * hw, hw, b, n, group,
                                        &stats->group_carries);
        memcpy(chunk[0][h], part[h], hw * sizeof(uint32_t));
        memcpy(chunk[1][h], part[h] + t * hw, hw * sizeof(uint32_t));
    }
    /* Exchange step d: lane h receives chunk d of lane h - d mod T (c's chunk h if d <= h) and
     * adds it to its chain of H + 1 words, which after step h is the low chunk's share (the
     * kernels run step d as soon as chunk d of the partial product is stored, in line with the
     * columns still to come; the sums do not depend on when). The rest of the chain is the high
     * chunk's share. */
    uint32_t chain[COMBA_THREADS_MAX][MAX_H + 1] = {{0}};
    uint32_t share[2][COMBA_THREADS_MAX][MAX_H + 1] = {{{0}}};
    for (unsigned d = 1; d < t; d++)
        for (unsigned h = 0; h < t; h++) {
            const uint32_t *received = part[(h + t - d) % t] + d * hw;
            chain[h][hw] += ref_add_n(chain[h], chain[h], received, hw); /* mp::add_words */
            if (d == h)
                memcpy(share[0][h], chain[h], (hw + 1) * sizeof(uint32_t));
        }
    for (unsigned h = 0; h < t; h++) {
        /* mp::sub_words; share[0] is a prefix of the sum, so nothing borrows out */
        ref_sub_n(share[1][h], chain[h], share[0][h], hw + 1);
        for (unsigned s = 0; s < 2; s++)
            sum_carry[s][h] = share[s][h][hw] + /* mp::add_words */
                              ref_add_n(chunk[s][h], chunk[s][h], share[s][h], hw);
    }
    /* The carry shift: chunk k's carry into chunk k + 1; lane T - 1's low feeds lane 0's high. */
    for (unsigned h = 0; h < t; h++) {
        const unsigned prev = (h + t - 1) % t;
        const uint32_t into_low = h ? sum_carry[0][prev] : 0;
        const uint32_t into_high = h ? sum_carry[1][prev] : sum_carry[0][prev];
        stats->chunk_carries += into_low + into_high;
        gen[0][h] = add_carry(chunk[0][h], into_low, hw);
        gen[1][h] = add_carry(chunk[1][h], into_high, hw);
    }
    /* The lookahead over the 2T chunks, from the ballots of one product's lanes. The kernels
     * skip it when no chunk generated a carry (the warp's vote): with g = 0 it moves none. */
    uint32_t g = 0, gp = 0;
    for (unsigned k = 0; k < 2 * t; k++) {
        const uint32_t *v = chunk[k / t][k % t];
        g |= gen[k / t][k % t] << k;
        gp |= (gen[k / t][k % t] | (uint32_t)all_ones(v, hw)) << k;
    }
    stats->lookahead_skipped = g == 0;
    const uint32_t carries_in = (g + gp) ^ g ^ gp;
    for (unsigned k = 0; k < 2 * t; k++) {
        uint32_t *v = chunk[k / t][k % t];
        const uint32_t in = carries_in >> k & 1;
        stats->generated += gen[k / t][k % t];
        stats->propagated += in & (uint32_t)all_ones(v, hw);
        const uint32_t out = add_carry(v, in, hw);
        if (k == 2 * t - 1)
            stats->top_carry = out | gen[1][t - 1] | sum_carry[1][t - 1];
        memcpy(c + k * hw, v, hw * sizeof(uint32_t));
    }
}
