/* The bulk GCD's word steps (issue 38): one pair of n-word numbers, as one GPU thread of
 * kernels/gcd_bulk.cu runs it, and as the cpu suite runs it against mpz_gcd (test_gcd_bulk_steps:
 * the kernel's very code, compiled by the host compiler). The algorithms are those the CPU
 * models of cpu_ref/ describe and count (gcd_bulk_lehmer_ref.c, gcd_bulk_binary_ref.c, with the
 * proofs of the bounds); here they are written for the GPU: no operation counts, no 128-bit
 * arithmetic, digit quotients from a double with an exact correction, and a strided view of
 * the words.
 *
 * A number is n 32-bit words, least significant first, word j at x[j * stride]: stride 1 for a
 * thread's own array (the kernel's, in local memory, which the hardware interleaves across a
 * warp) and for the CPU, `count` for the word-major layout of a batch (word j of consecutive
 * pairs adjacent). Each number's length is tracked as it shrinks, so a pass runs over the words
 * still in use; the words above a length are zero. */
#ifndef MPGPU_GCD_BULK_STEPS_H
#define MPGPU_GCD_BULK_STEPS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GCD_BULK_FN static __host__ __device__ __forceinline__
#else
#define GCD_BULK_FN static inline
#endif

/* The widest pair: 8192 bits. */
#define GCD_BULK_STEPS_MAX_WORDS 256u

/* Word j of a strided number. */
#define GCD_BULK_W(x, j) ((x)[(size_t)(j) * stride])

GCD_BULK_FN uint32_t gcd_bulk_clz(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return (uint32_t)__clz(x);
#else
    return (uint32_t)__builtin_clz(x);
#endif
}

GCD_BULK_FN uint32_t gcd_bulk_ctz64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return (uint32_t)__ffsll((long long)x) - 1;
#else
    return (uint32_t)__builtin_ctzll(x);
#endif
}

/* The length of x[0..n) without its zero top words. */
GCD_BULK_FN uint32_t gcd_bulk_len(const uint32_t *x, uint32_t stride, uint32_t n)
{
    while (n && !GCD_BULK_W(x, n - 1))
        n--;
    return n;
}

/* Sign of x - y, both of n words: from the top word down, usually one word. */
GCD_BULK_FN int gcd_bulk_cmp(const uint32_t *x, const uint32_t *y, uint32_t stride, uint32_t n)
{
    while (n--) {
        const uint32_t xw = GCD_BULK_W(x, n), yw = GCD_BULK_W(y, n);
        if (xw != yw)
            return xw > yw ? 1 : -1;
    }
    return 0;
}

/* Bits of x, n its length. */
GCD_BULK_FN uint32_t gcd_bulk_bits(const uint32_t *x, uint32_t stride, uint32_t n)
{
    return n ? 32 * n - gcd_bulk_clz(GCD_BULK_W(x, n - 1)) : 0;
}

/* Bits [h, h + 64) of x (zeros above its length n). */
GCD_BULK_FN uint64_t gcd_bulk_bits_at(const uint32_t *x, uint32_t stride, uint32_t n, uint32_t h)
{
    const uint32_t w = h / 32, s = h % 32;
    const uint64_t lo = (uint64_t)(w < n ? GCD_BULK_W(x, w) : 0) |
                        (uint64_t)(w + 1 < n ? GCD_BULK_W(x, w + 1) : 0) << 32;
    const uint64_t hi = w + 2 < n ? GCD_BULK_W(x, w + 2) : 0;
    return s ? lo >> s | hi << (64 - s) : lo;
}

/* Writes the 64-bit v as x's low words over its n-word length, zeros above; its new length. */
GCD_BULK_FN uint32_t gcd_bulk_set64(uint32_t *x, uint32_t stride, uint32_t n, uint64_t v)
{
    for (uint32_t j = 0; j < n; j++)
        GCD_BULK_W(x, j) = j == 0 ? (uint32_t)v : j == 1 ? (uint32_t)(v >> 32) : 0;
    return gcd_bulk_len(x, stride, n);
}

