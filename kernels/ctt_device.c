/* The host side of ctt-vs-ctw on the GPU: one batch's memory block on the device, auto's bins,
 * the counters of 003 Algorithms 3.1/3.2 reset before each run, and the launches. */
#include "ctt.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_try.h"

static uint32_t longer(const struct ctt_comp *c)
{
    return c->a_len > c->b_len ? c->a_len : c->b_len;
}

/* auto's bin of a computation (ctt.h gives the bounds). */
static enum ctt_bin bin_of(const struct ctt_comp *c)
{
    const uint32_t n = longer(c);
    if (c->op == CTT_MUL)
        return n <= CTT_AUTO_MUL_THREAD_MAX ? CTT_BIN_THREAD
             : n <= CTT_AUTO_MUL_WARP_MAX   ? CTT_BIN_WARP_COLUMNS
                                            : CTT_BIN_BLOCK;
    return n <= CTT_AUTO_ADD_THREAD_MAX ? CTT_BIN_THREAD
         : n <= CTT_AUTO_ADD_WARP_MAX   ? CTT_BIN_WARP
                                        : CTT_BIN_BLOCK;
}

/* Scratch words of the column bins: the middle and high words of the column sums of each mul. */
static uint64_t column_scratch_words(const struct ctt_batch *b)
{
    uint64_t w = 0;
    for (size_t i = 0; i < b->count; i++) {
        const enum ctt_bin k = bin_of(&b->comps[i]);
        if (k == CTT_BIN_WARP_COLUMNS || k == CTT_BIN_BLOCK)
            w += 2 * (uint64_t)ctt_result_capacity(&b->comps[i]);
    }
    return w;
}

uint64_t ctt_device_bytes(const struct ctt_batch *b, enum ctt_mapping m)
{
    uint64_t bytes = (b->operand_words + b->result_words) * 4 + b->count * sizeof(struct ctt_comp) +
                     CTT_N_COUNTERS * sizeof(unsigned);
    if (m == CTT_MAP_AUTO)
        bytes += b->count * sizeof(uint32_t) + column_scratch_words(b) * 4;
    return bytes;
}

/* auto's bins: the computations ordered by bin and, within one, by their longer operand (a
 * counting sort); the thread bin ascending, so a warp's 32 lanes get similar lengths (003 4.3
 * warns that they should, and never measures it), the others descending, so the longest start
 * first and the short ones fill in behind them. */
static int make_bins(struct ctt_device *d, const struct ctt_batch *b, uint32_t *index)
{
    const size_t span = CTT_MAX_WORDS + 1, keys = CTT_N_BINS * span;
    size_t *at = calloc(keys + 1, sizeof *at);
    if (!at)
        return -1;
    for (size_t i = 0; i < b->count; i++)
        at[bin_of(&b->comps[i]) * span + longer(&b->comps[i]) + 1]++;
    for (size_t k = 1; k <= keys; k++)
        at[k] += at[k - 1];
    for (int k = 0; k < CTT_N_BINS; k++)
        d->bin[k] = at[(k + 1) * span] - at[k * span];
    for (size_t i = 0; i < b->count; i++)
        index[at[bin_of(&b->comps[i]) * span + longer(&b->comps[i])]++] = (uint32_t)i;
    free(at);
    size_t from = d->bin[CTT_BIN_THREAD];
    for (int k = 1; k < CTT_N_BINS; k++) {
        for (size_t lo = from, hi = from + d->bin[k]; lo + 1 < hi; lo++, hi--) {
            const uint32_t t = index[lo];
            index[lo] = index[hi - 1];
            index[hi - 1] = t;
        }
        from += d->bin[k];
    }
    return 0;
}

