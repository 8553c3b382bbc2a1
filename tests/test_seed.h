/* The seed of a test run: MPGPU_TEST_SEED when set (to replay a failure), else a fixed default;
 * tests print it with every failure, as GMP's tests do (GMP_CHECK_RANDOMIZE). */
#ifndef MPGPU_TEST_SEED_H
#define MPGPU_TEST_SEED_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline uint64_t test_seed(void)
{
    const char *s = getenv("MPGPU_TEST_SEED");
    return s ? strtoull(s, NULL, 0) : UINT64_C(20261122);
}

/* The state of one test program (each is a single translation unit): its seed, and the checks
 * made and failed so far. */
static uint64_t seed __attribute__((unused));
static int checks __attribute__((unused)), failures __attribute__((unused));

/* Counts a check; a failed one is printed with the seed. */
#define CHECK(cond, ...)                                                                    \
    do {                                                                                    \
        checks++;                                                                           \
        if (!(cond)) {                                                                      \
            printf("FAIL (seed %llu) %s:%d: ", (unsigned long long)seed, __FILE__, __LINE__); \
            printf(__VA_ARGS__);                                                            \
            printf("\n");                                                                   \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

#endif
