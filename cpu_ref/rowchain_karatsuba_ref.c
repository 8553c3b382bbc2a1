#include "rowchain_karatsuba_ref.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "words_ref.h"

/* The kernels' constants: kernels/rowchain_block_layout.cuh (LEAF, FUSED_MAX_LEVELS and
 * fused_shape<3>, the one block per SM), rowchain_operand_view.cuh (MAX_DEVICE_LEVELS),
 * rowchain_device_levels.cu (SPLIT_CHUNKS) and rowchain_levels.cuh (G, the columns
 * recombine_level reads whole). */
#define LEAF 32u
#define HALF (LEAF / 2)
#define FUSED_MAX_LEVELS 3u
#define MAX_DEVICE_LEVELS 8u
#define SPLIT_CHUNKS 8u
#define COLUMN_GROUP 8u
#define TOP_BLOCK_PRODUCTS 32u
#define TOP_BLOCK_THREADS 512u
/* Segments of one in-block recombination at most: one per column group of the root. */
#define MAX_SEGMENTS ((LEAF << (FUSED_MAX_LEVELS - 1)) / COLUMN_GROUP)

/* One product's run: its statistics and whether an intermediate left its place. */
struct run {
    struct rowchain_ref_stats stats;
    int broken;
};

static unsigned pow3(unsigned e)
{
    return e == 0 ? 1 : 3 * pow3(e - 1);
}

/* ceil(log2(ceil(words / LEAF))): the Karatsuba levels above the leaves. */
static unsigned levels_above_leaves(unsigned words)
{
    const unsigned leaves = (words + LEAF - 1) / LEAF;
    unsigned e = 0;
    while ((1u << e) < leaves)
        e++;
    return e;
}

/* floor(x / 2^32): the kernels' arithmetic shift of a signed carry, in portable C. */
static int64_t carry_of(int64_t x)
{
    return (x - (int64_t)(uint32_t)x) / ((int64_t)1 << 32);
}

/* Adds a signed carry to words [i, end) of z, as far as it runs; returns what runs past end. */
static int64_t ripple(uint32_t *z, unsigned i, unsigned end, int64_t carry)
{
    for (; carry != 0 && i < end; i++) {
        const int64_t v = (int64_t)z[i] + carry;
        z[i] = (uint32_t)v;
        carry = carry_of(v);
    }
    return carry;
}

/* A carry the kernels keep in a signed char (recombine_level's carry_in and carry_on). */
static signed char as_signed_char(struct run *run, int64_t carry)
{
    if (carry < -128 || carry > 127)
        run->broken = 1;
    return (signed char)carry;
}

/* ---- The leaf (kernels/rowchain_leaf.cuh, direct_leaf) ------------------------------------ */

/* d = |x - y| over HALF words as mp::abs_diff_words: one borrow chain, then the two's
 * complement when it borrowed; returns 1 when x < y. */
static int leaf_abs_diff(uint32_t *d, const uint32_t *x, const uint32_t *y)
{
    const uint32_t borrow = ref_sub_n(d, x, y, HALF);
    if (borrow)
        ref_neg_n(d, HALF);
    return (int)borrow;
}

/* c[0 .. 2n) = a * b as comba_product: column q sums a_i b_(q-i), i from the highest down, into
 * a 96-bit accumulator {c2, lo} as ptx::mac96 does (lo: the carry of the columns before, then
 * the column's low 64 bits; c2 counts the carries out of lo); word q leaves, and the next
 * column starts from lo = {c2, high word of lo}. Checks that c2 stays at most n and that the
 * last column leaves nothing above its word. */
static void comba_product(struct run *run, uint32_t *c, const uint32_t *a, const uint32_t *b,
                          unsigned n)
{
    uint64_t lo = 0;
    for (unsigned q = 0; q + 1 < 2 * n; q++) {
        uint32_t c2 = 0;
        for (unsigned i = n; i-- > 0;) {
            if (i > q || q - i >= n)
                continue;
            const uint64_t p = (uint64_t)a[i] * b[q - i];
            lo += p;
            c2 += lo < p;
        }
        if (c2 > n)
            run->broken = 1;
        c[q] = (uint32_t)lo;
        lo = (lo >> 32) | ((uint64_t)c2 << 32);
    }
    if (lo >> 32)
        run->broken = 1;
    c[2 * n - 1] = (uint32_t)lo;
}

