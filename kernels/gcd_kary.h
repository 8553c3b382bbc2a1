/* Beyond 002: the k-ary reduction of the modular GCD (Sorenson's k-ary GCD, with k a prime of the
 * residue system), the scalar decisions that the CPU twin (gcd_kary_ref.c) and the GPU's producer
 * warp (kernels/gcd_kary.cu) share, so that both take the same pivots, vectors and bounds.
 *
 * Why. A reduction step of Fig. 2 needs t = u/v mod q for *every* modulus q, to find the global
 * minimum |t|: one modular inverse per modulus and step, and a grid barrier per step. Here a
 * step takes the next modulus p in a fixed order as pivot and finds, from p's residues alone,
 * small (x, y) with p | yA - xB (a short vector of the lattice x = y t mod p, t = a/b mod p, by
 * a half-extended Euclid: Thue's lemma gives |x|, |y| <= sqrt(p)); then W = (yA - xB)/p is about
 * sqrt(p) times smaller than the pair. One inverse per step, in one thread; every other modulus
 * only forms yA - xB, with no inverse. Two pivots a step replace both numbers, A' = (y1 A -
 * x1 B)/p1 and B' = (y2 A - x2 B)/p2, which halves the steps for the same latency.
 *
 * Scale. Dividing by p mod q would cost an inverse per modulus again. So the residues are kept
 * of S A and S B, S the product of the pivots consumed so far: a' = (y1 a - x1 b) p2 is S' A'
 * with S' = S p1 p2, and both numbers share the scale, so t = a/b is A/B. S mod q is tracked,
 * and divided out once at the end.
 *
 * Spurious factors. gcd(A', B') is a multiple of gcd(A, B) (the pivots do not divide it: a
 * pivot with a = b = 0 divides both and is taken out apart, as a common factor), but may hold
 * factors of y (one-pivot step) or of x1 y2 - x2 y1 (two pivots) besides. The host removes them
 * at the end: gcd(A, B) = gcd(H, U mod H, V mod H) for the result H, two divisions by a number
 * that is small unless the GCD itself is large.
 *
 * Bounds. |A| < 2^alpha, |B| < 2^beta are tracked as in gcd_modular_ref.h: |yA - xB| / p <
 * 2^(max(alpha + bits(y), beta + bits(x)) + 1 - (L - 1)). The loop ends when a zero check finds
 * one number 0 (every live residue 0); that proves it only while its bound fits the product P of
 * the moduli left (> 2^(left (L - 1))), and the other number is read back exactly only while
 * below P/2; else the attempt falls short and is retried with more moduli. */
#ifndef MPGPU_GCD_KARY_H
#define MPGPU_GCD_KARY_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GCD_HD __host__ __device__ __forceinline__
#else
#define GCD_HD static inline
#endif

/* What a step does; the log entry that the producer posts and every modulus applies. */
enum gcd_kary_kind {
    GCD_KARY_PAIR = 0,     /* two pivots: A' = (y1 A - x1 B)/p1, B' = (y2 A - x2 B)/p2 */
    GCD_KARY_REPLACE_A = 1, /* one pivot: A' = (y A - x B)/p, B' = B */
    GCD_KARY_REPLACE_B = 2, /* one pivot: A' = A, B' = (y A - x B)/p */
    GCD_KARY_COMMON = 3,   /* p divides A and B: A' = A/p, B' = B/p, p a factor of the GCD */
    GCD_KARY_CHECK = 4,    /* every modulus reports whether its a, b are 0; consumes nothing */
    GCD_KARY_DONE_A = 5,   /* B = 0: the GCD (up to spurious factors) is |A| */
    GCD_KARY_DONE_B = 6,   /* A = 0: it is |B| */
    GCD_KARY_SHORT = 7,    /* the moduli left cannot hold the bounds: retry with more */
};

/* A log entry: the kind, the vectors, and the bounds after the step (the producer's role moves
 * from warp to warp on the GPU, and the next producer takes the bounds from here). */
struct gcd_kary_step {
    int32_t kind;
    int32_t pivots;  /* moduli consumed: 2 for PAIR, 1 for REPLACE and COMMON, else 0 */
    int64_t x1, y1, x2, y2;
    int64_t alpha, beta;
};

/* A pivot's residues (of S A and S B), its vector (x, y) != 0 with p | yA - xB and the bound of
 * (yA - xB)/p in bits, from gcd_kary_pivot_vector (on the GPU each pivot's lane finds its own,
 * at once). */
struct gcd_kary_pivot {
    uint32_t p, a, b;
    int64_t x, y;
    int64_t bound;
};

GCD_HD int64_t gcd_kary_bits(int64_t x)
{
    const uint64_t m = (uint64_t)(x < 0 ? -x : x);
#ifdef __CUDA_ARCH__
    return 64 - __clzll((long long)m);
#else
    return m ? 64 - __builtin_clzll(m) : 0;
#endif
}

