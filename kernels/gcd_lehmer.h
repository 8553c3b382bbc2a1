/* Beyond 002: Lehmer's GCD on the numbers themselves, in one thread block, the decisions and
 * the word arithmetic that the CPU twin (gcd_lehmer_ref.c) and the kernel (kernels/gcd_lehmer.cu)
 * share, so that both take the same steps.
 *
 * Why. A step of the modular methods (002's Fig. 2, and the k-ary method of gcd_kary.h) takes
 * about 15 bits off each number for one inverse and one half-Euclid on 32-bit residues, and
 * that dependent chain, not the arithmetic over the moduli, bounds them (docs/002-gcd.md, issue
 * 10). A Lehmer step reads the top 62 bits of both numbers, runs Euclid on them alone as far as it
 * provably agrees with Euclid on the whole numbers, and applies the resulting 2 x 2 matrix of
 * 32-bit cofactors to every word: about 30 bits off each number for one chain of about 16
 * quotients (Knuth, TAOCP vol. 2, 4.5.2, Algorithm L, with a double-digit start as in
 * Jebelean's "Improving the multiprecision Euclidean algorithm", 1993).
 *
 * The matrix. Let h = la - 62 (la, lb the bit lengths, la >= lb), a0 = floor(A / 2^h),
 * b0 = floor(B / 2^h), so A = 2^h a0 + ra and B = 2^h b0 + rb with 0 <= ra, rb < 2^h. Euclid on
 * (a0, b0) gives remainders r_i = (-1)^i (u_i a0 - v_i b0) with cofactors u_i, v_i >= 0, and
 * the same combination of the whole numbers is R_i = (-1)^i (u_i A - v_i B) = 2^h r_i +
 * (-1)^i (u_i ra - v_i rb) > 2^h (r_i - max(u_i, v_i)). So R_i >= 0 while r_i >= max(u_i,
 * v_i); the step takes the last pair (R_(k-1), R_k) for which that holds. The matrix has
 * determinant +-1, so gcd(R_(k-1), R_k) = gcd(A, B) whatever the truncation did; and since
 * v_k r_(k-1) <= a0 < 2^62 and r_k >= v_k >= u_k, every cofactor is below 2^31: one 32-bit
 * word, a 32 x 32-bit product a word below 2^63, so that a word of the new numbers and the
 * carry it hands on are one signed 64-bit sum (gcd_lehmer_pair_words).
 *
 * When that is not possible. B much shorter than A (la - lb >= 32): A' = A - q (B << s) with
 * q < 2^32 from the top bits, which cannot go below 0. No safe Euclid step at all (the top
 * bits equal, or a remainder within a few units of 0): A' = |A - q B| with q = a0 / b0, which
 * is below A. Both keep B. Both numbers below 2^64: the producer ends with Euclid on them.
 *
 * Words. 32-bit words, least significant first. A thread of the block owns a chunk of K >= 2
 * consecutive words and combines its words with a carry worth at most 2^32 + 1 (phase 1);
 * chunk t then adds the carry chunk t - 1 left (phase 2). A carry that size added to K >= 2
 * words leaves at most one unit over, and only when the chunk's words are all ones or all
 * zeros; such a unit ripples on in further rounds (rare with the odd chunks of 3 or more words
 * that gcd_lehmer_shape picks, common with 2; the cpu and gpu suites force it). */
#ifndef MPGPU_GCD_LEHMER_H
#define MPGPU_GCD_LEHMER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GCD_LEHMER_HD __host__ __device__ __forceinline__
#else
#define GCD_LEHMER_HD static inline
#endif

/* Words a chunk holds at least, so that a carry worth up to 2^32 + 1 leaves at most one unit
 * past it. */
#define GCD_LEHMER_MIN_CHUNK 2u

/* The most threads of the kernel's block that own chunks: 24 of its 32 warps (one holds the
 * producer, and the workers leave its scheduler's seven others out; gcd_lehmer_kernel.h). */
#define GCD_LEHMER_MAX_THREADS 768u

/* What a reduction did (the kernel and the twin, cpu_ref/gcd_lehmer_ref.h, report the same). */
struct gcd_lehmer_stats {
    uint64_t steps;                 /* steps before DONE */
    uint64_t pairs, shifts, ones;   /* steps by kind */
    uint64_t quotients;             /* Euclid quotients the PAIR steps took */
    uint64_t negations;             /* ONE steps whose A - q B was negative */
    uint64_t ripple_rounds;         /* rounds of phase 2's one-unit carries */
    uint64_t ahead;                 /* steps planned ahead (gcd_lehmer_plan_ahead) */
};

