/* Lehmer's GCD (Knuth, TAOCP vol. 2, 4.5.2, Algorithm L) with double-word leading digits
 * (Jebelean, "Improving the multiprecision Euclidean algorithm", 1993), as one thread of the
 * bulk kernel runs it; the whole-GPU kernel (kernels/gcd_lehmer.h) takes the same steps over a
 * block, with 62-bit digits.
 *
 * A step, A >= B > 0 of la >= lb bits, la > 64. Let h = la - 64, a0 = floor(A / 2^h) and
 * b0 = floor(B / 2^h) (64-bit digits, a0 >= 2^63). Euclid on (a0, b0) gives remainders
 * r_i = (-1)^i (u_i a0 - v_i b0), and the same combination of the whole numbers is
 * R_i = (-1)^i (u_i A - v_i B) = 2^h r_i + (-1)^i (u_i ra - v_i rb) > 2^h (r_i - max(u_i, v_i))
 * (ra, rb < 2^h the bits below the digits). So R_i >= 0 while r_i >= max(u_i, v_i): the step
 * runs Euclid on the digits as long as that holds and takes the last pair (R_(k-1), R_k). The
 * matrix has determinant +-1, so gcd(R_(k-1), R_k) = gcd(A, B) whether or not the pair is
 * Euclid's own; and since v_k r_(k-1) <= a0 < 2^64 with r_(k-1) >= r_k >= v_k >= u_k, every
 * cofactor is below 2^32, one word: each new word is u a_j - v b_j, two 32 x 32 + 32-bit
 * multiply-adds and a subtraction with borrow, both new numbers in one pass over the words
 * (4 multiply-adds and 2 subtractions a word), each about 30 bits shorter than A.
 *
 * The trivial matrix (k = 1: b0 = 0, or Euclid's first quotient already too large: B much
 * shorter than A) is a plain Euclid step with a one-word quotient: A -= q (B << s), with
 * q = floor(a1 / (b1 + 1)) from B's top 32 bits b1 (all of B when shorter) and A's top 31 bits
 * more a1, so that q < 2^32 and q (B << s) <= A for s = la - lb - 31 (q shifted right instead
 * while that is negative, and 1 at least, as A >= B): about 31 bits off A, one multiply-add and
 * one subtraction a word. Once A fits 64 bits, Euclid on two words ends it. */
#include "gcd_bulk_lehmer_ref.h"

#include <string.h>

/* One factor times one number less another, over A's words: m1 X1 - m2 X2. */
struct combination {
    uint64_t m1, m2;
    uint32_t x1, x2; /* index of X1 and X2 among the two numbers */
};

/* (-1)^i (u A - v B) as m1 X1 - m2 X2, A the number of index `ia`. */
static struct combination signed_combination(unsigned i, uint64_t u, uint64_t v, uint32_t ia)
{
    return i % 2 ? (struct combination){v, u, 1 - ia, ia} : (struct combination){u, v, ia, 1 - ia};
}

/* x[ia], x[1 - ia] = the two combinations, in one pass over n words, in place; false when a
 * result is below 0 or past n words. */
static bool apply_pair(uint32_t *const x[2], uint32_t n, struct combination c0,
                       struct combination c1, struct gcd_bulk_counts *c)
{
    const struct combination cs[2] = {c0, c1};
    uint64_t carry1[2] = {0, 0}, carry2[2] = {0, 0}, borrow[2] = {0, 0};
    for (uint32_t j = 0; j < n; j++) {
        const uint32_t word[2] = {x[0][j], x[1][j]};
        for (int o = 0; o < 2; o++) {
            const uint64_t p1 = cs[o].m1 * word[cs[o].x1] + carry1[o];
            const uint64_t p2 = cs[o].m2 * word[cs[o].x2] + carry2[o];
            carry1[o] = p1 >> 32;
            carry2[o] = p2 >> 32;
            const uint64_t d = (p1 & 0xffffffffu) - (p2 & 0xffffffffu) - borrow[o];
            borrow[o] = d >> 63;
            x[o][j] = (uint32_t)d;
        }
    }
    c->word_madds += 4 * (uint64_t)n;
    c->word_addsubs += 2 * (uint64_t)n;
    return carry1[0] == carry2[0] + borrow[0] && carry1[1] == carry2[1] + borrow[1];
}

/* a -= q (b << s) over a's na words (b's words above s's reach zero); false when it went below
 * 0. */
static bool shift_subtract(uint32_t *a, uint32_t na, const uint32_t *b, uint64_t q, uint32_t s,
                           struct gcd_bulk_counts *c)
{
    const uint32_t sw = s / 32, sb = s % 32;
    uint64_t carry = 0, borrow = 0;
    for (uint32_t j = sw; j < na; j++) {
        const uint32_t lo = b[j - sw], below = j > sw ? b[j - sw - 1] : 0;
        const uint32_t shifted = sb ? lo << sb | below >> (32 - sb) : lo;
        const uint64_t p = q * shifted + carry;
        carry = p >> 32;
        const uint64_t d = a[j] - (p & 0xffffffffu) - borrow;
        borrow = d >> 63;
        a[j] = (uint32_t)d;
    }
    c->word_shifts += na - sw;
    c->word_madds += na - sw;
    c->word_addsubs += na - sw;
    return carry == 0 && borrow == 0;
}

