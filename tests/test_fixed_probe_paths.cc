// cpu suite: the two Montgomery paths of the probe experiments/fixed_pipes.cu (issue 39), run on
// the host as the probe's kernels run them, against GMP: the FP64 columns (23-bit limbs, column
// sums in doubles, experiments/fixed_fp64_columns.cuh) and the carries path (each word product's
// low word by a 32-bit multiply, the column sums approximate in doubles, the carries recovered
// exactly, experiments/fixed_fp64_carries.cuh). They are measured negative results, kept to be
// reproduced, so their arithmetic is checked here as the library's is.
//
// For each word count (the columns path up to the 15 words its bound allows, the carries path up
// to 16) and chains of 1, 2, 9 and 60 montmuls x <- x b 2^(-32N) mod m: seeded random odd moduli,
// moduli with the top bit set and all-ones moduli, operands random and 0, 1 and m - 1; the result
// must equal a b^k 2^(-32Nk) mod m, the columns path must leave nothing above its top limb, and the
// carries path's doubles must equal its words. Prints the seed on failure and the checks made.
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <initializer_list>

#include "../experiments/fixed_fp64_carries.cuh"
#include "../experiments/fixed_fp64_columns.cuh"
#include "fixed_mont.cuh"

namespace {

unsigned long checks, failures;

// x <- x b 2^(-32N) mod m, chain times, on one path, as the probe runs it; returns false if the
// path's own invariant (nothing above the top limb; doubles equal to words) broke.
template <int N, class Chain>
bool run_path(uint32_t (&x)[N], const uint32_t (&b)[N], const uint32_t (&m)[N], int chain)
{
    Chain c(x, b, m, fixed::mont_neg_inv(m[0]));
    uint32_t broken = 0;
    for (int k = 0; k < chain; k++)
        broken |= c.step();
    c.result(x);
    return broken == 0;
}

template <int N, class Chain> void check_words(const char *name, unsigned long seed)
{
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, seed);
    mpz_t m, a, b, r, want, e;
    mpz_inits(m, a, b, r, want, e, NULL);
    for (int chain : {1, 2, 9, 60})
        for (int it = 0; it < 300; it++) {
            // Moduli: random odd, random odd with the top bit, all ones; operands: random, and
            // 0, 1 and m - 1 in turn.
            mpz_urandomb(m, st, 32 * N);
            if (it % 3 == 1)
                mpz_setbit(m, 32 * N - 1);
            if (it % 7 == 2) {
                mpz_set_ui(m, 0);
                mpz_setbit(m, 32 * N);
                mpz_sub_ui(m, m, 1);
            }
            mpz_setbit(m, 0);
            if (mpz_cmp_ui(m, 3) < 0)
                mpz_set_ui(m, 3);
            mpz_urandomm(a, st, m);
            mpz_urandomm(b, st, m);
            switch (it % 11) {
            case 1: mpz_set_ui(a, 0); break;
            case 2: mpz_set_ui(b, 1); break;
            case 3: mpz_sub_ui(a, m, 1); mpz_sub_ui(b, m, 1); break;
            case 4: mpz_set_ui(a, 1); mpz_sub_ui(b, m, 1); break;
            }
            uint32_t mw[N] = {0}, x[N] = {0}, bw[N] = {0};
            mpz_export(mw, NULL, -1, 4, 0, 0, m);
            mpz_export(x, NULL, -1, 4, 0, 0, a);
            mpz_export(bw, NULL, -1, 4, 0, 0, b);
            const bool invariant = run_path<N, Chain>(x, bw, mw, chain);
            // want = a (b 2^(-32N))^chain mod m
            mpz_set_ui(e, 0);
            mpz_setbit(e, 32 * N);
            mpz_invert(want, e, m);
            mpz_mul(want, want, b);
            mpz_mod(want, want, m);
            mpz_set_ui(e, (unsigned long)chain);
            mpz_powm(want, want, e, m);
            mpz_mul(want, want, a);
            mpz_mod(want, want, m);
            mpz_import(r, N, -1, 4, 0, 0, x);
            checks++;
            if (!invariant || mpz_cmp(r, want) != 0) {
                if (failures++ < 5)
                    gmp_fprintf(stderr,
                                "test_fixed_probe_paths: the %s path, %d words, chain %d, "
                                "seed %lu, case %d: %s\n  m = %Zx\n  a = %Zx\n  b = %Zx\n"
                                "  got %Zx\n  want %Zx\n",
                                name, N, chain, seed, it,
                                invariant ? "wrong result" : "its invariant broke", m, a, b, r,
                                want);
            }
        }
    mpz_clears(m, a, b, r, want, e, NULL);
    gmp_randclear(st);
}

} // namespace

int main(int argc, char **argv)
{
    const unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 39;
    check_words<1, fixed::carries::Chain<1>>("carries", seed);
    check_words<4, fixed::columns::Chain<4>>("columns", seed);
    check_words<4, fixed::carries::Chain<4>>("carries", seed);
    check_words<8, fixed::columns::Chain<8>>("columns", seed);
    check_words<8, fixed::carries::Chain<8>>("carries", seed);
    check_words<12, fixed::columns::Chain<12>>("columns", seed);
    check_words<12, fixed::carries::Chain<12>>("carries", seed);
    check_words<15, fixed::columns::Chain<15>>("columns", seed);
    check_words<16, fixed::carries::Chain<16>>("carries", seed);
    printf("test_fixed_probe_paths: %lu checks, %lu failed (seed %lu)\n", checks, failures, seed);
    return failures || checks == 0;
}
