/* cpu suite: the computation-to-thread routines compiled for the host (cpu_ref/ctt_*_ref.c,
 * the twins of kernels/ctt_thread.cu) against GMP on batches in 003's layout: equal and
 * unequal lengths, one word, the maximum length, all-ones words, x - x (both operands at one
 * offset, a zero-length result), every sign combination, and random batches with a length
 * deviation; the batch generator's lengths; and 003 Algorithms 3.1 and 3.2 simulated lane by
 * lane (cpu_ref/ctt_schedule_model.c): every computation taken exactly once, the result regions
 * disjoint and packed, one atomic per warp and step; and the warp multiplication of
 * kernels/ctt_warp.cu simulated lane by lane (cpu_ref/ctw_mul_model.c) and the tiled product of
 * kernels/ctt_tile_mul.cuh thread by thread (cpu_ref/ctt_tile_mul_model.c) against GMP. Rationals
 * (003 4.4): the host routines of qadd, qsub, qmul and qdiv (cpu_ref/ctt_rational_ref.c)
 * against GMP's mpz on the same unreduced formulas, and the formulas themselves against mpq
 * after reduction, on equal and unequal lengths, one word and the maximum length, all-ones
 * words, zero numerators and x - x; seeded random batches; the refusal of a zero
 * denominator; and --reduce's reduction to lowest terms (cpu_ref/ctt_gmp.c) against GMP. The
 * checker itself judges the device's results by the host's operands and descriptors. */
#include <stdlib.h>
#include <string.h>

#include "ctt_batch.h"
#include "ctt_gen.h"
#include "ctt_gmp.h"
#include "ctt_rational.h"
#include "ctt_ref.h"
#include "ctt_schedule_model.h"
#include "ctt_tile_mul_model.h"
#include "ctw_mul_model.h"
#include "random_words.h"
#include "test_seed.h"

enum pattern { RANDOM, ALL_ONES, ONE_WORD_ONES };

static void fill(uint32_t *w, uint32_t n, enum pattern p, uint64_t stream)
{
    if (p == RANDOM)
        random_words(seed, stream, w, n);
    else
        for (uint32_t i = 0; i < n; i++)
            w[i] = 0xffffffffu;
}

/* Runs every computation of b through the CPU port and checks each against GMP. */
static void check_batch(struct mpgpu_ctt_batch *b, const char *what)
{
    CHECK(mpgpu_ctt_batch_seal(b) == 0, "%s: seal", what);
    ctt_run_serial(b, NULL);
    size_t first_bad = 0;
    const void *comps = b->rational ? (const void *)b->qcomps : (const void *)b->comps;
    const uint64_t bad = ctt_verify(b, b->words, comps, 1, false, &first_bad);
    CHECK(bad == 0, "%s: %llu of %zu differ from GMP, first %zu", what, (unsigned long long)bad,
          b->count, first_bad);
}

/* One batch of every op and sign combination on operands of lengths na and nb. */
static void check_lengths(uint32_t na, uint32_t nb, enum pattern pa, enum pattern pb)
{
    struct mpgpu_ctt_batch b;
    mpgpu_ctt_batch_init(&b);
    uint32_t *x = malloc(((size_t)na + nb) * sizeof *x), *y = x + na;
    fill(x, na, pa, na * 3 + 1);
    fill(y, nb, pb, nb * 3 + 2);
    uint32_t xo, yo;
    CHECK(mpgpu_ctt_batch_push_operand(&b, x, na, &xo) == 0 && mpgpu_ctt_batch_push_operand(&b, y, nb, &yo) == 0,
          "push");
    for (int op = MPGPU_CTT_ADD; op <= MPGPU_CTT_MUL; op++)
        for (int s = 0; s < 4; s++) {
            mpgpu_ctt_batch_push_comp(&b, op, xo, na, s & 1, yo, nb, s >> 1);
            mpgpu_ctt_batch_push_comp(&b, op, yo, nb, s & 1, xo, na, s >> 1);
            /* x - x and x + (-x) with both operands at one offset: a zero-length result. */
            mpgpu_ctt_batch_push_comp(&b, op, xo, na, s & 1, xo, na, s >> 1);
        }
    char what[96];
    snprintf(what, sizeof what, "lengths %u, %u, patterns %d, %d", na, nb, pa, pb);
    check_batch(&b, what);
    for (size_t i = 0; i < b.count; i++) {
        const struct mpgpu_ctt_comp *c = &b.comps[i];
        if (c->a_off == c->b_off && c->op != MPGPU_CTT_MUL && !ctt_adds_magnitudes(c))
            CHECK(c->r_len == 0 && !c->r_neg, "%s: x - x has length %u", what, c->r_len);
    }
    free(x);
    mpgpu_ctt_batch_free(&b);
}

