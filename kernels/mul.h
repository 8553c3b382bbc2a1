/* Bulk multiplication on the GPU: the registry of methods, which libmpgpu's products run
 * (mpgpu_mul.c).
 *
 * Every method computes `count` independent full products C = A * B of two `words`-word
 * operands (32-bit words, least significant first); each product has 2 * words words.
 * A method reads its operands from device memory and writes its products back, in one of two
 * coalesced layouts:
 *   MUL_LAYOUT_PRODUCT_MAJOR  A[p * words + i], C[p * 2 * words + i]   (one warp per product)
 *   MUL_LAYOUT_WORD_MAJOR     A[i * count + p], C[i * count + p]       (one thread per product)
 */
#ifndef MPGPU_MUL_H
#define MPGPU_MUL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MUL_MIN_WORDS 2u
#define MUL_MAX_WORDS 2048u

enum mul_layout { MUL_LAYOUT_PRODUCT_MAJOR, MUL_LAYOUT_WORD_MAJOR };

/* thread-, pair-, quad- and octo-comba-reg and their -shared variants
 * (kernels/mul_thread_comba_reg.cu): warps per thread block, 1, 2, 4 or 8 threads a product.
 * Two, so that 10240 products fill 160 blocks or more, more than an H100 or H200 has SMs. */
#define MUL_THREAD_COMBA_REG_WARPS_PER_BLOCK 2u

/* Launches the method's kernel(s) on `stream`; returns cudaGetLastError() after the launches.
 * `scratch` holds scratch_bytes(words, count) bytes of device memory, or is NULL when the
 * method needs none. */
typedef cudaError_t (*mul_launch_fn)(const uint32_t *a, const uint32_t *b, uint32_t *c,
                                     unsigned words, size_t count, void *scratch,
                                     cudaStream_t stream);
typedef size_t (*mul_scratch_fn)(unsigned words, size_t count);

struct mul_method {
    const char *name;        /* the --method name */
    const char *summary;     /* one line for --help: what it is and where it comes from */
    unsigned min_words;      /* smallest supported operand size in words */
    unsigned max_words;      /* largest supported operand size in words */
    unsigned words_multiple; /* words must be a multiple of this (1: any) */
    enum mul_layout layout;
    mul_launch_fn launch;
    mul_scratch_fn scratch_bytes; /* NULL: no scratch */
};

/* All GPU methods, in the order --help and `--method all` list them. */
const struct mul_method *mul_methods(size_t *n);
const struct mul_method *mul_method_find(const char *name);
/* 1 if the method supports operands of `words` words. */
int mul_method_supports(const struct mul_method *m, unsigned words);
/* The most products that one thread block of any of the method's kernels takes at this size
 * (warp-column-shared may put fewer warps in a block when its operands fill shared memory).
 * A test that runs more than twice this many, and a count no block size divides, fills two
 * blocks of every kernel and leaves a partial one. */
unsigned mul_method_block_products(const struct mul_method *m, unsigned words);

#ifdef __cplusplus
}
#endif
#endif
