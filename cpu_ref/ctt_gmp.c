#include "ctt_gmp.h"

#include <stdlib.h>


static void import_signed(mpz_t z, const uint32_t *w, uint32_t n, bool neg)
{
    mpz_import(z, n, -1, sizeof *w, 0, 0, w);
    if (neg)
        mpz_neg(z, z);
}

int ctt_gmp_init(struct ctt_gmp *g, const struct ctt_batch *b)
{
    g->count = b->count;
    g->a = malloc(b->count * sizeof(mpz_t));
    g->b = malloc(b->count * sizeof(mpz_t));
    g->r = malloc(b->count * sizeof(mpz_t));
    if (!g->a || !g->b || !g->r) {
        free(g->a);
        free(g->b);
        free(g->r);
        g->a = g->b = g->r = NULL;
        return -1;
    }
    for (size_t i = 0; i < b->count; i++) {
        const struct ctt_comp *c = &b->comps[i];
        mpz_init(g->a[i]);
        mpz_init(g->b[i]);
        /* Room for the largest result up front, so the timed region does not allocate. */
        mpz_init2(g->r[i], 32 * (mp_bitcnt_t)ctt_result_capacity(c) + 64);
        import_signed(g->a[i], b->words + c->a_off, c->a_len, c->a_neg);
        import_signed(g->b[i], b->words + c->b_off, c->b_len, c->b_neg);
    }
    return 0;
}

void ctt_gmp_free(struct ctt_gmp *g)
{
    for (size_t i = 0; g->a && i < g->count; i++) {
        mpz_clear(g->a[i]);
        mpz_clear(g->b[i]);
        mpz_clear(g->r[i]);
    }
    free(g->a);
    free(g->b);
    free(g->r);
    g->a = g->b = g->r = NULL;
}

static void compute(mpz_t r, const mpz_t a, const mpz_t b, enum ctt_op op)
{
    if (op == CTT_ADD)
        mpz_add(r, a, b);
    else if (op == CTT_SUB)
        mpz_sub(r, a, b);
    else
        mpz_mul(r, a, b);
}

void ctt_gmp_run(struct ctt_gmp *g, const struct ctt_batch *b, int threads)
{
    const long n = (long)g->count;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (long i = 0; i < n; i++)
        compute(g->r[i], g->a[i], g->b[i], (enum ctt_op)b->comps[i].op);
}

bool ctt_gmp_check_one(const uint32_t *mem, const struct ctt_comp *c, uint64_t operand_words,
                       uint64_t total_words)
{
    const uint32_t cap = ctt_result_capacity(c);
    if (c->r_off < operand_words || (uint64_t)c->r_off + cap > total_words || c->r_len > cap)
        return false;
    mpz_t a, b, want, got;
    mpz_inits(a, b, want, got, NULL);
    import_signed(a, mem + c->a_off, c->a_len, c->a_neg);
    import_signed(b, mem + c->b_off, c->b_len, c->b_neg);
    compute(want, a, b, (enum ctt_op)c->op);
    import_signed(got, mem + c->r_off, c->r_len, c->r_neg);
    /* Equal values, a normalized length (no zero top word), no minus zero, and zeros above. */
    bool ok = mpz_cmp(want, got) == 0 && (c->r_len == 0 || mem[c->r_off + c->r_len - 1] != 0) &&
              (c->r_len > 0 || !c->r_neg);
    for (uint32_t i = c->r_len; ok && i < cap; i++)
        ok = mem[c->r_off + i] == 0;
    mpz_clears(a, b, want, got, NULL);
    return ok;
}

uint64_t ctt_verify(const struct ctt_batch *b, const uint32_t *mem, const struct ctt_comp *comps,
                    size_t stride, int threads, uint64_t *checked, size_t *first_bad)
{
    const long n = (long)b->count;
    const uint64_t total = b->operand_words + b->result_words;
    uint64_t bad = 0, done = 0;
    long first = n;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads) reduction(+ : bad, done) reduction(min : first)
    for (long i = 0; i < n; i++) {
        if (i % (long)stride != 0 && i != n - 1)
            continue;
        done++;
        if (!ctt_gmp_check_one(mem, &comps[i], b->operand_words, total)) {
            bad++;
            if (i < first)
                first = i;
        }
    }
    *checked = done;
    *first_bad = (size_t)first;
    return bad;
}