/* z[0 .. 2 LEAF) = a * b as direct_leaf, in its order: M; then L, whose low words are Z's
 * and whose every word forms S = L -+ M beside it; then H, each word completing one column
 * Z_q = S_(q-N) + H_(q-N) + (q < 2N ? L_q : H_(q-2N)); then H's high half and S's signed
 * top. Checks that S's top is -1, 0 or 1 and that nothing is left past the 2 LEAF words. */
static void leaf_product(struct run *run, uint32_t *z, const uint32_t *a, const uint32_t *b)
{
    const unsigned N = HALF;
    uint32_t da[HALF], db[HALF], s[2 * HALF], l[2 * HALF], h[2 * HALF];
    const int a_less = leaf_abs_diff(da, a, a + N);
    const int subtract = leaf_abs_diff(db, b, b + N) == a_less;
    comba_product(run, s, da, db, N);
    comba_product(run, l, a, b, N);
    int64_t s_top = 0;
    for (unsigned q = 0; q < 2 * N; q++) {
        if (q < N)
            z[q] = l[q];
        s_top += (int64_t)l[q] + (subtract ? -(int64_t)s[q] : (int64_t)s[q]);
        s[q] = (uint32_t)s_top;
        s_top = carry_of(s_top);
    }
    if (s_top < -1 || s_top > 1)
        run->broken = 1;
    comba_product(run, h, a + N, b + N, N);
    int64_t t = 0;
    for (unsigned q = 0; q < 2 * N; q++) {
        t += (int64_t)s[q] + h[q] + (q < N ? l[N + q] : h[q - N]);
        z[N + q] = (uint32_t)t;
        t = carry_of(t);
    }
    t += s_top;
    for (unsigned k = 0; k < N; k++) {
        t += h[N + k];
        z[3 * N + k] = (uint32_t)t;
        t = carry_of(t);
    }
    if (t != 0)
        run->broken = 1;
}

/* ---- The levels inside one thread block (kernels/rowchain_levels.cuh) ------------------- */

/* recombine_segments: as many segments as the block's spare threads allow, each a whole
 * number of column groups. */
static unsigned recombine_segments(unsigned spare_threads, unsigned groups)
{
    return spare_threads >= 2 && groups >= 2 && groups % 2 == 0
               ? 2 * recombine_segments(spare_threads / 2, groups / 2)
               : 1;
}

/* First word of segment k of the chain over Z's words [h, 4h): S segments of seg_words words
 * of each column sum, then the top h words. */
static unsigned chain_start(unsigned h, unsigned S, unsigned seg_words, unsigned k)
{
    return k < S ? h + k * seg_words : 2 * h + (k - S) * seg_words;
}

/* Z[0 .. 4h) = L + (L + H - s M) X^h + H X^2h from the three 2h-word children's products,
 * s = +1 when subtract, -1 else, in `segments` segments as recombine_level does. */
