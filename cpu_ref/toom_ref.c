#include "toom_ref.h"

#include <stdlib.h>
#include <string.h>

#include "mul_school_ref.h"
#include "toom_points.h"
#include "words_ref.h"

/* The tables of toom_points.h, one set per k, flattened so k can be chosen at run time. */
#define TOOM_TABLES(K)                                                                      \
    static const int64_t matrix##K[2 * K - 1][2 * K - 1] = TOOM##K##_INTERP_MATRIX;         \
    static const int shift##K[2 * K - 1] = TOOM##K##_INTERP_SHIFT;                          \
    static const uint64_t odd##K[2 * K - 1] = TOOM##K##_INTERP_ODD;                         \
    static const uint32_t odd_inv##K[2 * K - 1] = TOOM##K##_INTERP_ODD_INV;                 \
    static const int32_t weight##K[2 * K - 1][K] = TOOM##K##_EVAL_WEIGHT;
TOOM_TABLES(2)
TOOM_TABLES(3)
TOOM_TABLES(4)
TOOM_TABLES(5)
TOOM_TABLES(6)
TOOM_TABLES(7)
TOOM_TABLES(8)
TOOM_TABLES(9)

struct toom_tables {
    const int64_t *matrix; /* [points][points] */
    const int *shift;
    const uint64_t *odd;
    const uint32_t *odd_inv;
    const int32_t *weight; /* [points][k] */
};

#define TABLES_OF(K) {&matrix##K[0][0], shift##K, odd##K, odd_inv##K, &weight##K[0][0]}
static const struct toom_tables tables[] = {TABLES_OF(2), TABLES_OF(3), TABLES_OF(4),
                                            TABLES_OF(5), TABLES_OF(6), TABLES_OF(7),
                                            TABLES_OF(8), TABLES_OF(9)};

static const int point_p[TOOM_POINTS_MAX] = TOOM_POINT_P;
static const int point_q[TOOM_POINTS_MAX] = TOOM_POINT_Q;

void toom_point(unsigned i, int *p, int *q)
{
    *p = point_p[i];
    *q = point_q[i];
}

static void count(struct toom_op_counts *ops, uint64_t word_mults, uint64_t const_mults,
                  uint64_t reads, uint64_t writes)
{
    if (!ops)
        return;
    ops->word_mults += word_mults;
    ops->const_mults += const_mults;
    ops->reads += reads;
    ops->writes += writes;
}

/* x[0 .. S] += |wt| * piece, piece of n words (n <= S). x has S + 1 words. */
static void add_weighted_piece(uint32_t *x, unsigned S, const uint32_t *piece, unsigned n,
                               uint32_t wt)
{
    uint64_t carry = 0;
    for (unsigned t = 0; t <= S; t++) {
        uint64_t v = (uint64_t)x[t] + carry + (t < n ? (uint64_t)wt * piece[t] : 0);
        x[t] = (uint32_t)v;
        carry = v >> 32;
    }
}

/* mag[0 .. S] = |A(x_i)| = |sum_j weight[j] A_j| and returns 1 when A(x_i) < 0. The positive
 * and negative weights are summed apart (E and O below); A(x_i) = E - O. The weights' magnitudes
 * sum below 2^17 (toom_points.h), so the value fits S + 1 words. */
static int evaluate(uint32_t *mag, uint32_t *neg_part, const uint32_t *x,
                    const struct toom_layout *t, const int32_t *weight,
                    struct toom_op_counts *ops)
{
    const unsigned S = t->sub_words;
    memset(mag, 0, (S + 1) * sizeof *mag);
    memset(neg_part, 0, (S + 1) * sizeof *neg_part);
    for (unsigned j = 0; j < t->k; j++) {
        if (weight[j] == 0)
            continue;
        unsigned n = toom_piece_words(t, j);
        uint32_t wt = (uint32_t)(weight[j] < 0 ? -weight[j] : weight[j]);
        add_weighted_piece(weight[j] > 0 ? mag : neg_part, S, x + j * t->piece, n, wt);
        count(ops, 0, wt != 1 ? n : 0, n, 0);
    }
    /* mag = E - O, two's complement over S + 1 words, then negated when it borrowed */
    const uint32_t borrow = ref_sub_n(mag, mag, neg_part, S + 1);
    if (borrow)
        ref_neg_n(mag, S + 1);
    /* The GPU writes the S low words for the sub-product and keeps word S in a register. */
    count(ops, 0, 0, 0, S);
    return borrow != 0;
}

/* v[0 .. 2S + 2) = ea[0 .. S] * eb[0 .. S]: the S-word sub-product of the low words, plus the
 * linear correction for word S (nonzero only when s is a multiple of 32):
 * (h_a X + a)(h_b X + b) = ab + (h_a b + h_b a) X + h_a h_b X^2, X = 2^(32 S). */
static void point_product(uint32_t *v, const uint32_t *ea, const uint32_t *eb, unsigned S,
                          struct toom_op_counts *ops)
{
    ref_mul_school(v, ea, S, eb, S);
    /* Sub-product counted as the Comba method, 000 Table 3.1 (the paper counts it so too). */
    count(ops, (uint64_t)S * S, 0, 2 * (uint64_t)S * S - 2, 2 * (uint64_t)S);
    uint32_t ha = ea[S], hb = eb[S];
    v[2 * S] = v[2 * S + 1] = 0;
    if (ha | hb) {
        uint64_t carry = 0;
        for (unsigned t = 0; t < S; t++) {
            /* ha, hb < 2^17, so the sum stays below 2^51 */
            carry += (uint64_t)v[S + t] + (uint64_t)ha * eb[t] + (uint64_t)hb * ea[t];
            v[S + t] = (uint32_t)carry;
            carry >>= 32;
        }
        uint64_t top = (uint64_t)ha * hb + carry;
        v[2 * S] = (uint32_t)top;
        v[2 * S + 1] = (uint32_t)(top >> 32);
        count(ops, 0, 2 * (uint64_t)S + 1, 3 * (uint64_t)S, (uint64_t)S + 4);
    } else {
        count(ops, 0, 0, 0, 4);
    }
}

