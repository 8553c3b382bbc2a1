/* cpu suite: the scaled remainder tree's batch GCD (cpu_ref/scaled_remainder_tree.c, the model
 * of tree-gpu) against the all-pairs twin (shared_factors_pairs_g): every g_i of
 * - RSA-like sets of --make-moduli's generator with every relation planted, at 256, 1024 and
 *   2048 bits, counts that make full and lopsided trees (a node without a sibling at several
 *   levels);
 * - two and three moduli; equal moduli; one modulus dividing another; moduli of all-ones words
 *   (2^k - 1, which share factors among themselves); seeded random odd numbers of unequal
 *   lengths, 64 to 700 bits, with shared random primes;
 * each set with the exact start at the leaves, at the level tree-gpu starts its GPU steps from,
 * one level below the root and at the root (every level a scaled step); and the tree's shape
 * for 300 moduli of 2048 bits (leaf width, depth, padded nodes, the levels the GPU takes). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpz_arrays.h"
#include "planted_moduli.h"
#include "scaled_remainder_tree.h"
#include "shared_factors_pairs.h"
#include "test_seed.h"

static gmp_randstate_t rng;

/* Every g_i of the tree, started at each of the levels above, against the twin's. */
static void check_set(size_t n, mpz_t *N, const char *what, struct scaled_tree_shape *shape)
{
    mpz_t *g = mpz_array_new(n), *want = mpz_array_new(n);
    for (size_t i = 0; i < n; i++)
        shared_factors_pairs_g(n, (const mpz_t *)N, i, want[i]);
    struct scaled_tree_shape s;
    scaled_tree_g(n, (const mpz_t *)N, g, 0, &s);
    const unsigned tops[4] = {0, s.gpu_levels, s.depth ? s.depth - 1 : 0, s.depth};
    for (int t = 0; t < 4; t++) {
        if (t > 0)
            scaled_tree_g(n, (const mpz_t *)N, g, tops[t], NULL);
        for (size_t i = 0; i < n; i++)
            CHECK(mpz_cmp(g[i], want[i]) == 0,
                  "%s: %zu moduli from level %u of %u, g_%zu has %zu bits, want %zu", what, n,
                  tops[t], s.depth, i, mpz_sizeinbase(g[i], 2), mpz_sizeinbase(want[i], 2));
    }
    if (shape)
        *shape = s;
    mpz_array_free(want, n);
    mpz_array_free(g, n);
}

static void planted_set(size_t n, unsigned bits, struct scaled_tree_shape *shape)
{
    mpz_t *N = planted_moduli(n, bits, seed + n + bits);
    char what[64];
    snprintf(what, sizeof what, "planted set of %u bits", bits);
    check_set(n, N, what, shape);
    mpz_array_free(N, n);
}

/* n random odd numbers of 64..700 bits, some sharing random primes. */
static void random_set(size_t n)
{
    mpz_t *N = mpz_array_new(n), prime;
    mpz_init(prime);
    for (size_t i = 0; i < n; i++) {
        mpz_urandomb(N[i], rng, 64 + gmp_urandomm_ui(rng, 637));
        mpz_setbit(N[i], 0);
        if (mpz_cmp_ui(N[i], 1) == 0)
            mpz_set_ui(N[i], 3);
        if (gmp_urandomm_ui(rng, 4) == 0) {
            mpz_urandomb(prime, rng, 40 + gmp_urandomm_ui(rng, 200));
            mpz_nextprime(prime, prime);
            mpz_mul(N[i], N[i], prime);
            mpz_mul(N[(i + 1) % n], N[(i + 1) % n], prime);
        }
    }
    check_set(n, N, "random odd numbers with shared primes", NULL);
    mpz_clear(prime);
    mpz_array_free(N, n);
}

static void edge_sets(void)
{
    mpz_t *N = mpz_array_new(6);
    mpz_set_ui(N[0], 15), mpz_set_ui(N[1], 35);
    check_set(2, N, "two moduli sharing 5", NULL);
    mpz_set_ui(N[0], 3), mpz_set_ui(N[1], 5), mpz_set_ui(N[2], 7);
    check_set(3, N, "three coprime primes", NULL);
    mpz_set_str(N[0], "c0000000000000000000000000000001", 16);
    mpz_set(N[1], N[0]);
    mpz_set_ui(N[2], 1000003);
    check_set(3, N, "two equal moduli and a prime", NULL);
    mpz_set_ui(N[0], 1000003);
    mpz_mul_ui(N[1], N[0], 999983);
    mpz_set_ui(N[2], 65537);
    check_set(3, N, "one modulus dividing another", NULL);
    /* 2^k - 1 for k = 64, 96, 128, 192, 256, 320: all-ones words, sharing factors. */
    const unsigned k[6] = {64, 96, 128, 192, 256, 320};
    for (int i = 0; i < 6; i++) {
        mpz_set_ui(N[i], 0);
        mpz_setbit(N[i], k[i]);
        mpz_sub_ui(N[i], N[i], 1);
    }
    check_set(6, N, "2^k - 1 (all-ones words)", NULL);
    mpz_array_free(N, 6);
}

int main(void)
{
    seed = test_seed();
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, (unsigned long)seed);
    edge_sets();
    for (int r = 0; r < 20; r++)
        random_set(2 + gmp_urandomm_ui(rng, 40));
    const size_t counts[] = {16, 17, 33, 100};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        planted_set(counts[c], 256, NULL);
        planted_set(counts[c], 1024, NULL);
    }
    struct scaled_tree_shape shape;
    planted_set(300, 2048, &shape);
    /* 300 -> 150 -> 75 (+1) -> 38 -> 19 (+1) -> 10 -> 5 (+1) -> 3 (+1) -> 2 -> 1; leaves of 65
     * words (2048 bits and one spare word), steps of 130, 260, 520 and 1040 words on the GPU. */
    CHECK(shape.depth == 9 && shape.leaf_words == 65 && shape.gpu_levels == 4 &&
              shape.nodes[2] == 75 && shape.padded[2] == 76 && shape.nodes[3] == 38 &&
              shape.padded[7] == 4 && shape.nodes[9] == 1 && shape.padded[9] == 1,
          "shape of 300 moduli: depth %u, %u-word leaves, %u GPU levels, level 2 %zu/%zu, level 7 "
          "%zu/%zu; want 9, 65, 4, 75/76, 3/4",
          shape.depth, shape.leaf_words, shape.gpu_levels, shape.nodes[2], shape.padded[2],
          shape.nodes[7], shape.padded[7]);
    printf("scaled tree of 300 moduli of 2048 bits: level, nodes (padded), step operand bits\n");
    for (unsigned k = 0; k <= shape.depth; k++)
        printf("  %u %zu (%zu) %llu%s\n", k, shape.nodes[k], shape.padded[k],
               64ull * ((unsigned long long)shape.leaf_words << k),
               k < shape.gpu_levels ? " gpu" : "");
    gmp_randclear(rng);
    return test_finish("scaled_remainder_tree");
}