/* The last Euclid step on the digits (a0, b0) whose combination of the numbers is provably
 * >= 0: its index k, and the cofactors of k - 1 and k. k = 1 is the trivial matrix. */
static unsigned digit_euclid(uint64_t a0, uint64_t b0, uint64_t u[2], uint64_t v[2],
                             struct gcd_bulk_counts *c)
{
    uint64_t r0 = a0, r1 = b0;
    u[0] = 1, v[0] = 0, u[1] = 0, v[1] = 1;
    unsigned k = 1;
    while (r1) {
        const uint64_t q = r0 / r1, r2 = r0 - q * r1;
        /* The next cofactors can pass 64 bits when the step is refused. */
        const unsigned __int128 u2 = u[0] + (unsigned __int128)q * u[1];
        const unsigned __int128 v2 = v[0] + (unsigned __int128)q * v[1];
        c->digit_quotients++;
        if (r2 < u2 || r2 < v2)
            break;
        r0 = r1, r1 = r2;
        u[0] = u[1], v[0] = v[1], u[1] = (uint64_t)u2, v[1] = (uint64_t)v2;
        k++;
    }
    return k;
}

/* gcd of two numbers below 2^64. */
static uint64_t word_euclid(uint64_t a, uint64_t b, struct gcd_bulk_counts *c)
{
    while (b) {
        const uint64_t r = a % b;
        a = b, b = r;
        c->digit_quotients++;
    }
    return a;
}

bool gcd_bulk_lehmer(uint32_t *g, const uint32_t *a, const uint32_t *b, uint32_t n,
                     struct gcd_bulk_counts *counts)
{
    uint32_t buf[2][GCD_BULK_MAX_WORDS];
    uint32_t *const x[2] = {buf[0], buf[1]};
    memcpy(x[0], a, 4 * (size_t)n);
    memcpy(x[1], b, 4 * (size_t)n);
    uint32_t len[2] = {gcd_bulk_trim(x[0], n, counts), gcd_bulk_trim(x[1], n, counts)};
    counts->gcds++;
    uint32_t ia = 0; /* the index of A, the larger */
    bool ok = true;
    for (;;) {
        int order = len[ia] != len[1 - ia] ? (len[ia] > len[1 - ia] ? 1 : -1)
                                           : gcd_bulk_compare(x[ia], x[1 - ia], len[ia], counts);
        if (order < 0) {
            ia = 1 - ia;
            counts->swaps++;
        }
        uint32_t *A = x[ia], *B = x[1 - ia];
        const uint32_t na = len[ia], nb = len[1 - ia];
        const uint32_t la = gcd_bulk_bit_length(A, na), lb = gcd_bulk_bit_length(B, nb);
        if (lb == 0)
            break;
        if (la <= 64) {
            const uint64_t small = word_euclid(gcd_bulk_digit(A, na, 0, counts),
                                               gcd_bulk_digit(B, nb, 0, counts), counts);
            memset(A, 0, 4 * (size_t)na);
            A[0] = (uint32_t)small;
            if (na > 1)
                A[1] = (uint32_t)(small >> 32);
            len[ia] = gcd_bulk_trim(A, na, counts);
            break;
        }
        counts->iterations++;
        const uint32_t h = la - 64;
        uint64_t u[2], v[2];
        const unsigned k = digit_euclid(gcd_bulk_digit(A, na, h, counts),
                                        gcd_bulk_digit(B, nb, h, counts), u, v, counts);
        if (k >= 2) {
            if ((u[0] | u[1] | v[0] | v[1]) >> 32)
                return false;
            /* The pair goes to (A, B)'s places: R_(k-1) where A was. */
            const struct combination c0 = signed_combination(k - 1, u[0], v[0], ia);
            const struct combination c1 = signed_combination(k, u[1], v[1], ia);
            ok = apply_pair(x, na, ia == 0 ? c0 : c1, ia == 0 ? c1 : c0, counts);
        } else {
            counts->trivial_steps++;
            /* b1: B's top 32 bits (all of B when shorter), a1: A's top 31 bits more, so that
             * q < 2^32. */
            const uint32_t lb1 = lb < 32 ? lb : 32;
            const uint64_t a1 = gcd_bulk_digit(A, na, la - lb1 - 31, counts);
            const uint64_t b1 = gcd_bulk_digit(B, nb, lb - lb1, counts);
            uint64_t q = a1 / (b1 + 1);
            uint32_t s = 0;
            if (la - lb >= 31)
                s = la - lb - 31;
            else
                q >>= 31 - (la - lb);
            ok = shift_subtract(A, na, B, q ? q : 1, s, counts);
        }
        if (!ok)
            return false;
        len[0] = gcd_bulk_trim(x[0], na, counts);
        len[1] = gcd_bulk_trim(x[1], na, counts);
    }
    memset(g, 0, 4 * (size_t)n);
    memcpy(g, x[ia], 4 * (size_t)len[ia]);
    return ok;
}