/* The lengths and patterns a batch check runs on: every pair of short lengths (around a warp's
 * 32 words and past 512) with random words, and all-ones words against all-ones, one word and
 * random ones. */
static void sweep_lengths(void (*check)(uint32_t na, uint32_t nb, enum pattern pa, enum pattern pb))
{
    const uint32_t lens[] = {1, 2, 3, 31, 32, 33, 64, 100, 513};
    const size_t n = sizeof lens / sizeof lens[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            check(lens[i], lens[j], RANDOM, RANDOM);
    for (size_t i = 0; i < n; i++) {
        check(lens[i], lens[i], ALL_ONES, ALL_ONES);
        check(lens[i], 1, ALL_ONES, ONE_WORD_ONES);
        check(lens[i], lens[n - 1 - i], ALL_ONES, RANDOM);
    }
}

static void check_routines(void)
{
    sweep_lengths(check_lengths);
    check_lengths(CTT_MAX_WORDS, CTT_MAX_WORDS, ALL_ONES, ALL_ONES);
    check_lengths(CTT_MAX_WORDS, 1, RANDOM, ALL_ONES);

    /* A borrow that runs the whole length: 2^(32 n) - 1 = 2^(32 n) - 1 ... and 1 - 2^(32 n). */
    struct mpgpu_ctt_batch b;
    mpgpu_ctt_batch_init(&b);
    uint32_t top[65] = {0}, one = 1, off_top, off_one;
    top[64] = 1;
    mpgpu_ctt_batch_push_operand(&b, top, 65, &off_top);
    mpgpu_ctt_batch_push_operand(&b, &one, 1, &off_one);
    mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_SUB, off_top, 65, false, off_one, 1, false);
    mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_SUB, off_one, 1, false, off_top, 65, false);
    mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_ADD, off_top, 65, true, off_one, 1, false);
    check_batch(&b, "borrow ripple");
    CHECK(b.comps[0].r_len == 64 && b.comps[1].r_neg, "borrow ripple: length %u, sign %u",
          b.comps[0].r_len, b.comps[1].r_neg);
    mpgpu_ctt_batch_free(&b);
}

/* The operands of computation i of b: offsets and lengths; returns how many (2, or 4 for a
 * rational one: a, b, c, d). */
static int operands_of(const struct mpgpu_ctt_batch *b, size_t i, uint32_t off[4], uint32_t len[4])
{
    if (!b->rational) {
        const struct mpgpu_ctt_comp *c = &b->comps[i];
        off[0] = c->a_off, len[0] = c->a_len, off[1] = c->b_off, len[1] = c->b_len;
        return 2;
    }
    const struct mpgpu_ctt_qcomp *q = &b->qcomps[i];
    off[0] = q->a_off, len[0] = q->a_len, off[1] = q->b_off, len[1] = q->b_len;
    off[2] = q->c_off, len[2] = q->c_len, off[3] = q->d_off, len[3] = q->d_len;
    return 4;
}

static void check_mpq(const struct mpgpu_ctt_batch *b, const char *what);