/* Stein's binary GCD of two 64-bit numbers: shifts and subtractions only, where Euclid would
 * take a software 64-bit division a quotient on the GPU. gcd(0, b) = b. */
GCD_BULK_FN uint64_t gcd_bulk_gcd64(uint64_t a, uint64_t b)
{
    if (!a || !b)
        return a | b;
    const uint32_t twos = gcd_bulk_ctz64(a | b);
    a >>= gcd_bulk_ctz64(a);
    for (;;) {
        b >>= gcd_bulk_ctz64(b);
        if (a > b) {
            const uint64_t t = a;
            a = b, b = t;
        }
        b -= a;
        if (!b)
            return a << twos;
    }
}

/* dst[0..n) = src << k (src of length len, zeros above; dst may be src: the words are written
 * from the top down, each from words at or below it). */
GCD_BULK_FN void gcd_bulk_shl(uint32_t *dst, const uint32_t *src, uint32_t stride, uint32_t n,
                              uint32_t len, uint32_t k)
{
    const uint32_t w = k / 32, s = k % 32;
    for (uint32_t j = n; j-- > 0;) {
        const uint32_t hi = j >= w && j - w < len ? GCD_BULK_W(src, j - w) : 0;
        const uint32_t lo = j >= w + 1 && j - w - 1 < len ? GCD_BULK_W(src, j - w - 1) : 0;
        GCD_BULK_W(dst, j) = s ? hi << s | lo >> (32 - s) : hi;
    }
}

/* x >>= its trailing zeros (x != 0, of length *len, updated); returns how many. */
GCD_BULK_FN uint32_t gcd_bulk_strip_twos(uint32_t *x, uint32_t stride, uint32_t *len)
{
    uint32_t w = 0;
    while (!GCD_BULK_W(x, w))
        w++;
    const uint64_t low = GCD_BULK_W(x, w);
    const uint32_t s = gcd_bulk_ctz64(low), n = *len, kept = n - w;
    if (w == 0 && s == 0)
        return 0;
    for (uint32_t j = 0; j < n; j++) {
        const uint32_t here = j < kept ? GCD_BULK_W(x, j + w) : 0;
        const uint32_t above = j + 1 < kept ? GCD_BULK_W(x, j + w + 1) : 0;
        GCD_BULK_W(x, j) = s ? here >> s | above << (32 - s) : here;
    }
    *len = gcd_bulk_len(x, stride, kept);
    return 32 * w + s;
}

/* x -= y over n words (x >= y, y zero above its length). */
GCD_BULK_FN void gcd_bulk_sub(uint32_t *x, const uint32_t *y, uint32_t stride, uint32_t n)
{
    uint32_t borrow = 0;
    for (uint32_t j = 0; j < n; j++) {
        const uint64_t d = (uint64_t)GCD_BULK_W(x, j) - GCD_BULK_W(y, j) - borrow;
        GCD_BULK_W(x, j) = (uint32_t)d;
        borrow = (uint32_t)(d >> 63);
    }
}

/* gcd(x0, x1) into x0 (n words, zeros above the GCD's length), by Stein's binary GCD; x1 is
 * spent. 1 <= n. */
