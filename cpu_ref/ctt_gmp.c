#include "ctt_gmp.h"

#include <stdlib.h>
#include <string.h>

#include "ctt_rational.h"
#include "loop_run.h"

static void import_signed(mpz_t z, const uint32_t *w, uint32_t n, bool neg)
{
    mpz_import(z, n, -1, sizeof *w, 0, 0, w);
    if (neg)
        mpz_neg(z, z);
}

/* The arrays of g that a batch of this kind uses, in one list for allocating and freeing. */
static size_t value_arrays(struct ctt_gmp *g, bool rational, mpz_t **arrays[6])
{
    mpz_t **all[6] = {&g->a, &g->b, &g->r, &g->c, &g->d, &g->y};
    const size_t n = rational ? 6 : 3;
    for (size_t k = 0; k < n; k++)
        arrays[k] = all[k];
    return n;
}

int ctt_gmp_init(struct ctt_gmp *g, const struct mpgpu_ctt_batch *b, const struct loop_watch *watch)
{
    g->count = b->count;
    g->c = g->d = g->y = NULL;
    mpz_t **arrays[6];
    const size_t n = value_arrays(g, b->rational, arrays);
    bool ok = true;
    for (size_t k = 0; k < n; k++)
        ok &= (*arrays[k] = malloc(b->count * sizeof(mpz_t))) != NULL;
    if (!ok) {
        for (size_t k = 0; k < n; k++) {
            free(*arrays[k]);
            *arrays[k] = NULL;
        }
        return -1;
    }
    const uint32_t *w = b->words;
    struct loop_run run;
    loop_run_start(&run, watch);
    for (size_t i = 0; i < b->count; i++) {
        if (loop_run_stopped(&run)) {
            g->count = i; /* what ctt_gmp_free clears */
            return LOOP_STOPPED;
        }
        mpz_init(g->a[i]);
        mpz_init(g->b[i]);
        /* Room for the largest result up front, so the timed region does not allocate. */
        if (b->rational) {
            const struct mpgpu_ctt_qcomp *q = &b->qcomps[i];
            mpz_inits(g->c[i], g->d[i], NULL);
            mpz_init2(g->r[i], 32 * (mp_bitcnt_t)ctt_q_longest_product(q) + 64);
            mpz_init2(g->y[i], 32 * (mp_bitcnt_t)ctt_q_longest_product(q) + 64);
            import_signed(g->a[i], w + q->a_off, q->a_len, q->a_neg);
            import_signed(g->b[i], w + q->b_off, q->b_len, false);
            import_signed(g->c[i], w + q->c_off, q->c_len, q->c_neg);
            import_signed(g->d[i], w + q->d_off, q->d_len, false);
        } else {
            const struct mpgpu_ctt_comp *c = &b->comps[i];
            mpz_init2(g->r[i], 32 * (mp_bitcnt_t)ctt_result_capacity(c) + 64);
            import_signed(g->a[i], w + c->a_off, c->a_len, c->a_neg);
            import_signed(g->b[i], w + c->b_off, c->b_len, c->b_neg);
        }
        loop_run_item_done(&run, i);
    }
    return 0;
}

void ctt_gmp_free(struct ctt_gmp *g, const struct loop_watch *watch)
{
    mpz_t **arrays[6];
    const size_t n = value_arrays(g, g->c != NULL, arrays);
    struct loop_run run;
    loop_run_start(&run, watch);
    for (size_t i = 0; *arrays[0] && i < g->count && !loop_run_stopped(&run); i++) {
        for (size_t k = 0; k < n; k++)
            mpz_clear((*arrays[k])[i]);
        loop_run_item_done(&run, i);
    }
    for (size_t k = 0; k < n; k++) {
        free(*arrays[k]);
        *arrays[k] = NULL;
    }
}

static void compute(mpz_t r, const mpz_t a, const mpz_t b, mpgpu_ctt_op op)
{
    if (op == MPGPU_CTT_ADD)
        mpz_add(r, a, b);
    else if (op == MPGPU_CTT_SUB)
        mpz_sub(r, a, b);
    else
        mpz_mul(r, a, b);
}

/* x/y = a/b op c/d by the unreduced formulas of 003 4.4.2 (ctt_rational.h); y holds c b while
 * x = a d +- c b is formed, so no temporary is needed. */
static void compute_q(mpz_t x, mpz_t y, const mpz_t a, const mpz_t b, const mpz_t c,
                      const mpz_t d, mpgpu_ctt_op op)
{
    if (op == MPGPU_CTT_QADD || op == MPGPU_CTT_QSUB) {
        mpz_mul(x, a, d);
        mpz_mul(y, c, b);
        compute(x, x, y, op == MPGPU_CTT_QADD ? MPGPU_CTT_ADD : MPGPU_CTT_SUB);
        mpz_mul(y, b, d);
    } else if (op == MPGPU_CTT_QMUL) {
        mpz_mul(x, a, c);
        mpz_mul(y, b, d);
    } else {
        mpz_mul(x, a, d);
        mpz_mul(y, b, c);
        if (mpz_sgn(y) < 0) { /* the sign of c moves to the numerator */
            mpz_neg(y, y);
            mpz_neg(x, x);
        }
    }
}

