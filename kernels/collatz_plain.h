/* Plain 3x+1 iteration, one odd or even operation at a time (000 Algorithm 4): the simple twin
 * the table methods are checked against, and the arbitrary-length verifier of the starting values
 * whose interim values overflow the 96 bits of the fast paths (000 section 4.4.1). Values are
 * exact at any length: 128-bit words while the value fits below 2^126, GMP beyond. */
#ifndef MPGPU_COLLATZ_PLAIN_H
#define MPGPU_COLLATZ_PLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "mpgpu.h"

/* Operations after which a trajectory is declared runaway (not settled, mpgpu.h). */
#define COLLATZ_PLAIN_MAX_OPS MPGPU_COLLATZ_SETTLE_MAX_OPS

/* D(n), the delay of n >= 1: odd plus even operations until the value is 1. Returns 0 and
 * sets *delay, or -1 when the trajectory runs past COLLATZ_PLAIN_MAX_OPS operations. */
int collatz_plain_delay(uint64_t n, uint32_t *delay);

/* 1 when the trajectory of m >= 2 reaches a value below m within COLLATZ_PLAIN_MAX_OPS
 * operations (000 section 4.3.1: then m converges if every smaller number does), else 0. The
 * number of operations until then goes to *ops when ops is not NULL. */
int collatz_plain_descends(uint64_t m, uint64_t *ops);

/* The value of the trajectory of m right after its first `evens` even operations, as two 64-bit
 * words (lo, hi). Returns 0, or -1 when the value passes 2^126 on the way. */
int collatz_plain_after_evens(uint64_t m, unsigned evens, uint64_t *lo, uint64_t *hi);

/* Checks collatz_plain_descends for each of m[0..n) on `threads` threads (0: all cores).
 * Returns the smallest index that does not descend, or n when all do. */
size_t collatz_plain_verify_descents(const uint64_t *m, size_t n, int threads);

/* delay[i] = D(n[i]) on `threads` threads. Returns the smallest index whose trajectory ran away,
 * or count when all are exact. */
size_t collatz_plain_delays(const uint64_t *n, size_t count, uint32_t *delay, int threads);

#endif
