#include "gcd_kary_ref.h"

#include <stdlib.h>

#include "gcd_modinv.h"

static uint32_t mulmod(uint32_t a, uint32_t b, uint32_t q)
{
    return (uint32_t)((uint64_t)a * b % q);
}

/* x mod q in [0, q) for |x| < 2^62. */
static uint32_t signed_mod(int64_t x, uint32_t q)
{
    int64_t r = x % (int64_t)q;
    return (uint32_t)(r < 0 ? r + q : r);
}

/* (y a - x b) mod q. */
static uint32_t combine(int64_t x, int64_t y, uint32_t a, uint32_t b, uint32_t q)
{
    const uint32_t ya = mulmod(signed_mod(y, q), a, q), xb = mulmod(signed_mod(x, q), b, q);
    return ya >= xb ? ya - xb : ya + (q - xb);
}

/* One step on modulus q (gcd_kary_ref.h's table). */
static void apply(const struct gcd_kary_step *st, const uint32_t *pivot, uint32_t q, uint32_t *a,
                  uint32_t *b, uint32_t *s)
{
    const uint32_t P1 = pivot[0] % q;
    switch (st->kind) {
    case GCD_KARY_PAIR: {
        const uint32_t P2 = pivot[1] % q;
        const uint32_t a2 = mulmod(combine(st->x1, st->y1, *a, *b, q), P2, q);
        *b = mulmod(combine(st->x2, st->y2, *a, *b, q), P1, q);
        *a = a2;
        *s = mulmod(mulmod(*s, P1, q), P2, q);
        break;
    }
    case GCD_KARY_REPLACE_A:
        *a = combine(st->x1, st->y1, *a, *b, q);
        *b = mulmod(*b, P1, q);
        *s = mulmod(*s, P1, q);
        break;
    case GCD_KARY_REPLACE_B:
        *b = combine(st->x1, st->y1, *a, *b, q);
        *a = mulmod(*a, P1, q);
        *s = mulmod(*s, P1, q);
        break;
    case GCD_KARY_COMMON:
        *s = mulmod(*s, P1, q);
        break;
    default:
        break;
    }
}

static struct gcd_kary_pivot pivot_of(uint32_t q, uint32_t a, uint32_t b, int64_t alpha,
                                      int64_t beta, unsigned L)
{
    struct gcd_kary_pivot pv = {q, a, b, 0, 0, 0};
    gcd_kary_pivot_vector(&pv, b ? mulmod(a, gcd_modinv(b, q), q) : 0, alpha, beta, L);
    return pv;
}

enum gcd_status gcd_kary_attempt(mpz_t g, const mpz_t u, const mpz_t v,
                                 const struct gcd_moduli *M, size_t n_q, size_t group,
                                 struct gcd_run *run, struct gcd_kary_stats *stats)
{
    const unsigned L = M->L;
    run->n_q = n_q;
    run->steps = 0;
    run->digits = 0;
    run->shortage = GCD_SHORT_NONE;

    const int64_t n_u0 = (int64_t)mpz_sizeinbase(u, 2), n_v0 = (int64_t)mpz_sizeinbase(v, 2);
    const uint32_t *q = M->q;
    uint32_t *a = gcd_ref_alloc(n_q * sizeof *a), *b = gcd_ref_alloc(n_q * sizeof *b);
    uint32_t *s = gcd_ref_alloc(n_q * sizeof *s);
    unsigned char *live = gcd_ref_alloc(n_q);
    gcd_residues(u, v, M, n_q, NULL, a, b);
    for (size_t i = 0; i < n_q; i++) {
        s[i] = 1;
        live[i] = 1;
    }