/* Bits of the half-Euclid's stop: x is the first remainder below 2^tb. Balanced pairs take tb =
 * L/2 (|x|, |y| about sqrt(p)); for A larger than B by e bits, y (the multiplier of A) should be
 * smaller by as much: |y| 2^alpha = |x| 2^beta with |x| |y| = p gives |x| = sqrt(p 2^e). */
GCD_HD int64_t gcd_kary_stop_bits(int64_t alpha, int64_t beta, unsigned L)
{
    int64_t e = alpha - beta, tb = ((int64_t)L + e + 1) / 2;
    if ((int64_t)L + e < 0)
        tb = ((int64_t)L + e) / 2; /* ceil of a negative half */
    return tb < 1 ? 1 : tb > (int64_t)L ? (int64_t)L : tb;
}

/* The short vector (x, y) != 0 with x = y t mod p: the half-extended Euclid of (p, t), with
 * remainders r_i = c_i t mod p, stopped at the first r_i below 2^tb (i >= 1). When that is t
 * itself (y = 1), x is taken symmetric, |x| <= p/2. The quotients are exact: the GPU and the twin
 * take the same vectors. */
GCD_HD void gcd_kary_vector(uint32_t p, uint32_t t, int64_t tb, int64_t *x, int64_t *y)
{
    const uint64_t stop = (uint64_t)1 << tb;
    if (t < stop) {
        *x = t > p / 2 ? (int64_t)t - p : (int64_t)t;
        *y = 1;
        return;
    }
    uint32_t r0 = p, r1 = t;
#ifdef __CUDA_ARCH__
    /* On the GPU this loop is on the critical path of every step, where an integer division is
     * a long dependent chain. While tb >= 12 every divisor is at least 2^12, so every quotient
     * k is below 2^20, and k' = trunc(r0 (1 - 2^-21) / r1) in float is k or k - 1: the
     * conversions, the reciprocal (rcp.approx, 1 ulp) and the two products err by less than
     * 0.75 2^-21 together, which the factor outweighs from above, and k 1.75 2^-21 < 1 from
     * below. So r0 - k' r1 is in [0, r0], exact in 32 bits, and one conditional subtraction
     * ends the step: seven dependent instructions, and no branch to part the pivots' lanes.
     * The cofactors are below p / 2^12 in magnitude and fit 32 bits. Smaller tb (a pair
     * unbalanced by more than about 8 bits, rare) divides. */
    if (tb >= 12) {
        const float shrink = 1.0f - 0x1p-21f;
        const uint32_t last = (uint32_t)(stop - 1); /* a 32-bit test: tb <= 32 */
        float f0 = __uint2float_rn(r0) * shrink;
        int32_t c0 = 0, c1 = 1;
        while (r1 > last) {
            const float f1 = __uint2float_rn(r1);
            float inv;
            asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(inv) : "f"(f1));
            /* -k' straight from the float, so that r0 - k' r1 is one multiply-add; the
             * corrected remainder is formed beside the comparison */
            const int32_t minus_k = __float2int_rz(-(f0 * inv));
            const uint32_t r = r0 + (uint32_t)minus_k * r1, r_less = r - r1;
            const bool over = r >= r1;
            const int32_t k = over ? 1 - minus_k : -minus_k;
            const int32_t c = c0 - k * c1;
            r0 = r1;
            r1 = over ? r_less : r;
            f0 = f1 * shrink;
            c0 = c1;
            c1 = c;
        }
        *x = (int64_t)r1;
        *y = c1;
        return;
    }
#endif
    int64_t c0 = 0, c1 = 1;
    while (r1 >= stop) {
        const uint32_t k = r0 / r1, r = r0 - k * r1;
        const int64_t c = c0 - (int64_t)k * c1;
        r0 = r1;
        r1 = r;
        c0 = c1;
        c1 = c;
    }
    *x = (int64_t)r1;
    *y = c1;
}

/* The bound of (y A - x B) / p in bits, at least 0 (W = 0 when it is 0). */
GCD_HD int64_t gcd_kary_bound(int64_t x, int64_t y, int64_t alpha, int64_t beta, unsigned L)
{
    const int64_t ta = y ? alpha + gcd_kary_bits(y) : -1, tb = x ? beta + gcd_kary_bits(x) : -1;
    const int64_t top = (ta > tb ? ta : tb) + (x && y ? 1 : 0) - ((int64_t)L - 1);
    return top > 0 ? top : 0;
}

/* The pivot's vector from t = a/b mod p (any value when b = 0), found with stop bits from
 * gcd_kary_stop_bits(alpha, beta, L): the half-Euclid's when b != 0, else (1, 0), as p | B
 * (a != 0: W = -B/p); and its bound, which the decision reads (on the GPU the pivots' lanes
 * find both bounds at once, off the decision's chain). */
GCD_HD void gcd_kary_pivot_vector(struct gcd_kary_pivot *pv, uint32_t t, int64_t alpha,
                                  int64_t beta, unsigned L)
{
    pv->x = 1;
    pv->y = 0;
    if (pv->b != 0)
        gcd_kary_vector(pv->p, t, gcd_kary_stop_bits(alpha, beta, L), &pv->x, &pv->y);
    pv->bound = gcd_kary_bound(pv->x, pv->y, alpha, beta, L);
}

