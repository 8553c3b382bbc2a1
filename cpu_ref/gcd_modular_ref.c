#include "gcd_modular_ref.h"

#include <stdio.h>
#include <stdlib.h>

#include "gcd_modinv.h"

/* The per-modulus state of gcd_modular_ref.h, index i standing for GPU thread i. */
struct twin {
    unsigned L;
    enum gcd_filter filter;
    size_t n;
    const uint32_t *q;
    uint64_t *m, *key;
    uint32_t *u, *v;
    unsigned char *active;
};

/* gcd_modular_ref.h says why it aborts. */
void *gcd_ref_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "gcd twin: out of memory for %zu bytes\n", bytes);
        abort();
    }
    return p;
}

static uint32_t mulmod(const struct twin *s, size_t i, uint32_t a, uint32_t b)
{
    return gcd_fastrem((uint64_t)a * b, s->q[i], s->m[i], s->L, s->filter);
}

static uint32_t submod(uint32_t a, uint32_t b, uint32_t q)
{
    return a >= b ? a - b : a + (q - b);
}

/* a mod q for a symmetric residue of another modulus: |a| < 2^(L-1) < q. */
static uint32_t symmetric_mod(int64_t a, uint32_t q)
{
    return (uint32_t)(a < 0 ? a + q : a);
}

/* p mod q for two different L-bit moduli: p < 2q. */
static uint32_t modulus_mod(uint32_t p, uint32_t q)
{
    return p > q ? p - q : p;
}

/* Fig. 2 lines 9 and 19, the global minimum of the keys (002 section 4.2); also gives the
 * index of the winner, which on the GPU is the thread whose q equals the key's modulus. */
static uint64_t min_key(const struct twin *s, size_t *at)
{
    uint64_t best = GCD_KEY_INF;
    for (size_t i = 0; i < s->n; i++) {
        if (s->key[i] < best) {
            best = s->key[i];
            *at = i;
        }
    }
    return best;
}

/* Fig. 2 lines 13-14 for modulus i (the update of gcd_modular_ref.h). */
static void reduce(struct twin *s, size_t i, uint32_t p, int64_t b)
{
    const uint32_t q = s->q[i], pq = modulus_mod(p, q), v_old = s->v[i];
    uint32_t w = submod(s->u[i], mulmod(s, i, symmetric_mod(b, q), v_old), q);
    s->u[i] = v_old;
    if (w == 0) {
        s->v[i] = 0;
        s->key[i] = GCD_KEY_INF;
        return;
    }
    uint32_t x = gcd_modinv(mulmod(s, i, pq, w), q);
    s->v[i] = mulmod(s, i, mulmod(s, i, w, w), x);
    uint32_t inv_w = mulmod(s, i, pq, x);
    s->key[i] = gcd_key(q, mulmod(s, i, mulmod(s, i, v_old, pq), inv_w));
}

/* Fig. 2 lines 22 and 27, the global "choose any" (002 section 4.3) with priority to u != 0.
 * Tie rule: the lowest index, i.e. the largest modulus (on the GPU each block posts its
 * lowest-index nonzero pair and the lowest-numbered such block wins the ballot). Returns n when
 * every u left is 0 (g_k = 0, which ends the loop at line 28), or Q is empty. */
static size_t choose_any(const uint32_t *u, const unsigned char *active, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (active[i] && u[i] != 0)
            return i;
    return n;
}

static unsigned bit_length(uint64_t x)
{
    return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
}

uint64_t gcd_mixed_radix_recover(mpz_t g, const uint32_t *q, uint32_t *u, unsigned char *active,
                                 size_t n)
{
    size_t left = 0;
    for (size_t i = 0; i < n; i++)
        left += active[i] != 0;
    uint32_t *digit_p = gcd_ref_alloc(left * sizeof *digit_p);
    int32_t *digit_g = gcd_ref_alloc(left * sizeof *digit_g);
    size_t k = 0;
    for (size_t i = choose_any(u, active, n); i < n; i = choose_any(u, active, n)) {
        const uint32_t p = q[i], up = u[i];
        const int32_t gk = up > p / 2 ? (int32_t)((int64_t)up - p) : (int32_t)up;
        digit_p[k] = p;
        digit_g[k] = gk;
        k++;
        active[i] = 0; /* line 24 */
        /* Line 25: u <- (u - g_k) / p_k mod q. */
        for (size_t j = 0; j < n; j++) {
            if (!active[j])
                continue;
            const uint32_t qj = q[j];
            const uint32_t diff = submod(u[j], symmetric_mod(gk, qj), qj);
            u[j] = (uint32_t)((uint64_t)diff * gcd_modinv(modulus_mod(p, qj), qj) % qj);
        }
    }
    gcd_mixed_radix_to_mpz(g, digit_p, digit_g, k);
    free(digit_p);
    free(digit_g);
    return k;
}

void gcd_residues(const mpz_t u, const mpz_t v, const struct gcd_moduli *M, size_t n,
                  uint64_t *m, uint32_t *ru, uint32_t *rv)
{
    size_t uw_count = 0, vw_count = 0;
    uint32_t *uw = gcd_ref_alloc((mpz_sizeinbase(u, 2) + 31) / 32 * sizeof *uw);
    uint32_t *vw = gcd_ref_alloc((mpz_sizeinbase(v, 2) + 31) / 32 * sizeof *vw);
    mpz_export(uw, &uw_count, -1, sizeof *uw, 0, 0, u);
    mpz_export(vw, &vw_count, -1, sizeof *vw, 0, 0, v);
    for (size_t i = 0; i < n; i++) {
        const uint64_t mi = gcd_fastrem_multiplier(M->q[i], M->L, M->filter);
        if (m)
            m[i] = mi;
        ru[i] = gcd_residue_words(uw, uw_count, M->q[i], mi, M->L, M->filter);
        rv[i] = gcd_residue_words(vw, vw_count, M->q[i], mi, M->L, M->filter);
    }
    free(uw);
    free(vw);
}