static void check_generator(void)
{
    const double means[] = {1, 8, 64};
    const double sigmas[] = {0, 1, 32, 64};
    for (int o = 0; o < MPGPU_CTT_N_OPS; o++)
        for (size_t m = 0; m < 3; m++)
            for (size_t s = 0; s < 4; s++) {
                struct ctt_gen g = {.seed = seed + o, .op = o, .count = 333,
                                    .mean_words = means[m], .sigma_words = sigmas[s],
                                    .max_words = 200, .signed_operands = (m + s) & 1};
                struct mpgpu_ctt_batch b;
                CHECK(ctt_batch_generate(&b, &g, NULL) == 0, "generate");
                CHECK(b.rational == ctt_op_rational(o), "generator: op %d, rational %d", o,
                      b.rational);
                bool lengths_ok = b.count == g.count, spread = false;
                uint32_t off[4], len[4], first_len[4];
                operands_of(&b, 0, off, first_len);
                for (size_t i = 0; i < b.count; i++) {
                    const int n = operands_of(&b, i, off, len);
                    /* Every top word nonzero: no denominator is zero. */
                    for (int k = 0; k < n; k++) {
                        lengths_ok &= len[k] >= 1 && len[k] <= g.max_words;
                        lengths_ok &= b.words[off[k] + len[k] - 1] != 0;
                        if (sigmas[s] == 0)
                            lengths_ok &= len[k] == means[m];
                    }
                    spread |= len[0] != first_len[0];
                }
                CHECK(lengths_ok, "generator: op %d mean %g sigma %g: a length outside 1..%u, a "
                      "zero top word, or sigma 0 not the mean", o, means[m], sigmas[s],
                      g.max_words);
                if (sigmas[s] >= 32)
                    CHECK(spread, "generator: sigma %g drew one length only", sigmas[s]);
                struct mpgpu_ctt_batch again;
                ctt_batch_generate(&again, &g, NULL);
                CHECK(again.operand_words == b.operand_words &&
                      memcmp(again.words, b.words, b.operand_words * 4) == 0,
                      "generator: one seed, two batches");
                mpgpu_ctt_batch_free(&again);
                char what[96];
                snprintf(what, sizeof what, "random batch op %d mean %g sigma %g", o, means[m],
                         sigmas[s]);
                check_batch(&b, what);
                if (b.rational)
                    check_mpq(&b, what);
                mpgpu_ctt_batch_free(&b);
            }
}

/* The checker takes the operands and descriptors from the host's batch, only the results from
 * the "device" (issue 36): a mapping that changed an operand and wrote the result of the
 * changed operand, or changed a descriptor's length, is caught; the same block untouched passes. */
static void check_verifier_uses_host_copy(void)
{
    const mpgpu_ctt_op ops[] = {MPGPU_CTT_SUB, MPGPU_CTT_MUL, MPGPU_CTT_QMUL};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        const mpgpu_ctt_op op = ops[o];
        struct ctt_gen g = {.seed = seed, .op = op, .count = 200, .mean_words = 6,
                            .sigma_words = 2, .max_words = 64, .signed_operands = true};
        struct mpgpu_ctt_batch host;
        CHECK(ctt_batch_generate(&host, &g, NULL) == 0, "generate");
        const uint64_t total = host.operand_words + host.result_words;
        const size_t comp_bytes = host.rational ? sizeof(struct mpgpu_ctt_qcomp) : sizeof(struct mpgpu_ctt_comp);
        /* The "device": a copy of the block and descriptors that a mapping works on. */
        struct mpgpu_ctt_batch dev = host;
        dev.words = malloc(total * 4);
        void *dev_comps = malloc(host.count * comp_bytes);
        memcpy(dev.words, host.words, total * 4);
        memcpy(dev_comps, host.rational ? (void *)host.qcomps : (void *)host.comps,
               host.count * comp_bytes);
        dev.comps = dev_comps;
        dev.qcomps = dev_comps;
        const size_t victim = host.count / 2 + seed % (host.count / 4);
        /* Its first operand's lowest word, flipped before the mapping runs. */
        const uint32_t a_off = host.rational ? host.qcomps[victim].a_off : host.comps[victim].a_off;
        dev.words[a_off] ^= 0x10;
        ctt_run_serial(&dev, NULL);
        size_t first = 0;
        uint64_t bad = ctt_verify(&dev, dev.words, dev_comps, 2, false, &first);
        CHECK(bad == 0, "op %d: the mapping's own view of its changed operand looks right (%llu bad)",
              op, (unsigned long long)bad);
        bad = ctt_verify(&host, dev.words, dev_comps, 2, false, &first);
        CHECK(bad >= 1 && first <= victim, "op %d: operand word %u changed on the device with a "
              "matching result: %llu bad, first %zu (want <= %zu)", op, a_off,
              (unsigned long long)bad, first, victim);

        /* A descriptor whose operand length the mapping changed. */
        memcpy(dev.words, host.words, total * 4);
        memcpy(dev_comps, host.rational ? (void *)host.qcomps : (void *)host.comps,
               host.count * comp_bytes);
        ctt_run_serial(&dev, NULL);
        bad = ctt_verify(&host, dev.words, dev_comps, 2, false, &first);
        CHECK(bad == 0, "op %d: an untouched block: %llu bad, first %zu", op,
              (unsigned long long)bad, first);
        if (host.rational)
            ((struct mpgpu_ctt_qcomp *)dev_comps)[victim].c_off ^= 1;
        else
            ((struct mpgpu_ctt_comp *)dev_comps)[victim].b_off ^= 1;
        bad = ctt_verify(&host, dev.words, dev_comps, 2, false, &first);
        CHECK(bad == 1 && first == victim, "op %d: changed descriptor %zu: %llu bad, first %zu", op,
              victim, (unsigned long long)bad, first);
        free(dev.words);
        free(dev_comps);
        mpgpu_ctt_batch_free(&host);
    }
}

