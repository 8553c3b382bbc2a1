/* The reference twin of every GPU multiplication: School method (000 Algorithm 1) in plain C
 * with 64-bit intermediates, simple enough to be obviously right (as GMP's tests/refmpn.c). */
#ifndef MPGPU_MUL_SCHOOL_REF_H
#define MPGPU_MUL_SCHOOL_REF_H

#include <stdint.h>

/* c[0 .. wa + wb) = a[0 .. wa) * b[0 .. wb). c must not overlap a or b. */
void ref_mul_school(uint32_t *c, const uint32_t *a, unsigned wa, const uint32_t *b, unsigned wb);

#endif
