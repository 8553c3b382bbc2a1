/* cpu suite: the CPU twin of the k-ary modular GCD (kernels/gcd_kary.h, cpu_ref/gcd_kary_ref.c;
 * beyond 002).
 * - the lattice step on seeded random cases (L = 32 cheap, L = 16 all and cheap): the stop bits
 *   in [1, L], the pivot's vector (x, y) != 0 with p | yA - xB (GMP), its sizes (|x| < 2^tb,
 *   |y| 2^tb <= p past the first remainder, |x| <= p/2 when y = 1, and |x|, |y| < 2 q_min, which
 *   the kernel's reduction of the vectors needs), and the exact quotient W = (yA - xB)/p below
 *   2^gcd_kary_bound; the decisions of gcd_kary_decide on two pivots (the bounds of the numbers
 *   that replace A and B, gcd(A, B) kept and the spurious factors confined to y, x or
 *   x1 y2 - x2 y1, SHORT when the moduli left cannot hold the bounds, CHECK when both pivots see
 *   b = 0 or a = 0, gcd_kary_advance recomputing the step's bounds) and of gcd_kary_finish;
 * - the twin against mpz_gcd on issue 10's cases (tests/gcd_cases.h): L = 32 cheap up to 8192
 *   bits with groups of 32, 64 and 256 (and 1: one pivot a step), L = 16 all and cheap up to
 *   1024 bits; moduli of the set planted as factors of one or both inputs (b = 0 pivots, zero
 *   checks, COMMON steps, also deep in the pivot order and squared) and random common factors
 *   (on coprime pairs the cleaning hides a wrong H); per run, the steps by kind against the
 *   pivots consumed and the spurious bits against the steps' multipliers;
 * - every N_Q up to gcd_kary_nq's: a shortage (g untouched) or the right answer, never a wrong
 *   one;
 * - retries from 1, 2 and 8 moduli, inputs too large for a set of 8 moduli (and a set that runs
 *   out while retrying), with g untouched;
 * - gcd_kary_nq (a multiple of the group, enough pivots, clamped to the set, GCD_TOO_LARGE) and
 *   gcd_kary_clean (planted spurious factors removed, their bits returned).
 * Statistics per input size (steps, moduli, pivots consumed, spurious bits) go to stdout. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_cases.h"
#include "gcd_kary.h"
#include "gcd_kary_ref.h"
#include "gcd_modular_ref.h"
#include "gcd_moduli.h"
#include "random_words.h"
#include "test_seed.h"

static uint64_t rng;
static uint64_t rand64(void)
{
    return splitmix64(rng++);
}

static gmp_randstate_t gmp_rng;

static void random_bits(mpz_t x, unsigned bits)
{
    gcd_case_bits(x, gmp_rng, bits);
}

/* Bits of |x|, 0 for 0 (mpz_sizeinbase gives 1 there). */
static int64_t bits_of(const mpz_t x)
{
    return mpz_sgn(x) ? (int64_t)mpz_sizeinbase(x, 2) : 0;
}

static int64_t abs64(int64_t x)
{
    return x < 0 ? -x : x;
}

/* ---- the lattice step ---- */

/* W = (y A - x B) / p, exact when p divides it (the caller checks that first). */
static void quotient(mpz_t w, const mpz_t A, const mpz_t B, int64_t x, int64_t y, uint32_t p)
{
    mpz_t t;
    mpz_init(t);
    mpz_mul_si(w, A, (long)y);
    mpz_mul_si(t, B, (long)x);
    mpz_sub(w, w, t);
    mpz_divexact_ui(w, w, p);
    mpz_clear(t);
}

/* The pivot of modulus p for the pair (A, B) of bounds alpha, beta: its vector and bound; t from
 * GMP. */
static struct gcd_kary_pivot pivot_for(uint32_t p, const mpz_t A, const mpz_t B, int64_t alpha,
                                       int64_t beta, unsigned L)
{
    struct gcd_kary_pivot pv = {p, (uint32_t)mpz_fdiv_ui(A, p), (uint32_t)mpz_fdiv_ui(B, p), 0, 0,
                                0};
    uint32_t t = (uint32_t)(rand64() % p); /* any value when b = 0 */
    if (pv.b != 0) {
        mpz_t r, m;
        mpz_inits(r, m, NULL);
        mpz_set_ui(r, pv.b);
        mpz_set_ui(m, p);
        mpz_invert(r, r, m);
        mpz_mul_ui(r, r, pv.a);
        t = (uint32_t)mpz_fdiv_ui(r, p);
        mpz_clears(r, m, NULL);
    }
    gcd_kary_pivot_vector(&pv, t, alpha, beta, L);
    return pv;
}

/* A random pair of one of several shapes, sometimes divisible by p1 or p2, sometimes negative;
 * alpha, beta at least its bits, sometimes with slack (the bounds are upper bounds). */