enum gcd_status gcd_modular_attempt(mpz_t g, const mpz_t u, const mpz_t v,
                                    const struct gcd_moduli *M, size_t n_q, struct gcd_run *run)
{
    const unsigned L = M->L;
    run->n_q = n_q;
    run->steps = 0;
    run->digits = 0;
    run->shortage = GCD_SHORT_NONE;

    /* Fig. 2 line 1. */
    const int64_t n_u0 = (int64_t)mpz_sizeinbase(u, 2), n_v0 = (int64_t)mpz_sizeinbase(v, 2);

    /* Fig. 2 lines 4-8: Q is the n_q largest moduli. */
    struct twin s = {.L = L, .filter = M->filter, .n = n_q, .q = M->q};
    s.m = gcd_ref_alloc(n_q * sizeof *s.m);
    s.key = gcd_ref_alloc(n_q * sizeof *s.key);
    s.u = gcd_ref_alloc(n_q * sizeof *s.u);
    s.v = gcd_ref_alloc(n_q * sizeof *s.v);
    s.active = gcd_ref_alloc(n_q);
    gcd_residues(u, v, M, n_q, s.m, s.u, s.v);
    for (size_t i = 0; i < n_q; i++) {
        const uint32_t q = s.q[i];
        s.key[i] = s.v[i] ? gcd_key(q, mulmod(&s, i, s.u[i], gcd_modinv(s.v[i], q))) : GCD_KEY_INF;
        s.active[i] = 1;
    }

    /* Lines 9-20. The printed loop is repeat-until, which would run its body once with b = inf
     * when every v_q is 0 from the start; that happens only when V is a multiple of the product
     * of Q, and the bound test below then reports the shortage. */
    int64_t n_u = n_u0, n_v = n_v0, b_u = n_u0, b_v = n_v0, left = (int64_t)n_q;
    size_t at = 0;
    uint64_t key = min_key(&s, &at);
    while (key != GCD_KEY_INF) {
        const uint32_t p = gcd_key_modulus(key);
        const int64_t b = gcd_key_b(key);
        s.active[at] = 0; /* line 11 */
        s.key[at] = GCD_KEY_INF;
        for (size_t i = 0; i < s.n; i++)
            if (s.active[i])
                reduce(&s, i, p, b);
        run->steps++;
        left--;
        /* Line 15, with |b| for b (b may be negative). b = 0 makes v' = u / p, whose size
         * estimate is N_u - L, in place of floor(log2 0). */
        const int64_t b_bits = bit_length((uint64_t)(b < 0 ? -b : b));
        const int64_t n_v_next = b ? n_v - (int64_t)L + b_bits - 1 : n_u - (int64_t)L;
        n_u = n_v;
        n_v = n_v_next;
        /* The proven bounds of gcd_modular_ref.h. */
        const int64_t b_v_next = (b_u > b_v + b_bits ? b_u : b_v + b_bits) + 2 - (int64_t)L;
        b_u = b_v;
        b_v = b_v_next;
        /* Lines 16-17. */
        if (left * ((int64_t)L - 2) <= n_u) {
            run->shortage = GCD_SHORT_PAPER_TEST;
            break;
        }
        key = min_key(&s, &at); /* line 19 */
    }
    const int64_t capacity = left * ((int64_t)L - 1);
    if (run->shortage == GCD_SHORT_NONE && (b_v > capacity || b_u > capacity - 1))
        run->shortage = GCD_SHORT_BOUND;
    if (run->shortage == GCD_SHORT_NONE)
        run->digits = gcd_mixed_radix_recover(g, s.q, s.u, s.active, s.n);
    free(s.m);
    free(s.key);
    free(s.u);
    free(s.v);
    free(s.active);
    run->status = run->shortage == GCD_SHORT_NONE ? GCD_OK : GCD_SHORTAGE;
    return run->status;
}

void gcd_modular(mpz_t g, const mpz_t a, const mpz_t b, const struct gcd_moduli *M, size_t block,
                 size_t first_nq, struct gcd_run *run)
{
    *run = (struct gcd_run){.status = GCD_OK};
    mpz_t u, v;
    mpz_inits(u, v, NULL);
    if (!gcd_modular_prepare(u, v, g, a, b)) {
        size_t n = first_nq < M->count ? first_nq : (size_t)M->count;
        if (first_nq == 0 &&
            gcd_modular_nq(mpz_sizeinbase(u, 2), M->L, block, M->count, &n) != GCD_OK)
            n = 0;
        /* n = 0: nothing (more) to try with */
        while (n != 0) {
            run->attempts++;
            if (gcd_modular_attempt(g, u, v, M, n, run) == GCD_OK)
                break;
            run->shortages++;
            n = gcd_modular_retry_nq(n, block, M->count);
        }
        if (n == 0)
            run->status = GCD_TOO_LARGE;
    }
    mpz_clears(u, v, NULL);
}