GCD_BULK_FN void gcd_bulk_binary_pair(uint32_t *x0, uint32_t *x1, uint32_t stride, uint32_t n)
{
    uint32_t na = gcd_bulk_len(x0, stride, n), nb = gcd_bulk_len(x1, stride, n);
    if (!na || !nb) {
        if (!na)
            gcd_bulk_shl(x0, x1, stride, n, nb, 0);
        return;
    }
    const uint32_t za = gcd_bulk_strip_twos(x0, stride, &na);
    const uint32_t zb = gcd_bulk_strip_twos(x1, stride, &nb);
    /* Both odd from here: the larger less the smaller is even and not 0 until they are equal.
     * Which array holds the larger is a pointer swap. */
    uint32_t *A = x0, *B = x1;
    for (;;) {
        const int order = na != nb ? (na > nb ? 1 : -1) : gcd_bulk_cmp(A, B, stride, na);
        if (order == 0)
            break;
        if (order < 0) {
            uint32_t *const t = A;
            const uint32_t tn = na;
            A = B, B = t, na = nb, nb = tn;
        }
        gcd_bulk_sub(A, B, stride, na);
        na = gcd_bulk_len(A, stride, na);
        gcd_bulk_strip_twos(A, stride, &na);
    }
    gcd_bulk_shl(x0, A, stride, n, na, za < zb ? za : zb);
}

/* floor(r0 / r1) for r0 >= r1 > 0, and its remainder in *rem. Every thread of a warp runs the
 * same instructions: a double's quotient fl(fl(r0) / fl(r1)) is within 3 * 2^-53 of r0 / r1
 * relatively, within 0.375 while r0 / r1 < 2^50, so its integer part is the true quotient q or
 * one either side; one less than it is at most q, leaves a remainder below 3 r1 that cannot
 * overflow, and two conditional subtractions finish. A quotient of 2^50 or more takes the exact
 * division (gcd_bulk_digit_euclid asks for none above 2^32; the branch keeps this helper right
 * for every input, and test_gcd_bulk_steps checks it), which the GPU does in software, a long
 * chain of dependent instructions: taken for every quotient of 3 or more (four in ten), it held
 * up the whole warp at almost every step of the digits' Euclid. */
GCD_BULK_FN uint64_t gcd_bulk_quotient(uint64_t r0, uint64_t r1, uint64_t *rem)
{
    if (r0 >> 50 >= r1) {
        const uint64_t q = r0 / r1;
        *rem = r0 - q * r1;
        return q;
    }
    uint64_t q = (uint64_t)((double)r0 / (double)r1);
    q -= q != 0;
    uint64_t r = r0 - q * r1;
    for (int fix = 0; fix < 2; fix++)
        if (r >= r1)
            q++, r -= r1;
    *rem = r;
    return q;
}

/* Euclid on the leading digits (a0, b0) while each remainder is at least both its cofactors,
 * which proves the whole numbers' combination >= 0 (gcd_bulk_lehmer_ref.c): the index k of the
 * last such step and the cofactors of steps k - 1 (u[0], v[0]) and k (u[1], v[1]); k = 1 is the
 * trivial matrix. No overflow: Euclid's cofactors obey u_(i+1) r_i <= b0 and v_(i+1) r_i <= a0,
 * so a step taken has u_(i+1)^2 <= u_(i+1) r_i < 2^64, both cofactors below 2^32. A quotient of
 * 2^32 or more (r0 >> 32 >= r1) would make v_(i+1) >= q v_i >= 2^32: that step is never taken, and
 * the loop ends before dividing, so every quotient divided is below 2^32 and every cofactor
 * product is one 32 x 32-bit multiplication. */
GCD_BULK_FN unsigned gcd_bulk_digit_euclid(uint64_t a0, uint64_t b0, uint64_t u[2], uint64_t v[2])
{
    uint64_t r0 = a0, r1 = b0;
    u[0] = 1, v[0] = 0, u[1] = 0, v[1] = 1;
    unsigned k = 1;
    while (r1 && r0 >> 32 < r1) {
        uint64_t r2;
        const uint32_t q = (uint32_t)gcd_bulk_quotient(r0, r1, &r2);
        const uint64_t u2 = u[0] + (uint64_t)q * (uint32_t)u[1];
        const uint64_t v2 = v[0] + (uint64_t)q * (uint32_t)v[1];
        if (r2 < u2 || r2 < v2)
            break;
        r0 = r1, r1 = r2;
        u[0] = u[1], v[0] = v[1], u[1] = u2, v[1] = v2;
        k++;
    }
    return k;
}

