#include "collatz_tables.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "call_progress.h"

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

/* Adds to counts[l], for l = i..k, the mandatory extensions to level l of the prefix (p, c) at
 * level i: one search to level k counts S of every base bits up to k, in about the time of k's
 * alone, as it visits every prefix the smaller searches visit. Once 3^j > 2^k no later bit can
 * fail (j never decreases), so the whole subtree counts: 2^(l-i) residues at level l. */
static void s_count_from(unsigned i, unsigned k, uint64_t p, uint64_t c, uint64_t *counts)
{
    counts[i]++;
    if (i == k)
        return;
    if (p > ((uint64_t)1 << k)) {
        for (unsigned l = i + 1; l <= k; l++)
            counts[l] += (uint64_t)1 << (l - i);
        return;
    }
    for (unsigned e = 0; e < 2; e++) {
        uint64_t p2 = p, c2 = c;
        advance(&p2, &c2, e);
        if (p2 > ((uint64_t)1 << (i + 1)))
            s_count_from(i + 1, k, p2, c2, counts);
    }
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

/* The mandatory residues of the low `level` bits, breadth first, as roots for the threads; when
 * counts is not NULL, counts[i] = |S_i| for i < level. */
static struct s_prefix *s_prefixes(unsigned level, size_t *n_out, uint64_t *counts)
{
    size_t n = 1;
    struct s_prefix *cur = malloc(sizeof *cur);
    if (!cur)
        return NULL;
    cur[0] = (struct s_prefix){0, 1, 0};
    for (unsigned i = 0; i < level; i++) {
        if (counts)
            counts[i] = n;
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

mpgpu_status collatz_s_counts(unsigned bits, int threads, mpgpu_progress_fn progress, void *progress_ctx,
                              uint64_t *counts)
{
    const unsigned level = bits < S_SPLIT_BITS ? bits : S_SPLIT_BITS;
    size_t n;
    struct s_prefix *pre = s_prefixes(level, &n, counts);
    if (!pre)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    for (unsigned l = level; l <= bits; l++)
        counts[l] = 0;
    struct call_progress pg = call_progress_start(progress, progress_ctx, n);
    call_progress_begin(&pg);
    const long np = (long)n;
#pragma omp parallel num_threads(threads_or_all(threads))
    {
        uint64_t mine[COLLATZ_PREFIX_MAX_BITS + 1] = {0};
#pragma omp for schedule(dynamic, 16)
        for (long x = 0; x < np; x++) {
            if (call_progress_cancelled(&pg))
                continue;
            s_count_from(level, bits, pre[x].p, pre[x].c, mine);
            call_progress_step(&pg, 1);
        }
#pragma omp critical(collatz_s_counts)
        for (unsigned l = level; l <= bits; l++)
            counts[l] += mine[l];
    }
    free(pre);
    return pg.cancelled ? MPGPU_ERR_CANCELLED : MPGPU_OK;
}

/* |S| of `bits` below one prefix's subtree: the count that fills it (s_fill_from). */
static uint64_t s_count_below(unsigned level, unsigned bits, const struct s_prefix *pre)
{
    uint64_t counts[COLLATZ_PREFIX_MAX_BITS + 1] = {0};
    s_count_from(level, bits, pre->p, pre->c, counts);
    return counts[bits];
}

mpgpu_status collatz_s_build(struct mpgpu_collatz_s_table *t, unsigned bits, uint64_t count, int threads,
                             mpgpu_progress_fn progress, void *progress_ctx)
{
    memset(t, 0, sizeof *t);
    unsigned level = bits < S_SPLIT_BITS ? bits : S_SPLIT_BITS;
    size_t n;
    struct s_prefix *pre = s_prefixes(level, &n, NULL);
    uint64_t *offset = pre ? malloc((n + 1) * sizeof *offset) : NULL;
    t->residues = offset ? malloc(collatz_s_bytes(count ? count : 1)) : NULL;
    if (!t->residues) {
        free(pre);
        free(offset);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    /* Each prefix is counted, then filled: two steps of progress. */
    struct call_progress pg = call_progress_start(progress, progress_ctx, 2 * (uint64_t)n);
    call_progress_begin(&pg);
    const long np = (long)n;
    const int nt = threads_or_all(threads);
#pragma omp parallel for schedule(dynamic, 16) num_threads(nt)
    for (long x = 0; x < np; x++) {
        if (call_progress_cancelled(&pg))
            continue;
        offset[x + 1] = s_count_below(level, bits, &pre[x]);
        call_progress_step(&pg, 1);
    }
    offset[0] = 0;
    for (size_t x = 0; x < n && !pg.cancelled; x++)
        offset[x + 1] += offset[x];
    mpgpu_status st = pg.cancelled ? MPGPU_ERR_CANCELLED : offset[n] != count ? MPGPU_ERR_BAD_ARGUMENT : MPGPU_OK;
    if (st == MPGPU_OK) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(nt)
        for (long x = 0; x < np; x++) {
            if (call_progress_cancelled(&pg))
                continue;
            s_fill_from(pre[x].r, level, bits, pre[x].p, pre[x].c, t->residues + offset[x]);
            call_progress_step(&pg, 1);
        }
        if (pg.cancelled)
            st = MPGPU_ERR_CANCELLED;
    }
    free(pre);
    free(offset);
    if (st != MPGPU_OK) {
        collatz_s_free(t);
        return st;
    }
    t->bits = bits;
    t->count = count;
    return MPGPU_OK;
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

/* Entries of A a thread builds between looks at the progress: milliseconds of work. */
#define A_PIECE_ENTRIES ((int64_t)1 << 16)

mpgpu_status collatz_a_build(uint16_t **out, unsigned bits, int threads, mpgpu_progress_fn progress,
                             void *progress_ctx)
{
    *out = NULL;
    if (bits < COLLATZ_A_MIN_BITS || bits > COLLATZ_A_MAX_BITS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    uint16_t *a = malloc(collatz_a_bytes(bits));
    if (!a)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    a[0] = 0;
    a[1] = 0;
    struct call_progress pg = call_progress_start(progress, progress_ctx, ((uint64_t)1 << bits) - 2);
    call_progress_begin(&pg);
    /* Doubling blocks [2^p, 2^(p+1)): each n iterates until it falls below 2^p, whose delays are
     * all known, so the block's entries are independent of one another. The last block is half
     * the work, so the threads take a block in pieces, each a run of consecutive entries. */
    for (unsigned p = 1; p < bits && !pg.cancelled; p++) {
        const int64_t lo = (int64_t)1 << p, hi = (int64_t)2 << p;
        const int64_t pieces = (hi - lo + A_PIECE_ENTRIES - 1) / A_PIECE_ENTRIES;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_or_all(threads))
        for (int64_t k = 0; k < pieces; k++) {
            if (call_progress_cancelled(&pg))
                continue;
            const int64_t from = lo + k * A_PIECE_ENTRIES;
            const int64_t to = hi - from < A_PIECE_ENTRIES ? hi : from + A_PIECE_ENTRIES;
            for (int64_t i = from; i < to; i++) {
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
            call_progress_step(&pg, (uint64_t)(to - from));
        }
    }
    if (pg.cancelled) {
        free(a);
        return MPGPU_ERR_CANCELLED;
    }
    *out = a;
    return MPGPU_OK;
}