static void check_scan(void)
{
    for (int t = 0; t < 100; t++) {
        uint64_t n[CTT_WARP], want = 0;
        uint32_t v[CTT_WARP];
        random_words(seed, 1000 + t, v, CTT_WARP);
        for (unsigned i = 0; i < CTT_WARP; i++)
            n[i] = v[i] >> (t % 32);
        uint64_t in[CTT_WARP];
        memcpy(in, n, sizeof n);
        ctt_warp_inclusive_scan(n);
        bool ok = true;
        for (unsigned i = 0; i < CTT_WARP; i++) {
            want += in[i];
            ok &= n[i] == want;
        }
        CHECK(ok, "warp scan %d differs from the serial prefix sum", t);
    }
}

typedef void mul_model(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);

/* A CPU model of a GPU multiplication against GMP on every pair of the n lengths lens (the
 * longest last), random and all-ones words; the words of a come from `stream` + i, of b from
 * `stream` + 1000 + j. */
static void check_mul_model(const char *name, mul_model *model, const uint32_t *lens, size_t n,
                            uint64_t stream)
{
    const uint32_t most = lens[n - 1];
    uint32_t *a = malloc(most * 4), *b = malloc(most * 4), *r = malloc(2 * most * 4);
    uint32_t *want = malloc(2 * most * 4);
    for (int pattern = 0; pattern < 2; pattern++)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                const uint32_t na = lens[i], nb = lens[j];
                fill(a, na, pattern ? ALL_ONES : RANDOM, stream + i);
                fill(b, nb, pattern ? ALL_ONES : RANDOM, stream + 1000 + j);
                mpz_t x, y;
                mpz_inits(x, y, NULL);
                mpz_import(x, na, -1, 4, 0, 0, a);
                mpz_import(y, nb, -1, 4, 0, 0, b);
                mpz_mul(x, x, y);
                memset(want, 0, (na + nb) * 4);
                mpz_export(want, NULL, -1, 4, 0, 0, x);
                mpz_clears(x, y, NULL);
                memset(r, 0xa5, (na + nb) * 4);
                model(r, a, na, b, nb);
                CHECK(memcmp(r, want, (na + nb) * 4) == 0,
                      "%s, lengths %u x %u, pattern %d, differs from GMP", name, na, nb, pattern);
            }
    free(a);
    free(b);
    free(r);
    free(want);
}

/* The warp multiplication of kernels/ctt_warp.cu, lane by lane: lengths around one and two
 * chunks and the row's extra word at nb = 31, 32, 63. */
static void check_ctw_mul(void)
{
    const uint32_t lens[] = {1, 2, 31, 32, 33, 63, 64, 65, 100};
    check_mul_model("ctw mul model", ctw_mul_model, lens, sizeof lens / sizeof lens[0], 7000);
}

/* The tiled product of auto's tile bin (kernels/ctt_tile_mul.cuh), thread by thread: one word,
 * lengths just off a multiple of the tile's 8 columns, one row block against many tiles and
 * the reverse, the fold's rounding (nb = 8 k + 1 leaves F - nb = 7 empty columns), the
 * operands in either order. */
static void check_tile_mul(void)
{
    const uint32_t lens[] = {1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 129, 200, 512, 521};
    check_mul_model("tile mul model", ctt_tile_mul_model, lens, sizeof lens / sizeof lens[0], 9000);
}