static void recombine_node(struct run *run, uint32_t *z, const uint32_t *lp, const uint32_t *hp,
                           const uint32_t *mp, unsigned h, int subtract, unsigned segments)
{
    const unsigned S = segments, seg_words = h / S, chain = 2 * S + 1;
    const uint32_t flip = subtract ? 0xffffffffu : 0;
    signed char carry_in[2 * MAX_SEGMENTS + 1] = {0}, carry_on[2 * MAX_SEGMENTS + 1] = {0};
    /* Z's words [0, h) are L's and [3h, 4h) are H's high words, where the kernel leaves them. */
    memcpy(z, lp, h * sizeof *z);
    memcpy(z + 3 * h, hp + h, h * sizeof *z);
    for (unsigned seg = 0; seg < S; seg++) {
        uint64_t c1 = seg == 0 ? (uint64_t)subtract << 32 : 0, c2 = 0;
        for (unsigned j = seg * seg_words; j < (seg + 1) * seg_words; j++) {
            const uint64_t shared_part = (uint64_t)lp[h + j] + hp[j];
            c1 = (c1 >> 32) + shared_part + lp[j] + (mp[j] ^ flip);
            c2 = (c2 >> 32) + shared_part + hp[h + j] + (mp[h + j] ^ flip);
            z[h + j] = (uint32_t)c1;
            z[2 * h + j] = (uint32_t)c2;
        }
        /* The -1 at column 3h goes with the carry out of the last segment of sum 1. */
        const int64_t out0 = (int64_t)(c1 >> 32);
        const int64_t out1 = (int64_t)(c2 >> 32) - (seg == S - 1 ? subtract : 0);
        if (S == 1) {
            if (ripple(z, 2 * h, 4 * h, out0) != 0 || ripple(z, 3 * h, 4 * h, out1) != 0)
                run->broken = 1;
        } else {
            carry_in[seg + 1] = as_signed_char(run, out0);
            carry_in[S + seg + 1] = as_signed_char(run, out1);
        }
    }
    if (S == 1)
        return;
    /* Each segment takes the carry out of the one below into its first word and ripples it no
     * further than its own end. What leaves the top words is dropped: Z is exact modulo X^4h,
     * so the dropped carries must sum to 0. */
    int ran_on = 0;
    int64_t dropped = 0;
    for (unsigned k = 1; k < chain; k++) {
        const unsigned i = chain_start(h, S, seg_words, k);
        const unsigned end = k == 2 * S ? 4 * h : i + seg_words;
        const int64_t left = ripple(z, i, end, carry_in[k]);
        if (k + 1 < chain)
            carry_on[k + 1] = as_signed_char(run, left);
        else
            dropped += left;
        ran_on |= left != 0;
    }
    if (ran_on) {
        run->stats.run_ons++;
        for (unsigned k = 2; k < chain; k++) {
            int64_t left = carry_on[k];
            if (k < S)
                left = ripple(z, chain_start(h, S, seg_words, k), 2 * h, left);
            dropped += ripple(z, k < S ? 2 * h : chain_start(h, S, seg_words, k), 4 * h, left);
        }
    }
    if (dropped != 0)
        run->broken = 1;
}

/* The words of one in-block problem, node by node: at depth d, 3^d nodes of LEAF << (K - d)
 * words per operand and twice as many per product, at most 3^K LEAF words (the leaves); and
 * for every node that is a child 2, whether its parent's low half was the smaller. */
#define MAX_BLOCK_LEAVES 27u /* 3^FUSED_MAX_LEVELS */
struct block_tree {
    uint32_t a[FUSED_MAX_LEVELS + 1][MAX_BLOCK_LEAVES * LEAF];
    uint32_t b[FUSED_MAX_LEVELS + 1][MAX_BLOCK_LEAVES * LEAF];
    uint32_t z[FUSED_MAX_LEVELS + 1][MAX_BLOCK_LEAVES * 2 * LEAF];
    unsigned char a_less[FUSED_MAX_LEVELS + 1][MAX_BLOCK_LEAVES];
    unsigned char b_less[FUSED_MAX_LEVELS + 1][MAX_BLOCK_LEAVES];
};

/* z[0 .. 2w) = a * b for one problem of w <= LEAF << k words by k Karatsuba levels inside one
 * thread block (rowchain_block.cu): operands padded to LEAF << k words, every level formed,
 * every leaf multiplied, every level recombined, the low 2w words stored. */
static void block_product(struct run *run, struct block_tree *t, uint32_t *z, const uint32_t *a,
                          const uint32_t *b, unsigned w, unsigned k)
{
    const unsigned wpad = LEAF << k;
    memset(t->a[0], 0, wpad * sizeof *t->a[0]);
    memset(t->b[0], 0, wpad * sizeof *t->b[0]);
    memcpy(t->a[0], a, w * sizeof *a);
    memcpy(t->b[0], b, w * sizeof *b);
    /* form_levels: children 0 and 1 are the halves, child 2 their difference. */
    for (unsigned d = 0; d < k; d++) {
        const unsigned h = LEAF << (k - d - 1);
        for (unsigned node = 0; node < pow3(d); node++) {
            const uint32_t *x = t->a[d] + node * 2 * h, *y = t->b[d] + node * 2 * h;
            for (unsigned u = 0; u < 2; u++) {
                memcpy(t->a[d + 1] + (3 * node + u) * h, x + u * h, h * sizeof *x);
                memcpy(t->b[d + 1] + (3 * node + u) * h, y + u * h, h * sizeof *y);
            }
            t->a_less[d + 1][3 * node + 2] =
                (unsigned char)ref_abs_diff_n(t->a[d + 1] + (3 * node + 2) * h, x, x + h, h);
            t->b_less[d + 1][3 * node + 2] =
                (unsigned char)ref_abs_diff_n(t->b[d + 1] + (3 * node + 2) * h, y, y + h, h);
        }
    }
    /* leaf_products */
    for (unsigned leaf = 0; leaf < pow3(k); leaf++)
        leaf_product(run, t->z[k] + leaf * 2 * LEAF, t->a[k] + leaf * LEAF, t->b[k] + leaf * LEAF);
    /* recombine_levels: the segments are cut only with one block per SM (K = 3). */
    for (unsigned d = k; d-- > 0;) {
        const unsigned h = LEAF << (k - d - 1);
        const unsigned segments =
            k == FUSED_MAX_LEVELS
                ? recombine_segments(TOP_BLOCK_THREADS / (pow3(d) * TOP_BLOCK_PRODUCTS),
                                     h / COLUMN_GROUP)
                : 1;
        for (unsigned node = 0; node < pow3(d); node++) {
            const uint32_t *children = t->z[d + 1] + 3 * node * 2 * h;
            const unsigned m = 3 * node + 2;
            recombine_node(run, t->z[d] + node * 4 * h, children, children + 2 * h,
                           children + 4 * h, h, t->a_less[d + 1][m] == t->b_less[d + 1][m],
                           segments);
        }
    }
    memcpy(z, t->z[0], 2 * w * sizeof *z);
    for (unsigned i = 2 * w; i < 2 * wpad; i++) /* the product fits its 2w words */
        if (t->z[0][i] != 0)
            run->broken = 1;
}

