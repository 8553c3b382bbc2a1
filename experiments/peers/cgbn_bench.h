/* Between the peer harness's host side (cgbn_bench.c: command line, operands, GMP checks, rows,
 * all through mpgpu's own cli/ loop) and its kernels (cgbn_kernels.cu, compiled once per operand
 * size against the user's CGBN headers). Each kernel object registers what it holds before main
 * runs, so the host side knows the sizes, operations and threads per instance that were built. */
#ifndef MPGPU_CGBN_BENCH_H
#define MPGPU_CGBN_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The operations measured, each one CGBN call per instance:
 * - CGBN_MUL: cgbn_mul_wide, r (2 words per operand word) = a b, from and to device memory;
 * - CGBN_MONTMUL: cgbn_mont_mul `chain` times in registers, r <- r b R^-1 mod m starting from
 *   a, each instance with its own odd modulus m; a and b go into and out of Montgomery form
 *   (cgbn_bn2mont, cgbn_mont2bn) around the loop, so r = a b^chain mod m whatever CGBN's R;
 * - CGBN_GCD: cgbn_gcd, r = gcd(a, b). */
enum cgbn_op { CGBN_MUL, CGBN_MONTMUL, CGBN_GCD, CGBN_N_OPS };

/* Queues one launch over `count` instances on `stream` and returns cudaGetLastError(). Operands
 * and results are product-major words, least significant first: instance i's a is words
 * [i w, (i + 1) w) of a (w = bits / 32), likewise b and m; r has 2 w words an instance for
 * CGBN_MUL, w otherwise. m and chain are used by CGBN_MONTMUL only. */
typedef cudaError_t (*cgbn_launch_fn)(const uint32_t *a, const uint32_t *b, const uint32_t *m,
                                      uint32_t *r, size_t count, uint64_t chain,
                                      cudaStream_t stream);

struct cgbn_kernel {
    unsigned bits;          /* operand size, a multiple of 32 */
    unsigned tpi;           /* CGBN's threads per instance: 4, 8, 16 or 32 */
    enum cgbn_op op;
    unsigned block_threads; /* threads per block of the launch */
    cgbn_launch_fn launch;
};

/* Called by the kernel objects' static initialisers, before main. */
void cgbn_register(const struct cgbn_kernel *k);

#ifdef __cplusplus
}
#endif

#endif
