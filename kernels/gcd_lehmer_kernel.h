/* The interface of the Lehmer GCD kernel (kernels/gcd_lehmer.cu; kernels/gcd_lehmer.h says what
 * it computes) between its host driver (kernels/gcd_lehmer_device.c) and the CUDA file: plain C. */
#ifndef MPGPU_GCD_LEHMER_KERNEL_H
#define MPGPU_GCD_LEHMER_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "gcd_lehmer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one launch reports. */
struct gcd_lehmer_result {
    struct gcd_lehmer_stats stats;
    uint32_t out_words; /* words of the GCD in out[] */
    uint32_t broken;    /* 1: a step broke the bounds of gcd_lehmer.h (never expected) */
};

struct gcd_lehmer_params {
    const uint32_t *u, *v; /* U >= V > 0, 32-bit words, least significant first */
    uint32_t nu, nv;       /* their words, top words not zero */
    uint32_t chunk, cap;   /* gcd_lehmer_shape's */
    uint32_t *work;        /* 4 cap words, for numbers too large for shared memory */
    uint32_t *out;         /* cap words: the GCD */
    struct gcd_lehmer_result *result;
};

/* Threads of the block for `workers` threads that own chunks (whole warps). Warp 0 holds the
 * producer, and the workers leave out every fourth warp after it: warp w issues from the SM's
 * scheduler w % 4, so the producer's scheduler issues for it alone. With worker warps beside it
 * the producer's plan took 4695, 5696 and 6548 cycles a step at 16, 128 and 352 Kibit, for the
 * same 16 quotients; alone, 4592, 4639 and 4925 (an instrumented copy of the kernel on the
 * H200, not committed). */
static inline uint32_t gcd_lehmer_block_threads(uint32_t workers)
{
    const uint32_t warps = workers / 32;
    return 32 * (warps + (warps - 1) / 3 + 1);
}

/* Bytes of shared memory the kernel can give its two numbers (0 until the first call). */
cudaError_t gcd_lehmer_shared_room(size_t *bytes);

/* One reduction in one block of `threads` threads that own chunks, the producer's warp and the
 * warps left idle (gcd_lehmer_block_threads), the two copies of the numbers in shared memory
 * when 4 cap words fit there, else in p->work. *in_shared says which. */
cudaError_t gcd_lehmer_launch(const struct gcd_lehmer_params *p, uint32_t threads,
                              cudaStream_t stream, int *in_shared);

/* gcd_lehmer_divide on the GPU on n pairs a >= b > 0, a < 2^63, one a thread: the float
 * estimate and gcd_lehmer_finish that the producer's Euclid (gcd_lehmer_row) runs for quotients
 * of 3 and more, behind the same two subtractions. The gpu suite checks it against the host's
 * division. */
cudaError_t gcd_lehmer_divisions(const uint64_t *a, const uint64_t *b, uint64_t *q, uint64_t *r,
                                 size_t n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