cudaError_t ctt_device_open(struct ctt_device *d, const struct ctt_batch *b, enum ctt_mapping m)
{
    memset(d, 0, sizeof *d);
    d->operand_words = b->operand_words;
    d->total_words = b->operand_words + b->result_words;
    d->count = b->count;
    int dev = 0;
    CUDA_TRY(d, cudaGetDevice(&dev), "cudaGetDevice");
    CUDA_TRY(d, cudaDeviceGetAttribute(&d->sm_count, cudaDevAttrMultiProcessorCount, dev),
             "cudaDeviceGetAttribute");
    CUDA_TRY(d, cudaStreamCreate(&d->stream), "cudaStreamCreate");
    CUDA_TRY(d, cudaMalloc((void **)&d->d_mem, d->total_words * 4), "cudaMalloc (memory block)");
    CUDA_TRY(d, cudaMalloc((void **)&d->d_comps, b->count * sizeof(struct ctt_comp)),
             "cudaMalloc (computations)");
    CUDA_TRY(d, cudaMalloc((void **)&d->d_counters, CTT_N_COUNTERS * sizeof(unsigned)),
             "cudaMalloc (counters)");
    if (m == CTT_MAP_AUTO) {
        uint32_t *index = malloc(b->count * sizeof *index);
        if (!index || make_bins(d, b, index) != 0) {
            free(index);
            d->failed_call = "malloc (auto's bins)";
            return cudaErrorMemoryAllocation;
        }
        cudaError_t err = cudaMalloc((void **)&d->d_index, b->count * sizeof *index);
        if (err == cudaSuccess)
            err = cudaMemcpy(d->d_index, index, b->count * sizeof *index, cudaMemcpyHostToDevice);
        free(index);
        CUDA_TRY(d, err, "cudaMalloc/cudaMemcpy (auto's bins)");
        d->scratch_words = column_scratch_words(b);
        if (d->scratch_words)
            CUDA_TRY(d, cudaMalloc((void **)&d->d_scratch, d->scratch_words * 4),
                     "cudaMalloc (block scratch)");
        for (int k = 0; k < CTT_N_BINS - 1; k++) {
            CUDA_TRY(d, cudaStreamCreateWithFlags(&d->side[k], cudaStreamNonBlocking), "cudaStreamCreate");
            CUDA_TRY(d, cudaEventCreateWithFlags(&d->join[k], cudaEventDisableTiming), "cudaEventCreate");
        }
        CUDA_TRY(d, cudaEventCreateWithFlags(&d->fork, cudaEventDisableTiming), "cudaEventCreate");
    }
    CUDA_TRY(d, ctt_device_upload(d, b), d->failed_call);
    CUDA_TRY(d, cudaMemsetAsync(d->d_mem + d->operand_words, 0xa5, (d->total_words - d->operand_words) * 4,
                                d->stream), "cudaMemsetAsync (poison)");
    CUDA_TRY(d, cudaStreamSynchronize(d->stream), "cudaStreamSynchronize");
    return cudaSuccess;
}

void ctt_device_close(struct ctt_device *d)
{
    cudaFree(d->d_mem);
    cudaFree(d->d_comps);
    cudaFree(d->d_counters);
    cudaFree(d->d_index);
    cudaFree(d->d_scratch);
    for (int k = 0; k < CTT_N_BINS - 1; k++) {
        if (d->side[k])
            cudaStreamDestroy(d->side[k]);
        if (d->join[k])
            cudaEventDestroy(d->join[k]);
    }
    if (d->fork)
        cudaEventDestroy(d->fork);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    memset(d, 0, sizeof *d);
}

cudaError_t ctt_device_upload(struct ctt_device *d, const struct ctt_batch *b)
{
    CUDA_TRY(d, cudaMemcpyAsync(d->d_mem, b->words, d->total_words * 4, cudaMemcpyHostToDevice,
                                d->stream), "cudaMemcpyAsync (memory block up)");
    CUDA_TRY(d, cudaMemcpyAsync(d->d_comps, b->comps, b->count * sizeof(struct ctt_comp),
                                cudaMemcpyHostToDevice, d->stream), "cudaMemcpyAsync (computations up)");
    return cudaSuccess;
}