static void lattice_pair(mpz_t A, mpz_t B, int64_t *alpha, int64_t *beta, uint32_t p1,
                         uint32_t p2)
{
    unsigned na, nb;
    switch (rand64() % 6) {
    case 0: /* balanced */
    case 1:
        na = 100 + (unsigned)(rand64() % 500);
        nb = na - (unsigned)(rand64() % 8);
        break;
    case 2: /* A much longer */
        na = 200 + (unsigned)(rand64() % 400);
        nb = 1 + (unsigned)(rand64() % 100);
        break;
    case 3: /* B much longer */
        nb = 200 + (unsigned)(rand64() % 400);
        na = 1 + (unsigned)(rand64() % 100);
        break;
    case 4: /* unequal by a few dozen bits either way */
        na = 150 + (unsigned)(rand64() % 300);
        nb = na + 40 - (unsigned)(rand64() % 81);
        break;
    default: /* small: a few words or less */
        na = (unsigned)(rand64() % 96);
        nb = (unsigned)(rand64() % 96);
        break;
    }
    random_bits(A, na);
    random_bits(B, nb);
    const unsigned div = (unsigned)(rand64() % 16);
    if (div == 0 || div == 2) /* p1 | A */
        mpz_mul_ui(A, A, p1);
    if (div == 1 || div == 2) /* p1 | B (and A: a common pivot) */
        mpz_mul_ui(B, B, p1);
    if (div == 3 || div == 4) /* p2 | B, and p1 | B too for div 4: two pivots with b = 0 */
        mpz_mul_ui(B, B, div == 4 ? (uint64_t)p1 * p2 : p2);
    if (div == 5) /* p2 | A and B */
        mpz_mul_ui(A, A, p2), mpz_mul_ui(B, B, p2);
    if (div == 6) /* p1 | A, p2 | A: two pivots with a = 0 */
        mpz_mul_ui(A, A, (uint64_t)p1 * p2);
    if (rand64() % 8 == 0)
        mpz_neg(A, A);
    if (rand64() % 8 == 0)
        mpz_neg(B, B);
    *alpha = bits_of(A) + (rand64() % 4 == 0 ? (int64_t)(rand64() % 9) : 0);
    *beta = bits_of(B) + (rand64() % 4 == 0 ? (int64_t)(rand64() % 9) : 0);
}

static unsigned lattice_kinds[8];

