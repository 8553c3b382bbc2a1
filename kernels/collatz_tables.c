#include "collatz_tables.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

uint64_t collatz_pow3(unsigned j)
{
    uint64_t p = 1;
    while (j--)
        p *= 3;
    return p;
}

/* One bit e of n through the recurrence of collatz_tables.h: (p = 3^j, c) -> the state after one
 * more even operation, with the odd operation before it when the value is odd. Written so that
 * no intermediate exceeds 3^40 < 2^64. */
static inline void advance(uint64_t *p, uint64_t *c, unsigned e)
{
    uint64_t pp = *p, cc = *c;
    if ((e ^ cc) & 1) {
        /* odd: 3 * (3^j q + c) + 1, then halve; q = 2q' + e */
        uint64_t p3 = 3 * pp;
        *c = e ? (p3 + 1) / 2 + 3 * (cc / 2) : cc + (cc + 1) / 2;
        *p = p3;
    } else {
        /* even: halve */
        *c = e ? pp / 2 + cc / 2 + 1 : cc / 2;
    }
}

void collatz_prefix_state(uint64_t r, unsigned bits, unsigned *j, uint64_t *c)
{
    uint64_t p = 1, cc = 0;
    unsigned jj = 0;
    for (unsigned i = 0; i < bits; i++) {
        uint64_t before = p;
        advance(&p, &cc, (unsigned)(r >> i) & 1);
        jj += p != before;
    }
    *j = jj;
    *c = cc;
}

int collatz_bc_build(struct mpgpu_collatz_bc_table *t, unsigned bits)
{
    memset(t, 0, sizeof *t);
    if (bits < COLLATZ_BC_MIN_BITS || bits > COLLATZ_BC_MAX_BITS)
        return -1;
    size_t n = (size_t)1 << bits;
    t->bits = bits;
    t->bc = malloc(2 * n * sizeof *t->bc);
    t->ops = malloc(n);
    if (!t->bc || !t->ops) {
        collatz_bc_free(t);
        return -1;
    }
    const long count = (long)n;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; i++) {
        unsigned j;
        uint64_t c;
        collatz_prefix_state((uint64_t)i, bits, &j, &c);
        t->bc[2 * i] = (uint32_t)collatz_pow3(j);
        t->bc[2 * i + 1] = (uint32_t)c;
        t->ops[i] = (uint8_t)(bits + j);
    }
    return 0;
}

void collatz_bc_free(struct mpgpu_collatz_bc_table *t)
{
    free(t->bc);
    free(t->ops);
    memset(t, 0, sizeof *t);
}

void collatz_table_prefix(const struct mpgpu_collatz_bc_table *t, uint64_t r, unsigned ops,
                          uint64_t *p3, uint64_t *c, uint32_t *count)
{
    const unsigned d = t->bits;
    const uint64_t mask = ((uint64_t)1 << d) - 1;
    uint64_t p = 1, cc = 0;
    uint32_t n = 0;
    for (unsigned i = 0; i < ops; i++) {
        /* 3^j * (2^d q' + l) + c = 2^d (3^j q' + w_H) + w_L with w = 3^j l + c, so the table
         * operation reads entry w_L and leaves 3^(j+j') q' + B w_H + C. */
        uint64_t l = (r >> (i * d)) & mask;
        unsigned __int128 w = (unsigned __int128)p * l + cc;
        uint32_t wl = (uint32_t)w & (uint32_t)mask;
        uint64_t wh = (uint64_t)(w >> d);
        uint32_t b = t->bc[2 * wl];
        p *= b;
        cc = b * wh + t->bc[2 * wl + 1];
        n += t->ops[wl];
    }
    *p3 = p;
    *c = cc;
    *count = n;
}

void collatz_jump_state(const struct mpgpu_collatz_bc_table *t, uint64_t r, unsigned bits, uint64_t *p3,
                        uint64_t *c)
{
    const unsigned ops = bits / t->bits, done = ops * t->bits;
    uint32_t count;
    collatz_table_prefix(t, r, ops, p3, c, &count);
    for (unsigned i = done; i < bits; i++)
        advance(p3, c, (unsigned)(r >> i) & 1);
}

size_t collatz_bc_bytes(unsigned bits)
{
    return ((size_t)1 << bits) * 2 * sizeof(uint32_t);
}

size_t collatz_bcj_bytes(unsigned bits)
{
    return collatz_bc_bytes(bits) + ((size_t)1 << bits);
}

bool collatz_s_is_mandatory(uint64_t r, unsigned bits)
{
    uint64_t p = 1, c = 0;
    for (unsigned i = 0; i < bits; i++) {
        advance(&p, &c, (unsigned)(r >> i) & 1);
        if (p < ((uint64_t)1 << (i + 1)))
            return false;
    }
    return true;
}

/* A mandatory residue of the first `bits` bits with its state, the root of one parallel
 * subtree of the S search. */
struct s_prefix {
    uint64_t r, p, c;
};

/* Mandatory extensions of the prefix (r, p, c) at level i to level k. Once 3^j > 2^k no later
 * bit can fail (j never decreases), so the whole subtree of 2^(k-i) residues counts. */
static uint64_t s_count_from(unsigned i, unsigned k, uint64_t p, uint64_t c)
{
    if (i == k)
        return 1;
    if (p > ((uint64_t)1 << k))
        return (uint64_t)1 << (k - i);
    uint64_t n = 0;
    for (unsigned e = 0; e < 2; e++) {
        uint64_t p2 = p, c2 = c;
        advance(&p2, &c2, e);
        if (p2 > ((uint64_t)1 << (i + 1)))
            n += s_count_from(i + 1, k, p2, c2);
    }
    return n;
}

