/* The seed of a test run: MPGPU_TEST_SEED when set (to replay a failure), else a fixed default;
 * tests print it with every failure, as GMP's tests do (GMP_CHECK_RANDOMIZE). */
#ifndef MPGPU_TEST_SEED_H
#define MPGPU_TEST_SEED_H

#include <stdint.h>
#include <stdlib.h>

static inline uint64_t test_seed(void)
{
    const char *s = getenv("MPGPU_TEST_SEED");
    return s ? strtoull(s, NULL, 0) : UINT64_C(20261122);
}

#endif