    mpz_t common, h;
    mpz_inits(common, h, NULL);
    mpz_set_ui(common, 1);
    int64_t alpha = n_u0, beta = n_v0;
    size_t next = 0;
    struct gcd_kary_step st = {.kind = GCD_KARY_SHORT};
    while (next < n_q) {
        const bool two = next + 1 < n_q && (next + 1) % group != 0;
        const struct gcd_kary_pivot p1 = pivot_of(q[next], a[next], b[next], alpha, beta, L);
        const struct gcd_kary_pivot p2 = two ? pivot_of(q[next + 1], a[next + 1], b[next + 1],
                                                        alpha, beta, L)
                                             : (struct gcd_kary_pivot){0};
        const int64_t left = (int64_t)(n_q - next);
        gcd_kary_decide(&st, &p1, &p2, two, alpha, beta, L, left, false);
        if (st.kind == GCD_KARY_CHECK) {
            stats->checks++;
            bool any_a = false, any_b = false;
            for (size_t i = next; i < n_q; i++) {
                any_a |= a[i] != 0;
                any_b |= b[i] != 0;
            }
            if (any_a && any_b)
                gcd_kary_decide(&st, &p1, &p2, two, alpha, beta, L, left, true);
            else
                gcd_kary_finish(&st, any_a, alpha, beta, L, left);
        }
        if (st.kind == GCD_KARY_SHORT || st.kind == GCD_KARY_DONE_A || st.kind == GCD_KARY_DONE_B)
            break;
        const uint32_t pivot[2] = {q[next], two ? q[next + 1] : 0};
        if (st.kind == GCD_KARY_COMMON)
            mpz_mul_ui(common, common, q[next]);
        stats->pairs += st.kind == GCD_KARY_PAIR;
        stats->replaces += st.kind == GCD_KARY_REPLACE_A || st.kind == GCD_KARY_REPLACE_B;
        stats->commons += st.kind == GCD_KARY_COMMON;
        for (int k = 0; k < st.pivots; k++)
            live[next + (size_t)k] = 0;
        next += (size_t)st.pivots;
        for (size_t i = next; i < n_q; i++)
            apply(&st, pivot, q[i], &a[i], &b[i], &s[i]);
        alpha = st.alpha;
        beta = st.beta;
        run->steps++;
    }
    stats->consumed += next;
    if (st.kind == GCD_KARY_DONE_A || st.kind == GCD_KARY_DONE_B) {
        uint32_t *r = st.kind == GCD_KARY_DONE_A ? a : b;
        for (size_t i = next; i < n_q; i++)
            r[i] = mulmod(r[i], gcd_modinv(s[i], q[i]), q[i]);
        run->digits = gcd_mixed_radix_recover(h, q, r, live, n_q);
        mpz_mul(h, h, common);
        stats->spurious_bits += gcd_kary_clean(g, h, u, v);
    } else {
        run->shortage = GCD_SHORT_BOUND;
    }
    mpz_clears(common, h, NULL);
    free(a);
    free(b);
    free(s);
    free(live);
    run->status = run->shortage == GCD_SHORT_NONE ? GCD_OK : GCD_SHORTAGE;
    return run->status;
}

void gcd_kary(mpz_t g, const mpz_t a, const mpz_t b, const struct gcd_moduli *M, size_t group,
              size_t first_nq, struct gcd_run *run, struct gcd_kary_stats *stats)
{
    *run = (struct gcd_run){.status = GCD_OK};
    mpz_t u, v;
    mpz_inits(u, v, NULL);
    if (!gcd_modular_prepare(u, v, g, a, b)) {
        size_t n = first_nq < M->count ? first_nq : (size_t)M->count;
        if (first_nq == 0 && gcd_kary_nq(mpz_sizeinbase(u, 2), mpz_sizeinbase(v, 2), M->L,
                                          GCD_KARY_ROUND, M->count, &n) != GCD_OK)
            n = 0;
        while (n != 0) {
            run->attempts++;
            if (gcd_kary_attempt(g, u, v, M, n, group, run, stats) == GCD_OK)
                break;
            run->shortages++;
            n = gcd_modular_retry_nq(n, GCD_KARY_ROUND, M->count);
        }
        if (n == 0)
            run->status = GCD_TOO_LARGE;
    }
    mpz_clears(u, v, NULL);
}
