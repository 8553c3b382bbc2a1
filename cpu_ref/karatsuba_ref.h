/* The reference twin of thread-karatsuba and thread-karatsuba2: Karatsuba's recombination
 * (001 section III-A) in plain C, applied `depth` times, with the School reference for the
 * sub-products. It uses the same subtractive form as the kernels,
 *   x y = x0 y0 + (x0 y0 + x1 y1 + (x0 - x1)(y1 - y0)) beta^h + x1 y1 beta^2h,
 * but builds the middle term in a buffer of its own before adding it, where the kernel adds it
 * in place, so the two share the algebra and not the bookkeeping. */
#ifndef MPGPU_KARATSUBA_REF_H
#define MPGPU_KARATSUBA_REF_H

#include <stdint.h>

/* c[0 .. 2n) = a[0 .. n) * b[0 .. n), Karatsuba `depth` times, then School. n must be a
 * positive multiple of 2^depth; c must not overlap a or b. Returns 0, or -1 when n does not
 * fit depth or memory runs out. */
int ref_mul_karatsuba(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned n,
                      unsigned depth);

#endif
