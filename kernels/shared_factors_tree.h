/* Bernstein's batch GCD on the host ("How to find smooth parts of integers", 2004; the
 * shared-factor search of Heninger et al. 2012): a product tree of the moduli, a remainder tree
 * of its root P modulo the squares of its nodes, and at each leaf g_i = gcd(N_i, (P mod N_i^2) /
 * N_i) = gcd(N_i, prod over j != i of N_j). GMP does the arithmetic; OpenMP runs the nodes of a
 * level in parallel. The `tree-cpu` method of mpgpu_shared_factors_gcds, and the levels above
 * the GPU's in `tree-gpu`. */
#ifndef MPGPU_SHARED_FACTORS_TREE_H
#define MPGPU_SHARED_FACTORS_TREE_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "call_progress.h"
#include "mpgpu.h"

/* n initialised mpz_t (NULL when host memory is short), and their release (NULL: nothing). */
mpz_t *shared_factors_mpz_array(size_t n);
void shared_factors_mpz_array_free(mpz_t *x, size_t n);

/* Levels above the leaves of the product tree of n >= 1 moduli: ceil(log2 n). */
unsigned shared_factors_tree_depth(uint64_t n);

/* Steps the progress function counts for n moduli: each modulus through each level of both
 * trees, and its final GCD. */
uint64_t shared_factors_tree_steps(uint64_t n);

/* Host bytes of the trees of n moduli of `bits` bits on `threads` threads, from above: every
 * level of the product tree (each about n * bits bits), two levels of remainders (each modulo a
 * square, so twice that), and each thread's square and GMP's scratch for the root's products. */
uint64_t shared_factors_tree_bytes(uint64_t n, uint64_t bits, int threads);


/* R[j] = P mod T[j]^2 for the `count` >= 1 nodes T of level `base_level` of the tree of n_leaves
 * moduli (level 0: the moduli themselves), P their product: the product tree above them, then
 * the remainder tree down to them, on `threads` >= 1 threads (R: count initialised mpz_t).
 * Progress counts each leaf through each level from `base_level` up and back down. Returns
 * MPGPU_OK, MPGPU_ERR_OUT_OF_HOST_MEMORY (an array of the trees; GMP itself aborts when its own
 * allocation fails) or MPGPU_ERR_CANCELLED. */
mpgpu_status shared_factors_tree_remainders(size_t count, const mpz_t *T, mpz_t *R,
                                            unsigned base_level, uint64_t n_leaves, int threads,
                                            struct call_progress *p);

/* The leaves: g[i] = gcd(N[i], z[i] / N[i]) for z[i] = P mod N[i]^2, or any other multiple of
 * N[i] congruent to it mod N[i]^2 (z is overwritten), a progress step each. */
mpgpu_status shared_factors_tree_leaves(size_t n, const mpz_t *N, mpz_t *z, mpz_t *g, int threads,
                                        struct call_progress *p);

/* g[i] = gcd(N[i], prod over j != i of N[j]) for n >= 2 moduli N (odd, > 1; not changed) on
 * `threads` >= 1 threads: the remainders of the moduli, then the leaves. Returns as
 * shared_factors_tree_remainders (g is unspecified after MPGPU_ERR_CANCELLED). */
mpgpu_status shared_factors_tree(size_t n, const mpz_t *N, mpz_t *g, int threads,
                                 mpgpu_progress_fn progress, void *progress_ctx);

/* Device bytes tree-gpu takes at its peak for n moduli of at most `bits` bits, from above
 * (MPGPU_ERR_UNSUPPORTED_SIZE past its sizes). */
mpgpu_status shared_factors_tree_gpu_device_bytes(uint64_t n, uint64_t bits, uint64_t *bytes);

/* The same by tree-gpu (shared_factors_tree_gpu.c): the moduli also as n x `words` words (the
 * upload); 32767 bits at most. Also returns MPGPU_ERR_NO_DEVICE, _OUT_OF_DEVICE_MEMORY (checked
 * before any work) and _CUDA. */
mpgpu_status shared_factors_tree_gpu(size_t n, const uint32_t *moduli, size_t words,
                                     const mpz_t *N, mpz_t *g, int threads,
                                     mpgpu_progress_fn progress, void *progress_ctx);

#endif