int toom_ref_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w, unsigned k,
                 struct toom_op_counts *ops)
{
    const struct toom_layout t = toom_layout_of(w, k);
    const struct toom_tables *tb = &tables[k - TOOM_K_MIN];
    const unsigned n = t.points, S = t.sub_words, L = t.value_words, vs = 2 * S + 4;
    /* recombination buffer: C_{2k-2} ends at word (2k-2)s + 2s + 1 */
    const unsigned out_words = (2 * k - 2) * t.piece + t.coef_words + 1;
    uint32_t *ea = malloc((S + 1) * sizeof *ea), *eb = malloc((S + 1) * sizeof *eb);
    uint32_t *tmp = malloc((S + 1) * sizeof *tmp);
    uint32_t *v = malloc((size_t)n * vs * sizeof *v);
    uint32_t *coef = malloc((size_t)n * t.coef_words * sizeof *coef);
    uint32_t *out = calloc(out_words > 2 * w ? out_words : 2 * w, sizeof *out);
    int *negative = malloc(n * sizeof *negative);
    if (!ea || !eb || !tmp || !v || !coef || !out || !negative) {
        free(ea), free(eb), free(tmp), free(v), free(coef), free(out), free(negative);
        return -1;
    }

    /* Kernel 1 of 000 section 3.3.2: one point product per warp. */
    for (unsigned i = 0; i < n; i++) {
        int na = evaluate(ea, tmp, a, &t, tb->weight + i * k, ops);
        int nb = evaluate(eb, tmp, b, &t, tb->weight + i * k, ops);
        point_product(v + (size_t)i * vs, ea, eb, S, ops);
        negative[i] = na != nb;
        count(ops, 0, 0, 0, 1); /* the sign word */
    }
    if (ops) {
        ops->transpose_reads += (uint64_t)n * vs;
        ops->transpose_writes += (uint64_t)n * vs;
    }

    /* Kernel 2, first half: C_m = (sum_i M[m][i] V_i) / (2^e d), low word first. The signed
     * V_i enter as two's complement mod 2^(32L): every output word j < L - 1 depends only on
     * words <= j + 1 of the inputs, and 2^e C_m < 2^(32L). */
    for (unsigned i = 0; i < n; i++)
        if (negative[i])
            ref_neg_n(v + (size_t)i * vs, L);
    count(ops, 0, 0, (uint64_t)n * L + n, 0);
    for (unsigned m = 0; m < n; m++) {
        const int64_t *row = tb->matrix + m * n;
        const uint64_t d = tb->odd[m];
        const int e = tb->shift[m];
        __int128 acc = 0; /* |acc| < 2^(48 + 32 + 5) for k <= 9 (toom_points_gen.c) */
        uint32_t prev = 0;
        for (unsigned j = 0; j < L; j++) {
            for (unsigned i = 0; i < n; i++)
                acc += (__int128)row[i] * v[(size_t)i * vs + j];
            /* 2-adic exact division by odd d: q makes the low word of acc - q d zero */
            uint32_t q = (uint32_t)acc * tb->odd_inv[m];
            acc -= (__int128)q * d;
            acc >>= 32; /* exact: the low 32 bits are zero */
            if (j > 0)
                coef[m * t.coef_words + j - 1] = e ? (prev >> e) | (q << (32 - e)) : prev;
            prev = q;
        }
        if (ops) {
            uint64_t per_word = d != 1 ? 1 + (d >> 32 ? 2 : 1) : 0;
            for (unsigned i = 0; i < n; i++) {
                uint64_t mag = row[i] < 0 ? -(uint64_t)row[i] : (uint64_t)row[i];
                per_word += mag > 1 ? (mag >> 32 ? 2 : 1) : 0;
            }
            count(ops, 0, per_word * L, 0, t.coef_words);
        }
    }

    /* Kernel 2, second half: C = sum_m C_m 2^(32 s m). */
    for (unsigned m = 0; m < n; m++) {
        uint64_t carry = 0;
        unsigned base = m * t.piece, x;
        for (x = 0; x < t.coef_words; x++) {
            carry += (uint64_t)out[base + x] + coef[m * t.coef_words + x];
            out[base + x] = (uint32_t)carry;
            carry >>= 32;
        }
        for (x += base; carry; x++) {
            carry += out[x];
            out[x] = (uint32_t)carry;
            carry >>= 32;
        }
        if (ops && base < 2 * w) {
            unsigned used = 2 * w - base < t.coef_words ? 2 * w - base : t.coef_words;
            ops->reads += used;
        }
    }
    memcpy(c, out, 2 * (size_t)w * sizeof *c);
    if (ops) {
        ops->writes += 2 * (uint64_t)w;
        ops->transpose_reads += 2 * (uint64_t)w;
        ops->transpose_writes += 2 * (uint64_t)w;
    }
    free(ea), free(eb), free(tmp), free(v), free(coef), free(out), free(negative);
    return 0;
}