/* n cases on the moduli of M: the vector of one pivot, then the decision on two. */
static void check_lattice(const struct gcd_moduli *M, unsigned n)
{
    const unsigned L = M->L;
    const uint64_t q_min = M->q[M->count - 1];
    mpz_t A, B, W, W2, G, H, t;
    mpz_inits(A, B, W, W2, G, H, t, NULL);
    const int before = failures;
    unsigned loops = 0, firsts = 0, zero_b = 0;
    for (unsigned i = 0; i < n; i++) {
        /* the first pivots (the twin's first steps), the last modulus, anywhere */
        const uint64_t at = i % 8 == 0   ? rand64() % 64
                            : i % 8 == 1 ? M->count - 2
                                         : rand64() % (M->count - 1);
        const uint32_t p = M->q[at], p2 = M->q[at + 1];
        int64_t alpha, beta;
        lattice_pair(A, B, &alpha, &beta, p, p2);
        const int64_t tb = gcd_kary_stop_bits(alpha, beta, L);
        CHECK(tb >= 1 && tb <= (int64_t)L, "L=%u alpha %lld beta %lld: stop bits %lld", L,
              (long long)alpha, (long long)beta, (long long)tb);
        const struct gcd_kary_pivot pv = pivot_for(p, A, B, alpha, beta, L);
        const int64_t x = pv.x, y = pv.y;
        char cs[160];
        snprintf(cs, sizeof cs, "L=%u p=%u a=%u b=%u alpha %lld beta %lld tb %lld: (x, y) = "
                 "(%lld, %lld)", L, p, pv.a, pv.b, (long long)alpha, (long long)beta,
                 (long long)tb, (long long)x, (long long)y);
        CHECK(x != 0 || y != 0, "%s is 0", cs);
        mpz_mul_si(W, A, (long)y);
        mpz_mul_si(t, B, (long)x);
        mpz_sub(W, W, t);
        const int divides = mpz_divisible_ui_p(W, p) != 0;
        CHECK(divides, "%s: p does not divide yA - xB", cs);
        /* the sizes: the first remainder (y = 1) symmetric, past it |x| < 2^tb <= |p / y| */
        const int64_t stop = (int64_t)1 << tb;
        int sizes = abs64(x) <= (int64_t)(p / 2 > stop ? p / 2 : stop) && abs64(y) <= (int64_t)p;
        sizes &= abs64(x) < 2 * (int64_t)q_min && abs64(y) < 2 * (int64_t)q_min;
        if (pv.b == 0) {
            sizes &= x == 1 && y == 0;
            zero_b++;
        } else {
            sizes &= abs64(x) < stop && abs64(x) * abs64(y) < (int64_t)p;
            if (y == 1) {
                sizes &= abs64(x) <= (int64_t)(p / 2);
                firsts++;
            } else {
                sizes &= abs64(y) * stop <= (int64_t)p;
                loops++;
            }
        }
        CHECK(sizes, "%s: sizes of the vector (q_min %llu)", cs, (unsigned long long)q_min);
        if (divides) {
            mpz_divexact_ui(W, W, p);
            CHECK(pv.bound == gcd_kary_bound(x, y, alpha, beta, L) && bits_of(W) <= pv.bound,
                  "%s: W has %lld bits, the pivot's bound %lld", cs, (long long)bits_of(W),
                  (long long)pv.bound);
        }

        /* The decision on the pivots p, p2 (a pair inside the group), after a zero check that
         * found both numbers nonzero, with ample moduli left. */
        if (mpz_sgn(A) == 0 || mpz_sgn(B) == 0)
            continue;
        const struct gcd_kary_pivot pv2 = pivot_for(p2, A, B, alpha, beta, L);
        const int64_t ample = 1000000;
        struct gcd_kary_step st, unchecked;
        gcd_kary_decide(&unchecked, &pv, &pv2, true, alpha, beta, L, ample, false);
        const int ask = (pv.b == 0 && pv2.b == 0) || (pv.a == 0 && pv2.a == 0);
        CHECK((unchecked.kind == GCD_KARY_CHECK) == ask,
              "L=%u unchecked decision %d on a=%u b=%u, a2=%u b2=%u", L, (int)unchecked.kind,
              pv.a, pv.b, pv2.a, pv2.b);
        gcd_kary_decide(&st, &pv, &pv2, true, alpha, beta, L, ample, true);
        lattice_kinds[st.kind]++;
        CHECK(ask || memcmp(&st, &unchecked, sizeof st) == 0, "checked and unchecked differ");
        mpz_gcd(G, A, B);
        switch (st.kind) {
        case GCD_KARY_COMMON:
            mpz_divexact_ui(W, A, p);
            mpz_divexact_ui(W2, B, p);
            CHECK(pv.a == 0 && pv.b == 0 && st.pivots == 1 && bits_of(W) <= st.alpha &&
                      bits_of(W2) <= st.beta,
                  "L=%u COMMON on a=%u b=%u: bits %lld, %lld, bounds %lld, %lld", L, pv.a, pv.b,
                  (long long)bits_of(W), (long long)bits_of(W2), (long long)st.alpha,
                  (long long)st.beta);
            break;
        case GCD_KARY_PAIR: {
            const int64_t det = st.x1 * st.y2 - st.x2 * st.y1;
            quotient(W, A, B, st.x1, st.y1, p);
            quotient(W2, A, B, st.x2, st.y2, p2);
            CHECK(st.pivots == 2 && det != 0 && abs64(alpha - beta) < (int64_t)L - 2 &&
                      st.x1 == pv.x && st.y1 == pv.y && st.x2 == pv2.x && st.y2 == pv2.y,
                  "L=%u PAIR: det %lld, alpha %lld, beta %lld", L, (long long)det,
                  (long long)alpha, (long long)beta);
            CHECK(bits_of(W) <= st.alpha && bits_of(W2) <= st.beta,
                  "L=%u PAIR: bits %lld, %lld, bounds %lld, %lld", L, (long long)bits_of(W),
                  (long long)bits_of(W2), (long long)st.alpha, (long long)st.beta);
            /* gcd(A, B) | gcd(W1, W2) | det gcd(A, B) */
            mpz_gcd(H, W, W2);
            mpz_mul_si(t, G, (long)det);
            CHECK(mpz_divisible_p(H, G) && mpz_divisible_p(t, H),
                  "L=%u PAIR: gcd(W1, W2) not between gcd(A, B) and det gcd(A, B)", L);
            break;
        }
        case GCD_KARY_REPLACE_A:
        case GCD_KARY_REPLACE_B: {
            const int a_side = st.kind == GCD_KARY_REPLACE_A;
            quotient(W, A, B, st.x1, st.y1, p);
            CHECK(st.pivots == 1 && st.x1 == pv.x && st.y1 == pv.y && (a_side ? st.y1 : st.x1) != 0,
                  "L=%u REPLACE_%c with (%lld, %lld)", L, a_side ? 'A' : 'B', (long long)st.x1,
                  (long long)st.y1);
            CHECK(a_side ? bits_of(W) <= st.alpha && st.beta == beta
                         : bits_of(W) <= st.beta && st.alpha == alpha,
                  "L=%u REPLACE_%c: W has %lld bits, bounds %lld, %lld", L, a_side ? 'A' : 'B',
                  (long long)bits_of(W), (long long)st.alpha, (long long)st.beta);
            /* gcd(A, B) | gcd(W, kept) | y gcd(A, B) (x for REPLACE_B) */
            mpz_gcd(H, W, a_side ? B : A);
            mpz_mul_si(t, G, (long)(a_side ? st.y1 : st.x1));
            CHECK(mpz_divisible_p(H, G) && mpz_divisible_p(t, H),
                  "L=%u REPLACE_%c: spurious factor beyond the multiplier", L, a_side ? 'A' : 'B');
            break;
        }
        default:
            CHECK(0, "L=%u: decision %d with ample moduli after a zero check", L, (int)st.kind);
        }
        /* Too few moduli left for the larger bound: SHORT; just enough: the same step. And a
         * consumer that recomputes the bounds from the entry finds the producer's. */
        if (st.pivots > 0) {
            int64_t alpha2 = alpha, beta2 = beta;
            gcd_kary_advance(&st, &alpha2, &beta2, L);
            CHECK(alpha2 == st.alpha && beta2 == st.beta,
                  "L=%u step %d: advance gives bounds %lld, %lld, the step %lld, %lld", L,
                  (int)st.kind, (long long)alpha2, (long long)beta2, (long long)st.alpha,
                  (long long)st.beta);
            const int64_t top = st.alpha > st.beta ? st.alpha : st.beta;
            const int64_t fit = st.pivots + (top + (int64_t)L - 2) / ((int64_t)L - 1);
            struct gcd_kary_step s2;
            gcd_kary_decide(&s2, &pv, &pv2, true, alpha, beta, L, fit, true);
            CHECK(s2.kind == st.kind, "L=%u: %lld moduli left hold bounds %lld, %lld, yet %d", L,
                  (long long)fit, (long long)st.alpha, (long long)st.beta, (int)s2.kind);
            if (top > 0) {
                gcd_kary_decide(&s2, &pv, &pv2, true, alpha, beta, L, fit - 1, true);
                CHECK(s2.kind == GCD_KARY_SHORT && s2.pivots == 0,
                      "L=%u: %lld moduli left cannot hold %lld bits, yet %d", L,
                      (long long)(fit - 1), (long long)top, (int)s2.kind);
            }
        }
    }
    /* gcd_kary_finish: DONE when the zero's bound fits the moduli left and the result's fits
     * below half of them. */
    for (unsigned i = 0; i < n / 4; i++) {
        const bool any_a = rand64() & 1;
        const int64_t left = (int64_t)(rand64() % 40), alpha = (int64_t)(rand64() % 1300),
                      beta = (int64_t)(rand64() % 1300), cap = left * ((int64_t)L - 1);
        struct gcd_kary_step st;
        gcd_kary_finish(&st, any_a, alpha, beta, L, left);
        const int64_t zero = any_a ? beta : alpha, result = any_a ? alpha : beta;
        const int32_t want = zero <= cap && result < cap
                                 ? (any_a ? GCD_KARY_DONE_A : GCD_KARY_DONE_B)
                                 : GCD_KARY_SHORT;
        CHECK(st.kind == want && st.pivots == 0 && st.alpha == alpha && st.beta == beta,
              "L=%u finish(any_a %d, %lld, %lld, left %lld): %d, expected %d", L, (int)any_a,
              (long long)alpha, (long long)beta, (long long)left, (int)st.kind, (int)want);
    }
    /* The stop bits over the whole range of size differences: in [1, L], (L + 1)/2 when
     * balanced, never decreasing as A grows over B. */
    for (int64_t e = -3 * (int64_t)L; e <= 3 * (int64_t)L; e++) {
        const int64_t beta = 500, tb = gcd_kary_stop_bits(beta + e, beta, L),
                      tb1 = gcd_kary_stop_bits(beta + e + 1, beta, L);
        CHECK(tb >= 1 && tb <= (int64_t)L && tb1 >= tb, "L=%u e=%lld: stop bits %lld then %lld",
              L, (long long)e, (long long)tb, (long long)tb1);
    }
    CHECK(gcd_kary_stop_bits(700, 700, L) == ((int64_t)L + 1) / 2, "L=%u balanced stop bits %lld",
          L, (long long)gcd_kary_stop_bits(700, 700, L));
    CHECK(loops > 0 && firsts > 0 && zero_b > 0,
          "L=%u: vectors past the first remainder %u, at it %u, of b = 0 %u: each must occur", L,
          loops, firsts, zero_b);
    printf("lattice L=%u %s: %u cases (%u past the first remainder, %u at it, %u with b = 0): "
           "%s\n",
           L, gcd_filter_name(M->filter), n, loops, firsts, zero_b,
           failures == before ? "ok" : "FAILED");
    mpz_clears(A, B, W, W2, G, H, t, NULL);
}