/* One word of (A, B) = (R_(k-1), R_k): m1 p - m2 q for each, with its carries and borrow. */
struct gcd_bulk_apply_carries {
    uint32_t ca1, ca2, cb1, cb2, ba, bb;
};

GCD_BULK_FN void gcd_bulk_apply_word(uint32_t *a, uint32_t *b, bool odd, uint32_t ma1,
                                     uint32_t ma2, uint32_t mb1, uint32_t mb2,
                                     struct gcd_bulk_apply_carries *c)
{
    const uint32_t p = odd ? *a : *b, q = odd ? *b : *a;
    const uint64_t ta1 = (uint64_t)ma1 * p + c->ca1, ta2 = (uint64_t)ma2 * q + c->ca2;
    const uint64_t tb1 = (uint64_t)mb1 * q + c->cb1, tb2 = (uint64_t)mb2 * p + c->cb2;
    const uint64_t da = (uint64_t)(uint32_t)ta1 - (uint32_t)ta2 - c->ba;
    const uint64_t db = (uint64_t)(uint32_t)tb1 - (uint32_t)tb2 - c->bb;
    c->ca1 = (uint32_t)(ta1 >> 32), c->ca2 = (uint32_t)(ta2 >> 32);
    c->cb1 = (uint32_t)(tb1 >> 32), c->cb2 = (uint32_t)(tb2 >> 32);
    c->ba = (uint32_t)(da >> 63), c->bb = (uint32_t)(db >> 63);
    *a = (uint32_t)da, *b = (uint32_t)db;
}

/* (A, B) = (R_(k-1), R_k) with R_i = (-1)^i (u_i A - v_i B), in one pass over A's na words, with
 * 32-bit cofactors: each new word m1 p - m2 q with p, q the words of A and B in the order k's
 * parity gives, two multiply-adds and a subtraction with borrow. Four words at a time are loaded
 * before any is used: above 1024 bits the words are in local memory, mostly out in L2, and a
 * thread with one load in flight waited on each (Nsight Compute: long-scoreboard stalls, 35 % of
 * issue slots used at 4096 bits). False when a result went below 0 or past na words (the bounds
 * say it cannot). */
GCD_BULK_FN bool gcd_bulk_lehmer_apply(uint32_t *A, uint32_t *B, uint32_t stride, uint32_t na,
                                       unsigned k, const uint64_t u[2], const uint64_t v[2])
{
    const bool odd = k % 2;
    const uint32_t ma1 = (uint32_t)(odd ? u[0] : v[0]), ma2 = (uint32_t)(odd ? v[0] : u[0]);
    const uint32_t mb1 = (uint32_t)(odd ? v[1] : u[1]), mb2 = (uint32_t)(odd ? u[1] : v[1]);
    struct gcd_bulk_apply_carries c = {0, 0, 0, 0, 0, 0};
    uint32_t j = 0;
    for (; j + 4 <= na; j += 4) {
        uint32_t a[4], b[4];
        for (int i = 0; i < 4; i++)
            a[i] = GCD_BULK_W(A, j + i), b[i] = GCD_BULK_W(B, j + i);
        for (int i = 0; i < 4; i++)
            gcd_bulk_apply_word(&a[i], &b[i], odd, ma1, ma2, mb1, mb2, &c);
        for (int i = 0; i < 4; i++)
            GCD_BULK_W(A, j + i) = a[i], GCD_BULK_W(B, j + i) = b[i];
    }
    for (; j < na; j++) {
        uint32_t a = GCD_BULK_W(A, j), b = GCD_BULK_W(B, j);
        gcd_bulk_apply_word(&a, &b, odd, ma1, ma2, mb1, mb2, &c);
        GCD_BULK_W(A, j) = a, GCD_BULK_W(B, j) = b;
    }
    return (uint64_t)c.ca1 == (uint64_t)c.ca2 + c.ba && (uint64_t)c.cb1 == (uint64_t)c.cb2 + c.bb;
}

