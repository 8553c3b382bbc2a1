/* `mpgpu ctt-vs-ctw` on the GPU: a batch in 003's layout (ctt_batch.h) on the device,
 * and the mappings of its computations to the GPU:
 *   thread  one computation per thread, handed out by 003 Algorithm 3.1, results reserved by
 *           Algorithm 3.2 (ctt_thread.cu);
 *   warp    one warp per computation, Langer's mapping as 003 4.5 describes it (ctt_warp.cu);
 *   auto    beyond 003: the computations binned by length, short ones to threads (sorted, so
 *           a warp's lanes get similar lengths; products only when they fill the GPU), middle
 *           ones to a warp each (CTW for add, sub and products up to 16 words, a warp summing
 *           product columns for longer ones), long products to a block summing
 *           tiles of columns (ctt_tile_mul.cuh), the longest to a block each (ctt_block.cu).
 * A rational computation (003 4.4) runs in the mapping's own style: its integer steps
 * (ctt_rational.h) one after another by one thread, one warp or one block, in the
 * result space that one reservation gave it (the temporaries of qadd and qsub included). */
#ifndef MPGPU_CTT_H
#define MPGPU_CTT_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "ctt_batch.h"
#include "ctt_rational.h"
#include "mpgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ctt_mapping { CTT_MAP_THREAD = MPGPU_CTT_THREAD, CTT_MAP_WARP = MPGPU_CTT_WARP,
                   CTT_MAP_AUTO = MPGPU_CTT_AUTO };

/* auto's bins by the longer operand, in words. add and sub: a thread up to 16 when the batch
 * has no longer ones, a warp (CTW) up to 1024, a block above; with longer ones, the warp's
 * kernel runs anyway, and a thread bin beside it only adds a launch (mixed-length add and sub,
 * mean 64 words, sigma 32-64, 8192 computations, H200 at 4d8a63b: auto 1.07-1.18x CTW's time). mul: a thread up to 6 when they fill the GPU, a warp over the
 * schoolbook's rows (CTW) up to 16, a warp summing columns (ctt_block.cu with
 * 32 threads) up to 128, a block summing tiles of columns (ctt_tile_mul.cuh) up to 4096, a
 * block summing columns above, where the tiles' operands would not fit in 48 KB of shared
 * memory. The tiles' block has a thread for each of the up to 64 tiles of a product of up to
 * 512 words, 128 threads up to 1024 words, 256 above (two tiles a thread at 4096), so that a
 * 520-word product does not take two rounds of 64 threads; its 65 tiles still leave the third
 * warp with one busy lane (H200, 8192 equal products: 512 words 0.538 ms, 520 words 0.786 ms,
 * 1024 words 1.95 ms). The add and sub thread bound is where CTT stops beating CTW on the H200
 * (results/ctt_fig55.csv, commit 48f9d83: CTT faster up to 16 words). For mul, H200 runs of
 * 2026-11-24 (8192, 65536 and 262144 equal products, timed with the launch) put CTW's rows ahead of CTT from 7
 * words at 8192 products and from 8 words at every count (8 words: 0.94x CTT's time at 262144
 * products), and ahead of the warp summing columns up to 16 words (16 words: 0.90x its time at
 * 8192, 0.75x at 65536, 0.71x at 262144); at 32 the columns take 0.60x CTW's time
 * (results/ctt_auto_equal.csv, commit acebf9b). A thread a product pays only with at least
 * CTT_AUTO_THREAD_WARPS_PER_SM warps of them for each SM: rationals of 4 words, with 256 and
 * 2048 computations (at most 0.5 warps an SM), took CTT 1.18-1.68x CTW's time, and 4-word
 * products with 8192 (1.9 warps an SM) CTW 1.23x CTT's (results/ctt_fig53_54.csv of 9442d21,
 * and the runs above). When more than half of a batch's products are the rows' ones, the rows
 * take products up to twice their bound too, so that a batch around the bound is not split in
 * two bins: in results/ctt_figC4_C7.csv it cut auto's time on rationals of mean 8 words, sigma
 * 8, 2048 computations, to 0.63-0.77x (commit 184426e against a78489d), and cost up to 1.37x
 * where mean 1, sigma 16 spreads the lengths over 0..40 words (256-1024 computations). "Most"
 * counts the products up to CTT_AUTO_MUL_ROWS_MOST words: a rational is binned by the longest
 * of its four integers, which sits above their mean (mean 16, sigma 1-4: a median of 17-20
 * words), and there split, CTW alone took 0.53-0.97x auto's time at 256-2048 computations;
 * with sigma 8 (a median of 24) the split auto took 0.80-0.91x CTW's at 256, 512 and 2048
 * (results/ctt_figC4_C7.csv of 184426e). */