#ifndef __CUDACC__
/* The block's shape for U of `words` words (one word of headroom above it): chunks of an odd
 * *chunk >= GCD_LEHMER_MIN_CHUNK words, *threads of them (a multiple of 32, at most
 * GCD_LEHMER_MAX_THREADS), *cap = chunk x threads words an array (kernels/gcd_lehmer_device.c,
 * which sizes the kernel's launches with it; the twin takes the same). */
void gcd_lehmer_shape(uint32_t words, uint32_t *chunk, uint32_t *threads, uint32_t *cap);
#endif

enum gcd_lehmer_kind {
    GCD_LEHMER_PAIR = 0,  /* A' = R_(k-1), B' = R_k of the cofactor matrix */
    GCD_LEHMER_SHIFT = 1, /* A' = A - q (B << shift), B' = B */
    GCD_LEHMER_ONE = 2,   /* A' = |A - q B|, B' = B */
    GCD_LEHMER_DONE = 3,  /* B = 0, or both below 2^64 (the GCD is `small`) */
    GCD_LEHMER_EXACT = 4, /* not planned ahead (gcd_lehmer_plan_ahead): plan from the numbers */
};

/* Planned ahead, a row is taken while r_i >= 3 max(u_i, v_i) (gcd_lehmer_plan_ahead). */
#define GCD_LEHMER_AHEAD_MARGIN 3u

/* A step. Each new number is m_pos X - m_neg Y, X and Y the two old numbers: for A',
 * ua A - va B when odd_a is 0 and va B - ua A when it is 1; B' likewise with ub, vb, odd_b.
 * SHIFT and ONE are ua = 1, va = q, odd_a = 0 (B shifted left by `shift` bits for SHIFT). */
struct gcd_lehmer_step {
    int32_t kind;
    uint32_t shift;
    uint32_t ua, va, ub, vb;
    uint32_t odd_a, odd_b;
    uint32_t quotients;  /* Euclid quotients the step took (PAIR: k - 1) */
    uint64_t small;      /* DONE with both below 2^64: the GCD */
};

GCD_LEHMER_HD unsigned gcd_lehmer_bits32(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return 32u - (unsigned)__clz(x);
#else
    return x ? 32u - (unsigned)__builtin_clz(x) : 0u;
#endif
}

GCD_LEHMER_HD unsigned gcd_lehmer_bits64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return 64u - (unsigned)__clzll((long long)x);
#else
    return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
#endif
}

/* floor(X / 2^s) mod 2^64 from X's words x[0..n): three words and a funnel shift. */
GCD_LEHMER_HD uint64_t gcd_lehmer_window(const uint32_t *x, uint32_t n, uint64_t s)
{
    const uint32_t w = (uint32_t)(s / 32), sh = (uint32_t)(s % 32);
    const uint64_t w0 = w < n ? x[w] : 0, w1 = w + 1 < n ? x[w + 1] : 0,
                   w2 = w + 2 < n ? x[w + 2] : 0;
    const uint64_t lo = w0 | w1 << 32;
    return sh ? lo >> sh | w2 << (64 - sh) : lo;
}

#ifdef __CUDA_ARCH__
/* A float estimate of floor(a / b), b > 0, a < 2^63, that never exceeds it: a rounded down, b
 * up, rcp.approx within 1 ulp, two rounded products, then shrunk by 1 - 2^-20, so est <= a/b
 * and est > (a/b)(1 - 2^-19) - 1, within 1 of the quotient below 2^19. One asm block, written
 * before the subtractions that find quotients 1 and 2, so that the compiler may issue it beside
 * them: 180 cycles a quotient against 188 when it did (gcd_lehmer_row; an uncommitted variant of
 * experiments/gcd_lehmer_euclid.cu on the H200, random 62-bit tops, margin 3, the same rows).
 * With the code of a2900b1, ptxas (CUDA 13.0) places the conversions after those two branches,
 * in the kernel and in the probe alike (cuobjdump -sass). */
__device__ __forceinline__ uint64_t gcd_lehmer_estimate(uint64_t a, uint64_t b)
{
    uint64_t e;
    asm volatile("{\n\t.reg .f32 fa, fb;\n\t"
                 "cvt.rp.f32.u64 fb, %2;\n\t"
                 "rcp.approx.ftz.f32 fb, fb;\n\t"
                 "mul.rz.f32 fb, fb, 0f3F7FFFF0;\n\t"
                 "cvt.rz.f32.u64 fa, %1;\n\t"
                 "mul.rz.f32 fa, fa, fb;\n\t"
                 "cvt.rzi.u64.f32 %0, fa;\n\t}"
                 : "=l"(e)
                 : "l"(a), "l"(b));
    return e;
}