/* ---- the twin against mpz_gcd ---- */

#define BUCKETS 16 /* by the bits of the larger input: up to 2^k bits, k < BUCKETS */

struct tally {
    uint64_t pairs, steps, consumed, spurious, retried, n_q;
};

struct twin_ctx {
    const struct gcd_moduli *M;
    size_t group, first_nq;
    struct tally bucket[BUCKETS];
    struct gcd_kary_stats stats; /* the sums of every run */
    unsigned runs, failed, skipped;
};

/* A group of twin runs stops after this many wrong answers: a broken twin retries each pair up
 * to the whole set, which costs more the more moduli it holds. */
#define MAX_FAILED 5

static struct gcd_kary_stats all_stats;
static unsigned twin_runs;

static void add_stats(struct gcd_kary_stats *to, const struct gcd_kary_stats *s)
{
    to->pairs += s->pairs;
    to->replaces += s->replaces;
    to->commons += s->commons;
    to->checks += s->checks;
    to->consumed += s->consumed;
    to->spurious_bits += s->spurious_bits;
}

/* gcd(a, b) by the twin against mpz_gcd; the run's statistics to ctx. Returns the run. */
static struct gcd_run check_kary(struct twin_ctx *c, const mpz_t a, const mpz_t b,
                                 const char *what)
{
    const struct gcd_moduli *M = c->M;
    struct gcd_run run = {.status = GCD_TOO_LARGE};
    if (c->failed >= MAX_FAILED) {
        c->skipped++;
        return run;
    }
    mpz_t g, e;
    mpz_inits(g, e, NULL);
    mpz_gcd(e, a, b);
    mpz_set_si(g, -7);
    struct gcd_kary_stats s = {0};
    gcd_kary(g, a, b, M, c->group, c->first_nq, &run, &s);
    const int ok = run.status == GCD_OK && mpz_cmp(g, e) == 0;
    CHECK(ok,
          "%s (L=%u %s, group %zu, first N_Q %zu, %zu and %zu bits): status %d after %u "
          "attempts, %s GMP's",
          what, M->L, gcd_filter_name(M->filter), c->group, c->first_nq, mpz_sizeinbase(a, 2),
          mpz_sizeinbase(b, 2), (int)run.status, run.attempts,
          mpz_cmp(g, e) ? "differs from" : "equal to");
    if (!ok && mpz_sizeinbase(a, 2) + mpz_sizeinbase(b, 2) <= 20000)
        gmp_printf("  a = %#Zx\n  b = %#Zx\n  g = %#Zx\n  mpz_gcd = %#Zx\n", a, b, g, e);
    c->failed += !ok;
    const int trivial = mpz_sgn(a) == 0 || mpz_sgn(b) == 0;
    CHECK(trivial ? run.attempts == 0 : run.attempts >= 1 && run.shortages == run.attempts - 1,
          "%s: %u attempts, %u shortages", what, run.attempts, run.shortages);
    /* One attempt: its steps by kind, and the pivots they took, inside its moduli. */
    if (run.attempts == 1)
        CHECK(run.steps == s.pairs + s.replaces + s.commons &&
                  s.consumed == 2 * s.pairs + s.replaces + s.commons && s.consumed <= run.n_q,
              "%s: %llu steps, %llu pairs, %llu replaces, %llu commons, %llu of %zu moduli "
              "consumed",
              what, (unsigned long long)run.steps, (unsigned long long)s.pairs,
              (unsigned long long)s.replaces, (unsigned long long)s.commons,
              (unsigned long long)s.consumed, run.n_q);
    /* The spurious factors divide the product of the steps' multipliers: x1 y2 - x2 y1 of a
     * PAIR (below 2^(L+1): |x| < 2^tb, |y| <= max(1, p / 2^tb)), y or x of a REPLACE (below
     * 2^L). A result that kept the scale S (the pivots, L bits each) would exceed that. */
    CHECK(s.spurious_bits <= (M->L + 1) * s.pairs + M->L * s.replaces,
          "%s: %llu spurious bits after %llu pairs and %llu replaces", what,
          (unsigned long long)s.spurious_bits, (unsigned long long)s.pairs,
          (unsigned long long)s.replaces);
    if (!trivial) {
        const size_t bits = mpz_sizeinbase(mpz_cmpabs(a, b) >= 0 ? a : b, 2);
        unsigned k = 0;
        while (k + 1 < BUCKETS && ((size_t)1 << k) < bits)
            k++;
        struct tally *t = &c->bucket[k];
        t->pairs++;
        t->steps += run.steps;
        t->consumed += s.consumed;
        t->spurious += s.spurious_bits;
        t->retried += run.attempts > 1;
        t->n_q += run.n_q;
    }
    add_stats(&c->stats, &s);
    add_stats(&all_stats, &s);
    c->runs++;
    twin_runs++;
    mpz_clears(g, e, NULL);
    return run;
}