#define CTT_AUTO_ADD_THREAD_MAX 16u
#define CTT_AUTO_ADD_WARP_MAX 1024u
#define CTT_AUTO_MUL_THREAD_MAX 6u
#define CTT_AUTO_THREAD_WARPS_PER_SM 1
#define CTT_AUTO_MUL_ROWS_MAX 16u
#define CTT_AUTO_MUL_ROWS_MOST 22u
#define CTT_AUTO_MUL_WARP_MAX 128u
#define CTT_AUTO_MUL_TILE_MAX 4096u
/* How many computations a batch has counts too (003 6.1 leaves "choose the appropriate method
 * automatically" open): a warp summing columns, and the tiles up to 256 words (F / 8 <= 32
 * tiles), keep one warp of a computation busy, and a warp's chains of dependent multiply-adds
 * and loads need about two warps on each of an SM's four schedulers to hide their latency.
 * When the batch's products of 17..256 words all fit in one wave of the 256-thread block
 * (ctt_block_resident blocks an SM), they go to that block instead, whose eight warps a
 * computation fill the GPU sooner. On the H200, at 64..256 words (the tiles of commit 414d9f3),
 * the block took 0.51-0.98x the narrow mapping's time with 256 computations (mul and qadd) and
 * 0.99-1.43x with 2048. A second wave doubles the block's time: 1024 rationals of 32 words took
 * it 1.6x the time of 512, and CTW's time (results/ctt_figC4_C7.csv of 184426e; its rationals
 * hold 5 blocks an SM, 660 on the H200, integers 8). Longer
 * products stay with the tiles at any count: from 384 words their two busy warps a computation
 * do 1.9-2.5x the block's word products per second (8192 muls), which outweighs the occupancy
 * (256 muls of 384..2048 words: the block 1.25-1.8x the tiles' time; 256 qadds of 512: 0.95x). */
#define CTT_AUTO_MUL_NARROW_MAX 256u
#define CTT_AUTO_MUL_TILE64_MAX 512u
#define CTT_AUTO_MUL_TILE128_MAX 1024u
/* Rational computations are products foremost (three, or two, to one sum): they take mul's
 * bins, by the longest of their four integers. */
enum ctt_bin {
    CTT_BIN_THREAD = MPGPU_CTT_BIN_THREAD, CTT_BIN_WARP = MPGPU_CTT_BIN_WARP,
    CTT_BIN_WARP_COLUMNS = MPGPU_CTT_BIN_WARP_COLUMNS, CTT_BIN_TILE64 = MPGPU_CTT_BIN_TILE64,
    CTT_BIN_TILE128 = MPGPU_CTT_BIN_TILE128, CTT_BIN_TILE256 = MPGPU_CTT_BIN_TILE256,
    CTT_BIN_BLOCK = MPGPU_CTT_BIN_BLOCK, CTT_N_BINS = MPGPU_CTT_N_BINS
};
#define CTT_BLOCK_THREADS 256

/* The device counters, all zero before a run: Algorithm 3.1's next computation, Algorithm 3.2's
 * next free word of the result space (which starts at word result_base of the block), and
 * the block mapping's next free scratch word. */
enum { CTT_NEXT_COMP, CTT_NEXT_WORD, CTT_NEXT_SCRATCH, CTT_N_COUNTERS };

/* Words of the block mapping's scratch a computation takes: the middle and high words of the
 * column sums of its product (of its longest product, for a rational one, whose products run
 * one after another in the same scratch). */
