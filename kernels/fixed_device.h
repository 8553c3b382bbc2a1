/* `mpgpu fixed` on the GPU: one thread per element, each running the operation --chain times in
 * registers (or on device memory, --mem global) through kernels/fixed_chain.cuh, compiled once
 * per built precision (kernels/fixed_kernels.cu).
 *
 * Host arrays are element-major: element p's first operand at a[p * aw + j], its second at
 * b[p * bw + j], its result at r[p * rw + j] (fixed_ops.h gives aw, bw, rw). On the device they
 * are laid out as the study compares them (004 sections 2.4 and 3.4):
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
bool fixed_bits_built(unsigned bits);

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
    uint32_t m[FIXED_MAX_WORDS]; /* the odd modulus of modular ops */
};

/* The kernel launch of one precision's library (fixed_kernels.cu); r2 = R^2 mod m. */
struct fixed_launch {
    const struct fixed_config *cfg;
    const uint32_t *a, *b; /* device; b = a + 1 when interleaved */
    uint32_t *r;
    size_t count;
    uint32_t mp;
    const uint32_t *r2; /* host */
    cudaStream_t stream;
};

struct fixed_device {
    struct fixed_config cfg;
    size_t count;
    unsigned aw, bw, rw;
    uint32_t *d_a, *d_b, *d_r;
    uint32_t *stage; /* host staging buffer in the device layout */
    uint32_t mp, r2[FIXED_MAX_WORDS];
    cudaStream_t stream;
    const char *failed_call;
};

/* Buffers for `count` elements of cfg; cfg->bits must be built and, for Montgomery ops, the
 * modulus odd. */
cudaError_t fixed_device_open(struct fixed_device *d, const struct fixed_config *cfg, size_t count);
cudaError_t fixed_device_upload(struct fixed_device *d, const uint32_t *a, const uint32_t *b);
/* Fills the results with a pattern no correct result is made of only, so that an element the
 * kernel skipped cannot pass as one computed. */
cudaError_t fixed_device_poison(struct fixed_device *d);
cudaError_t fixed_device_launch(struct fixed_device *d);
cudaError_t fixed_device_download(struct fixed_device *d, uint32_t *r);
void fixed_device_close(struct fixed_device *d);
/* Device bytes per element. */
size_t fixed_device_bytes_per_element(const struct fixed_config *cfg);

#ifdef __cplusplus
}
#endif

#endif
