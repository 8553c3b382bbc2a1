/* Word-array arithmetic the reference twins share: add, subtract, negate and |x - y| over n
 * 32-bit words, least significant first, with 64-bit intermediates (the simple, portable style
 * of GMP's tests/refmpn.c). Outputs may alias inputs word for word. */
#ifndef MPGPU_WORDS_REF_H
#define MPGPU_WORDS_REF_H

#include <stdint.h>

/* r = x + y over n words; returns the carry out (0 or 1). */
uint32_t ref_add_n(uint32_t *r, const uint32_t *x, const uint32_t *y, unsigned n);
/* r = x - y over n words; returns the borrow out (0 or 1). */
uint32_t ref_sub_n(uint32_t *r, const uint32_t *x, const uint32_t *y, unsigned n);
/* x = 2^(32 n) - x (two's complement), in place. */
void ref_neg_n(uint32_t *x, unsigned n);
/* d = |x - y| over n words, the larger found first from the top word down, so the difference
 * is one borrow chain and never negated; returns 1 when x < y. */
int ref_abs_diff_n(uint32_t *d, const uint32_t *x, const uint32_t *y, unsigned n);

#endif