/* ---- The levels in device memory (kernels/rowchain_device_levels.cu) -------------------- */

struct chunk_range {
    unsigned begin, end;
};

/* Words [begin, end) of chunk c when `words` words are cut into SPLIT_CHUNKS chunks. */
static struct chunk_range chunk_of(unsigned words, unsigned c)
{
    const unsigned size = (words + SPLIT_CHUNKS - 1) / SPLIT_CHUNKS;
    const unsigned begin = c * size < words ? c * size : words;
    const struct chunk_range r = {begin, begin + size < words ? begin + size : words};
    return r;
}

/* resolve_chunk_carries for `streams` streams of SPLIT_CHUNKS segments each: segment
 * s SPLIT_CHUNKS + c is chunk c of stream s, its words range[s][c] of out, and carry_out its
 * signed carry out. Round after round every segment takes the carry out of the one below and
 * ripples it through its own words, until no carry is left but the last segment's. flow[s] gets
 * the sum of the carries that went from stream s into stream s + 1 (or, for the last stream,
 * were dropped). */
static void resolve_chunk_carries(struct run *run, uint32_t *out, unsigned streams,
                                  struct chunk_range (*range)[SPLIT_CHUNKS],
                                  int64_t (*carry_out)[SPLIT_CHUNKS], int64_t *flow)
{
    const unsigned segments = streams * SPLIT_CHUNKS;
    unsigned rounds = 0;
    for (unsigned s = 0; s < streams; s++)
        flow[s] = 0;
    for (;;) {
        int64_t carry[3 * SPLIT_CHUNKS];
        rounds++;
        carry[0] = 0;
        for (unsigned seg = 1; seg < segments; seg++)
            carry[seg] = carry_out[(seg - 1) / SPLIT_CHUNKS][(seg - 1) % SPLIT_CHUNKS];
        for (unsigned s = 0; s < streams; s++)
            flow[s] += carry_out[s][SPLIT_CHUNKS - 1];
        int more = 0;
        for (unsigned seg = 0; seg < segments; seg++) {
            const unsigned s = seg / SPLIT_CHUNKS, c = seg % SPLIT_CHUNKS;
            carry_out[s][c] = ripple(out, range[s][c].begin, range[s][c].end, carry[seg]);
            more |= seg + 1 < segments && carry_out[s][c] != 0;
        }
        if (!more)
            break;
    }
    flow[streams - 1] += carry_out[streams - 1][SPLIT_CHUNKS - 1];
    if (rounds > run->stats.chunk_rounds)
        run->stats.chunk_rounds = rounds;
}

/* karatsuba_split_kernel for one problem of 2h-word operands x, y: d = |low - high| of each
 * (h words of x's, then h of y's); returns 1 when both differences have the same sign. */