/* floor(a / b) and a mod b for a >= 3b from the estimate e of gcd_lehmer_estimate: one
 * subtraction for the usual estimate a unit short, new estimates for the largest quotients. */
__device__ __forceinline__ uint64_t gcd_lehmer_finish(uint64_t a, uint64_t b, uint64_t e,
                                                      uint64_t *rem)
{
    uint64_t q = e > 2 ? e : 2, r = a - q * b;
    if (r >= b) {
        r -= b;
        q++;
        while (r >= b) {
            uint64_t f = gcd_lehmer_estimate(r, b);
            f = f ? f : 1;
            q += f;
            r -= f * b;
        }
    }
    *rem = r;
    return q;
}
#endif

/* floor(a / b) for a >= b > 0, a < 2^63, with a mod b in *rem. On the GPU: quotients 1 and 2
 * by subtraction (59 % of Euclid's quotients, by the Gauss-Kuzmin law), the rest from the float
 * estimate (gcd_lehmer_finish), as gcd_lehmer_row finds them; the gpu
 * suite checks these quotients of every size against the host's division. On the host: the
 * division. */
GCD_LEHMER_HD uint64_t gcd_lehmer_divide(uint64_t a, uint64_t b, uint64_t *rem)
{
#ifdef __CUDA_ARCH__
    const uint64_t e = gcd_lehmer_estimate(a, b);
    uint64_t r = a - b;
    if (r < b) {
        *rem = r;
        return 1;
    }
    r -= b;
    if (r < b) {
        *rem = r;
        return 2;
    }
    return gcd_lehmer_finish(a, b, e, rem);
#else
    *rem = a % b;
    return a / b;
#endif
}

/* Euclid's next row from rows i - 1 and i: r2 = r0 mod r1 and the cofactors u2 = u0 + q u1,
 * w2 = w0 + q w1 of q = floor(r0 / r1), r0 >= r1 > 0; false when q >= 2^32. w is margin x v
 * (gcd_lehmer_cofactors), kept in place of v so that the test r2 >= w2 waits for no
 * multiplication. On the GPU the rows of quotients 1 and 2 come from the subtractions
 * themselves, for the same reason: 188 cycles a quotient against 209 with v2 = v0 + q v1 after
 * the quotient, in the same probe. */
GCD_LEHMER_HD bool gcd_lehmer_row(uint64_t r0, uint64_t r1, uint32_t u0, uint64_t w0, uint32_t u1,
                                  uint64_t w1, uint64_t *r2, uint32_t *u2, uint64_t *w2)
{
#ifdef __CUDA_ARCH__
    const uint64_t e = gcd_lehmer_estimate(r0, r1);
    uint64_t r = r0 - r1, w = w0 + w1;
    uint32_t u = u0 + u1;
    if (r >= r1) {
        r -= r1;
        w += w1;
        u += u1;
        if (r >= r1) {
            const uint64_t q = gcd_lehmer_finish(r0, r1, e, &r);
            if (q >> 32)
                return false;
            w = w0 + q * w1;
            u = u0 + (uint32_t)q * u1;
        }
    }
    *r2 = r;
    *u2 = u;
    *w2 = w;
    return true;
#else
    const uint64_t q = r0 / r1;
    if (q >> 32)
        return false;
    *r2 = r0 % r1;
    *u2 = u0 + (uint32_t)q * u1;
    *w2 = w0 + q * w1;
    return true;
#endif
}

/* Row i + 1 of Euclid from rows i - 1 (r0, u0, w0) and i (r1, u1, w1), written over row i - 1:
 * true when it is taken, r2 >= w2 (gcd_lehmer_cofactors). */
GCD_LEHMER_HD bool gcd_lehmer_next_row(uint64_t *r0, uint64_t r1, uint32_t *u0, uint32_t u1,
                                       uint64_t *w0, uint64_t w1)
{
    uint64_t r2, w2;
    uint32_t u2;
    if (!gcd_lehmer_row(*r0, r1, *u0, *w0, u1, w1, &r2, &u2, &w2) || r2 < w2)
        return false;
    *r0 = r2;
    *u0 = u2;
    *w0 = w2;
    return true;
}

/* Euclid on (a0, b0), a0 >= b0 >= 1, a0 < 2^63, as far as every remainder r_i stays at least
 * margin x max(u_i, v_i) (an odd margin; 1: the file's comment; GCD_LEHMER_AHEAD_MARGIN: planned
 * ahead): fills the cofactors of rows k - 1 and k and returns k (1: not one quotient was safe). */