static void check_schedule(void)
{
    const size_t counts[] = {1, 31, 32, 33, 64, 1000, 4097};
    const unsigned warps[] = {1, 3, 64, 200};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
        for (size_t wi = 0; wi < sizeof warps / sizeof warps[0]; wi++) {
            const size_t count = counts[ci];
            uint32_t *sizes = malloc(count * sizeof *sizes), *taken = calloc(count, sizeof *taken);
            uint64_t *off = malloc(count * sizeof *off);
            random_words(seed, 5000 + ci, sizes, count);
            uint64_t sum = 0;
            for (size_t i = 0; i < count; i++) {
                sizes[i] = sizes[i] % 1025 + (i % 7 == 0 ? 0 : 1); /* zero-size results too */
                sum += sizes[i];
            }
            const uint64_t base = 12345;
            uint64_t atomics = 0;
            const uint64_t end = ctt_schedule_model(sizes, count, warps[wi], seed + wi, base,
                                                    taken, off, &atomics);
            bool once = true;
            for (size_t i = 0; i < count; i++)
                once &= taken[i] == 1;
            CHECK(once, "count %zu, %u warps: a computation not taken exactly once", count, warps[wi]);
            /* Disjoint and packed: ordered by offset, each region starts where the last ended,
             * from base to the final counter. */
            size_t *order = malloc(count * sizeof *order);
            for (size_t i = 0; i < count; i++)
                order[i] = i;
            for (size_t i = 1; i < count; i++) /* insertion sort by (offset, size) */
                for (size_t j = i; j > 0 && (off[order[j - 1]] > off[order[j]] ||
                                             (off[order[j - 1]] == off[order[j]] &&
                                              sizes[order[j - 1]] > sizes[order[j]]));
                     j--) {
                    size_t t = order[j];
                    order[j] = order[j - 1];
                    order[j - 1] = t;
                }
            uint64_t at = base;
            bool packed = true;
            for (size_t i = 0; i < count; i++) {
                packed &= off[order[i]] == at;
                at += sizes[order[i]];
            }
            CHECK(packed && at == end && end == base + sum,
                  "count %zu, %u warps: result regions not disjoint and packed", count, warps[wi]);
            const uint64_t steps = (count + CTT_WARP - 1) / CTT_WARP;
            CHECK(atomics == 2 * steps + warps[wi], "count %zu, %u warps: %llu atomics, want %llu",
                  count, warps[wi], (unsigned long long)atomics,
                  (unsigned long long)(2 * steps + warps[wi]));
            free(order);
            free(sizes);
            free(taken);
            free(off);
        }
}

/* ---- Rationals (003 4.4) */

static void import_rational(mpq_t r, const uint32_t *mem, uint32_t num_off, uint32_t num_len,
                            bool neg, uint32_t den_off, uint32_t den_len)
{
    mpz_import(mpq_numref(r), num_len, -1, 4, 0, 0, mem + num_off);
    if (neg)
        mpz_neg(mpq_numref(r), mpq_numref(r));
    mpz_import(mpq_denref(r), den_len, -1, 4, 0, 0, mem + den_off);
    mpq_canonicalize(r);
}

/* Every result of b (run by the CPU port), reduced, against mpq's F1 op F2: the unreduced
 * formulas are the rational operations. */
static void check_mpq(const struct mpgpu_ctt_batch *b, const char *what)
{
    mpq_t f1, f2, want, got;
    mpq_inits(f1, f2, want, got, NULL);
    size_t bad = 0, first = b->count;
    for (size_t i = 0; i < b->count; i++) {
        const struct mpgpu_ctt_qcomp *q = &b->qcomps[i];
        import_rational(f1, b->words, q->a_off, q->a_len, q->a_neg, q->b_off, q->b_len);
        import_rational(f2, b->words, q->c_off, q->c_len, q->c_neg, q->d_off, q->d_len);
        if (q->op == MPGPU_CTT_QADD)
            mpq_add(want, f1, f2);
        else if (q->op == MPGPU_CTT_QSUB)
            mpq_sub(want, f1, f2);
        else if (q->op == MPGPU_CTT_QMUL)
            mpq_mul(want, f1, f2);
        else
            mpq_div(want, f1, f2);
        bool ok = q->y_len > 0; /* mpq_canonicalize divides by y */
        if (ok) {
            import_rational(got, b->words, q->x_off, q->x_len, q->x_neg, q->y_off, q->y_len);
            ok = mpq_equal(want, got);
        }
        if (!ok && bad++ == 0)
            first = i;
    }
    CHECK(bad == 0, "%s: %zu of %zu reduced results differ from mpq, first %zu", what, bad,
          b->count, first);
    mpq_clears(f1, f2, want, got, NULL);
}

