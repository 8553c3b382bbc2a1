/* What every C test program shares: its seed, its counts of checks, failures and cases that do
 * not apply to this machine, and its last line.
 *
 * The seed is MPGPU_TEST_SEED when set (to replay a failure), else a fixed default; failures are
 * printed with it, as GMP's tests do (GMP_CHECK_RANDOMIZE). A program ends with
 * `return test_finish("test_name");`, which prints one summary line and fails the program when it
 * made no check at all: a filter that matched nothing, or cases that were all skipped, must not
 * read as a pass. */
#ifndef MPGPU_TEST_SEED_H
#define MPGPU_TEST_SEED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t test_seed(void)
{
    const char *s = getenv("MPGPU_TEST_SEED");
    return s ? strtoull(s, NULL, 0) : UINT64_C(20261122);
}

/* Seconds on the monotonic clock, for the programs that say how long a part of them took. */
static inline double test_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The state of one test program (each is a single translation unit). */
static uint64_t seed __attribute__((unused));
static int checks __attribute__((unused)), failures __attribute__((unused));
static int not_applicable __attribute__((unused));

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

/* Counts a check whose outcome the caller prints itself (an "ok" line, or a "FAIL" line that
 * names the input); returns `ok`. */
static inline bool __attribute__((unused)) check_outcome(bool ok)
{
    checks++;
    failures += !ok;
    return ok;
}

/* Counts a case that cannot run on this machine, and prints why. It is not a check: a program
 * whose every case was not applicable still fails in test_finish. */
#define NOT_APPLICABLE(...)                                                                 \
    do {                                                                                    \
        not_applicable++;                                                                   \
        printf("n/a  ");                                                                    \
        printf(__VA_ARGS__);                                                                \
        printf("\n");                                                                       \
    } while (0)

/* The summary line, "NAME: N checks, M failures, K not applicable, seed S: passed", and the
 * exit status: 0 when checks were made and none failed, else 1. */
static inline int __attribute__((unused)) test_finish(const char *name)
{
    printf("%s: %d checks, %d failures, %d not applicable, seed %llu: ", name, checks, failures,
           not_applicable, (unsigned long long)seed);
    if (checks == 0) {
        printf("FAILED, no check was made\n");
        return 1;
    }
    if (failures) {
        printf("FAILED (set MPGPU_TEST_SEED=%llu to replay)\n", (unsigned long long)seed);
        return 1;
    }
    printf("passed\n");
    return 0;
}

#endif