/* x/y in lowest terms (y > 0; zero becomes 0/1); t is scratch. */
static void reduce_q(mpz_t x, mpz_t y, mpz_t t)
{
    mpz_gcd(t, x, y);
    mpz_divexact(x, x, t);
    mpz_divexact(y, y, t);
}

int ctt_gmp_run(struct ctt_gmp *g, const struct mpgpu_ctt_batch *b, int threads, bool reduce,
                const struct loop_watch *watch)
{
    const long n = (long)g->count;
    struct loop_run run;
    loop_run_start(&run, watch);
    if (b->rational) {
#pragma omp parallel num_threads(threads)
        {
            mpz_t t;
            mpz_init(t);
#pragma omp for schedule(dynamic, 64)
            for (long i = 0; i < n; i++) {
                if (loop_run_stopped(&run))
                    continue;
                compute_q(g->r[i], g->y[i], g->a[i], g->b[i], g->c[i], g->d[i],
                          (mpgpu_ctt_op)b->qcomps[i].op);
                if (reduce)
                    reduce_q(g->r[i], g->y[i], t);
                loop_run_item_done(&run, (uint64_t)i);
            }
            mpz_clear(t);
        }
    } else {
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
        for (long i = 0; i < n; i++) {
            if (loop_run_stopped(&run))
                continue;
            compute(g->r[i], g->a[i], g->b[i], (mpgpu_ctt_op)b->comps[i].op);
            loop_run_item_done(&run, (uint64_t)i);
        }
    }
    return loop_run_stopped(&run) ? LOOP_STOPPED : 0;
}

/* Writes |z| into the len0 words at mem + off that held it, zeros above; returns its length. */
static uint32_t store_magnitude(uint32_t *mem, uint32_t off, uint32_t len0, const mpz_t z)
{
    size_t len = 0;
    mpz_export(mem + off, &len, -1, sizeof *mem, 0, 0, z);
    for (size_t i = len; i < len0; i++)
        mem[off + i] = 0;
    return (uint32_t)len;
}

void ctt_reduce(const struct mpgpu_ctt_batch *b, uint32_t *mem, struct mpgpu_ctt_qcomp *q, int threads)
{
    const long n = (long)b->count;
#pragma omp parallel num_threads(threads)
    {
        mpz_t x, y, t;
        mpz_inits(x, y, t, NULL);
#pragma omp for schedule(dynamic, 64)
        for (long i = 0; i < n; i++) {
            struct mpgpu_ctt_qcomp *c = &q[i];
            import_signed(x, mem + c->x_off, c->x_len, false);
            import_signed(y, mem + c->y_off, c->y_len, false);
            reduce_q(x, y, t);
            /* |x| and y only shrink, so they stay in the space the mapping reserved. */
            c->x_len = store_magnitude(mem, c->x_off, c->x_len, x);
            c->y_len = store_magnitude(mem, c->y_off, c->y_len, y);
            c->x_neg = c->x_neg && c->x_len > 0;
        }
        mpz_clears(x, y, t, NULL);
    }
}

/* An expected value in scratch: its sign, its normalized length, then its words. */
enum { EXPECT_NEG, EXPECT_LEN, EXPECT_WORDS };

/* Words of one expected value: the longest result a computation of at most CTT_MAX_WORDS-word
 * operands has (a rational numerator a d + c b: 2 CTT_MAX_WORDS + 1 words). */
#define EXPECT_STRIDE (EXPECT_WORDS + 2 * CTT_MAX_WORDS + 1)

size_t ctt_gmp_expect_bytes(const struct mpgpu_ctt_batch *b)
{
    return (b->rational ? 2 : 1) * EXPECT_STRIDE * sizeof(uint32_t);
}

static void export_expect(uint32_t *e, const mpz_t z)
{
    size_t len = 0;
    mpz_export(e + EXPECT_WORDS, &len, -1, sizeof *e, 0, 0, z);
    e[EXPECT_NEG] = mpz_sgn(z) < 0;
    e[EXPECT_LEN] = (uint32_t)len;
}