cudaError_t ctt_device_launch(struct ctt_device *d, enum ctt_mapping m)
{
    CUDA_TRY(d, cudaMemsetAsync(d->d_counters, 0, CTT_N_COUNTERS * sizeof(unsigned), d->stream),
             "cudaMemsetAsync (counters)");
    const uint32_t n = (uint32_t)d->count, base = (uint32_t)d->operand_words;
    if (m == CTT_MAP_THREAD) {
        CUDA_TRY(d, ctt_launch_thread(d->d_mem, d->d_comps, NULL, n, d->d_counters, base,
                                      d->sm_count, d->stream), "ctt_thread_kernel");
        return cudaSuccess;
    }
    if (m == CTT_MAP_WARP) {
        CUDA_TRY(d, ctt_launch_warp(d->d_mem, d->d_comps, NULL, n, d->d_counters, base, d->stream),
                 "ctt_warp_kernel");
        return cudaSuccess;
    }
    /* auto: the bins run side by side on streams of their own, forked from and joined back to
     * d->stream, so a small bin does not leave the GPU idle behind a large one. */
    const uint32_t *ix = d->d_index;
    size_t at[CTT_N_BINS], sum = 0;
    for (int k = 0; k < CTT_N_BINS; k++) {
        at[k] = sum;
        sum += d->bin[k];
    }
    CUDA_TRY(d, cudaEventRecord(d->fork, d->stream), "cudaEventRecord");
    for (int k = 0; k < CTT_N_BINS - 1; k++)
        CUDA_TRY(d, cudaStreamWaitEvent(d->side[k], d->fork, 0), "cudaStreamWaitEvent");
    CUDA_TRY(d, ctt_launch_block(d->d_mem, d->d_comps, ix + at[CTT_BIN_BLOCK],
                                 (uint32_t)d->bin[CTT_BIN_BLOCK], d->d_counters, base, d->d_scratch,
                                 CTT_BLOCK_THREADS, d->side[0]), "ctt_block_kernel");
    CUDA_TRY(d, ctt_launch_block(d->d_mem, d->d_comps, ix + at[CTT_BIN_WARP_COLUMNS],
                                 (uint32_t)d->bin[CTT_BIN_WARP_COLUMNS], d->d_counters, base,
                                 d->d_scratch, 32, d->side[1]), "ctt_block_kernel (one warp)");
    CUDA_TRY(d, ctt_launch_warp(d->d_mem, d->d_comps, ix + at[CTT_BIN_WARP],
                                (uint32_t)d->bin[CTT_BIN_WARP], d->d_counters, base, d->side[2]),
             "ctt_warp_kernel");
    CUDA_TRY(d, ctt_launch_thread(d->d_mem, d->d_comps, ix + at[CTT_BIN_THREAD],
                                  (uint32_t)d->bin[CTT_BIN_THREAD], d->d_counters, base,
                                  d->sm_count, d->stream), "ctt_thread_kernel");
    for (int k = 0; k < CTT_N_BINS - 1; k++) {
        CUDA_TRY(d, cudaEventRecord(d->join[k], d->side[k]), "cudaEventRecord");
        CUDA_TRY(d, cudaStreamWaitEvent(d->stream, d->join[k], 0), "cudaStreamWaitEvent");
    }
    return cudaSuccess;
}

cudaError_t ctt_device_download(struct ctt_device *d, uint32_t *mem, struct ctt_comp *comps)
{
    CUDA_TRY(d, cudaMemcpyAsync(mem, d->d_mem, d->total_words * 4, cudaMemcpyDeviceToHost,
                                d->stream), "cudaMemcpyAsync (memory block down)");
    CUDA_TRY(d, cudaMemcpyAsync(comps, d->d_comps, d->count * sizeof(struct ctt_comp),
                                cudaMemcpyDeviceToHost, d->stream), "cudaMemcpyAsync (computations down)");
    CUDA_TRY(d, cudaStreamSynchronize(d->stream), "cudaStreamSynchronize");
    return cudaSuccess;
}