GCD_LEHMER_HD unsigned gcd_lehmer_cofactors(uint64_t a0, uint64_t b0, uint32_t margin,
                                            struct gcd_lehmer_step *st)
{
    /* v_i >= u_i from row 1 on, so max(u_i, v_i) is v_i (v_2 = q_1 >= u_2 = 1; then both grow
     * by the same quotients from v_1 >= u_1). The rows carry w_i = margin x v_i, which follows
     * the same recurrence. A quotient of 2^32 or more would fail the test: it needs r2 >= w2 >=
     * q, so r1 > 2^32 and q r1 > 2^64 > r0. Below that, u1 <= v1 < 2^32 (the cofactors of an
     * accepted row), so each u product is one 32 x 32-bit multiply-add, and q w1 <= q r1 <= r0
     * (w1 <= r1 for a row taken; q w1 < 3 q for row 1) cannot overflow. Two rows a turn, each
     * written over the row before the last, so that no register is moved from one row to the
     * next: 203 cycles a quotient on one GPU thread against 218 with the rows moved down (an
     * uncommitted Euclid probe on the H200, random 62-bit tops, margin 3, the same rows). */
    uint64_t r0 = a0, r1 = b0, w0 = 0, w1 = margin;
    uint32_t u0 = 1, u1 = 0;
    unsigned k = 1;
    for (;;) {
        if (!gcd_lehmer_next_row(&r0, r1, &u0, u1, &w0, w1))
            break;
        k++;
        if (!gcd_lehmer_next_row(&r1, r0, &u1, u0, &w1, w0))
            break;
        k++;
    }
    /* Rows of even index are written over row 0, odd ones over row 1: row k is in (u0, w0)
     * when k is even, in (u1, w1) when it is odd. v = w / margin exactly and v < 2^32, so v is
     * the low word of w times the inverse of the (odd) margin mod 2^32, one multiplication where
     * a 64-bit division by a constant took a chain of them at the end of the producer's plan:
     * 10 pairs took 11.29, 91.5 and 346.4 ms at 16, 128 and 352 Kibit against 11.50, 92.8 and
     * 348.0 (one run, H200). Newton's iteration doubles the correct low bits of the inverse
     * (three to start with, as m m = 1 mod 8 for odd m). */
    uint32_t inverse = margin;
    for (int i = 0; i < 4; i++)
        inverse *= 2 - margin * inverse;
    const bool even = !(k & 1);
    st->ua = even ? u1 : u0;
    st->va = (uint32_t)(even ? w1 : w0) * inverse;
    st->ub = even ? u0 : u1;
    st->vb = (uint32_t)(even ? w0 : w1) * inverse;
    st->odd_a = (k - 1) & 1;
    st->odd_b = k & 1;
    st->quotients = k - 1;
    return k;
}