static void twin_case(void *ctx, const mpz_t a, const mpz_t b, const char *what)
{
    check_kary(ctx, a, b, what);
}

/* Moduli of the set as factors of one input or both: pivots with b = 0 or a = 0 (zero checks),
 * common pivots (COMMON steps) at the start, deep in the pivot order and squared; and random
 * common factors. */
static void planted_moduli(struct twin_ctx *c, unsigned n)
{
    const uint32_t *q = c->M->q;
    mpz_t a, b, f;
    mpz_inits(a, b, f, NULL);
    const size_t deep[] = {7, 40, 41, 100, 150};
    for (unsigned r = 0; r < 4; r++) {
        random_bits(a, n);
        random_bits(b, n - 5 - (unsigned)(rand64() % 60));
        mpz_mul_ui(b, b, q[0]);
        check_kary(c, a, b, "q[0] | V");
        mpz_mul_ui(b, b, q[1]);
        check_kary(c, a, b, "q[0] q[1] | V");
        mpz_mul_ui(a, a, q[0]);
        mpz_mul_ui(a, a, q[1]);
        check_kary(c, b, a, "q[0] q[1] | both");
        random_bits(a, n - 3);
        random_bits(b, n);
        mpz_mul_ui(a, a, (uint64_t)q[0] * q[1]);
        check_kary(c, a, b, "q[0] q[1] | U");
        random_bits(f, 1 + (unsigned)(rand64() % 64));
        mpz_set_ui(a, q[2]);
        mpz_mul_ui(a, a, q[2]);
        mpz_mul_ui(a, a, q[3]);
        mpz_mul(f, f, a);
        for (int i = 0; i < 5; i++)
            if (deep[i] < c->M->count && (r + i) % 2 == 0)
                mpz_mul_ui(f, f, q[deep[i]]);
        random_bits(a, n / 2);
        random_bits(b, n / 2 - 10);
        mpz_mul(a, a, f);
        mpz_mul(b, b, f);
        check_kary(c, a, b, "q[2]^2 q[3] and deep moduli | both");
    }
    /* A random common factor: most random pairs are coprime, and there gcd_kary_clean would
     * turn any H into the right answer 1. */
    for (unsigned r = 0; r < 12; r++) {
        const unsigned fb = 2 + (unsigned)(rand64() % (n / 2));
        random_bits(f, fb);
        random_bits(a, n - fb);
        random_bits(b, n - fb - (unsigned)(rand64() % (n / 8)));
        mpz_mul(a, a, f);
        mpz_mul(b, b, f);
        check_kary(c, a, b, "random common factor");
    }
    mpz_clears(a, b, f, NULL);
}

