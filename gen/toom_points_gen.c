/* Build-time generator of toom_points.h: the evaluation points of Toom-k (k = 2..9) and the
 * exact interpolation that goes with them, computed with GMP rationals so that no constant is
 * typed in by hand (000 section 3.2.3 derives Toom-3 the same way, by solving the 5 equations).
 *
 * Points. Toom-k evaluates A(x) and B(x) (degree k-1) at 2k-1 points and recovers the 2k-1
 * coefficients of C(x) = A(x) B(x). Point i is the projective pair (P_i, Q_i), x = P_i / Q_i,
 * and A is evaluated homogeneously: A(P, Q) = sum_j A_j P^j Q^(k-1-j), so x = 1/2 costs no
 * division and infinity is (1, 0) (A(1, 0) = A_{k-1}, 000 section 3.2.3's C(inf)). Toom-k uses
 * the first 2k-1 points of one list:
 *     0, inf, -1, 1, -2, 2, -1/2, 1/2, 3, -3, 1/3, -1/3, 3/2, -3/2, 2/3, -2/3, 4
 * - k = 2 gets {0, inf, -1}: |A_0 - A_1| never exceeds the piece, so no point value needs an
 *   extra word (000 Table 3.2's Toom-2 row has no linear term in its multiplication count).
 * - k = 3 gets {0, inf, -1, 1, -2}, the paper's set with -2 for 2 (000 section 3.2.3).
 * - The rest come in +-x pairs of small numerators and denominators: a pair costs one even and
 *   one odd part of the same sums, and small |P|, |Q| keep the point values short (at most 17
 *   extra bits for k = 9) and the interpolation constants small. Among all sets of (k-2) pairs
 *   plus one single point with |P|, |Q| <= 5, this nested list is within 1.6 bits of the
 *   smallest interpolation constants for every k (a search made when the list was chosen).
 *
 * Interpolation. With W[i][m] = P_i^m Q_i^(2k-2-m), the point values are V = W C. Row m of
 * W^-1, scaled by the least common multiple D_m of its denominators, gives
 *     C_m = (sum_i M[m][i] V_i) / D_m,   D_m = 2^SHIFT[m] * ODD[m],
 * with integer M and an exact division. The GPU and the CPU reference divide low word first
 * (2-adic, as GMP's mpn_divexact_1: q = r * ODD^-1 mod 2^32) and then shift right by SHIFT[m].
 *
 * Output: C macros (initialisers), so C arrays and CUDA constexpr tables come from one file. */
#include <gmp.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define K_MIN 2
#define K_MAX 9
#define N_POINTS (2 * K_MAX - 1)

static const int point_p[N_POINTS] = {0, 1, -1, 1, -2, 2, -1, 1, 3, -3, 1, -1, 3, -3, 2, -2, 4};
static const int point_q[N_POINTS] = {1, 0, 1, 1, 1, 1, 2, 2, 1, 1, 3, 3, 2, 2, 3, 3, 1};

static void die(const char *what, int k)
{
    fprintf(stderr, "toom_points_gen: k = %d: %s\n", k, what);
    exit(1);
}

static int64_t ipow(int base, int e)
{
    int64_t r = 1;
    while (e-- > 0)
        r *= base;
    return r;
}

/* d^-1 mod 2^32 for odd d: Newton's iteration doubles the correct low bits each step. */
static uint32_t inverse_mod_2_32(uint32_t d)
{
    uint32_t x = d; /* correct to 3 bits: d * d = 1 mod 8 */
    for (int i = 0; i < 4; i++)
        x *= 2 - d * x;
    return x;
}

static int fits_int64(const mpz_t z)
{
    return mpz_sizeinbase(z, 2) <= 62; /* 62 bits: sums of 17 terms stay below 2^63 in tests */
}

