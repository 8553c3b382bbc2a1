#include "split_rowchain_ref.h"

#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 32u

/* One thread's accumulator: a range's R words and its 64-bit spill into the next range. */
struct range_sum {
    uint32_t *words;
    uint64_t top;
};

/* acc += aj * win[qlo .. qhi], one row (the kernel's row()). */
static void row(struct range_sum *acc, unsigned r, uint32_t aj, const uint32_t *win,
                unsigned qlo, unsigned qhi)
{
    uint64_t t = 0;
    for (unsigned q = qlo; q <= qhi; q++) {
        t = (uint64_t)aj * win[q] + acc->words[q] + (t >> 32);
        acc->words[q] = (uint32_t)t;
    }
    for (unsigned q = qhi + 1; q < r; q++) {
        t = (uint64_t)acc->words[q] + (t >> 32);
        acc->words[q] = (uint32_t)t;
    }
    acc->top += t >> 32;
}

/* Thread t: rows m = 0 .. n + R - 2 of a_{(tR + 1 + m) mod n} times b_{n + q - 1 - m}, into range
 * T + t until row n - 1 - tR and into range t from there. Returns its word products. */
static unsigned thread_rows(const uint32_t *a, const uint32_t *b, unsigned n, unsigned threads,
                            unsigned t, struct range_sum *low, struct range_sum *high)
{
    const unsigned r = n / threads;
    uint32_t win[2048] = {0};
    unsigned products = 0;
    struct range_sum *acc = high;
    for (unsigned m = 0; m + 1 < n + r; m++) {
        if (m == n - 1 - t * r)
            acc = low;
        memmove(win + 1, win, (r - 1) * sizeof *win);
        win[0] = m < n ? b[n - 1 - m] : 0;
        const uint32_t aj = a[(t * r + 1 + m) % n];
        /* window word q is b_{n + q - 1 - m}: inside b for m + 1 - n <= q <= m */
        const unsigned qlo = m + 1 > n ? m + 1 - n : 0, qhi = m < r - 1 ? m : r - 1;
        row(acc, r, aj, win, qlo, qhi);
        products += qhi - qlo + 1;
    }
    return products;
}

void split_rowchain_ref_resolve(uint32_t *c, const uint64_t *spill, unsigned n, unsigned threads,
                                struct split_rowchain_stats *stats)
{
    const unsigned r = n / threads, ranges = 2 * threads;
    uint64_t generate = 0, propagate = 0;
    for (unsigned k = 0; k < ranges; k++) { /* each range adds the spill of the one below */
        uint32_t *x = c + k * r;
        uint64_t s = k ? spill[k - 1] : 0, carry = 0;
        for (unsigned q = 0; q < r; q++) {
            const uint64_t sum = (uint64_t)x[q] + (q < 2 ? (uint32_t)(s >> (32 * q)) : 0) + carry;
            x[q] = (uint32_t)sum;
            carry = sum >> 32;
        }
        uint32_t ones = 0xffffffffu;
        for (unsigned q = 0; q < r; q++)
            ones &= x[q];
        generate |= carry << k;
        propagate |= (uint64_t)(ones == 0xffffffffu) << k;
    }
    /* carry-lookahead over the ranges, as mp::lookahead_carries: bit k is the carry into range k
     * (the kernel skips it when no range generated a carry, and then it moves none) */
    const uint64_t gp = generate | propagate;
    const uint64_t carries = (generate + gp) ^ generate ^ gp;
    stats->carries_resolved = 0;
    stats->longest_ripple = 0;
    for (unsigned k = 0; k < ranges; k++) {
        if (!(carries >> k & 1))
            continue;
        stats->carries_resolved++;
        unsigned ripple = 0; /* all-ones ranges between this one and the range that generated */
        while (ripple < k && !(generate >> (k - 1 - ripple) & 1))
            ripple++;
        if (ripple > stats->longest_ripple)
            stats->longest_ripple = ripple;
        uint32_t *x = c + k * r, carry = 1;
        for (unsigned q = 0; q < r && carry; q++)
            carry = ++x[q] == 0;
    }
}

void split_rowchain_ref_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                            unsigned n, unsigned threads, struct split_rowchain_stats *stats)
{
    const unsigned r = n / threads;
    uint32_t *pa = calloc(n, sizeof *pa), *pb = calloc(n, sizeof *pb);
    uint32_t *sum = calloc(2 * (size_t)n, sizeof *sum);
    memcpy(pa, a, w * sizeof *pa);
    memcpy(pb, b, w * sizeof *pb);
    struct range_sum ranges[2 * MAX_THREADS];
    for (unsigned k = 0; k < 2 * threads; k++)
        ranges[k] = (struct range_sum){sum + k * r, 0};
    stats->products_min = ~0u;
    stats->products_max = 0;
    for (unsigned t = 0; t < threads; t++) {
        const unsigned products =
            thread_rows(pa, pb, n, threads, t, &ranges[t], &ranges[threads + t]);
        if (products < stats->products_min)
            stats->products_min = products;
        if (products > stats->products_max)
            stats->products_max = products;
    }
    /* the shuffles: lane t hands its spills to lane t + 1; lane T - 1's low spill goes to lane
     * 0's high range. Range k's spill is spill[k]. */
    uint64_t spill[2 * MAX_THREADS];
    for (unsigned k = 0; k < 2 * threads; k++)
        spill[k] = ranges[k].top;
    split_rowchain_ref_resolve(sum, spill, n, threads, stats);
    memcpy(c, sum, 2 * (size_t)w * sizeof *c);
    free(pa);
    free(pb);
    free(sum);
}
