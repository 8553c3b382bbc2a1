/* cpu suite: Toom-k (k = 2..9) in plain C, the reference twin of kernels/mul_toom.cu, against
 * GMP, and the generated tables it shares with the GPU.
 * - the interpolation tables invert the evaluation exactly: sum_i M[m][i] W[i][m'] = D_m [m = m'];
 * - every k on random, all-ones and the other operand patterns, at sizes that split evenly into
 *   k pieces, sizes that do not (short and empty last pieces), sizes whose pieces are a multiple
 *   of 32 words (the point values then carry a word beyond the sub-product: the correction
 *   path), and random sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "mul_operands.h"
#include "test_seed.h"
#include "toom_points.h"
#include "toom_ref.h"


#define CHECK_TABLES(K)                                                                     \
    do {                                                                                    \
        static const int64_t m_[2 * K - 1][2 * K - 1] = TOOM##K##_INTERP_MATRIX;            \
        static const int sh_[2 * K - 1] = TOOM##K##_INTERP_SHIFT;                           \
        static const uint64_t odd_[2 * K - 1] = TOOM##K##_INTERP_ODD;                       \
        static const uint32_t inv_[2 * K - 1] = TOOM##K##_INTERP_ODD_INV;                   \
        static const int32_t wt_[2 * K - 1][K] = TOOM##K##_EVAL_WEIGHT;                     \
        check_tables(K, &m_[0][0], sh_, odd_, inv_, &wt_[0][0]);                            \
    } while (0)

static __int128 ipow(int b, int e)
{
    __int128 r = 1;
    while (e-- > 0)
        r *= b;
    return r;
}

static void check_tables(int k, const int64_t *matrix, const int *shift, const uint64_t *odd,
                         const uint32_t *odd_inv, const int32_t *weight)
{
    const int n = 2 * k - 1;
    for (int i = 0; i < n; i++) {
        int p, q;
        toom_point((unsigned)i, &p, &q);
        for (int j = 0; j < k; j++)
            CHECK(weight[i * k + j] == ipow(p, j) * ipow(q, k - 1 - j),
                  "k=%d: evaluation weight [%d][%d]", k, i, j);
    }
    for (int m = 0; m < n; m++) {
        CHECK(odd[m] & 1, "k=%d: divisor %d not odd", k, m);
        CHECK((uint32_t)odd[m] * odd_inv[m] == 1, "k=%d: inverse %d", k, m);
        for (int m2 = 0; m2 < n; m2++) {
            /* |M| < 2^49, |W| <= 4^16: 17 terms stay far below 2^127 */
            __int128 sum = 0;
            for (int i = 0; i < n; i++) {
                int p, q;
                toom_point((unsigned)i, &p, &q);
                sum += (__int128)matrix[m * n + i] * ipow(p, m2) * ipow(q, n - 1 - m2);
            }
            __int128 want = m == m2 ? (__int128)odd[m] << shift[m] : 0;
            CHECK(sum == want, "k=%d: interpolation row %d times evaluation column %d", k, m, m2);
        }
    }
}

static void check_size(unsigned k, unsigned w)
{
    uint32_t *a = malloc(w * 4), *b = malloc(w * 4), *c = malloc(w * 8), *e = malloc(w * 8);
    /* every pattern once (random, all-ones, zero, one, unequal lengths, all-ones x random),
     * then two more random pairs; the stream depends on (k, w) so sizes see different data */
    for (size_t p = 0; p < N_PATTERNS + 2; p++) {
        size_t stream = p < N_PATTERNS ? p + N_PATTERNS * (16 * (size_t)w + k)
                                       : N_PATTERNS * (16 * (size_t)w + k + 8 * p);
        operands_fill(a, b, w, stream, seed);
        if (toom_ref_mul(c, a, b, w, k, NULL) != 0) {
            CHECK(0, "Toom-%u at %u words: out of memory", k, w);
            continue;
        }
        gmp_mul_words(e, a, b, w);
        unsigned i = 0;
        while (i < 2 * w && c[i] == e[i])
            i++;
        CHECK(i == 2 * w, "Toom-%u at %u words (%u bits), pattern %s: first bad word %u of %u", k,
              w, w * 32, pattern_names[stream % N_PATTERNS], i, 2 * w);
    }
    free(a);
    free(b);
    free(c);
    free(e);
}

int main(void)
{
    seed = test_seed();
    CHECK_TABLES(2);
    CHECK_TABLES(3);
    CHECK_TABLES(4);
    CHECK_TABLES(5);
    CHECK_TABLES(6);
    CHECK_TABLES(7);
    CHECK_TABLES(8);
    CHECK_TABLES(9);
    for (unsigned k = TOOM_K_MIN; k <= TOOM_K_MAX; k++) {
        /* even splits, uneven splits, empty last pieces (w = k + 1, 2k + 1), pieces of exactly
         * 32 and 64 words (correction path), sizes around the GPU's 1024-bit unit */
        unsigned sizes[] = {k, k + 1, 2 * k + 1, 31, 32, 33, 32 * k, 64 * k, 32 * k + 1,
                            32 * k - 1, 100, 257, 1000};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            check_size(k, sizes[i]);
        for (int r = 0; r < 3; r++)
            check_size(k, k + (unsigned)(splitmix64(seed + 31 * k + r) % 700));
    }
    check_size(8, 2048); /* 65536 bits, the largest size of the GPU methods */
    check_size(2, 2048);
    return test_finish("test_toom_ref");
}
