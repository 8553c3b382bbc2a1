/* The scaled remainder tree's batch GCD, as tree-gpu runs it: scaled_remainder_tree.h. */
#include "scaled_remainder_tree.h"

#include <stdlib.h>

#include "mpz_arrays.h"

/* Y_v of level k (2 w_k words) from its parent's Y_u (4 w_k words) and the sibling's S_s:
 * floor(Y_u S_s / 2^P_k) mod 2^P_k, as the GPU makes it from the halves of Y_u, two products
 * of 2 w_k-word operands: the high half of Y_lo S_s plus the low half of Y_hi S_s. */
static void step(mpz_t y, const mpz_t y_parent, const mpz_t s_sibling, uint64_t p_bits)
{
    mpz_t lo, hi;
    mpz_inits(lo, hi, NULL);
    mpz_fdiv_r_2exp(lo, y_parent, p_bits);
    mpz_fdiv_q_2exp(hi, y_parent, p_bits);
    mpz_mul(lo, lo, s_sibling);
    mpz_mul(hi, hi, s_sibling);
    mpz_fdiv_q_2exp(lo, lo, p_bits);
    mpz_fdiv_r_2exp(hi, hi, p_bits);
    mpz_add(y, lo, hi);
    mpz_fdiv_r_2exp(y, y, p_bits);
    mpz_clears(lo, hi, NULL);
}

void scaled_tree_g(size_t n, const mpz_t *N, mpz_t *g, unsigned top,
                   struct scaled_tree_shape *shape)
{
    size_t bits = 0;
    for (size_t i = 0; i < n; i++)
        if (mpz_sizeinbase(N[i], 2) > bits)
            bits = mpz_sizeinbase(N[i], 2);
    struct scaled_tree_shape s;
    if (!scaled_tree_shape_of(n, bits, &s))
        abort();
    if (shape)
        *shape = s;
    if (top > s.depth)
        top = s.depth;
    /* The product tree, an odd level's node T = 1 included, and the squares up to level top. */
    mpz_t *T[SCALED_TREE_MAX_LEVELS], *S[SCALED_TREE_MAX_LEVELS];
    for (unsigned k = 0; k <= s.depth; k++) {
        T[k] = mpz_array_new(s.padded[k]);
        for (size_t j = 0; j < s.padded[k]; j++) {
            if (k == 0 && j < n)
                mpz_set(T[0][j], N[j]);
            else if (k == 0 || j >= s.nodes[k])
                mpz_set_ui(T[k][j], 1);
            else
                mpz_mul(T[k][j], T[k - 1][2 * j], T[k - 1][2 * j + 1]);
        }
    }
    for (unsigned k = 0; k <= top; k++) {
        S[k] = mpz_array_new(s.padded[k]);
        for (size_t j = 0; j < s.padded[k]; j++)
            mpz_mul(S[k][j], T[k][j], T[k][j]);
    }
    const mpz_srcptr P = T[s.depth][0];
    /* Level top: Y_v = floor(2^P_top (P mod S_v) / S_v), the host's exact start (0 for the
     * node T = 1, whose fraction is 0). */
    uint64_t p_bits = 64 * ((uint64_t)s.leaf_words << top);
    mpz_t *Y = mpz_array_new(s.padded[top]);
    for (size_t v = 0; v < s.nodes[top]; v++) {
        mpz_mod(Y[v], P, S[top][v]);
        mpz_mul_2exp(Y[v], Y[v], p_bits);
        mpz_fdiv_q(Y[v], Y[v], S[top][v]);
    }
    /* Down to the leaves by the scaled steps. */
    for (unsigned k = top; k-- > 0;) {
        p_bits /= 2;
        mpz_t *Yc = mpz_array_new(s.padded[k]);
        for (size_t v = 0; v < s.padded[k]; v++)
            step(Yc[v], Y[v / 2], S[k][v ^ 1], p_bits);
        mpz_array_free(Y, s.padded[k + 1]);
        Y = Yc;
    }
    /* The leaves: z_i = ceil(S_i Y_i / 2^P_0), then g_i = gcd(N_i, z_i / N_i). */
    mpz_t z;
    mpz_init(z);
    for (size_t i = 0; i < n; i++) {
        mpz_mul(z, S[0][i], Y[i]);
        mpz_cdiv_q_2exp(z, z, p_bits);
        mpz_divexact(z, z, N[i]);
        mpz_gcd(g[i], z, N[i]);
    }
    mpz_clear(z);
    mpz_array_free(Y, s.padded[0]);
    for (unsigned k = 0; k <= s.depth; k++)
        mpz_array_free(T[k], s.padded[k]);
    for (unsigned k = 0; k <= top; k++)
        mpz_array_free(S[k], s.padded[k]);
}