static void print_tally(const struct twin_ctx *c, const char *title)
{
    const struct gcd_kary_stats *s = &c->stats;
    if (c->skipped)
        printf("%s: stopped after %u wrong answers, %u runs skipped\n", title, c->failed,
               c->skipped);
    printf("%s L=%u %s group %zu: %u runs, %u wrong; %llu pairs, %llu replaces, %llu commons, "
           "%llu zero checks\n",
           title, c->M->L, gcd_filter_name(c->M->filter), c->group, c->runs, c->failed,
           (unsigned long long)s->pairs, (unsigned long long)s->replaces,
           (unsigned long long)s->commons, (unsigned long long)s->checks);
    printf("  %10s %6s %11s %11s %11s %14s %8s\n", "bits <=", "pairs", "steps/pair", "N_Q/pair",
           "pivots/pair", "spurious b/pair", "retried");
    for (unsigned k = 0; k < BUCKETS; k++) {
        const struct tally *t = &c->bucket[k];
        if (!t->pairs)
            continue;
        const double n = (double)t->pairs;
        printf("  %10llu %6llu %11.1f %11.1f %11.1f %14.2f %8llu\n", 1ull << k,
               (unsigned long long)t->pairs, (double)t->steps / n, (double)t->n_q / n,
               (double)t->consumed / n, (double)t->spurious / n,
               (unsigned long long)t->retried);
    }
}

/* Issue 10's cases up to each n of sizes[], and the planted moduli, with groups of `group`. */
static void check_twin(const struct gcd_moduli *M, size_t group, const unsigned *sizes,
                       unsigned count, unsigned pairs)
{
    struct twin_ctx *c = calloc(1, sizeof *c);
    c->M = M;
    c->group = group;
    const uint32_t q[3] = {M->q[0], M->q[1], M->q[5]};
    const double t0 = test_seconds();
    for (unsigned i = 0; i < count; i++) {
        gcd_cases(gmp_rng, sizes[i], pairs, 20, q, twin_case, c);
        planted_moduli(c, sizes[i]);
    }
    char title[64];
    snprintf(title, sizeof title, "twin (%.1f s)", test_seconds() - t0);
    print_tally(c, title);
    free(c);
}

/* Every N_Q from 1 up to gcd_kary_nq's: an attempt either falls short (g untouched) or gives
 * GMP's answer, never a wrong one; both must occur. */
static void check_sweep(const struct gcd_moduli *M, size_t group, unsigned bits,
                        unsigned common_bits)
{
    mpz_t a, b, u, v, g, e;
    mpz_inits(a, b, u, v, g, e, NULL);
    gcd_case_planted(a, b, gmp_rng, bits, 3, common_bits);
    mpz_gcd(e, a, b);
    CHECK(!gcd_modular_prepare(u, v, g, a, b), "sweep inputs are not trivial");
    size_t top = 0;
    CHECK(gcd_kary_nq(mpz_sizeinbase(u, 2), mpz_sizeinbase(v, 2), M->L, group, M->count, &top) ==
              GCD_OK,
          "sweep: gcd_kary_nq");
    unsigned ok = 0, short_ = 0, wrong = 0;
    for (size_t n = 1; n <= top; n++) {
        struct gcd_run run;
        struct gcd_kary_stats s = {0};
        mpz_set_si(g, -7);
        if (gcd_kary_attempt(g, u, v, M, n, group, &run, &s) == GCD_OK) {
            ok++;
            wrong += mpz_cmp(g, e) != 0;
            CHECK(mpz_cmp(g, e) == 0 && run.shortage == GCD_SHORT_NONE,
                  "sweep L=%u %s group %zu, %u bits, N_Q = %zu: wrong answer", M->L,
                  gcd_filter_name(M->filter), group, bits, n);
        } else {
            short_++;
            CHECK(run.status == GCD_SHORTAGE && run.shortage == GCD_SHORT_BOUND &&
                      mpz_cmp_si(g, -7) == 0,
                  "sweep L=%u group %zu, N_Q = %zu: shortage %d, g touched", M->L, group, n,
                  (int)run.shortage);
        }
    }
    CHECK(ok > 0 && short_ > 0 && wrong == 0,
          "sweep L=%u group %zu, %u bits: %u answers (%u wrong), %u shortages", M->L, group,
          bits, ok, wrong, short_);
    printf("sweep L=%u %s group %zu, %u bits with %u common: N_Q 1..%zu, %u answers, %u "
           "shortages\n",
           M->L, gcd_filter_name(M->filter), group, bits, common_bits, top, ok, short_);
    mpz_clears(a, b, u, v, g, e, NULL);
}

/* ---- retries, too large ---- */

static void check_retry(const struct gcd_moduli *M, size_t group, unsigned bits)
{
    struct twin_ctx c = {.M = M, .group = group};
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (size_t first = 1; first <= 8; first *= 2) {
        if (first == 4)
            continue;
        random_bits(a, bits);
        random_bits(b, bits - (unsigned)(rand64() % 16));
        c.first_nq = first;
        struct gcd_run run = check_kary(&c, a, b, "shortage then retry");
        CHECK(run.attempts > 1, "L=%u: %zu moduli for %u bits did not retry (%u attempts)", M->L,
              first, bits, run.attempts);
        printf("retry L=%u %s from %zu moduli: %u attempts, last with %zu moduli, %llu steps\n",
               M->L, gcd_filter_name(M->filter), first, run.attempts, run.n_q,
               (unsigned long long)run.steps);
    }
    mpz_clears(a, b, NULL);
}

