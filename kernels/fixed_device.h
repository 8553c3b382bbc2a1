/* `mpgpu fixed` on the GPU: one thread per element, each running the operation --chain times in
 * registers (or on device memory, --mem global) through kernels/fixed_chain.cuh, compiled once
 * per built precision (kernels/fixed_kernels.cu), each precision with a launcher of its own.
 * libmpgpu's fixed part (mpgpu_fixed.c) is their one caller.
 *
 * On the device the elements are laid out as the study compares them (004 sections 2.4 and 3.4):
 *   word order  coalesced: word j of every element together (004's COAL_IDX), or contiguous:
 *               each element's words together (004's IDX);
 *   operands    separate arrays, or interleaved in one array, word j of a beside word j of b
 *               (montred has one operand, so it is always separate). */
#ifndef MPGPU_FIXED_DEVICE_H
#define MPGPU_FIXED_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "fixed_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIXED_MAX_WORDS 32u /* 1024 bits, the largest -Dfixed_bits */

/* The precisions built in, ascending as meson lists them. */
const unsigned *fixed_built_bits(size_t *n);

struct fixed_config {
    unsigned bits;
    enum fixed_op op;
    enum fixed_impl impl;
    bool global_mem;  /* operands and result used in place (004's _glo) */
    bool interleaved; /* one operand array (004 section 3.4) */
    bool coalesced;   /* word-major (COAL_IDX) rather than element-major (IDX) */
    uint64_t chain;   /* >= 1 */
    unsigned grid;    /* 0: enough blocks for one element per thread */
    unsigned block;
    uint32_t m[FIXED_MAX_WORDS]; /* the modulus of modular ops */
};

/* The kernel launch of one precision's library (fixed_kernels.cu); r2 = R^2 mod m. */
struct fixed_launch {
    const struct fixed_config *cfg;
    const uint32_t *a, *b; /* device; b = a + 1 when interleaved */
    uint32_t *r;
    size_t count;
    uint32_t mp;
    const uint32_t *r2; /* host */
    /* device: element p's own modulus (n words, in the word order of the result), or NULL for
     * cfg->m, mp and r2 for all; the kernel derives mp and R^2 mod m of its own */
    const uint32_t *m_each;
    cudaStream_t stream;
};

/* Queues the kernel of x->cfg on x->stream and returns cudaGetLastError(). */
typedef cudaError_t fixed_launch_fn(const struct fixed_launch *x);

/* The launcher of a built precision, NULL for one not built. */
fixed_launch_fn *fixed_launcher(unsigned bits);

#ifdef __cplusplus
}
#endif

#endif
