#include "shared_factors_tree.h"

#include <omp.h>
#include <stdbool.h>
#include <stdlib.h>

unsigned shared_factors_tree_depth(uint64_t n)
{
    unsigned d = 0;
    while (d < 64 && (UINT64_C(1) << d) < n)
        d++;
    return d;
}

uint64_t shared_factors_tree_steps(uint64_t n)
{
    return n * (2 * (uint64_t)shared_factors_tree_depth(n) + 1);
}

uint64_t shared_factors_tree_bytes(uint64_t n, uint64_t bits, int threads)
{
    /* An mpz of b bits: its limbs and malloc's header, and the mpz_t that points to them. */
    const uint64_t level = n * ((bits + 63) / 64 * 8 + 16 + sizeof(mpz_t));
    const uint64_t root = n * ((bits + 63) / 64 * 8);
    /* The levels of the product tree, two levels of remainders of twice the size, a square of
     * twice a node's size a thread, and GMP's FFT scratch at the root (a few times its size). */
    return (shared_factors_tree_depth(n) + 1 + 4) * level + (uint64_t)threads * 2 * root +
           4 * root;
}

/* Leaves under node j of level k of n leaves. */
static uint64_t covered(size_t n, unsigned k, size_t j)
{
    const uint64_t lo = (uint64_t)j << k, hi = lo + (UINT64_C(1) << k);
    return (hi < n ? hi : n) - lo;
}

mpz_t *shared_factors_mpz_array(size_t n)
{
    mpz_t *x = malloc((n ? n : 1) * sizeof *x);
    if (x)
        for (size_t i = 0; i < n; i++)
            mpz_init(x[i]);
    return x;
}

void shared_factors_mpz_array_free(mpz_t *x, size_t n)
{
    if (!x)
        return;
    for (size_t i = 0; i < n; i++)
        mpz_clear(x[i]);
    free(x);
}

mpgpu_status shared_factors_tree_remainders(size_t count, const mpz_t *T, mpz_t *R,
                                            unsigned base_level, uint64_t n_leaves, int threads,
                                            struct call_progress *p)
{
    if (count == 1) {
        mpz_set(R[0], T[0]); /* P mod P^2 */
        return MPGPU_OK;
    }
    const unsigned depth = shared_factors_tree_depth(count);
    /* level[0] is T itself (never written); level[k] holds the products of pairs of level[k-1],
     * an odd last node carried up as it is, and level[depth] the root P alone. */
    mpz_t **level = calloc(depth + 1, sizeof *level);
    size_t *len = calloc(depth + 1, sizeof *len);
    if (!level || !len) {
        free(level);
        free(len);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    mpgpu_status st = MPGPU_OK;
    len[0] = count;
    for (unsigned k = 1; k <= depth && st == MPGPU_OK; k++) {
        len[k] = (len[k - 1] + 1) / 2;
        if (!(level[k] = shared_factors_mpz_array(len[k]))) {
            st = MPGPU_ERR_OUT_OF_HOST_MEMORY;
            break;
        }
        const mpz_t *below = k == 1 ? T : (const mpz_t *)level[k - 1];
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (size_t j = 0; j < len[k]; j++) {
            if (call_progress_cancelled(p))
                continue;
            if (2 * j + 1 < len[k - 1])
                mpz_mul(level[k][j], below[2 * j], below[2 * j + 1]);
            else
                mpz_set(level[k][j], below[2 * j]);
            call_progress_step(p, covered(n_leaves, base_level + k, j));
        }
        if (p->cancelled)
            st = MPGPU_ERR_CANCELLED;
    }
    /* Down the remainder tree: rem[j] of level k is P mod node(k, j)^2, from its parent's,
     * since node(k, j)^2 divides node(k + 1, j / 2)^2. Each product level is freed once its
     * children's remainders are made, so at most two remainder levels live beside the tree;
     * the last is R, the caller's. */
    mpz_t *rem_up = NULL;
    size_t rem_up_len = 0;
    if (st == MPGPU_OK) {
        rem_up = level[depth];
        rem_up_len = 1;
        level[depth] = NULL;
    }
    for (unsigned k = depth; k-- > 0 && st == MPGPU_OK;) {
        mpz_t *rem = k == 0 ? R : shared_factors_mpz_array(len[k]);
        if (!rem) {
            st = MPGPU_ERR_OUT_OF_HOST_MEMORY;
            break;
        }
        const mpz_t *nodes = k == 0 ? T : (const mpz_t *)level[k];
#pragma omp parallel num_threads(threads)
        {
            mpz_t square;
            mpz_init(square);
#pragma omp for schedule(dynamic, 1)
            for (size_t j = 0; j < len[k]; j++) {
                if (call_progress_cancelled(p))
                    continue;
                mpz_mul(square, nodes[j], nodes[j]);
                mpz_tdiv_r(rem[j], rem_up[j / 2], square);
                call_progress_step(p, covered(n_leaves, base_level + k, j));
            }
            mpz_clear(square);
        }
        shared_factors_mpz_array_free(rem_up, rem_up_len);
        rem_up = k == 0 ? NULL : rem;
        rem_up_len = k == 0 ? 0 : len[k];
        if (k > 0) {
            shared_factors_mpz_array_free(level[k], len[k]);
            level[k] = NULL;
        }
        if (p->cancelled)
            st = MPGPU_ERR_CANCELLED;
    }
    shared_factors_mpz_array_free(rem_up, rem_up_len);
    for (unsigned k = 1; k <= depth; k++)
        shared_factors_mpz_array_free(level[k], len[k]);
    free(level);
    free(len);
    return st;
}

mpgpu_status shared_factors_tree_leaves(size_t n, const mpz_t *N, mpz_t *z, mpz_t *g, int threads,
                                        struct call_progress *p)
{
    /* z is a multiple of N_i: z / N_i is prod over j != i of N_j mod N_i (or N_i itself). */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64)
    for (size_t i = 0; i < n; i++) {
        if (call_progress_cancelled(p))
            continue;
        mpz_divexact(z[i], z[i], N[i]);
        mpz_gcd(g[i], N[i], z[i]);
        call_progress_step(p, 1);
    }
    return p->cancelled ? MPGPU_ERR_CANCELLED : MPGPU_OK;
}

mpgpu_status shared_factors_tree(size_t n, const mpz_t *N, mpz_t *g, int threads,
                                 mpgpu_progress_fn progress, void *progress_ctx)
{
    struct call_progress p = call_progress_start(progress, progress_ctx, shared_factors_tree_steps(n));
    mpz_t *z = shared_factors_mpz_array(n);
    if (!z)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    mpgpu_status st = shared_factors_tree_remainders(n, N, z, 0, n, threads, &p);
    if (st == MPGPU_OK)
        st = shared_factors_tree_leaves(n, N, z, g, threads, &p);
    shared_factors_mpz_array_free(z, n);
    return st;
}