static void check_too_large(const struct gcd_moduli *M)
{
    /* The first 8 moduli of M only (its prefix, as the twin takes it). */
    struct gcd_moduli few = {M->L, M->filter, 8, M->q};
    mpz_t a, b, g;
    mpz_inits(a, b, g, NULL);
    random_bits(a, 4096);
    random_bits(b, 4000);
    mpz_set_ui(g, 7);
    struct gcd_run run;
    struct gcd_kary_stats s = {0};
    gcd_kary(g, a, b, &few, 64, 0, &run, &s);
    CHECK(run.status == GCD_TOO_LARGE && run.attempts == 0 && mpz_cmp_ui(g, 7) == 0,
          "4096 bits with 8 moduli: status %d after %u attempts", (int)run.status, run.attempts);
    /* From 4 moduli, the retries run out of a set of 200 (about 600 needed). */
    struct gcd_moduli some = {M->L, M->filter, 200, M->q};
    mpz_set_ui(g, 7);
    gcd_kary(g, a, b, &some, 64, 4, &run, &s);
    CHECK(run.status == GCD_TOO_LARGE && run.attempts > 1 && run.shortages == run.attempts &&
              run.n_q == 200 && mpz_cmp_ui(g, 7) == 0,
          "4096 bits, retries within 200 moduli: status %d after %u attempts, %u shortages, last "
          "N_Q %zu",
          (int)run.status, run.attempts, run.shortages, run.n_q);
    /* A small pair fits the 8 moduli. */
    random_bits(a, 40);
    random_bits(b, 36);
    struct twin_ctx c = {.M = &few, .group = 64};
    check_kary(&c, a, b, "40 bits with 8 moduli");
    printf("too large: 4096 bits with 8 moduli and with 200 (%u attempts): GCD_TOO_LARGE\n",
           run.attempts);
    mpz_clears(a, b, g, NULL);
}

/* ---- gcd_kary_nq, gcd_kary_clean ---- */

static void check_nq(void)
{
    const unsigned Ls[] = {16, 20, 32};
    const size_t groups[] = {1, 32, 64, 256};
    for (unsigned i = 0; i < 600; i++) {
        const unsigned L = Ls[i % 3];
        const size_t group = groups[(i / 3) % 4];
        const uint64_t n_u = 1 + rand64() % (i % 2 ? 100000 : 3000);
        const uint64_t n_v = 1 + rand64() % n_u;
        const uint64_t need = (2 * (n_u + n_v) + L - 5) / (L - 4); /* ceil(sum / (L/2 - 2)) */
        size_t n_q = 0;
        enum gcd_status st = gcd_kary_nq(n_u, n_v, L, group, UINT64_MAX / 4, &n_q);
        CHECK(st == GCD_OK && n_q % group == 0 && (uint64_t)n_q >= need &&
                  (uint64_t)n_q <= need + (n_u + n_v) / (8 * (L - 1)) + 3 * group,
              "nq(%llu, %llu, L=%u, group %zu): status %d, %zu moduli, %llu needed",
              (unsigned long long)n_u, (unsigned long long)n_v, L, group, (int)st, n_q,
              (unsigned long long)need);
        /* clamped to what is available, as long as the pivots fit */
        if (st != GCD_OK || n_q < need)
            continue;
        const uint64_t avail = need + rand64() % (n_q - need + 1);
        st = gcd_kary_nq(n_u, n_v, L, group, avail, &n_q);
        CHECK(st == GCD_OK && n_q <= avail && (uint64_t)n_q >= need,
              "nq(%llu, %llu, L=%u) within %llu: status %d, %zu moduli", (unsigned long long)n_u,
              (unsigned long long)n_v, L, (unsigned long long)avail, (int)st, n_q);
        st = gcd_kary_nq(n_u, n_v, L, group, need - 1, &n_q);
        CHECK(st == GCD_TOO_LARGE, "nq(%llu, %llu, L=%u) within %llu: status %d",
              (unsigned long long)n_u, (unsigned long long)n_v, L,
              (unsigned long long)(need - 1), (int)st);
    }
    printf("gcd_kary_nq: 600 sizes\n");
}