static void emit_k(int k)
{
    const int n = 2 * k - 1;
    mpq_t a[N_POINTS][2 * N_POINTS], f, t;
    mpq_init(f);
    mpq_init(t);
    /* [W | I], W[i][m] = P_i^m Q_i^(n-1-m) */
    for (int i = 0; i < n; i++)
        for (int m = 0; m < 2 * n; m++) {
            mpq_init(a[i][m]);
            if (m < n)
                mpq_set_si(a[i][m], ipow(point_p[i], m) * ipow(point_q[i], n - 1 - m), 1);
            else
                mpq_set_si(a[i][m], m - n == i, 1);
        }
    /* Gauss-Jordan elimination, exact */
    for (int c = 0; c < n; c++) {
        int piv = c;
        while (piv < n && mpq_sgn(a[piv][c]) == 0)
            piv++;
        if (piv == n)
            die("the points are not distinct", k);
        for (int m = 0; m < 2 * n; m++)
            mpq_swap(a[c][m], a[piv][m]);
        mpq_set(f, a[c][c]);
        for (int m = 0; m < 2 * n; m++)
            mpq_div(a[c][m], a[c][m], f);
        for (int r = 0; r < n; r++) {
            if (r == c || mpq_sgn(a[r][c]) == 0)
                continue;
            mpq_set(f, a[r][c]);
            for (int m = 0; m < 2 * n; m++) {
                mpq_mul(t, f, a[c][m]);
                mpq_sub(a[r][m], a[r][m], t);
            }
        }
    }
    /* Row m of W^-1 is a[m][n .. 2n). */
    mpz_t den, num, odd;
    mpz_inits(den, num, odd, NULL);
    int shift[N_POINTS];
    uint64_t odd_part[N_POINTS];
    printf("#define TOOM%d_INTERP_MATRIX { \\\n", k);
    for (int m = 0; m < n; m++) {
        mpz_set_ui(den, 1);
        for (int i = 0; i < n; i++)
            mpz_lcm(den, den, mpq_denref(a[m][n + i]));
        shift[m] = (int)mpz_scan1(den, 0);
        mpz_tdiv_q_2exp(odd, den, shift[m]);
        if (mpz_sizeinbase(odd, 2) > 63 || shift[m] >= 32)
            die("a divisor does not fit the exact-division scheme", k);
        odd_part[m] = mpz_get_ui(odd);
        printf("    {");
        for (int i = 0; i < n; i++) {
            mpz_mul(num, mpq_numref(a[m][n + i]), den);
            mpz_divexact(num, num, mpq_denref(a[m][n + i]));
            if (!fits_int64(num))
                die("an interpolation constant needs more than 62 bits", k);
            printf("%s INT64_C(%" PRId64 ")", i ? "," : "", (int64_t)mpz_get_si(num));
        }
        printf(" }%s \\\n", m + 1 < n ? "," : "");
    }
    printf("}\n#define TOOM%d_INTERP_SHIFT {", k);
    for (int m = 0; m < n; m++)
        printf("%s %d", m ? "," : "", shift[m]);
    printf(" }\n#define TOOM%d_INTERP_ODD {", k);
    for (int m = 0; m < n; m++)
        printf("%s UINT64_C(%" PRIu64 ")", m ? "," : "", odd_part[m]);
    printf(" }\n#define TOOM%d_INTERP_ODD_INV {", k);
    for (int m = 0; m < n; m++)
        printf("%s UINT32_C(%" PRIu32 ")", m ? "," : "", inverse_mod_2_32((uint32_t)odd_part[m]));
    printf(" }\n");
    /* Evaluation weights P^j Q^(k-1-j); their magnitudes sum below 2^17 for k <= 9. */
    printf("#define TOOM%d_EVAL_WEIGHT { \\\n", k);
    for (int i = 0; i < n; i++) {
        printf("    {");
        for (int j = 0; j < k; j++)
            printf("%s %" PRId64, j ? "," : "", ipow(point_p[i], j) * ipow(point_q[i], k - 1 - j));
        printf(" }%s \\\n", i + 1 < n ? "," : "");
    }
    printf("}\n\n");
    mpz_clears(den, num, odd, NULL);
    for (int i = 0; i < n; i++)
        for (int m = 0; m < 2 * n; m++)
            mpq_clear(a[i][m]);
    mpq_clear(f);
    mpq_clear(t);
}

int main(void)
{
    printf("/* Generated at build time by gen/toom_points_gen.c (which documents the choice of\n"
           " * points and the interpolation): do not edit. */\n"
           "#ifndef MPGPU_TOOM_POINTS_H\n#define MPGPU_TOOM_POINTS_H\n\n#include <stdint.h>\n\n");
    printf("#define TOOM_K_MIN %d\n#define TOOM_K_MAX %d\n#define TOOM_POINTS_MAX %d\n\n", K_MIN,
           K_MAX, N_POINTS);
    printf("/* Point i is x = P / Q; (1, 0) is infinity. Toom-k uses points 0 .. 2k-2. */\n");
    printf("#define TOOM_POINT_P {");
    for (int i = 0; i < N_POINTS; i++)
        printf("%s %d", i ? "," : "", point_p[i]);
    printf(" }\n#define TOOM_POINT_Q {");
    for (int i = 0; i < N_POINTS; i++)
        printf("%s %d", i ? "," : "", point_q[i]);
    printf(" }\n\n");
    printf("/* Per k: C_m = (sum_i INTERP_MATRIX[m][i] * V_i) / (2^INTERP_SHIFT[m] * INTERP_ODD[m]),\n"
           " * INTERP_ODD_INV[m] = INTERP_ODD[m]^-1 mod 2^32; A(x_i) = sum_j EVAL_WEIGHT[i][j] * A_j. */\n");
    for (int k = K_MIN; k <= K_MAX; k++)
        emit_k(k);
    printf("#endif\n");
    return 0;
}