GCD_LEHMER_HD uint64_t gcd_lehmer_gcd64(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    /* Binary GCD on the GPU: no 64-bit division (gcd_lehmer_quotient64 says why). */
    if (!a || !b)
        return a | b;
    const unsigned s = (unsigned)__ffsll((long long)(a | b)) - 1;
    a >>= __ffsll((long long)a) - 1;
    do {
        b >>= __ffsll((long long)b) - 1;
        if (a > b) {
            const uint64_t t = a;
            a = b;
            b = t;
        }
        b -= a;
    } while (b);
    return a << s;
#else
    while (b) {
        const uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
#endif
}

/* floor(a / b) for a >= b > 0, a < 2^63. On the GPU through gcd_lehmer_divide, not the `/`
 * operator: a 64-bit division is a call to a CUDA runtime subroutine, and with a call on the
 * producer's path ptxas wraps every branch of the producer's Euclid in convergence barriers
 * (BSSY/BSYNC): 191 against 164 cycles a quotient (experiments/gcd_lehmer_euclid.cu,
 * results/gcd_lehmer_euclid_8ae0b73.txt, H200). */
GCD_LEHMER_HD uint64_t gcd_lehmer_quotient64(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    uint64_t r;
    return gcd_lehmer_divide(a, b, &r);
#else
    return a / b;
#endif
}

/* The step for A of la bits and B of lb bits, la >= lb, with B <= A when la = lb (the caller
 * orders them by gcd_lehmer_above): a_top = floor(A / 2^(la - 63)), b_top = floor(B / 2^(la -
 * 63)) and b_lead = floor(B / 2^(lb - 32)) (shifted up when lb < 32); for la <= 64, a_top and
 * b_top are A and B themselves. */
GCD_LEHMER_HD void gcd_lehmer_decide(struct gcd_lehmer_step *st, uint64_t la, uint64_t lb,
                                     uint64_t a_top, uint64_t b_top, uint32_t b_lead)
{
    st->shift = 0;
    st->ub = st->vb = st->odd_b = 0;
    st->quotients = 0;
    st->small = 0;
    if (lb == 0 || la <= 64) {
        st->kind = GCD_LEHMER_DONE;
        st->small = la <= 64 ? gcd_lehmer_gcd64(a_top, b_top) : 0;
        return;
    }
    st->ua = 1;
    st->odd_a = 0;
    if (la - lb >= 32) {
        /* q (b_lead + 1) <= a_top, so q (B << shift) <= A: A' >= 0 and A loses about 30 bits. */
        st->kind = GCD_LEHMER_SHIFT;
        st->shift = (uint32_t)(la - lb - 31);
        st->va = (uint32_t)gcd_lehmer_quotient64(a_top, (uint64_t)b_lead + 1);
        return;
    }
    /* Euclid on the top 62 bits, one bit lower than a_top and b_top, so that every cofactor is
     * below 2^31 (the file's comment); b_top >= 2^31 here since lb > la - 32. */
    if (gcd_lehmer_cofactors(a_top >> 1, b_top >> 1, 1, st) >= 2) {
        st->kind = GCD_LEHMER_PAIR;
        return;
    }
    /* Not one safe quotient: a_top / b_top < 2^32 since lb > la - 32; |A - q B| < A. */
    st->kind = GCD_LEHMER_ONE;
    st->ua = 1;
    st->va = (uint32_t)gcd_lehmer_quotient64(a_top, b_top);
    st->odd_a = 0;
    st->ub = st->vb = st->odd_b = 0;
    st->quotients = 0;
}

/* Bit length of X = x[0..n), n its words with x[n - 1] != 0 (0 for n = 0). */
GCD_LEHMER_HD uint64_t gcd_lehmer_bit_length(const uint32_t *x, uint32_t n)
{
    return n ? 32 * (uint64_t)(n - 1) + gcd_lehmer_bits32(x[n - 1]) : 0;
}

/* Reads the tops of X (nx words) and Y (ny words), puts the larger first (*swap set when that
 * is Y) and decides its step. */
GCD_LEHMER_HD void gcd_lehmer_plan(struct gcd_lehmer_step *st, const uint32_t *x, uint32_t nx,
                                   const uint32_t *y, uint32_t ny, bool *swap)
{
    const uint64_t lx = gcd_lehmer_bit_length(x, nx), ly = gcd_lehmer_bit_length(y, ny);
    const uint64_t top = (lx > ly ? lx : ly), h = top > 63 ? top - 63 : 0;
    const uint64_t xt = top <= 64 ? gcd_lehmer_window(x, nx, 0) : gcd_lehmer_window(x, nx, h);
    const uint64_t yt = top <= 64 ? gcd_lehmer_window(y, ny, 0) : gcd_lehmer_window(y, ny, h);
    *swap = ly > lx || (ly == lx && yt > xt);
    const uint32_t *b = *swap ? x : y;
    const uint32_t nb = *swap ? nx : ny;
    const uint64_t lb = *swap ? lx : ly;
    uint32_t b_lead = 0;
    if (lb >= 32)
        b_lead = (uint32_t)gcd_lehmer_window(b, nb, lb - 32);
    else if (lb)
        b_lead = b[0] << (32 - lb);
    gcd_lehmer_decide(st, *swap ? ly : lx, lb, *swap ? yt : xt, *swap ? xt : yt, b_lead);
}

/* What one word of m_pos X - m_neg Y hands the next: the high word of the positive product,
 * and that of the negative one plus the borrow of their difference. As a number, pos - neg, in
 * [-(2^32 - 1), 2^32 - 1]. */
struct gcd_lehmer_carry {
    uint32_t pos, neg;
};

GCD_LEHMER_HD int64_t gcd_lehmer_carry_value(const struct gcd_lehmer_carry *c)
{
    return (int64_t)c->pos - (int64_t)c->neg;
}

/* Word j of m_pos X - m_neg Y: two multiply-adds and a subtraction, the form of GMP's
 * mpn_submul_1 with both products formed. The borrow goes into the negative carry, which it
 * cannot overflow: m y + c <= (2^32 - 1)^2 + 2^32 - 1 = 2^64 - 2^32, whose high word reaches
 * 2^32 - 1 only with a low word of 0, and a low word of 0 borrows nothing. */
GCD_LEHMER_HD uint32_t gcd_lehmer_word(uint32_t m_pos, uint32_t x, uint32_t m_neg, uint32_t y,
                                       struct gcd_lehmer_carry *c)
{
    const uint64_t p = (uint64_t)m_pos * x + c->pos, n = (uint64_t)m_neg * y + c->neg;
    const uint32_t pl = (uint32_t)p, nl = (uint32_t)n;
    c->pos = (uint32_t)(p >> 32);
    c->neg = (uint32_t)(n >> 32) + (pl < nl);
    return pl - nl;
}

/* Word j of Y << shift (words past y's n read as 0). */
GCD_LEHMER_HD uint32_t gcd_lehmer_shifted(const uint32_t *y, uint32_t n, uint32_t j,
                                          uint32_t shift)
{
    const uint32_t w = shift / 32, s = shift % 32;
    const uint32_t hi = j >= w && j - w < n ? y[j - w] : 0;
    if (!s)
        return hi;
    const uint32_t lo = j >= w + 1 && j - w - 1 < n ? y[j - w - 1] : 0;
    return hi << s | lo >> (32 - s);
}

/* A PAIR step's multipliers. Rows k - 1 and k have opposite parities (odd_b = !odd_a), so one
 * old number, S (A when odd_a is 0, else B), is added in A' and subtracted in B', and the other,
 * T, the reverse: A' = pa S - na T and B' = pb T - nb S. The parity picks them once a step, and
 * which old number is S, instead of a select a word. */
struct gcd_lehmer_pair {
    uint32_t pa, na, pb, nb;
    bool s_is_b;
};

GCD_LEHMER_HD struct gcd_lehmer_pair gcd_lehmer_pair_of(const struct gcd_lehmer_step *st)
{
    const bool oa = st->odd_a;
    const struct gcd_lehmer_pair m = {oa ? st->va : st->ua, oa ? st->ua : st->va,
                                      oa ? st->ub : st->vb, oa ? st->vb : st->ub, oa};
    return m;
}

/* Word j of A' and B' from word j of S (x) and of T (y), and the signed carries *c_a, *c_b
 * they hand on. A PAIR step's multipliers are below 2^31 (the file's comment; gcd_lehmer_apply
 * refuses any other), so each product is below 2^63 and the carry below 2^31 in size: one
 * signed 64-bit sum t = m_pos x - m_neg y + c a word, without overflow, whose low word is the
 * new word and whose high word, arithmetically shifted, the carry. In the kernel's phase 1 that
 * takes 23.2 instructions a word, 7.5 of them on the IMAD pipe with the 4 multiplications,
 * where gcd_lehmer_word's borrow and two carries took 26.0 and 12.5: ptxas moved the zero high
 * words of its addends into place with IMAD.MOV (nvdisasm, sm_90, CUDA 13.0). Phase 1 bounds the
 * workers' step, which from 144 Kibit bounded the whole step (docs/002-gcd.md, issue 10). */
GCD_LEHMER_HD void gcd_lehmer_pair_words(const struct gcd_lehmer_pair *m, uint32_t x, uint32_t y,
                                         uint32_t *a, uint32_t *b, int64_t *c_a, int64_t *c_b)
{
    const int64_t ta = (int64_t)((uint64_t)m->pa * x) - (int64_t)((uint64_t)m->na * y) + *c_a;
    const int64_t tb = (int64_t)((uint64_t)m->pb * y) - (int64_t)((uint64_t)m->nb * x) + *c_b;
    *a = (uint32_t)ta;
    *b = (uint32_t)tb;
    /* Arithmetic shifts (GCC and nvcc shift signed values so). */
    *c_a = ta >> 32;
    *c_b = tb >> 32;
}

/* Phase 1 for the chunk [lo, hi) of A (words a) and B (words b, nb of them before the step):
 * the step's new words into da and db (which may be a and b), from carry 0; returns the carries
 * out in *ca, *cb. A step that keeps B copies it. */
GCD_LEHMER_HD void gcd_lehmer_chunk_combine(const struct gcd_lehmer_step *st, const uint32_t *a,
                                            const uint32_t *b, uint32_t *da, uint32_t *db,
                                            uint32_t nb, uint32_t lo, uint32_t hi, int64_t *ca,
                                            int64_t *cb)
{
    if (st->kind == GCD_LEHMER_PAIR) {
        const struct gcd_lehmer_pair m = gcd_lehmer_pair_of(st);
        const uint32_t *const s = m.s_is_b ? b : a, *const t = m.s_is_b ? a : b;
        int64_t c_a = 0, c_b = 0;
        for (uint32_t j = lo; j < hi; j++)
            gcd_lehmer_pair_words(&m, s[j], t[j], &da[j], &db[j], &c_a, &c_b);
        *ca = c_a;
        *cb = c_b;
        return;
    }
    /* SHIFT and ONE: q may reach 2^32 - 1, past the signed sum's range. */
    struct gcd_lehmer_carry c_a = {0, 0};
    for (uint32_t j = lo; j < hi; j++) {
        da[j] = gcd_lehmer_word(1, a[j], st->va, gcd_lehmer_shifted(b, nb, j, st->shift), &c_a);
        db[j] = b[j];
    }
    *ca = gcd_lehmer_carry_value(&c_a);
    *cb = 0;
}

/* Adds the signed carries *cx to the words [lo, hi) of x and *cy to those of y (|c| <= 2^32 + 1)
 * and replaces them by what is left over past hi (-1, 0 or 1 when hi - lo >= 2). Both numbers
 * in one loop, so that their dependent chains of shared-memory reads run side by side. */
GCD_LEHMER_HD void gcd_lehmer_chunk_carry_both(uint32_t *x, uint32_t *y, uint32_t lo, uint32_t hi,
                                               int64_t *cx, int64_t *cy)
{
    int64_t c = *cx, d = *cy;
    for (uint32_t j = lo; j < hi && (c || d); j++) {
        const int64_t s = (int64_t)x[j] + c, t = (int64_t)y[j] + d;
        x[j] = (uint32_t)s;
        y[j] = (uint32_t)t;
        c = s >> 32;
        d = t >> 32;
    }
    *cx = c;
    *cy = d;
}

/* The lowest word of [lo, hi) that is not zero, or `none`. */
GCD_LEHMER_HD uint32_t gcd_lehmer_chunk_lowest(const uint32_t *x, uint32_t lo, uint32_t hi,
                                               uint32_t none)
{
    for (uint32_t j = lo; j < hi; j++)
        if (x[j])
            return j;
    return none;
}

/* Negates the chunk [lo, hi) of a number in two's complement whose lowest nonzero word is z:
 * words below z stay 0, word z becomes -x_z, the rest ~x_j. */
GCD_LEHMER_HD void gcd_lehmer_chunk_negate(uint32_t *x, uint32_t lo, uint32_t hi, uint32_t z)
{
    for (uint32_t j = lo; j < hi; j++)
        x[j] = j < z ? 0 : j == z ? 0u - x[j] : ~x[j];
}

/* Words of the window that gcd_lehmer_plan_ahead reads, the top of both numbers: enough that
 * the numbers after the step, a word or two lower, still have 95 bits in the next window. */
#define GCD_LEHMER_AHEAD_WORDS 8u

/* Step k + 1 planned from the numbers before step k (the block applies step k meanwhile): aw
 * and bw are the GCD_LEHMER_AHEAD_WORDS words from word l = w - GCD_LEHMER_AHEAD_WORDS up of A
 * and B before step k, a PAIR step, A being Y when ia. Its matrix applied to those words alone
 * gives the top words of the new numbers up to the carry from the words below, |c| <= 2^32 + 1
 * units of word l, which is below 2^33. Windows of 62 bits at h >= 33 bits above word l (the
 * larger number has at least 95 bits there) then differ from the exact a0, b0 by at most 1
 * each, so r_i = (-1)^i (u_i a0 - v_i b0) >= r~_i - u_i - v_i, and the whole numbers keep R_i >
 * 2^H (r~_i - 3 v_i) >= 0 for the rows that gcd_lehmer_cofactors takes with
 * GCD_LEHMER_AHEAD_MARGIN; the window below 2^62 keeps every cofactor below 2^31. Anything
 * else (not a PAIR, too short a window, B far below A, not one safe row) gives
 * GCD_LEHMER_EXACT: the step is planned from the numbers after step k. *swap says, as
 * gcd_lehmer_plan's, that the larger new number is Y; *words, that it lies below word l +
 * *words + 1 (its estimate below l + *words, and the carry may add one word). */
GCD_LEHMER_HD void gcd_lehmer_plan_ahead(struct gcd_lehmer_step *next, bool *swap,
                                         uint32_t *words, const struct gcd_lehmer_step *st,
                                         bool ia, const uint32_t *aw, const uint32_t *bw)
{
    const uint32_t n = GCD_LEHMER_AHEAD_WORDS;
    next->kind = GCD_LEHMER_EXACT;
    next->shift = 0;
    next->quotients = 0;
    next->small = 0;
    *swap = false;
    *words = 0;
    if (st->kind != GCD_LEHMER_PAIR)
        return;
    /* Step k's words, read through the pointer that the parity picks: in the kernel, straight
     * from shared memory into registers, where a select on each word's values cost the
     * producer about 2 % (an uncommitted variant, 16 and 128 Kibit, H200, same run). */
    const struct gcd_lehmer_pair m = gcd_lehmer_pair_of(st);
    const uint32_t *const sw = m.s_is_b ? bw : aw, *const tw = m.s_is_b ? aw : bw;
    uint32_t a[GCD_LEHMER_AHEAD_WORDS], b[GCD_LEHMER_AHEAD_WORDS];
    int64_t c_a = 0, c_b = 0;
    for (uint32_t j = 0; j < n; j++)
        gcd_lehmer_pair_words(&m, sw[j], tw[j], &a[j], &b[j], &c_a, &c_b);
    if (c_a || c_b)
        return;
    /* As four 64-bit limbs, read at constant places only, so that the kernel keeps them in
     * registers (indexed at run time they went to local memory: 3.20 us a step at 16 Kibit on
     * the H200 against 2.68). */
    const uint64_t a0 = a[0] | (uint64_t)a[1] << 32, a1 = a[2] | (uint64_t)a[3] << 32,
                   a2 = a[4] | (uint64_t)a[5] << 32, a3 = a[6] | (uint64_t)a[7] << 32;
    const uint64_t b0 = b[0] | (uint64_t)b[1] << 32, b1 = b[2] | (uint64_t)b[3] << 32,
                   b2 = b[4] | (uint64_t)b[5] << 32, b3 = b[6] | (uint64_t)b[7] << 32;
    /* The larger number's length is that of A' | B' (below 95 bits, not planned ahead): one
     * length, where the larger number and its length took two and a 256-bit comparison. */
    const uint64_t o3 = a3 | b3, o2 = a2 | b2, o1 = a1 | b1;
    const uint64_t top = o3 ? 192 + gcd_lehmer_bits64(o3)
                            : o2 ? 128 + gcd_lehmer_bits64(o2) : 64 + gcd_lehmer_bits64(o1);
    if (top < 95)
        return;
    /* 62 bits from bit h, 33 <= h < 194: from limbs i and i + 1, i = h / 64 in 0..3. */
    const uint64_t h = top - 62, r = h % 64;
    const uint32_t i = (uint32_t)(h / 64);
    const uint64_t al = i == 0 ? a0 : i == 1 ? a1 : i == 2 ? a2 : a3,
                   ah = i == 0 ? a1 : i == 1 ? a2 : i == 2 ? a3 : 0,
                   bl = i == 0 ? b0 : i == 1 ? b1 : i == 2 ? b2 : b3,
                   bh = i == 0 ? b1 : i == 1 ? b2 : i == 2 ? b3 : 0;
    const uint64_t aw_top = r ? al >> r | ah << (64 - r) : al,
                   bw_top = r ? bl >> r | bh << (64 - r) : bl;
    /* The larger window is the larger number's. Equal windows leave the order open (and give
     * no safe row), and a smaller window below 2^30 is a number 32 bits or more below the
     * other (B far below A): both are planned from the numbers. */
    const bool b_larger = bw_top > aw_top;
    const uint64_t at = b_larger ? bw_top : aw_top, bt = b_larger ? aw_top : bw_top;
    if (at == bt || bt < (1ull << 30) ||
        gcd_lehmer_cofactors(at, bt, GCD_LEHMER_AHEAD_MARGIN, next) < 2)
        return;
    next->kind = GCD_LEHMER_PAIR;
    /* A' was written where A was (Y when ia). */
    *swap = b_larger ? !ia : ia;
    *words = 1 + (uint32_t)(top + 31) / 32;
}

/* Step k + 1 as the producer plans it ahead while the block applies step k, which covers the
 * words [0, w) of A and B (A being Y when ia): gcd_lehmer_plan_ahead on their top
 * GCD_LEHMER_AHEAD_WORDS words. next->kind is GCD_LEHMER_EXACT when it cannot be planned ahead
 * (w too short, or gcd_lehmer_plan_ahead's reasons); else *ia_next says that the larger new
 * number is Y, and *w_next is the words step k + 1 covers: one word of headroom over the new
 * numbers, within the w words of step k. The kernel (kernels/gcd_lehmer.cu) and the twin
 * (gcd_lehmer_ref.c) both plan through this. */
GCD_LEHMER_HD void gcd_lehmer_plan_next(struct gcd_lehmer_step *next, uint32_t *ia_next,
                                        uint32_t *w_next, const struct gcd_lehmer_step *st,
                                        bool ia, const uint32_t *a, const uint32_t *b, uint32_t w)
{
    next->kind = GCD_LEHMER_EXACT;
    if (w < GCD_LEHMER_AHEAD_WORDS)
        return;
    const uint32_t at = w - GCD_LEHMER_AHEAD_WORDS;
    bool swap = false;
    uint32_t words = 0;
    gcd_lehmer_plan_ahead(next, &swap, &words, st, ia, a + at, b + at);
    *ia_next = swap ? 1 : 0;
    *w_next = at + words + 1 < w ? at + words + 1 : w;
}

#endif