/* A -= q (B << s) over A's na words (B zero above its length); false when it went below 0. */
GCD_BULK_FN bool gcd_bulk_shift_sub(uint32_t *A, const uint32_t *B, uint32_t stride, uint32_t na,
                                    uint32_t q, uint32_t s)
{
    const uint32_t sw = s / 32, sb = s % 32;
    uint32_t carry = 0, borrow = 0;
    for (uint32_t j = sw; j < na; j++) {
        const uint32_t hi = GCD_BULK_W(B, j - sw), lo = j > sw ? GCD_BULK_W(B, j - sw - 1) : 0;
        const uint32_t shifted = sb ? hi << sb | lo >> (32 - sb) : hi;
        const uint64_t t = (uint64_t)q * shifted + carry;
        const uint64_t d = (uint64_t)GCD_BULK_W(A, j) - (uint32_t)t - borrow;
        carry = (uint32_t)(t >> 32);
        borrow = (uint32_t)(d >> 63);
        GCD_BULK_W(A, j) = (uint32_t)d;
    }
    return carry == 0 && borrow == 0;
}

/* gcd(x0, x1) into x0 (n words, zeros above the GCD's length) by Lehmer's GCD with 64-bit
 * leading digits; x1 is spent. False when a step broke its bounds (the proof says never; the
 * kernel then starts over with the binary GCD). 1 <= n. */
GCD_BULK_FN bool gcd_bulk_lehmer_pair(uint32_t *x0, uint32_t *x1, uint32_t stride, uint32_t n)
{
    uint32_t *A = x0, *B = x1;
    uint32_t na = gcd_bulk_len(A, stride, n), nb = gcd_bulk_len(B, stride, n);
    for (;;) {
        if (nb > na || (nb == na && gcd_bulk_cmp(A, B, stride, na) < 0)) {
            uint32_t *const t = A;
            const uint32_t tn = na;
            A = B, B = t, na = nb, nb = tn;
        }
        if (nb == 0)
            break;
        const uint32_t la = gcd_bulk_bits(A, stride, na), lb = gcd_bulk_bits(B, stride, nb);
        if (la <= 64) {
            na = gcd_bulk_set64(A, stride, na,
                                gcd_bulk_gcd64(gcd_bulk_bits_at(A, stride, na, 0),
                                               gcd_bulk_bits_at(B, stride, nb, 0)));
            break;
        }
        const uint32_t h = la - 64;
        uint64_t u[2], v[2];
        const unsigned k = gcd_bulk_digit_euclid(gcd_bulk_bits_at(A, stride, na, h),
                                                 gcd_bulk_bits_at(B, stride, nb, h), u, v);
        bool ok;
        if (k >= 2) {
            if ((u[0] | u[1] | v[0] | v[1]) >> 32)
                return false;
            ok = gcd_bulk_lehmer_apply(A, B, stride, na, k, u, v);
        } else {
            /* A plain Euclid step with a one-word quotient that cannot overshoot: B's top 32
             * bits b1 (all of B when shorter) against A's top 31 bits more. */
            const uint32_t lb1 = lb < 32 ? lb : 32;
            const uint64_t a1 = gcd_bulk_bits_at(A, stride, na, la - lb1 - 31);
            const uint64_t b1 = gcd_bulk_bits_at(B, stride, nb, lb - lb1);
            uint64_t q = a1 / (b1 + 1);
            uint32_t s = 0;
            if (la - lb >= 31)
                s = la - lb - 31;
            else
                q >>= 31 - (la - lb);
            ok = gcd_bulk_shift_sub(A, B, stride, na, q ? (uint32_t)q : 1, s);
        }
        if (!ok)
            return false;
        const uint32_t width = na;
        na = gcd_bulk_len(A, stride, width);
        nb = gcd_bulk_len(B, stride, width);
    }
    if (A != x0)
        gcd_bulk_shl(x0, A, stride, n, na, 0);
    return true;
}

#endif
