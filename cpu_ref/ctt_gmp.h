/* The GMP side of `mpgpu ctt-vs-ctw`: the CPU baseline (mpz_add / mpz_sub / mpz_mul on the same
 * computations, and for rationals the same unreduced formulas of 003 4.4.2 in mpz, on --threads
 * threads) and the check of a mapping's results against GMP. */
#ifndef MPGPU_CTT_GMP_H
#define MPGPU_CTT_GMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "mpgpu.h"
#include "loop_watch.h"

/* The operands as signed mpz values, converted once, so the timed region is the arithmetic: a
 * and b of an integer computation (result r); a/b and c/d of a rational one (result r/y). */
struct ctt_gmp {
    size_t count;
    mpz_t *a, *b, *r;
    mpz_t *c, *d, *y; /* NULL for integer batches */
};

/* Returns 0, or -1 when memory runs out. watch (loop_watch.h; NULL: none) sees the
 * computations converted and may stop it: then LOOP_STOPPED, and ctt_gmp_free frees what was
 * converted. */
int ctt_gmp_init(struct ctt_gmp *g, const struct mpgpu_ctt_batch *b, const struct loop_watch *watch);
/* Clearing 10^8 values takes seconds too: watch (as above) sees the computations cleared, and a
 * stop leaves the values not yet cleared allocated, for a process that ends at Ctrl-C. */
void ctt_gmp_free(struct ctt_gmp *g, const struct loop_watch *watch);
/* Every computation of b on `threads` OpenMP threads; with `reduce` (b rational), each result
 * r/y then reduced to lowest terms. Returns 0, or LOOP_STOPPED when watch (as above) stopped
 * it part-way. */
int ctt_gmp_run(struct ctt_gmp *g, const struct mpgpu_ctt_batch *b, int threads, bool reduce,
                const struct loop_watch *watch);

/* `mpgpu ctt-vs-ctw --reduce` (003 6.2 leaves the GCD to future work): every rational result
 * x/y of b that a mapping or the CPU port left in mem (placed as q says) reduced to lowest
 * terms in place, by g = gcd(x, y) on `threads` threads: x/g and y/g in the words of x and y,
 * zeros above them, q's lengths shortened; zero becomes 0/1. */
void ctt_reduce(const struct mpgpu_ctt_batch *b, uint32_t *mem, struct mpgpu_ctt_qcomp *q, int threads);

/* The check of a mapping's results, element by element: the expected result of computation i
 * of b, computed by GMP from the host's own operand words and descriptors (b as generated,
 * never what the device holds), x/y reduced to lowest terms with `reduced`, into e
 * (ctt_gmp_expect_bytes(b) bytes). */
size_t ctt_gmp_expect_bytes(const struct mpgpu_ctt_batch *b);
void ctt_gmp_expect(const struct mpgpu_ctt_batch *b, size_t i, bool reduced, uint32_t *e);

/* Whether computation i as a mapping left it (its memory block mem and its descriptors comps:
 * struct mpgpu_ctt_comp, or ctt_qcomp when b->rational) holds e: the descriptor's operand fields as
 * the host wrote them, its result normalized (no zero top word, no minus zero, y positive) in
 * the space ctt_rational.h lays out inside the result area [operand_words, operand_words +
 * result_words), zeros above it. */
bool ctt_gmp_matches(const struct mpgpu_ctt_batch *b, size_t i, const uint32_t *mem, const void *comps,
                     const uint32_t *e);

/* Every computation of b by the two above, on `threads` threads. Returns the mismatches and
 * *first_bad (count when none). */
uint64_t ctt_verify(const struct mpgpu_ctt_batch *b, const uint32_t *mem, const void *comps, int threads,
                    bool reduced, size_t *first_bad);

#endif