CTT_HD static inline uint32_t ctt_block_scratch(const struct mpgpu_ctt_comp *c)
{
    return c->op == MPGPU_CTT_MUL ? 2 * ctt_result_capacity(c) : 0;
}
CTT_HD static inline uint32_t ctt_q_block_scratch(const struct mpgpu_ctt_qcomp *q)
{
    return 2 * ctt_q_longest_product(q);
}

/* Launchers, one per mapping file. `comps` holds struct mpgpu_ctt_comp, or struct mpgpu_ctt_qcomp when
 * `rational`; `index` lists the computations to run (NULL: 0..count-1). ctt_launch_block runs
 * auto's bin `kind` (CTT_BIN_WARP_COLUMNS, a tile bin or CTT_BIN_BLOCK); a tile bin's shared
 * memory is sized for operands of up to `longest` words. */
cudaError_t ctt_launch_thread(uint32_t *mem, void *comps, bool rational, const uint32_t *index,
                              uint32_t count, unsigned *counters, uint32_t result_base, int sm_count,
                              cudaStream_t s);
cudaError_t ctt_launch_warp(uint32_t *mem, void *comps, bool rational, const uint32_t *index,
                            uint32_t count, unsigned *counters, uint32_t result_base, cudaStream_t s);
cudaError_t ctt_launch_block(uint32_t *mem, void *comps, bool rational, const uint32_t *index,
                             uint32_t count, unsigned *counters, uint32_t result_base, uint32_t *scratch,
                             enum ctt_bin kind, uint32_t longest, cudaStream_t s);

/* How many blocks of CTT_BIN_BLOCK's kernel an SM holds at once, for computations of the kind
 * `rational` says (its registers bound it: 8 for integers, 5 for rationals on Hopper). */
cudaError_t ctt_block_resident(bool rational, int *blocks_per_sm);

/* mpgpu.h's plan: what runs one batch's computations with one mapping, apart from the batch's
 * memory block and descriptors (the caller's). */
struct mpgpu_ctt_plan {
    enum ctt_mapping mapping;
    uint64_t operand_words, total_words;
    size_t count;
    bool rational;             /* the descriptors are struct mpgpu_ctt_qcomp, else mpgpu_ctt_comp */
    size_t comp_bytes;         /* the size of one of them */
    unsigned *d_counters;
    uint32_t *d_index;         /* auto: the computations bin after bin (enum ctt_bin) */
    bool index_is_identity;    /* auto: d_index is 0, 1, ..., count - 1 */
    size_t bin[CTT_N_BINS];    /* auto: computations per bin */
    uint32_t bin_longest[CTT_N_BINS]; /* auto: the longest operand in each bin, in words */
    uint32_t *d_scratch;       /* auto: the column sums of the muls of the column bins */
    uint64_t scratch_words;
    int sm_count;
    cudaStream_t side[CTT_N_BINS - 1]; /* auto: the other bins run beside the largest */
    cudaEvent_t fork, join[CTT_N_BINS - 1];
};

/* Bytes of one descriptor of b. */
size_t ctt_comp_bytes(const struct mpgpu_ctt_batch *b);
/* Device bytes a batch needs with a mapping: its memory block and descriptors, and the plan's
 * (for the memory check before any work). */
uint64_t ctt_device_bytes(const struct mpgpu_ctt_batch *b, enum ctt_mapping m);
/* The plan for b (zeroed first; auto: its bins, made on the host here). On an error the plan
 * holds what was made, for ctt_plan_close. */
mpgpu_status ctt_plan_open(struct mpgpu_ctt_plan *p, const struct mpgpu_ctt_batch *b,
                           enum ctt_mapping m);
void ctt_plan_close(struct mpgpu_ctt_plan *p);
/* Resets the counters and runs the mapping on mem and comps (the batch's memory block and
 * descriptors on the device). Asynchronous on `stream`. */
mpgpu_status ctt_plan_launch(struct mpgpu_ctt_plan *p, uint32_t *mem, void *comps,
                             cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
