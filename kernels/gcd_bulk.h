/* The bulk GCD's kernels (kernels/gcd_bulk.cu, issue 38): many independent pairs, one a GPU
 * thread, with the word steps of gcd_bulk_steps.h. Numbers are in the word-major layout: word j
 * of pair p at [j * count + p], so that word j of a warp's 32 pairs is one 128-byte load. */
#ifndef MPGPU_GCD_BULK_H
#define MPGPU_GCD_BULK_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gcd_bulk_method { GCD_BULK_LEHMER = 0, GCD_BULK_BINARY = 1 };

/* Threads a block of the bulk kernels. */
#define GCD_BULK_BLOCK 128u
/* The widest numbers the kernels take: 256 words, 8192 bits. */
#define GCD_BULK_KERNEL_MAX_WORDS 256u

/* g = gcd(a, b) of `count` pairs of `words` words (1..256), all three word-major with stride
 * count, queued on `stream`. */
cudaError_t gcd_bulk_launch(enum gcd_bulk_method method, const uint32_t *a, const uint32_t *b,
                            uint32_t *g, uint32_t words, size_t count, cudaStream_t stream);

/* A pair (i, j), i < j, of the moduli whose GCD is not 1. */
struct gcd_bulk_hit {
    uint32_t i, j;
};

/* One tile of the all-pairs search over `count` moduli of `words` words, word-major with
 * stride count (read in place): the pairs (i, j) with row0 <= i < row0 + tile, col0 <= j <
 * col0 + tile, i < j < count, by the Lehmer steps. Each pair whose GCD is not 1 is added to
 * hits[0 .. hit_cap) at an index taken from *n_hits (device memory, counted past hit_cap when
 * the room runs out, so the caller sees that it did). Queued on `stream`. */
cudaError_t gcd_bulk_tile_launch(const uint32_t *moduli, size_t count, uint32_t words,
                                 size_t row0, size_t col0, uint32_t tile, struct gcd_bulk_hit *hits,
                                 uint32_t hit_cap, unsigned long long *n_hits, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
