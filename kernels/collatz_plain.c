#include "collatz_plain.h"

#include <gmp.h>
#include <omp.h>

typedef unsigned __int128 u128;

/* 3v + 1 stays below 2^128 while v < 2^126. */
#define FITS_128(v) ((v) >> 126 == 0)

static int threads_or_all(int threads)
{
    return threads > 0 ? threads : omp_get_num_procs();
}

static void mpz_set_u128(mpz_t z, u128 v)
{
    mpz_set_ui(z, (unsigned long)(uint64_t)(v >> 64));
    mpz_mul_2exp(z, z, 64);
    mpz_add_ui(z, z, (unsigned long)(uint64_t)v);
}

/* Continues in GMP from v, ops operations done, until the value is below `floor` (floor 2:
 * until it is 1). Returns the operations, or UINT64_MAX past the limit. */
static uint64_t gmp_continue(u128 v, uint64_t ops, uint64_t floor)
{
    mpz_t z;
    mpz_init(z);
    mpz_set_u128(z, v);
    while (mpz_cmp_ui(z, (unsigned long)floor) >= 0) {
        if (ops > COLLATZ_PLAIN_MAX_OPS) {
            ops = UINT64_MAX;
            break;
        }
        if (mpz_odd_p(z)) {
            mpz_mul_ui(z, z, 3);
            mpz_add_ui(z, z, 1);
        } else {
            mpz_tdiv_q_2exp(z, z, 1);
        }
        ops++;
    }
    mpz_clear(z);
    return ops;
}

/* Operations from v until the value is below floor, by plain iteration. */
static uint64_t run_below(u128 v, uint64_t floor)
{
    uint64_t ops = 0;
    while (v >= floor) {
        if (ops > COLLATZ_PLAIN_MAX_OPS)
            return UINT64_MAX;
        if (v & 1) {
            if (!FITS_128(v))
                return gmp_continue(v, ops, floor);
            v = 3 * v + 1;
        } else {
            v >>= 1;
        }
        ops++;
    }
    return ops;
}

int collatz_plain_delay(uint64_t n, uint32_t *delay)
{
    uint64_t ops = run_below(n, 2);
    if (ops == UINT64_MAX)
        return -1;
    *delay = (uint32_t)ops;
    return 0;
}

int collatz_plain_descends(uint64_t m, uint64_t *ops)
{
    uint64_t k = run_below(m, m);
    if (ops)
        *ops = k;
    return k != UINT64_MAX;
}

int collatz_plain_after_evens(uint64_t m, unsigned evens, uint64_t *lo, uint64_t *hi)
{
    u128 v = m;
    for (unsigned e = 0; e < evens;) {
        if (v & 1) {
            if (!FITS_128(v))
                return -1;
            v = 3 * v + 1;
        } else {
            v >>= 1;
            e++;
        }
    }
    *lo = (uint64_t)v;
    *hi = (uint64_t)(v >> 64);
    return 0;
}

size_t collatz_plain_verify_descents(const uint64_t *m, size_t n, int threads)
{
    size_t first_bad = n;
    const long count = (long)n;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_or_all(threads)) if (n > 16)
    for (long i = 0; i < count; i++)
        if (!collatz_plain_descends(m[i], NULL)) {
#pragma omp critical(collatz_first_bad)
            if ((size_t)i < first_bad)
                first_bad = (size_t)i;
        }
    return first_bad;
}

size_t collatz_plain_delays(const uint64_t *n, size_t count, uint32_t *delay, int threads)
{
    size_t first_bad = count;
    const long c = (long)count;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads_or_all(threads)) if (count > 256)
    for (long i = 0; i < c; i++)
        if (collatz_plain_delay(n[i], &delay[i]) != 0) {
#pragma omp critical(collatz_first_bad)
            if ((size_t)i < first_bad)
                first_bad = (size_t)i;
        }
    return first_bad;
}