static uint64_t *s_fill_from(uint64_t r, unsigned i, unsigned k, uint64_t p, uint64_t c,
                             uint64_t *out)
{
    if (i == k) {
        *out++ = r;
        return out;
    }
    if (p > ((uint64_t)1 << k)) {
        uint64_t n = (uint64_t)1 << (k - i);
        for (uint64_t x = 0; x < n; x++)
            *out++ = r | x << i;
        return out;
    }
    for (unsigned e = 0; e < 2; e++) {
        uint64_t p2 = p, c2 = c;
        advance(&p2, &c2, e);
        if (p2 > ((uint64_t)1 << (i + 1)))
            out = s_fill_from(r | (uint64_t)e << i, i + 1, k, p2, c2, out);
    }
    return out;
}

/* The mandatory residues of the low `level` bits, breadth first, as roots for the threads. */
static struct s_prefix *s_prefixes(unsigned level, size_t *n_out)
{
    size_t n = 1;
    struct s_prefix *cur = malloc(sizeof *cur);
    if (!cur)
        return NULL;
    cur[0] = (struct s_prefix){0, 1, 0};
    for (unsigned i = 0; i < level; i++) {
        struct s_prefix *next = malloc(2 * n * sizeof *next);
        if (!next) {
            free(cur);
            return NULL;
        }
        size_t m = 0;
        for (size_t x = 0; x < n; x++)
            for (unsigned e = 0; e < 2; e++) {
                uint64_t p = cur[x].p, c = cur[x].c;
                advance(&p, &c, e);
                if (p > ((uint64_t)1 << (i + 1)))
                    next[m++] = (struct s_prefix){cur[x].r | (uint64_t)e << i, p, c};
            }
        free(cur);
        cur = next;
        n = m;
    }
    *n_out = n;
    return cur;
}

/* Threads split the search at this level: |S_20| = 27328 subtrees balance well. */
#define S_SPLIT_BITS 20u

static int threads_or_all(int threads)
{
    return threads > 0 ? threads : omp_get_num_procs();
}

uint64_t collatz_s_count(unsigned bits, int threads)
{
    unsigned level = bits < S_SPLIT_BITS ? bits : S_SPLIT_BITS;
    size_t n;
    struct s_prefix *pre = s_prefixes(level, &n);
    if (!pre)
        return 0;
    uint64_t total = 0;
    const long np = (long)n;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : total) num_threads(threads_or_all(threads))
    for (long x = 0; x < np; x++)
        total += s_count_from(level, bits, pre[x].p, pre[x].c);
    free(pre);
    return total;
}

int collatz_s_build(struct mpgpu_collatz_s_table *t, unsigned bits, uint64_t count, int threads)
{
    memset(t, 0, sizeof *t);
    unsigned level = bits < S_SPLIT_BITS ? bits : S_SPLIT_BITS;
    size_t n;
    struct s_prefix *pre = s_prefixes(level, &n);
    uint64_t *offset = pre ? malloc((n + 1) * sizeof *offset) : NULL;
    t->residues = offset ? malloc(collatz_s_bytes(count ? count : 1)) : NULL;
    if (!t->residues) {
        free(pre);
        free(offset);
        return -1;
    }
    const long np = (long)n;
    const int nt = threads_or_all(threads);
#pragma omp parallel for schedule(dynamic, 16) num_threads(nt)
    for (long x = 0; x < np; x++)
        offset[x + 1] = s_count_from(level, bits, pre[x].p, pre[x].c);
    offset[0] = 0;
    for (size_t x = 0; x < n; x++)
        offset[x + 1] += offset[x];
    if (offset[n] != count) {
        free(pre);
        free(offset);
        collatz_s_free(t);
        return -1;
    }
#pragma omp parallel for schedule(dynamic, 16) num_threads(nt)
    for (long x = 0; x < np; x++)
        s_fill_from(pre[x].r, level, bits, pre[x].p, pre[x].c, t->residues + offset[x]);
    t->bits = bits;
    t->count = count;
    free(pre);
    free(offset);
    return 0;
}

void collatz_s_all(struct mpgpu_collatz_s_table *t)
{
    static uint64_t zero = 0;
    t->bits = 0;
    t->count = 1;
    t->residues = &zero;
}

void collatz_s_free(struct mpgpu_collatz_s_table *t)
{
    if (t->bits > 0)
        free(t->residues);
    memset(t, 0, sizeof *t);
}

uint16_t *collatz_a_build(unsigned bits, int threads)
{
    if (bits < COLLATZ_A_MIN_BITS || bits > COLLATZ_A_MAX_BITS)
        return NULL;
    uint16_t *a = malloc(collatz_a_bytes(bits));
    if (!a)
        return NULL;
    a[0] = 0;
    a[1] = 0;
    /* Doubling blocks [2^p, 2^(p+1)): each n iterates until it falls below 2^p, whose delays are
     * all known, so the block's entries are independent of one another. */
    for (unsigned p = 1; p < bits; p++) {
        const int64_t lo = (int64_t)1 << p, hi = (int64_t)2 << p;
#pragma omp parallel for schedule(static) num_threads(threads_or_all(threads))
        for (int64_t i = lo; i < hi; i++) {
            unsigned __int128 v = (uint64_t)i;
            unsigned steps = 0;
            while (v >= (uint64_t)lo) {
                if (v & 1) {
                    v = 3 * v + 1;
                    steps++;
                }
                do {
                    v >>= 1;
                    steps++;
                } while (!(v & 1) && v >= (uint64_t)lo);
            }
            a[i] = (uint16_t)(steps + a[(uint64_t)v]);
        }
    }
    return a;
}
