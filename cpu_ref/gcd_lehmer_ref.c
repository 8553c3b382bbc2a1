/* The CPU twin of kernels/gcd_lehmer.cu: gcd_lehmer_ref.h. Each loop over chunks below is what
 * the block's threads do at once between two barriers. */
#include "gcd_lehmer_ref.h"

#include <stdlib.h>

#include "gcd_modular.h"

/* Words of x[0..n) without its zero top words. */
static uint32_t trim(const uint32_t *x, uint32_t n)
{
    while (n && !x[n - 1])
        n--;
    return n;
}

bool gcd_lehmer_apply(const struct gcd_lehmer_step *st, uint32_t *a, uint32_t *b, uint32_t w,
                      uint32_t nb, uint32_t k, int64_t *scratch, struct gcd_lehmer_stats *stats)
{
    /* A PAIR step's words are signed 64-bit sums, exact for multipliers below 2^31 only
     * (gcd_lehmer_pair_words); gcd_lehmer_decide and gcd_lehmer_plan_ahead give no other, and a
     * step that did would count as one that broke the bounds. */
    if (st->kind == GCD_LEHMER_PAIR && (st->ua | st->va | st->ub | st->vb) >> 31)
        return false;
    const uint32_t chunks = (w + k - 1) / k;
    int64_t *ca = scratch, *cb = ca + chunks, *ea = cb + chunks, *eb = ea + chunks;
#define LO(t) ((t) * k)
#define HI(t) ((t) * k + k < w ? (t) * k + k : w)
    for (uint32_t t = 0; t < chunks; t++)
        gcd_lehmer_chunk_combine(st, a, b, a, b, nb, LO(t), HI(t), &ca[t], &cb[t]);
    ea[0] = eb[0] = 0;
    for (uint32_t t = 1; t < chunks; t++) {
        ea[t] = ca[t - 1];
        eb[t] = cb[t - 1];
        gcd_lehmer_chunk_carry_both(a, b, LO(t), HI(t), &ea[t], &eb[t]);
    }
    int64_t sign_a = ca[chunks - 1] + ea[chunks - 1], sign_b = cb[chunks - 1] + eb[chunks - 1];
    for (;;) {
        bool pending = false;
        for (uint32_t t = 0; t + 1 < chunks; t++)
            pending |= ea[t] || eb[t];
        if (!pending)
            break;
        stats->ripple_rounds++;
        for (uint32_t t = chunks; t-- > 1;) {
            ea[t] = ea[t - 1];
            eb[t] = eb[t - 1];
            gcd_lehmer_chunk_carry_both(a, b, LO(t), HI(t), &ea[t], &eb[t]);
        }
        ea[0] = eb[0] = 0;
        sign_a += ea[chunks - 1];
        sign_b += eb[chunks - 1];
    }
    if (sign_b != 0 || sign_a > 0 || (sign_a < 0 && st->kind != GCD_LEHMER_ONE))
        return false;
    if (sign_a < 0) {
        stats->negations++;
        uint32_t z = w;
        for (uint32_t t = 0; t < chunks; t++) {
            const uint32_t zt = gcd_lehmer_chunk_lowest(a, LO(t), HI(t), w);
            z = zt < z ? zt : z;
        }
        for (uint32_t t = 0; t < chunks; t++)
            gcd_lehmer_chunk_negate(a, LO(t), HI(t), z);
    }
#undef LO
#undef HI
    return true;
}

/* A step as the kernel's producer posts it: the step, A's array (ia), the lengths of A and B
 * where it was planned from the numbers (na, nb), and the words it covers (w). */
struct planned {
    struct gcd_lehmer_step st;
    uint32_t ia;
    uint32_t na, nb, w;
};

/* The step planned from the numbers x[0], x[1], whose top words lie below w. */
static struct planned plan_exact(uint32_t *const x[2], uint32_t w)
{
    struct planned p;
    bool swap;
    uint32_t n[2] = {trim(x[0], w), trim(x[1], w)};
    gcd_lehmer_plan(&p.st, x[0], n[0], x[1], n[1], &swap);
    p.ia = swap ? 1 : 0;
    p.na = n[p.ia];
    p.nb = n[1 - p.ia];
    p.w = p.na + 1;
    return p;
}

bool gcd_lehmer_reduce(mpz_t g, const mpz_t u, const mpz_t v, uint32_t chunk,
                       struct gcd_lehmer_stats *stats)
{
    const uint32_t nu = (uint32_t)((mpz_sizeinbase(u, 2) + 31) / 32), cap = nu + chunk + 1;
    uint32_t *const x[2] = {calloc(cap, 4), calloc(cap, 4)};
    int64_t *scratch = calloc(4 * (size_t)cap, sizeof *scratch);
    if (!x[0] || !x[1] || !scratch)
        abort();
    mpz_export(x[0], NULL, -1, sizeof *x[0], 0, 0, u);
    mpz_export(x[1], NULL, -1, sizeof *x[1], 0, 0, v);
    struct planned p = plan_exact(x, nu);
    bool ok = true;
    for (;;) {
        if (p.st.kind == GCD_LEHMER_DONE) {
            const uint32_t *a = x[p.ia];
            if (gcd_lehmer_bit_length(a, p.na) <= 64)
                mpz_import(g, 1, -1, sizeof p.st.small, 0, 0, &p.st.small);
            else
                mpz_import(g, p.na, -1, sizeof *a, 0, 0, a);
            break;
        }
        stats->steps++;
        stats->pairs += p.st.kind == GCD_LEHMER_PAIR;
        stats->shifts += p.st.kind == GCD_LEHMER_SHIFT;
        stats->ones += p.st.kind == GCD_LEHMER_ONE;
        stats->quotients += p.st.quotients;
        /* The producer plans the next step from the top words before this one, while the
         * block applies it. */
        struct planned next = {.w = 0};
        gcd_lehmer_plan_next(&next.st, &next.ia, &next.w, &p.st, p.ia == 1, x[p.ia], x[1 - p.ia],
                             p.w);
        if (!gcd_lehmer_apply(&p.st, x[p.ia], x[1 - p.ia], p.w, p.nb, chunk, scratch, stats)) {
            ok = false;
            break;
        }
        if (next.st.kind == GCD_LEHMER_EXACT) {
            p = plan_exact(x, p.w);
        } else {
            stats->ahead++;
            p = next;
        }
    }
    free(x[0]);
    free(x[1]);
    free(scratch);
    return ok;
}

bool gcd_lehmer_ref(mpz_t g, const mpz_t a, const mpz_t b, uint32_t chunk,
                    struct gcd_lehmer_stats *stats)
{
    mpz_t u, v;
    mpz_inits(u, v, NULL);
    bool ok = true;
    if (!gcd_modular_prepare(u, v, g, a, b)) {
        uint32_t k = chunk, threads, cap;
        if (!k)
            gcd_lehmer_shape((uint32_t)((mpz_sizeinbase(u, 2) + 31) / 32), &k, &threads, &cap);
        ok = gcd_lehmer_reduce(g, u, v, k, stats);
    }
    mpz_clears(u, v, NULL);
    return ok;
}