/* The bounds after step st (of kind PAIR, REPLACE_A, REPLACE_B or COMMON) from those before:
 * the producer fills them into the step, a consumer that reads a packed log entry recomputes
 * them. */
GCD_HD void gcd_kary_advance(const struct gcd_kary_step *st, int64_t *alpha, int64_t *beta,
                             unsigned L)
{
    const int64_t a = *alpha, b = *beta;
    switch (st->kind) {
    case GCD_KARY_PAIR:
        *alpha = gcd_kary_bound(st->x1, st->y1, a, b, L);
        *beta = gcd_kary_bound(st->x2, st->y2, a, b, L);
        break;
    case GCD_KARY_REPLACE_A:
        *alpha = gcd_kary_bound(st->x1, st->y1, a, b, L);
        break;
    case GCD_KARY_REPLACE_B:
        *beta = gcd_kary_bound(st->x1, st->y1, a, b, L);
        break;
    case GCD_KARY_COMMON:
        *alpha = a > (int64_t)L - 1 ? a - ((int64_t)L - 1) : 0;
        *beta = b > (int64_t)L - 1 ? b - ((int64_t)L - 1) : 0;
        break;
    default:
        break;
    }
}

/* The step for the next pivot p1, and p2 when `two` (the next modulus is on the same warp), their
 * vectors and bounds found by gcd_kary_pivot_vector for these alpha, beta and L. With checked =
 * false, a pair whose pivots see b = 0 (or a = 0) asks for a zero check first; after one that
 * found both numbers nonzero, checked = true. `left` is the moduli not yet consumed. The caller
 * acts on CHECK; everything else is final, SHORT included. */
GCD_HD void gcd_kary_decide(struct gcd_kary_step *st, const struct gcd_kary_pivot *p1,
                            const struct gcd_kary_pivot *p2, bool two, int64_t alpha, int64_t beta,
                            unsigned L, int64_t left, bool checked)
{
    st->kind = GCD_KARY_CHECK;
    st->pivots = 0;
    st->x1 = st->y1 = st->x2 = st->y2 = 0;
    st->alpha = alpha;
    st->beta = beta;
    if (!checked && ((p1->b == 0 && (!two || p2->b == 0)) || (p1->a == 0 && (!two || p2->a == 0))))
        return;
    if (p1->a == 0 && p1->b == 0) {
        st->kind = GCD_KARY_COMMON;
        st->pivots = 1;
    } else {
        const int64_t x1 = p1->x, y1 = p1->y, x2 = p2->x, y2 = p2->y;
        const bool pair_ok = two && (p2->a != 0 || p2->b != 0);
        const int64_t e = alpha - beta;
        st->x1 = x1;
        st->y1 = y1;
        if (pair_ok && e < (int64_t)L - 2 && -e < (int64_t)L - 2 && x1 * y2 - x2 * y1 != 0) {
            st->kind = GCD_KARY_PAIR;
            st->pivots = 2;
            st->x2 = x2;
            st->y2 = y2;
        } else {
            /* Replace the larger number, unless its multiplier is 0 (then W would lose it). */
            st->kind = y1 != 0 && (x1 == 0 || alpha >= beta) ? GCD_KARY_REPLACE_A
                                                              : GCD_KARY_REPLACE_B;
            st->pivots = 1;
        }
    }
    if (st->kind == GCD_KARY_COMMON) {
        gcd_kary_advance(st, &st->alpha, &st->beta, L);
    } else if (st->kind == GCD_KARY_PAIR) {
        st->alpha = p1->bound; /* gcd_kary_advance's, from the pivots */
        st->beta = p2->bound;
    } else if (st->kind == GCD_KARY_REPLACE_A) {
        st->alpha = p1->bound;
    } else {
        st->beta = p1->bound;
    }
    /* The gap between the capacity and the larger bound never grows, so a pair that outgrows
     * the moduli left now cannot be read back later. */
    const int64_t cap = (left - st->pivots) * ((int64_t)L - 1);
    if (st->alpha > cap || st->beta > cap) {
        st->kind = GCD_KARY_SHORT;
        st->pivots = 0;
        st->alpha = alpha;
        st->beta = beta;
    }
}

/* After a zero check that found A = 0 (any_a false) or B = 0: the final entry, DONE_A / DONE_B
 * when the bounds prove it, SHORT when they do not. */
GCD_HD void gcd_kary_finish(struct gcd_kary_step *st, bool any_a, int64_t alpha, int64_t beta,
                            unsigned L, int64_t left)
{
    const int64_t cap = left * ((int64_t)L - 1);
    const int64_t zero_bound = any_a ? beta : alpha, result_bound = any_a ? alpha : beta;
    st->kind = zero_bound <= cap && result_bound <= cap - 1
                   ? (any_a ? GCD_KARY_DONE_A : GCD_KARY_DONE_B)
                   : GCD_KARY_SHORT;
    st->pivots = 0;
    st->x1 = st->y1 = st->x2 = st->y2 = 0;
    st->alpha = alpha;
    st->beta = beta;
}

#endif