void ctt_gmp_expect(const struct mpgpu_ctt_batch *b, size_t i, bool reduced, uint32_t *e)
{
    const uint32_t *w = b->words;
    if (b->rational) {
        const struct mpgpu_ctt_qcomp *q = &b->qcomps[i];
        mpz_t a, bb, c, d, x, y;
        mpz_inits(a, bb, c, d, x, y, NULL);
        import_signed(a, w + q->a_off, q->a_len, q->a_neg);
        import_signed(bb, w + q->b_off, q->b_len, false);
        import_signed(c, w + q->c_off, q->c_len, q->c_neg);
        import_signed(d, w + q->d_off, q->d_len, false);
        compute_q(x, y, a, bb, c, d, (mpgpu_ctt_op)q->op);
        if (reduced)
            reduce_q(x, y, a);
        export_expect(e, x);
        export_expect(e + EXPECT_STRIDE, y);
        mpz_clears(a, bb, c, d, x, y, NULL);
        return;
    }
    const struct mpgpu_ctt_comp *c = &b->comps[i];
    mpz_t a, bb, r;
    mpz_inits(a, bb, r, NULL);
    import_signed(a, w + c->a_off, c->a_len, c->a_neg);
    import_signed(bb, w + c->b_off, c->b_len, c->b_neg);
    compute(r, a, bb, (mpgpu_ctt_op)c->op);
    export_expect(e, r);
    mpz_clears(a, bb, r, NULL);
}

/* Whether the integer at mem + off (len words, sign neg, in a space of cap words) is e: its
 * length normalized (no zero top word: e's length), no minus zero, zeros above it in its space. */
static bool result_is(const uint32_t *mem, uint32_t off, uint32_t len, bool neg, uint32_t cap,
                      const uint32_t *e)
{
    if (len > cap || len != e[EXPECT_LEN] || neg != (e[EXPECT_NEG] != 0))
        return false;
    if (memcmp(mem + off, e + EXPECT_WORDS, (size_t)len * sizeof *mem) != 0)
        return false;
    for (uint32_t k = len; k < cap; k++)
        if (mem[off + k] != 0)
            return false;
    return true;
}

/* The fields a mapping only reads: what the host put there. */
static bool comp_inputs_equal(const struct mpgpu_ctt_comp *x, const struct mpgpu_ctt_comp *y)
{
    return x->a_off == y->a_off && x->a_len == y->a_len && x->b_off == y->b_off &&
           x->b_len == y->b_len && x->op == y->op && x->a_neg == y->a_neg && x->b_neg == y->b_neg;
}

static bool qcomp_inputs_equal(const struct mpgpu_ctt_qcomp *x, const struct mpgpu_ctt_qcomp *y)
{
    return x->a_off == y->a_off && x->a_len == y->a_len && x->b_off == y->b_off &&
           x->b_len == y->b_len && x->c_off == y->c_off && x->c_len == y->c_len &&
           x->d_off == y->d_off && x->d_len == y->d_len && x->op == y->op &&
           x->a_neg == y->a_neg && x->c_neg == y->c_neg;
}

bool ctt_gmp_matches(const struct mpgpu_ctt_batch *b, size_t i, const uint32_t *mem, const void *comps,
                     const uint32_t *e)
{
    const uint64_t total = b->operand_words + b->result_words;
    if (b->rational) {
        const struct mpgpu_ctt_qcomp *q = &((const struct mpgpu_ctt_qcomp *)comps)[i];
        struct mpgpu_ctt_comp s[CTT_Q_MAX_STEPS];
        const unsigned n = ctt_q_steps(q, s);
        if (!qcomp_inputs_equal(q, &b->qcomps[i]) || q->x_off < b->operand_words ||
            (uint64_t)q->x_off + ctt_q_capacity(q) > total || q->y_off != s[n - 2].r_off)
            return false;
        return result_is(mem, q->x_off, q->x_len, q->x_neg, ctt_result_capacity(&s[n - 1]), e) &&
               result_is(mem, q->y_off, q->y_len, false, ctt_result_capacity(&s[n - 2]),
                         e + EXPECT_STRIDE);
    }
    const struct mpgpu_ctt_comp *c = &((const struct mpgpu_ctt_comp *)comps)[i];
    const uint32_t cap = ctt_result_capacity(c);
    if (!comp_inputs_equal(c, &b->comps[i]) || c->r_off < b->operand_words ||
        (uint64_t)c->r_off + cap > total)
        return false;
    return result_is(mem, c->r_off, c->r_len, c->r_neg, cap, e);
}

uint64_t ctt_verify(const struct mpgpu_ctt_batch *b, const uint32_t *mem, const void *comps, int threads,
                    bool reduced, size_t *first_bad)
{
    const long n = (long)b->count;
    uint64_t bad = 0;
    long first = n;
#pragma omp parallel num_threads(threads) reduction(+ : bad) reduction(min : first)
    {
        uint32_t *e = malloc(ctt_gmp_expect_bytes(b));
#pragma omp for schedule(dynamic, 64)
        for (long i = 0; i < n; i++) {
            bool ok = e != NULL;
            if (ok) {
                ctt_gmp_expect(b, (size_t)i, reduced, e);
                ok = ctt_gmp_matches(b, (size_t)i, mem, comps, e);
            }
            if (!ok) {
                bad++;
                if (i < first)
                    first = i;
            }
        }
        free(e);
    }
    *first_bad = (size_t)first;
    return bad;
}
