/* Checking a batch of results against a reference, in parallel: every stride-th element and the
 * last one, each by a caller's check. `mpgpu mul` and `mpgpu fixed` verify their results with it
 * (--verify all: stride 1; sample: about 1000 elements). */
#ifndef MPGPU_CHECK_STRIDED_H
#define MPGPU_CHECK_STRIDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether element i of the batch is right; `scratch` is scratch_bytes of this thread's own. */
typedef bool (*check_one_fn)(const void *ctx, size_t i, void *scratch);

/* Checks elements 0, stride, 2 stride, ... and n - 1 of a batch of n on `threads` OpenMP
 * threads (0 or 1: one). Returns the number that failed; *checked gets the number checked and
 * *first_bad the lowest failing index (n when none failed). -1 when scratch cannot be had. */
int64_t check_strided(size_t n, size_t stride, int threads, check_one_fn check, const void *ctx,
                      size_t scratch_bytes, uint64_t *checked, size_t *first_bad);

#endif
