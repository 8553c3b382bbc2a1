/* The GMP side of `mpgpu ctt-vs-ctw`: the CPU baseline (mpz_add / mpz_sub / mpz_mul on the same
 * computations, and for rationals the same unreduced formulas of 003 4.4.2 in mpz, on --threads
 * threads) and the check of a mapping's results against GMP. */
#ifndef MPGPU_CTT_GMP_H
#define MPGPU_CTT_GMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "ctt_batch.h"
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
int ctt_gmp_init(struct ctt_gmp *g, const struct ctt_batch *b, const struct loop_watch *watch);
/* Clearing 10^8 values takes seconds too: watch (as above) sees the computations cleared, and a
 * stop leaves the values not yet cleared allocated, for a process that ends at Ctrl-C. */
void ctt_gmp_free(struct ctt_gmp *g, const struct loop_watch *watch);
/* Every computation of b on `threads` OpenMP threads; with `reduce` (b rational), each result
 * r/y then reduced to lowest terms. Returns 0, or LOOP_STOPPED when watch (as above) stopped
 * it part-way. */
int ctt_gmp_run(struct ctt_gmp *g, const struct ctt_batch *b, int threads, bool reduce,
                const struct loop_watch *watch);

/* `mpgpu ctt-vs-ctw --reduce` (003 6.2 leaves the GCD to future work): every rational result
 * x/y of b that a mapping or the CPU port left in mem (placed as q says) reduced to lowest
 * terms in place, by g = gcd(x, y) on `threads` threads: x/g and y/g in the words of x and y,
 * zeros above them, q's lengths shortened; zero becomes 0/1. */
void ctt_reduce(const struct ctt_batch *b, uint32_t *mem, struct ctt_qcomp *q, int threads);

/* Whether computation c's result in mem (mem + c->r_off, c->r_len words, sign c->r_neg) equals
 * GMP's value of it, its r_len normalized and its result space within
 * [operand_words, total_words). */
bool ctt_gmp_check_one(const uint32_t *mem, const struct ctt_comp *c, uint64_t operand_words,
                       uint64_t total_words);

/* The same for a rational computation q: x and y equal GMP's unreduced x and y (reduced to
 * lowest terms with `reduced`), both normalized, y positive, at the places ctt_rational.h lays
 * out inside [operand_words, total_words). */
bool ctt_gmp_check_q_one(const uint32_t *mem, const struct ctt_qcomp *q, uint64_t operand_words,
                         uint64_t total_words, bool reduced);

/* Checks computations 0, stride, 2 stride, ... and the last of the batch, whose results are in
 * mem (the batch's buffer as the mapping left it) and comps (as the mapping left them: struct
 * ctt_comp, or struct ctt_qcomp when b->rational), on `threads` threads; `reduced`: rational
 * results in lowest terms (ctt_reduce). Returns the mismatches; *checked and *first_bad (count
 * when none). */
uint64_t ctt_verify(const struct ctt_batch *b, const uint32_t *mem, const void *comps,
                    size_t stride, int threads, bool reduced, uint64_t *checked, size_t *first_bad);

#endif