static int split_problem(struct run *run, uint32_t *d, const uint32_t *x, const uint32_t *y,
                         unsigned h)
{
    const uint32_t *operand[2] = {x, y};
    int smaller[2];
    struct chunk_range range[2][SPLIT_CHUNKS];
    int64_t carry_out[2][SPLIT_CHUNKS], flow[2];
    for (unsigned o = 0; o < 2; o++) {
        /* Which half is larger: the top differing word of the top chunk that has one. */
        int top = 0;
        for (unsigned c = SPLIT_CHUNKS; c-- > 0 && top == 0;) {
            const struct chunk_range r = chunk_of(h, c);
            for (unsigned i = r.end; i-- > r.begin && top == 0;) {
                const uint32_t lo = operand[o][i], hi = operand[o][h + i];
                top = lo < hi ? -1 : lo > hi;
            }
        }
        smaller[o] = top < 0;
        /* Each chunk's borrow chain from 0; the borrow out is the chunk's carry out. */
        for (unsigned c = 0; c < SPLIT_CHUNKS; c++) {
            const struct chunk_range r = chunk_of(h, c);
            uint32_t borrow = 0;
            for (unsigned i = r.begin; i < r.end; i++) {
                const uint32_t lo = operand[o][i], hi = operand[o][h + i];
                const uint64_t v = smaller[o] ? (uint64_t)hi - lo - borrow
                                              : (uint64_t)lo - hi - borrow;
                d[o * h + i] = (uint32_t)v;
                borrow = (uint32_t)(v >> 63);
            }
            range[o][c].begin = o * h + r.begin;
            range[o][c].end = o * h + r.end;
            carry_out[o][c] = -(int64_t)borrow;
        }
    }
    /* y's difference follows x's, one chain of two streams: nothing may cross from x's top into
     * y's, nor leave y's top (both differences are non-negative). */
    resolve_chunk_carries(run, d, 2, range, carry_out, flow);
    if (flow[0] != 0 || flow[1] != 0)
        run->broken = 1;
    return smaller[0] == smaller[1];
}

/* Word col of a join's output, unless it lies past the out_words words written. */
static void put(uint32_t *z, unsigned out_words, unsigned col, int64_t v)
{
    if (col < out_words)
        z[col] = (uint32_t)v;
}

/* karatsuba_join_kernel for one parent: z = L + (L + H - s M) X^h + H X^2h from its three
 * 2h-word sub-products, the first out_words words of it written. */
static void join_problem(struct run *run, uint32_t *z, const uint32_t *lp, const uint32_t *hp,
                         const uint32_t *mp, unsigned h, int subtract, unsigned out_words)
{
    const int64_t flip = subtract ? -1 : 1;
    struct chunk_range range[3][SPLIT_CHUNKS];
    int64_t carry_out[3][SPLIT_CHUNKS], flow[3];
    for (unsigned c = 0; c < SPLIT_CHUNKS; c++) {
        const struct chunk_range r = chunk_of(h, c);
        int64_t acc[3] = {0, 0, 0};
        for (unsigned j = r.begin; j < r.end; j++) {
            const int64_t middle = (int64_t)lp[h + j] + hp[j];
            put(z, out_words, j, lp[j]);
            acc[0] += middle + lp[j] + flip * mp[j];
            acc[1] += middle + hp[h + j] + flip * mp[h + j];
            acc[2] += hp[h + j];
            put(z, out_words, h + j, acc[0]);
            put(z, out_words, 2 * h + j, acc[1]);
            put(z, out_words, 3 * h + j, acc[2]);
            for (unsigned s = 0; s < 3; s++)
                acc[s] = carry_of(acc[s]);
        }
        for (unsigned s = 0; s < 3; s++) {
            const unsigned from = (s + 1) * h;
            range[s][c].begin = from + r.begin < out_words ? from + r.begin : out_words;
            range[s][c].end = from + r.end < out_words ? from + r.end : out_words;
            carry_out[s][c] = acc[s];
        }
    }
    resolve_chunk_carries(run, z, 3, range, carry_out, flow);
    /* With every column written, nothing may leave the top (the product fits 4h words). */
    if (out_words == 4 * h && flow[2] != 0)
        run->broken = 1;
}

/* ---- The plan (kernels/mul_rowchain_karatsuba.cu) ----------------------------------------- */