/* Whether each product of q has fewer than 2^25 word products (the CPU port of 16384 x 16384
 * words, 2^28, would make the test slow without testing more). */
static bool products_small(const struct mpgpu_ctt_qcomp *q)
{
    struct mpgpu_ctt_comp s[CTT_Q_MAX_STEPS];
    const unsigned n = ctt_q_steps(q, s);
    bool small = true;
    for (unsigned k = 0; k < n; k++)
        small &= s[k].op != MPGPU_CTT_MUL || (uint64_t)s[k].a_len * s[k].b_len < (UINT64_C(1) << 25);
    return small;
}

/* Every q-op and numerator sign on operands P (na words), Q (nb words) and zeros of one and of
 * 33 words: P/Q op Q/P, P/P op Q/Q, Q/P op P/P, P/Q op P/Q at one offset (x - x for qsub),
 * zero numerators, and a zero divisor for qdiv, which must be refused. */
static void check_rational_lengths(uint32_t na, uint32_t nb, enum pattern pa, enum pattern pb)
{
    struct mpgpu_ctt_batch b;
    mpgpu_ctt_batch_init(&b);
    uint32_t *w = calloc((size_t)na + nb + 33, sizeof *w);
    fill(w, na, pa, na * 5 + 1);
    fill(w + na, nb, pb, nb * 5 + 2);
    enum { P, Q, Z1, Z33 };
    uint32_t off[4], len[4] = {na, nb, 1, 33};
    bool pushed = true;
    for (int k = 0; k < 4; k++)
        pushed &= mpgpu_ctt_batch_push_operand(&b, k == Q ? w + na : k == P ? w : w + na + nb, len[k],
                                         &off[k]) == 0;
    CHECK(pushed, "push");
    static const int quads[][4] = {{P, Q, Q, P}, {P, P, Q, Q}, {Q, P, P, P}, {P, Q, P, Q},
                                   {Z1, Q, Z33, P}, {P, Q, Z1, Q}, {Z33, P, P, Q}};
    bool refusals_ok = true;
    for (int op = MPGPU_CTT_QADD; op <= MPGPU_CTT_QDIV; op++)
        for (size_t t = 0; t < sizeof quads / sizeof quads[0]; t++)
            for (int sg = 0; sg < 4; sg++) {
                const int *u = quads[t];
                const struct mpgpu_ctt_qcomp q = {
                    .op = (uint8_t)op, .a_off = off[u[0]], .a_len = len[u[0]], .a_neg = sg & 1,
                    .b_off = off[u[1]], .b_len = len[u[1]], .c_off = off[u[2]],
                    .c_len = len[u[2]], .c_neg = sg >> 1, .d_off = off[u[3]], .d_len = len[u[3]]};
                if (!products_small(&q))
                    continue;
                const bool zero_divisor = op == MPGPU_CTT_QDIV && u[2] >= Z1;
                refusals_ok &= mpgpu_ctt_batch_push_qcomp(&b, &q) == (zero_divisor ? MPGPU_ERR_BAD_ARGUMENT : MPGPU_OK);
            }
    char what[96];
    snprintf(what, sizeof what, "rationals, lengths %u, %u, patterns %d, %d", na, nb, pa, pb);
    CHECK(refusals_ok, "%s: a push refused, or a zero divisor of qdiv not refused", what);
    check_batch(&b, what);
    check_mpq(&b, what);
    /* x - x at one offset (and x + (-x)) has length 0 and no sign. */
    bool zero_ok = true;
    for (size_t i = 0; i < b.count; i++) {
        const struct mpgpu_ctt_qcomp *q = &b.qcomps[i];
        const bool cancels = (q->op == MPGPU_CTT_QSUB && q->a_neg == q->c_neg) ||
                             (q->op == MPGPU_CTT_QADD && q->a_neg != q->c_neg);
        if (q->a_off == q->c_off && q->b_off == q->d_off && cancels)
            zero_ok &= q->x_len == 0 && !q->x_neg && q->y_len > 0;
    }
    CHECK(zero_ok, "%s: x - x is not 0 / y", what);
    /* --reduce: the results in lowest terms in place (P/P op Q/Q always has a common factor),
     * equal to GMP's reduced values and still to mpq's; x - x becomes 0/1. */
    ctt_reduce(&b, b.words, b.qcomps, 2);
    size_t first_bad = 0;
    const uint64_t bad = ctt_verify(&b, b.words, b.qcomps, 1, true, &first_bad);
    CHECK(bad == 0, "%s, reduced: %llu of %zu differ from GMP, first %zu", what,
          (unsigned long long)bad, b.count, first_bad);
    check_mpq(&b, what);
    for (size_t i = 0; i < b.count; i++) {
        const struct mpgpu_ctt_qcomp *q = &b.qcomps[i];
        if (q->x_len == 0)
            zero_ok &= q->y_len == 1 && b.words[q->y_off] == 1;
    }
    CHECK(zero_ok, "%s, reduced: a zero is not 0/1", what);
    free(w);
    mpgpu_ctt_batch_free(&b);
}

