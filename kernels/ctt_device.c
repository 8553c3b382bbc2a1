/* The host side of ctt-vs-ctw on the GPU: a batch's plan (auto's bins, the counters of 003
 * Algorithms 3.1/3.2 reset before each run) and the launches. */
#include "ctt.h"

#include <stdlib.h>
#include <string.h>

#include "mpgpu_internal.h"

/* Returns the mpgpu_status of a failed CUDA call, named by `name` (static storage). */
#define CTT_TRY(call, name)                                                                 \
    do {                                                                                    \
        cudaError_t ctt_try_err_ = (call);                                                  \
        if (ctt_try_err_ != cudaSuccess)                                                    \
            return libmpgpu_cuda_failure(ctt_try_err_, (name));                             \
    } while (0)

static uint32_t max_u32(uint32_t x, uint32_t y)
{
    return x > y ? x : y;
}

/* The length auto bins computation i of b by: its longer operand, the longest of the four
 * integers of a rational one. */
static uint32_t longest(const struct mpgpu_ctt_batch *b, size_t i)
{
    if (b->rational) {
        const struct mpgpu_ctt_qcomp *q = &b->qcomps[i];
        return max_u32(max_u32(q->a_len, q->b_len), max_u32(q->c_len, q->d_len));
    }
    return max_u32(b->comps[i].a_len, b->comps[i].b_len);
}

/* Whether computation i takes mul's bins: a product, or a rational computation. */
static bool takes_mul_bins(const struct mpgpu_ctt_batch *b, size_t i)
{
    return b->rational || b->comps[i].op == MPGPU_CTT_MUL;
}

/* auto's choices that depend on the whole batch (ctt.h gives the bounds and why). */
struct bin_rule {
    uint32_t rows_max; /* the longest products CTW's rows take */
    bool thread_fills; /* enough short products for the thread bin to keep the SMs busy */
    bool narrow;       /* more middle products than one wave of the block holds */
    bool adds_short;   /* every add and sub is short enough for the thread bin */
};

/* Counts b's short products (up to CTT_AUTO_MUL_THREAD_MAX words), those for CTW's rows, and
 * the middle ones (past the rows, up to CTT_AUTO_MUL_NARROW_MAX words) against the SMs and one
 * wave of the block's kernel (block_wave computations). When most products are about the rows'
 * size, the rows also take those up to twice as long, so that a batch around the rows' bound
 * is not split in two bins (ctt.h). */
static struct bin_rule bin_rule_of(const struct mpgpu_ctt_batch *b, int sm_count, size_t block_wave)
{
    size_t short_ones = 0, rows_most = 0, products = 0, middle = 0;
    bool adds_short = true;
    for (size_t i = 0; i < b->count; i++) {
        const uint32_t n = longest(b, i);
        if (!takes_mul_bins(b, i)) {
            adds_short &= n <= CTT_AUTO_ADD_THREAD_MAX;
            continue;
        }
        products++;
        short_ones += n <= CTT_AUTO_MUL_THREAD_MAX;
        rows_most += n <= CTT_AUTO_MUL_ROWS_MOST;
    }
    const uint32_t rows_max = 2 * rows_most > products ? 2 * CTT_AUTO_MUL_ROWS_MAX : CTT_AUTO_MUL_ROWS_MAX;
    for (size_t i = 0; i < b->count; i++) {
        const uint32_t n = longest(b, i);
        middle += takes_mul_bins(b, i) && n > rows_max && n <= CTT_AUTO_MUL_NARROW_MAX;
    }
    return (struct bin_rule){
        .rows_max = rows_max,
        .thread_fills = short_ones >= (size_t)CTT_AUTO_THREAD_WARPS_PER_SM * 32 * (size_t)sm_count,
        .narrow = middle > block_wave,
        .adds_short = adds_short,
    };
}