int ref_mul_rowchain_karatsuba(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                               struct rowchain_ref_stats *stats)
{
    const unsigned total = levels_above_leaves(w);
    const unsigned levels = total > FUSED_MAX_LEVELS ? total - FUSED_MAX_LEVELS : 0;
    if (w == 0 || levels > MAX_DEVICE_LEVELS)
        return -1;
    const unsigned wpad = LEAF << total;
    struct run run;
    memset(&run, 0, sizeof run);
    run.stats.device_levels = levels;
    run.stats.block_levels = total < FUSED_MAX_LEVELS ? total : FUSED_MAX_LEVELS;
    run.stats.leaves = pow3(total);
    /* Exactly one leaf's words: the direct kernel, no block. */
    if (w == LEAF) {
        run.stats.direct = 1;
        leaf_product(&run, c, a, b);
        if (stats)
            *stats = run.stats;
        return run.broken ? -2 : 0;
    }
    /* Level j holds 3^j problems of wpad >> j words per operand: x and y, then |low - high| of
     * each parent's operands (the split's output, here beside the halves), then the products. */
    uint32_t *x[MAX_DEVICE_LEVELS + 1] = {0}, *y[MAX_DEVICE_LEVELS + 1] = {0};
    uint32_t *z[MAX_DEVICE_LEVELS + 1] = {0}, *diff = NULL;
    int *subtract[MAX_DEVICE_LEVELS + 1] = {0};
    struct block_tree *tree = malloc(sizeof *tree);
    int status = -1;
    for (unsigned j = 0; j <= levels; j++) {
        const size_t words = (size_t)pow3(j) * (wpad >> j);
        x[j] = calloc(words, sizeof *x[j]);
        y[j] = calloc(words, sizeof *y[j]);
        z[j] = malloc(2 * words * sizeof *z[j]);
        subtract[j] = malloc(pow3(j) * sizeof *subtract[j]);
        if (!x[j] || !y[j] || !z[j] || !subtract[j])
            goto out;
    }
    diff = malloc(wpad * sizeof *diff);
    if (!tree || !diff)
        goto out;
    memcpy(x[0], a, w * sizeof *a);
    memcpy(y[0], b, w * sizeof *b);
    /* Splits: problem q of level j is sub-problem q / n of parent q mod n, n = 3^(j-1). */
    for (unsigned j = 1; j <= levels; j++) {
        const unsigned n = pow3(j - 1), h = wpad >> j;
        for (unsigned q = 0; q < n; q++) {
            const uint32_t *px = x[j - 1] + (size_t)q * 2 * h, *py = y[j - 1] + (size_t)q * 2 * h;
            subtract[j][q] = split_problem(&run, diff, px, py, h);
            for (unsigned u = 0; u < 2; u++) {
                memcpy(x[j] + ((size_t)u * n + q) * h, px + u * h, h * sizeof *px);
                memcpy(y[j] + ((size_t)u * n + q) * h, py + u * h, h * sizeof *py);
            }
            memcpy(x[j] + ((size_t)2 * n + q) * h, diff, h * sizeof *diff);
            memcpy(y[j] + ((size_t)2 * n + q) * h, diff + h, h * sizeof *diff);
        }
    }
    /* The in-block products of the last level: at level 0 the w words themselves. */
    const unsigned block_words = levels ? wpad >> levels : w;
    for (unsigned q = 0; q < pow3(levels); q++)
        block_product(&run, tree, z[levels] + (size_t)q * 2 * block_words,
                      x[levels] + (size_t)q * block_words, y[levels] + (size_t)q * block_words,
                      block_words, run.stats.block_levels);
    /* Joins, from the last level up; the top one writes the 2w words of the product. */
    for (unsigned j = levels; j >= 1; j--) {
        const unsigned n = pow3(j - 1), h = wpad >> j, out_words = j == 1 ? 2 * w : 4 * h;
        for (unsigned q = 0; q < n; q++)
            join_problem(&run, z[j - 1] + (size_t)q * 4 * h, z[j] + (size_t)q * 2 * h,
                         z[j] + ((size_t)n + q) * 2 * h, z[j] + ((size_t)2 * n + q) * 2 * h, h,
                         subtract[j][q], out_words);
    }
    memcpy(c, z[0], 2 * (size_t)w * sizeof *c);
    status = run.broken ? -2 : 0;
    if (stats)
        *stats = run.stats;
out:
    for (unsigned j = 0; j <= levels; j++) {
        free(x[j]);
        free(y[j]);
        free(z[j]);
        free(subtract[j]);
    }
    free(diff);
    free(tree);
    return status;
}
