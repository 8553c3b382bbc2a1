/* The scaled remainder tree's batch GCD: scaled_remainder_tree.h says what and why. Plain GMP on
 * one thread, level by level as a GPU would take it: a model to check the algorithm and its
 * precision against the all-pairs twin, not a fast path. */
#include "scaled_remainder_tree.h"

#include <stdlib.h>

#include "mpz_arrays.h"

static uint64_t bits_of(const mpz_t x)
{
    return (uint64_t)mpz_sizeinbase(x, 2);
}

void scaled_tree_g(size_t n, const mpz_t *N, mpz_t *g, struct scaled_tree_shape *shape)
{
    /* Level k has count[k] nodes; a node without a sibling goes up unchanged. */
    size_t count[SCALED_TREE_MAX_LEVELS];
    unsigned depth = 0;
    count[0] = n;
    while (count[depth] > 1 && depth + 1 < SCALED_TREE_MAX_LEVELS) {
        count[depth + 1] = (count[depth] + 1) / 2;
        depth++;
    }
    const unsigned guard = depth + 3;
    mpz_t *T[SCALED_TREE_MAX_LEVELS], *S[SCALED_TREE_MAX_LEVELS];
    for (unsigned k = 0; k <= depth; k++) {
        T[k] = mpz_array_new(count[k]);
        S[k] = mpz_array_new(count[k]);
    }
    /* The product tree and every node's square. */
    for (size_t i = 0; i < n; i++)
        mpz_set(T[0][i], N[i]);
    for (unsigned k = 0; k < depth; k++)
        for (size_t j = 0; j < count[k + 1]; j++) {
            if (2 * j + 1 < count[k])
                mpz_mul(T[k + 1][j], T[k][2 * j], T[k][2 * j + 1]);
            else
                mpz_set(T[k + 1][j], T[k][2 * j]);
        }
    for (unsigned k = 0; k <= depth; k++)
        for (size_t j = 0; j < count[k]; j++)
            mpz_mul(S[k][j], T[k][j], T[k][j]);
    if (shape) {
        shape->levels = depth + 1;
        shape->guard = guard;
        for (unsigned k = 0; k <= depth; k++) {
            shape->nodes[k] = count[k];
            shape->widest_operand_bits[k] = 0;
        }
    }

    /* The root: y = frac(P / P^2) = 1 / P, to p = bits(P^2) + guard bits, by the one division. */
    mpz_t *Y = mpz_array_new(1), t;
    mpz_init(t);
    uint64_t *p = malloc(sizeof *p);
    if (!p)
        abort();
    p[0] = bits_of(S[depth][0]) + guard;
    mpz_set_ui(t, 0);
    mpz_setbit(t, p[0]);
    mpz_fdiv_q(Y[0], t, T[depth][0]);
    /* Down the tree: y_v = frac(y_u T_s^2) to p_v bits, Y_v = floor(Y_u T_s^2 / 2^(p_u - p_v))
     * mod 2^p_v; a node without a sibling keeps its parent's fraction, as its T is the same. */
    for (unsigned k = depth; k-- > 0;) {
        mpz_t *Yc = mpz_array_new(count[k]);
        uint64_t *pc = malloc(count[k] * sizeof *pc);
        if (!pc)
            abort();
        for (size_t v = 0; v < count[k]; v++) {
            const size_t u = v / 2, s = v ^ 1;
            pc[v] = bits_of(S[k][v]) + guard;
            if (s >= count[k]) {
                mpz_set(Yc[v], Y[u]);
                continue;
            }
            mpz_mul(t, Y[u], S[k][s]);
            mpz_fdiv_q_2exp(t, t, p[u] - pc[v]);
            mpz_fdiv_r_2exp(Yc[v], t, pc[v]);
            if (shape) {
                const uint64_t w = p[u] > bits_of(S[k][s]) ? p[u] : bits_of(S[k][s]);
                if (w > shape->widest_operand_bits[k])
                    shape->widest_operand_bits[k] = w;
            }
        }
        mpz_array_free(Y, count[k + 1]);
        free(p);
        Y = Yc, p = pc;
    }
    /* The leaves: z_i = ceil(N_i^2 Y_i / 2^p_i) mod N_i^2 = P mod N_i^2; then g_i. */
    for (size_t i = 0; i < n; i++) {
        mpz_mul(t, S[0][i], Y[i]);
        mpz_cdiv_q_2exp(t, t, p[i]);
        mpz_mod(t, t, S[0][i]);
        mpz_divexact(t, t, N[i]);
        mpz_gcd(g[i], t, N[i]);
        if (shape) {
            const uint64_t w = p[i] > bits_of(S[0][i]) ? p[i] : bits_of(S[0][i]);
            if (w > shape->widest_operand_bits[0])
                shape->widest_operand_bits[0] = w;
        }
    }
    mpz_array_free(Y, n);
    free(p);
    mpz_clear(t);
    for (unsigned k = 0; k <= depth; k++) {
        mpz_array_free(T[k], count[k]);
        mpz_array_free(S[k], count[k]);
    }
}
