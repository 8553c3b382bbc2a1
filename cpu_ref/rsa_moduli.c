#include "rsa_moduli.h"

#include <stdlib.h>

#include "loop_run.h"
#include "random_words.h"

const char *const rsa_plant_names[RSA_PLANT_KINDS] = {"shared", "duplicate", "both", "small"};

static const unsigned plant_size[RSA_PLANT_KINDS] = {3, 2, 3, 1};

unsigned rsa_plant_moduli(unsigned plants)
{
    unsigned n = 0;
    for (unsigned k = 0; k < RSA_PLANT_KINDS; k++)
        n += (plants >> k & 1) ? plant_size[k] : 0;
    return n;
}

/* The random streams of the seed: two a modulus, then one a planted prime. */
#define PRIME_STREAM(i, j) (2 * (uint64_t)(i) + (j))

/* A prime of exactly `bits` bits (>= 3), its top two bits set, from a stream of the seed: the
 * next prime after a random start, drawn again from the stream's next counter in the rare case
 * that it runs past `bits` bits. */
static void random_prime(mpz_t p, unsigned bits, uint64_t seed, uint64_t stream)
{
    const size_t words = (bits + 31) / 32;
    uint32_t buf[2048 + 1];
    for (uint64_t attempt = 0;; attempt++) {
        random_words(seed ^ splitmix64(attempt), stream, buf, words);
        mpz_import(p, words, -1, sizeof buf[0], 0, 0, buf);
        mpz_fdiv_r_2exp(p, p, bits);
        mpz_setbit(p, bits - 1);
        mpz_setbit(p, bits - 2);
        mpz_nextprime(p, p);
        if (mpz_sizeinbase(p, 2) == bits)
            return;
    }
}

int rsa_moduli_make(mpz_t *N, size_t n, unsigned bits, uint64_t seed, unsigned plants,
                    int threads, const struct loop_watch *watch, struct rsa_planted *planted,
                    size_t *n_planted)
{
    struct loop_run run;
    loop_run_start(&run, watch);
    /* The planted moduli's places: distinct, drawn from the seed. */
    const unsigned need = rsa_plant_moduli(plants);
    size_t *place = malloc((need ? need : 1) * sizeof *place);
    uint64_t draw = 0;
    for (unsigned k = 0; k < need; k++) {
        for (;;) {
            uint32_t w[2];
            random_words(seed ^ splitmix64(draw++), PRIME_STREAM(n, 0), w, 2);
            place[k] = (size_t)((((uint64_t)w[1] << 32) | w[0]) % n);
            unsigned seen = 0;
            while (seen < k && place[seen] != place[k])
                seen++;
            if (seen == k)
                break;
        }
    }
#pragma omp parallel num_threads(threads)
    {
        mpz_t p, q;
        mpz_init(p);
        mpz_init(q);
#pragma omp for schedule(dynamic, 16)
        for (size_t i = 0; i < n; i++) {
            if (loop_run_stopped(&run))
                continue;
            random_prime(p, bits / 2, seed, PRIME_STREAM(i, 0));
            random_prime(q, bits / 2, seed, PRIME_STREAM(i, 1));
            mpz_mul(N[i], p, q);
            loop_run_item_done(&run, i);
        }
        mpz_clear(p);
        mpz_clear(q);
    }
    if (loop_run_stopped(&run)) {
        free(place);
        return LOOP_STOPPED;
    }
    /* Each plant rebuilds its moduli from primes of its own streams (past the moduli's). */
    mpz_t p, q, r, s;
    mpz_inits(p, q, r, s, NULL);
    const uint64_t plant_stream = PRIME_STREAM(n, 1);
    *n_planted = 0;
    unsigned used = 0;
    for (unsigned k = 0; k < RSA_PLANT_KINDS; k++) {
        if (!(plants >> k & 1))
            continue;
        struct rsa_planted *pl = &planted[(*n_planted)++];
        pl->kind = (enum rsa_plant)(1u << k);
        pl->count = plant_size[k];
        for (unsigned m = 0; m < pl->count; m++)
            pl->index[m] = place[used + m];
        used += pl->count;
        const uint64_t st = plant_stream + 8 * k;
        const size_t *x = pl->index;
        random_prime(p, bits / 2, seed, st);
        random_prime(q, bits / 2, seed, st + 1);
        random_prime(r, bits / 2, seed, st + 2);
        random_prime(s, bits / 2, seed, st + 3);
        switch (pl->kind) {
        case RSA_PLANT_SHARED:
            mpz_mul(N[x[0]], p, q);
            mpz_mul(N[x[1]], p, r);
            mpz_mul(N[x[2]], p, s);
            break;
        case RSA_PLANT_DUPLICATE:
            mpz_mul(N[x[0]], p, q);
            mpz_set(N[x[1]], N[x[0]]);
            break;
        case RSA_PLANT_BOTH:
            mpz_mul(N[x[0]], p, q);
            mpz_mul(N[x[1]], p, r);
            mpz_mul(N[x[2]], q, s);
            break;
        case RSA_PLANT_SMALL:
            /* A prime of 15 or 16 bits times one of the rest, so N keeps its size. */
            random_prime(p, 16, seed, st + 4);
            random_prime(q, bits - 16, seed, st + 5);
            mpz_mul(N[x[0]], p, q);
            break;
        default:
            break;
        }
    }
    mpz_clears(p, q, r, s, NULL);
    free(place);
    return 0;
}
