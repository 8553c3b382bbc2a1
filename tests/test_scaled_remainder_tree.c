/* cpu suite: the scaled remainder tree's batch GCD (cpu_ref/scaled_remainder_tree.c, the model
 * of issue 38's GPU tree) against the all-pairs twin (shared_factors_pairs_g): every g_i of
 * - RSA-like sets of --make-moduli's generator with every relation planted, at 256, 1024 and
 *   2048 bits, counts that make full and lopsided trees (a node without a sibling at several
 *   levels);
 * - two and three moduli; equal moduli; one modulus dividing another; moduli of all-ones words
 *   (2^k - 1, which share factors among themselves); seeded random odd numbers of unequal
 *   lengths, 64 to 700 bits, with shared random primes;
 * and the tree's shape: its depth, nodes, guard bits, and the widest multiplication of each
 * level, printed for the 2048-bit set (the levels a GPU multiplication of at most 65536 bits
 * would take). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpz_arrays.h"
#include "rsa_moduli.h"
#include "scaled_remainder_tree.h"
#include "shared_factors_pairs.h"
#include "test_seed.h"

static gmp_randstate_t rng;

/* Every g_i of the tree against the twin's. */
static void check_set(size_t n, mpz_t *N, const char *what, struct scaled_tree_shape *shape)
{
    mpz_t *g = mpz_array_new(n), want;
    mpz_init(want);
    scaled_tree_g(n, (const mpz_t *)N, g, shape);
    for (size_t i = 0; i < n; i++) {
        shared_factors_pairs_g(n, (const mpz_t *)N, i, want);
        CHECK(mpz_cmp(g[i], want) == 0, "%s: %zu moduli, g_%zu has %zu bits, want %zu", what, n,
              i, mpz_sizeinbase(g[i], 2), mpz_sizeinbase(want, 2));
    }
    mpz_clear(want);
    mpz_array_free(g, n);
}

static void planted_set(size_t n, unsigned bits, struct scaled_tree_shape *shape)
{
    mpz_t *N = mpz_array_new(n);
    struct rsa_planted planted[RSA_PLANT_KINDS];
    size_t n_planted = 0;
    if (rsa_moduli_make(N, n, bits, seed + n + bits, RSA_PLANT_ALL, 1, NULL, planted,
                        &n_planted) != 0)
        abort();
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
    CHECK(shape.levels == 10 && shape.nodes[0] == 300 && shape.nodes[shape.levels - 1] == 1 &&
              shape.guard == 12,
          "shape of 300 moduli: %u levels, %zu leaves, %zu at the root, guard %u; want 10, 300, "
          "1, 12",
          shape.levels, shape.nodes[0], shape.nodes[shape.levels - 1], shape.guard);
    printf("scaled tree of 300 moduli of 2048 bits: level, nodes, widest multiplication operand\n");
    for (unsigned k = 0; k < shape.levels; k++)
        printf("  %u %zu %llu\n", k, shape.nodes[k],
               (unsigned long long)shape.widest_operand_bits[k]);
    gmp_randclear(rng);
    return test_finish("scaled_remainder_tree");
}