static void check_clean(void)
{
    mpz_t g, u1, v1, s, u, v, h, r, c;
    mpz_inits(g, u1, v1, s, u, v, h, r, c, NULL);
    uint64_t spurious = 0;
    for (unsigned i = 0; i < 400; i++) {
        random_bits(g, 1 + (unsigned)(rand64() % 600));
        do {
            random_bits(u1, 1 + (unsigned)(rand64() % 800));
            random_bits(v1, 1 + (unsigned)(rand64() % 800));
            mpz_gcd(c, u1, v1);
        } while (mpz_cmp_ui(c, 1) != 0);
        /* spurious: none, a product of small factors, or one random number */
        mpz_set_ui(s, 1);
        const unsigned kind = i % 3;
        if (kind == 1)
            for (unsigned k = (unsigned)(rand64() % 6); k > 0; k--)
                mpz_mul_ui(s, s, 2 + rand64() % 1000);
        else if (kind == 2)
            random_bits(s, 1 + (unsigned)(rand64() % 64));
        /* sometimes with a factor of U/g as well: gcd(s, u1, v1) = 1 whatever s is */
        if (rand64() % 3 == 0)
            mpz_mul(s, s, u1);
        mpz_mul(u, g, u1);
        mpz_mul(v, g, v1);
        mpz_mul(h, g, s);
        if (rand64() % 4 == 0)
            mpz_neg(h, h);
        const uint64_t bits = gcd_kary_clean(r, h, u, v);
        const uint64_t want = mpz_sizeinbase(h, 2) - mpz_sizeinbase(g, 2);
        CHECK(mpz_cmp(r, g) == 0 && bits == want,
              "clean: g of %zu bits, spurious factor of %zu bits: %s, %llu bits removed, "
              "expected %llu",
              mpz_sizeinbase(g, 2), mpz_sizeinbase(s, 2), mpz_cmp(r, g) ? "wrong" : "right",
              (unsigned long long)bits, (unsigned long long)want);
        spurious += bits;
    }
    printf("gcd_kary_clean: 400 cases, %llu spurious bits removed\n",
           (unsigned long long)spurious);
    mpz_clears(g, u1, v1, s, u, v, h, r, c, NULL);
}

int main(void)
{
    seed = test_seed();
    rng = seed;
    gmp_randinit_default(gmp_rng);
    gmp_randseed_ui(gmp_rng, (unsigned long)seed);
    const double t_start = test_seconds();

    struct gcd_moduli cheap32_whole, all16, cheap16;
    double t0 = test_seconds();
    CHECK(gcd_moduli_build(&cheap32_whole, 32, GCD_FILTER_CHEAP) == 0, "build L=32 cheap");
    CHECK(gcd_moduli_build(&all16, 16, GCD_FILTER_ALL) == 0, "build L=16");
    CHECK(gcd_moduli_build(&cheap16, 16, GCD_FILTER_CHEAP) == 0, "build L=16 cheap");
    /* The twin takes a prefix of the set, the largest moduli first; 8192 of them (the L = 32
     * runs below need 1408 at most) are its whole set here, so that a broken twin's retries
     * end soon (each attempt costs N_Q^2 steps) instead of going on towards 68 million. */
    const struct gcd_moduli cheap32 = {32, GCD_FILTER_CHEAP, 8192, cheap32_whole.q};
    printf("moduli: L=32 cheap %llu (the first %llu used), L=16 %llu, L=16 cheap %llu (%.1f s)\n",
           (unsigned long long)cheap32_whole.count, (unsigned long long)cheap32.count,
           (unsigned long long)all16.count, (unsigned long long)cheap16.count, test_seconds() - t0);

    /* 1. the lattice step */
    check_lattice(&cheap32_whole, 3000);
    check_lattice(&all16, 1500);
    check_lattice(&cheap16, 500);
    printf("lattice decisions: %u pairs, %u replace A, %u replace B, %u common\n",
           lattice_kinds[GCD_KARY_PAIR], lattice_kinds[GCD_KARY_REPLACE_A],
           lattice_kinds[GCD_KARY_REPLACE_B], lattice_kinds[GCD_KARY_COMMON]);
    CHECK(lattice_kinds[GCD_KARY_PAIR] && lattice_kinds[GCD_KARY_REPLACE_A] &&
              lattice_kinds[GCD_KARY_REPLACE_B] && lattice_kinds[GCD_KARY_COMMON],
          "every kind of decision must occur");

    /* 2, 3. the twin against mpz_gcd */
    const unsigned n32[] = {256, 2048, 8192}, n2048[] = {2048}, n16[] = {256, 1024};
    check_twin(&cheap32, 64, n32, 3, 16);
    check_twin(&cheap32, 32, n2048, 1, 12);
    check_twin(&cheap32, 256, n2048, 1, 12);
    check_twin(&cheap32, 1, n16, 2, 4); /* one pivot a step: REPLACE and COMMON only */
    check_twin(&all16, 64, n16, 2, 12);
    check_twin(&all16, 32, n16, 2, 12);
    check_twin(&cheap16, 32, n16, 2, 12);
    CHECK(all_stats.commons > 0 && all_stats.checks > 0,
          "over %u runs: %llu COMMON steps, %llu zero checks; both must occur", twin_runs,
          (unsigned long long)all_stats.commons, (unsigned long long)all_stats.checks);

    /* never a wrong answer, whatever N_Q */
    check_sweep(&cheap32, 64, 512, 1);
    check_sweep(&cheap32, 32, 1500, 600);
    check_sweep(&cheap32, 1, 300, 100);
    check_sweep(&all16, 64, 400, 30);
    check_sweep(&cheap16, 32, 256, 1);

    /* 4, 5. retries, too large */
    check_retry(&cheap32, 64, 2048);
    check_retry(&all16, 64, 512);
    check_too_large(&cheap32);

    /* 6, 7. */
    check_nq();
    check_clean();

    printf("%u twin runs; %.1f s in all\n", twin_runs, test_seconds() - t_start);
    gcd_moduli_free(&cheap32_whole);
    gcd_moduli_free(&all16);
    gcd_moduli_free(&cheap16);
    gmp_randclear(gmp_rng);
    return test_finish("test_gcd_kary_cpu");
}