/* auto's bin of computation i (ctt.h gives the bounds). */
static enum ctt_bin bin_of(const struct mpgpu_ctt_batch *b, size_t i, struct bin_rule r)
{
    const uint32_t n = longest(b, i);
    if (takes_mul_bins(b, i))
        return n <= CTT_AUTO_MUL_THREAD_MAX && r.thread_fills ? CTT_BIN_THREAD
             : n <= r.rows_max                               ? CTT_BIN_WARP
             : n <= CTT_AUTO_MUL_NARROW_MAX && !r.narrow     ? CTT_BIN_BLOCK
             : n <= CTT_AUTO_MUL_WARP_MAX                    ? CTT_BIN_WARP_COLUMNS
             : n <= CTT_AUTO_MUL_TILE64_MAX                  ? CTT_BIN_TILE64
             : n <= CTT_AUTO_MUL_TILE128_MAX                 ? CTT_BIN_TILE128
             : n <= CTT_AUTO_MUL_TILE_MAX                    ? CTT_BIN_TILE256
                                                             : CTT_BIN_BLOCK;
    return n <= CTT_AUTO_ADD_THREAD_MAX && r.adds_short ? CTT_BIN_THREAD
         : n <= CTT_AUTO_ADD_WARP_MAX                   ? CTT_BIN_WARP
                                                        : CTT_BIN_BLOCK;
}

/* Scratch words of the column bins: the middle and high words of the column sums of each mul.
 * With narrow false, every middle product is in the block bin: the most scratch b can need. */
static uint64_t column_scratch_words(const struct mpgpu_ctt_batch *b, struct bin_rule r)
{
    uint64_t w = 0;
    for (size_t i = 0; i < b->count; i++) {
        const enum ctt_bin k = bin_of(b, i, r);
        if (k == CTT_BIN_WARP_COLUMNS || k == CTT_BIN_BLOCK)
            w += b->rational ? ctt_q_block_scratch(&b->qcomps[i]) : ctt_block_scratch(&b->comps[i]);
    }
    return w;
}

size_t ctt_comp_bytes(const struct mpgpu_ctt_batch *b)
{
    return b->rational ? sizeof(struct mpgpu_ctt_qcomp) : sizeof(struct mpgpu_ctt_comp);
}

uint64_t ctt_device_bytes(const struct mpgpu_ctt_batch *b, enum ctt_mapping m)
{
    uint64_t bytes = (b->operand_words + b->result_words) * 4 + b->count * ctt_comp_bytes(b) +
                     CTT_N_COUNTERS * sizeof(unsigned);
    /* The most scratch a batch can need: the shortest rows, every middle product in the block. */
    const struct bin_rule most_scratch = {.rows_max = CTT_AUTO_MUL_ROWS_MAX, .thread_fills = true};
    if (m == CTT_MAP_AUTO)
        bytes += b->count * sizeof(uint32_t) + column_scratch_words(b, most_scratch) * 4;
    return bytes;
}

/* The key auto's bins are sorted by: the bin, then the length. The warp bin keeps the batch's
 * order: a warp a computation has no lanes to keep in step, and a batch all in that bin then
 * needs no index, like CTW itself (mixed-length add and sub at 8192 computations, H200: sorted,
 * auto took 1.02x CTW's time). */
static size_t bin_key(const struct mpgpu_ctt_batch *b, size_t i, struct bin_rule r)
{
    const enum ctt_bin k = bin_of(b, i, r);
    return (size_t)k * (CTT_MAX_WORDS + 1) + (k == CTT_BIN_WARP ? 0 : longest(b, i));
}

/* auto's bins: the computations ordered by bin and, within one, by their longer operand (a
 * counting sort); the thread bin ascending, so a warp's 32 lanes get similar lengths (003 4.3
 * warns that they should, and never measures it), the mappings of several threads descending,
 * so the longest start first and the short ones fill in behind them. */
static int make_bins(struct mpgpu_ctt_plan *d, const struct mpgpu_ctt_batch *b, uint32_t *index, struct bin_rule r)
{
    const size_t span = CTT_MAX_WORDS + 1, keys = CTT_N_BINS * span;
    size_t *at = calloc(keys + 1, sizeof *at);
    if (!at)
        return -1;
    memset(d->bin_longest, 0, sizeof d->bin_longest);
    for (size_t i = 0; i < b->count; i++) {
        at[bin_key(b, i, r) + 1]++;
        const enum ctt_bin k = bin_of(b, i, r);
        d->bin_longest[k] = max_u32(d->bin_longest[k], longest(b, i));
    }
    for (size_t k = 1; k <= keys; k++)
        at[k] += at[k - 1];
    for (int k = 0; k < CTT_N_BINS; k++)
        d->bin[k] = at[(k + 1) * span] - at[k * span];
    for (size_t i = 0; i < b->count; i++)
        index[at[bin_key(b, i, r)]++] = (uint32_t)i;
    free(at);
    size_t from = 0;
    for (int k = 0; k < CTT_N_BINS; k++) {
        const bool descending = k != CTT_BIN_THREAD && k != CTT_BIN_WARP;
        for (size_t lo = from, hi = from + d->bin[k]; descending && lo + 1 < hi; lo++, hi--) {
            const uint32_t t = index[lo];
            index[lo] = index[hi - 1];
            index[hi - 1] = t;
        }
        from += d->bin[k];
    }
    return 0;
}

