/* Arrays of n initialised mpz_t, for the CPU twins and tests that keep sets of numbers; abort()
 * when the host is out of memory, as GMP itself does. */
#ifndef MPGPU_MPZ_ARRAYS_H
#define MPGPU_MPZ_ARRAYS_H

#include <gmp.h>
#include <stdlib.h>

static inline mpz_t *mpz_array_new(size_t n)
{
    mpz_t *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        abort();
    for (size_t i = 0; i < n; i++)
        mpz_init(x[i]);
    return x;
}

static inline void mpz_array_free(mpz_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mpz_clear(x[i]);
    free(x);
}

#endif