static void check_rationals(void)
{
    sweep_lengths(check_rational_lengths);
    check_rational_lengths(CTT_MAX_WORDS, 1, ALL_ONES, ONE_WORD_ONES);
    check_rational_lengths(1, CTT_MAX_WORDS, RANDOM, ALL_ONES);
    check_rational_lengths(CTT_MAX_WORDS, 33, ALL_ONES, ALL_ONES);

    /* A zero denominator is refused for every q-op, and qdiv's zero c; a batch never mixes
     * integer and rational computations. */
    struct mpgpu_ctt_batch b;
    mpgpu_ctt_batch_init(&b);
    const uint32_t one = 1, zeros[3] = {0};
    uint32_t o1, oz;
    mpgpu_ctt_batch_push_operand(&b, &one, 1, &o1);
    mpgpu_ctt_batch_push_operand(&b, zeros, 3, &oz);
    for (int op = MPGPU_CTT_QADD; op <= MPGPU_CTT_QDIV; op++) {
        struct mpgpu_ctt_qcomp q = {.op = (uint8_t)op, .a_off = o1, .a_len = 1, .b_off = oz, .b_len = 3,
                              .c_off = o1, .c_len = 1, .d_off = o1, .d_len = 1};
        CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) == MPGPU_ERR_BAD_ARGUMENT, "op %d: a zero b is not refused", op);
        q.b_off = o1, q.b_len = 1, q.d_off = oz, q.d_len = 1;
        CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) == MPGPU_ERR_BAD_ARGUMENT, "op %d: a zero d is not refused", op);
        q.d_off = o1, q.c_off = oz, q.c_len = 2;
        CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) == (op == MPGPU_CTT_QDIV ? MPGPU_ERR_BAD_ARGUMENT : MPGPU_OK),
              "op %d: a zero c is %s", op, op == MPGPU_CTT_QDIV ? "not refused" : "refused");
    }
    CHECK(b.count == 3 && b.rational, "the refused pushes appended computations: %zu", b.count);
    CHECK(mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_ADD, o1, 1, false, o1, 1, false) == MPGPU_ERR_BAD_ARGUMENT,
          "an integer computation joined a rational batch");
    mpgpu_ctt_batch_free(&b);
    mpgpu_ctt_batch_init(&b);
    mpgpu_ctt_batch_push_operand(&b, &one, 1, &o1);
    mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_ADD, o1, 1, false, o1, 1, false);
    const struct mpgpu_ctt_qcomp q = {.op = MPGPU_CTT_QMUL, .a_off = o1, .a_len = 1, .b_off = o1, .b_len = 1,
                                .c_off = o1, .c_len = 1, .d_off = o1, .d_len = 1};
    CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) == MPGPU_ERR_BAD_ARGUMENT, "a rational computation joined an integer batch");
    mpgpu_ctt_batch_free(&b);
}

int main(void)
{
    seed = test_seed();
    check_routines();
    check_generator();
    check_verifier_uses_host_copy();
    check_scan();
    check_schedule();
    check_ctw_mul();
    check_tile_mul();
    check_rationals();
    return test_finish("test_ctt_cpu");
}
