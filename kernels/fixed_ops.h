/* The operations of `mpgpu fixed` (004, Carlessi and Kashani) and the shape of their operands,
 * shared by the kernels, the GMP reference and the command line. A P-bit number is
 * n = ceil(P/32) words, least significant first (004 section 3.1.2). */
#ifndef MPGPU_FIXED_OPS_H
#define MPGPU_FIXED_OPS_H

#include <stdbool.h>
#include <stdint.h>

enum fixed_op {
    FIXED_ADD,       /* a + b mod 2^(32n), two's complement in the operand width (004 3.6.4) */
    FIXED_SUB,       /* a - b mod 2^(32n) (004 3.6.5) */
    FIXED_ADDM,      /* a + b mod m, a, b < m, branch-free (004 Listing 3.14) */
    FIXED_SUBM,      /* a - b mod m (004 Listing 3.16) */
    FIXED_MUL,       /* a * b, 2n words, column order (004 3.6.8) */
    FIXED_KARATSUBA, /* a * b by one Karatsuba level (004 3.6.9) */
    FIXED_MONTRED,   /* a R^-1 mod m for a < mR, R = 2^(32n) (HAC 14.32; 004 3.7) */
    FIXED_MONTMUL,   /* a b R^-1 mod m */
    FIXED_POWM,      /* a^b mod m */
    FIXED_N_OPS
};

enum fixed_impl { FIXED_IMPL_PTX, FIXED_IMPL_C, FIXED_IMPL_FP64, FIXED_IMPL_HYBRID, FIXED_N_IMPLS };

/* The ops an implementation has: fp64 and hybrid have the Montgomery multiplication and powm
 * only. */
static inline bool fixed_impl_has(enum fixed_impl impl, enum fixed_op op)
{
    return (impl != FIXED_IMPL_FP64 && impl != FIXED_IMPL_HYBRID) || op == FIXED_MONTMUL ||
           op == FIXED_POWM;
}

static const char *const fixed_op_names[FIXED_N_OPS] = {
    "add", "sub", "addm", "subm", "mul", "karatsuba", "montred", "montmul", "powm"};

static inline unsigned fixed_words(unsigned bits) { return (bits + 31) / 32; }
/* Words of the first operand (montred reduces a double-width T), the second (montred has
 * none) and the result (products are double-width). */
static inline unsigned fixed_a_words(enum fixed_op op, unsigned n) { return op == FIXED_MONTRED ? 2 * n : n; }
static inline unsigned fixed_b_words(enum fixed_op op, unsigned n) { return op == FIXED_MONTRED ? 0 : n; }
static inline unsigned fixed_r_words(enum fixed_op op, unsigned n)
{
    return op == FIXED_MUL || op == FIXED_KARATSUBA ? 2 * n : n;
}
/* The op takes a modulus m (and its operands must be below it, except powm's exponent and
 * montred's T < mR); Montgomery ops need m odd. */
static inline bool fixed_op_modular(enum fixed_op op)
{
    return op == FIXED_ADDM || op == FIXED_SUBM || op >= FIXED_MONTRED;
}
static inline bool fixed_op_montgomery(enum fixed_op op) { return op >= FIXED_MONTRED; }

/* -m0^-1 mod 2^32 for odd m0, the m' of Montgomery reduction (HAC 14.32). */
static inline uint32_t fixed_neg_inv(uint32_t m0)
{
    uint32_t x = m0; /* m0^-1 to 3 bits; Newton doubles the correct bits */
    for (int k = 0; k < 4; k++)
        x *= 2u - m0 * x;
    return 0u - x;
}

#endif