mpgpu_status ctt_plan_open(struct mpgpu_ctt_plan *d, const struct mpgpu_ctt_batch *b,
                           enum ctt_mapping m)
{
    memset(d, 0, sizeof *d);
    d->mapping = m;
    d->operand_words = b->operand_words;
    d->total_words = b->operand_words + b->result_words;
    d->count = b->count;
    d->rational = b->rational;
    d->comp_bytes = ctt_comp_bytes(b);
    int dev = 0;
    CTT_TRY(cudaGetDevice(&dev), "cudaGetDevice");
    CTT_TRY(cudaDeviceGetAttribute(&d->sm_count, cudaDevAttrMultiProcessorCount, dev),
            "cudaDeviceGetAttribute");
    CTT_TRY(cudaMalloc((void **)&d->d_counters, CTT_N_COUNTERS * sizeof(unsigned)),
            "cudaMalloc (counters)");
    if (m != CTT_MAP_AUTO || b->count == 0)
        return MPGPU_OK;
    int blocks_per_sm = 0;
    CTT_TRY(ctt_block_resident(b->rational, &blocks_per_sm),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const struct bin_rule rule = bin_rule_of(b, d->sm_count, (size_t)blocks_per_sm * (size_t)d->sm_count);
    uint32_t *index = malloc(b->count * sizeof *index);
    if (!index || make_bins(d, b, index, rule) != 0) {
        free(index);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    /* Computations already in bin order (one bin of lengths that do not fall, e.g. equal
     * lengths) need no index: the kernels read them directly. */
    d->index_is_identity = true;
    for (size_t i = 0; i < b->count && d->index_is_identity; i++)
        d->index_is_identity = index[i] == i;
    cudaError_t err = cudaMalloc((void **)&d->d_index, b->count * sizeof *index);
    if (err == cudaSuccess)
        err = cudaMemcpy(d->d_index, index, b->count * sizeof *index, cudaMemcpyHostToDevice);
    /* A copy from pageable memory may return before its last bytes reach the device, and the
     * kernels run on streams that do not wait for the legacy stream's copy: wait for it here. */
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(cudaStreamLegacy);
    free(index);
    CTT_TRY(err, "cudaMalloc/cudaMemcpy/cudaStreamSynchronize (auto's bins)");
    d->scratch_words = column_scratch_words(b, rule);
    if (d->scratch_words)
        CTT_TRY(cudaMalloc((void **)&d->d_scratch, d->scratch_words * 4),
                "cudaMalloc (block scratch)");
    for (int k = 0; k < CTT_N_BINS - 1; k++) {
        CTT_TRY(cudaStreamCreateWithFlags(&d->side[k], cudaStreamNonBlocking), "cudaStreamCreate");
        CTT_TRY(cudaEventCreateWithFlags(&d->join[k], cudaEventDisableTiming), "cudaEventCreate");
    }
    CTT_TRY(cudaEventCreateWithFlags(&d->fork, cudaEventDisableTiming), "cudaEventCreate");
    return MPGPU_OK;
}

void ctt_plan_close(struct mpgpu_ctt_plan *d)
{
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
    memset(d, 0, sizeof *d);
}

/* The kernel of auto's bin k over its n computations, listed at ix. */
static const char *const bin_kernel[CTT_N_BINS] = {
    [CTT_BIN_THREAD] = "ctt_thread_kernel",
    [CTT_BIN_WARP] = "ctt_warp_kernel",
    [CTT_BIN_WARP_COLUMNS] = "ctt_block_kernel (one warp)",
    [CTT_BIN_TILE64] = "ctt_block_kernel (tiles, 64 threads)",
    [CTT_BIN_TILE128] = "ctt_block_kernel (tiles, 128 threads)",
    [CTT_BIN_TILE256] = "ctt_block_kernel (tiles, 256 threads)",
    [CTT_BIN_BLOCK] = "ctt_block_kernel",
};

static cudaError_t launch_bin(struct mpgpu_ctt_plan *d, uint32_t *mem, void *comps, enum ctt_bin k,
                              const uint32_t *ix, uint32_t n, uint32_t base, cudaStream_t s)
{
    switch (k) {
    case CTT_BIN_THREAD:
        return ctt_launch_thread(mem, comps, d->rational, ix, n, d->d_counters, base,
                                 d->sm_count, s);
    case CTT_BIN_WARP:
        return ctt_launch_warp(mem, comps, d->rational, ix, n, d->d_counters, base, s);
    default:
        return ctt_launch_block(mem, comps, d->rational, ix, n, d->d_counters, base,
                                d->d_scratch, k, d->bin_longest[k], s);
    }
}

mpgpu_status ctt_plan_launch(struct mpgpu_ctt_plan *d, uint32_t *mem, void *comps,
                             cudaStream_t stream)
{
    const enum ctt_mapping m = d->mapping;
    CTT_TRY(cudaMemsetAsync(d->d_counters, 0, CTT_N_COUNTERS * sizeof(unsigned), stream),
            "cudaMemsetAsync (counters)");
    const uint32_t n = (uint32_t)d->count, base = (uint32_t)d->operand_words;
    if (m == CTT_MAP_THREAD) {
        CTT_TRY(ctt_launch_thread(mem, comps, d->rational, NULL, n, d->d_counters, base,
                                  d->sm_count, stream), "ctt_thread_kernel");
        return MPGPU_OK;
    }
    if (m == CTT_MAP_WARP) {
        CTT_TRY(ctt_launch_warp(mem, comps, d->rational, NULL, n, d->d_counters, base, stream),
                "ctt_warp_kernel");
        return MPGPU_OK;
    }
    /* auto: the bins run side by side, the others forked from and joined back to the largest's
     * stream, so a small bin does not leave the GPU idle behind a large one. A batch that
     * fills one bin only runs it on stream: the fork and join would cost it 1-2 us, which
     * on short equal lengths made auto 5-18 % slower than the mapping it chose (H200,
     * results/ctt_auto_equal.csv of commit 9442d21). */
    size_t at[CTT_N_BINS], sum = 0;
    int filled = 0, largest = 0;
    for (int k = 0; k < CTT_N_BINS; k++) {
        at[k] = sum;
        sum += d->bin[k];
        filled += d->bin[k] > 0;
        largest = d->bin[k] > d->bin[largest] ? k : largest;
    }
    /* The bin with the most computations runs on stream itself, the others on side streams
     * (bin k on side[k], or side[k - 1] past the largest). Only those of bins with computations
     * fork and join: each fork or join adds a wait on the timed stream. */
    cudaStream_t on[CTT_N_BINS];
    bool forked[CTT_N_BINS] = {false};
    for (int k = 0; k < CTT_N_BINS; k++) {
        forked[k] = k != largest && d->bin[k] > 0;
        on[k] = forked[k] ? d->side[k < largest ? k : k - 1] : stream;
    }
    if (filled > 1)
        CTT_TRY(cudaEventRecord(d->fork, stream), "cudaEventRecord");
    for (int k = CTT_N_BINS - 1; k >= 0; k--) {
        if (forked[k])
            CTT_TRY(cudaStreamWaitEvent(on[k], d->fork, 0), "cudaStreamWaitEvent");
        /* One bin in the batch's own order reads the computations without the index: the
         * indirection cost the thread bin up to 16 % on 1-8-word batches (H200,
         * results/ctt_auto_equal.csv of commit acebf9b). */
        const uint32_t *ix = filled == 1 && d->index_is_identity ? NULL : d->d_index + at[k];
        CTT_TRY(launch_bin(d, mem, comps, (enum ctt_bin)k, ix, (uint32_t)d->bin[k], base, on[k]),
                bin_kernel[k]);
    }
    for (int k = 0; k < CTT_N_BINS; k++)
        if (forked[k]) {
            cudaEvent_t join = d->join[k < largest ? k : k - 1];
            CTT_TRY(cudaEventRecord(join, on[k]), "cudaEventRecord");
            CTT_TRY(cudaStreamWaitEvent(stream, join, 0), "cudaStreamWaitEvent");
        }
    return MPGPU_OK;
}
