/* The interface of the k-ary GCD kernel (kernels/gcd_kary.cu; kernels/gcd_kary.h says what it
 * computes) between its host driver (kernels/gcd_device.c) and the CUDA file: plain C. */
#ifndef MPGPU_GCD_KARY_KERNEL_H
#define MPGPU_GCD_KARY_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "gcd_kary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Moduli a thread keeps in registers, one kernel each, and its largest block. A warp holds 32 x
 * per_thread consecutive moduli, modulus i on lane i mod 32. */
struct gcd_kary_shape {
    unsigned per_thread, max_block;
};
#define GCD_KARY_SHAPES 4
extern const struct gcd_kary_shape gcd_kary_shapes[GCD_KARY_SHAPES];

/* What one launch reports (written by the warp that posted the last entry). */
struct gcd_kary_result {
    uint64_t entries;  /* log entries posted, zero checks included */
    uint64_t steps;    /* entries that consumed pivots */
    uint64_t consumed; /* pivots */
    uint64_t digits;   /* mixed-radix digits of the result */
    int32_t kind;      /* the last entry: GCD_KARY_DONE_A, _DONE_B or _SHORT */
    uint32_t commons;  /* pivots that divided both numbers, in common[] */
};

struct gcd_kary_params {
    const uint32_t *q;       /* the n largest moduli of M, largest first */
    const uint32_t *uw, *vw; /* U and V, 32-bit words, least significant first */
    uint32_t uw_n, vw_n;
    uint32_t n;              /* moduli of this attempt */
    uint32_t L;
    uint32_t cheap;          /* 1: cheap-category remainders, 0: the exact path */
    int64_t alpha, beta;     /* bits of U and V */
    int32_t *log;              /* room for 2 n + 2 entries of 4 words, EMPTY at launch */
    unsigned long long *acks;  /* 2 n + 2 words, zero at launch: a zero check's answers */
    uint32_t *common;          /* n words: the COMMON pivots */
    unsigned long long *slots; /* 2 x grid words: the recovery's grid exchange */
    uint32_t *digit_p;         /* the recovery's (p_k, g_k), in the order found */
    int32_t *digit_g;
    struct gcd_kary_result *result;
};

/* The largest grid of `block`-thread blocks of shape `shape` with every block resident. */
cudaError_t gcd_kary_max_grid(unsigned shape, unsigned block, unsigned *max_grid);

/* Empties the first `entries` entries of a log (before each launch). */
cudaError_t gcd_kary_clear_log(int32_t *log, size_t entries, cudaStream_t stream);

/* gcd_kary_vector as the producer runs it (its float quotients) on n inputs in device memory,
 * one a thread: the gpu suite checks it against the twin's divisions. */
cudaError_t gcd_kary_vectors(const uint32_t *p, const uint32_t *t, const int32_t *tb, int64_t *x,
                             int64_t *y, size_t n, cudaStream_t stream);

/* One attempt, launched cooperatively (every warp waits on others). */
cudaError_t gcd_kary_launch(unsigned shape, const struct gcd_kary_params *p, unsigned grid,
                            unsigned block, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
