/* Device state of the Collatz kernels: the tables and the report buffers (kernels/collatz.h). */
#include "collatz.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_try.h"

/* Enough per-block partials for any persistent grid: 32 resident blocks per SM is the CUDA
 * maximum (compute capability 9.0), on up to 256 SMs. */
#define MAX_BLOCKS (32u * 256u)
#define PARTIAL_WORDS 3u

#define TRY(g, call) CUDA_TRY(g, call, #call)

cudaError_t collatz_device_open(struct collatz_device *g, size_t list_cap, size_t cand_cap,
                                cudaStream_t stream)
{
    memset(g, 0, sizeof *g);
    if (list_cap == 0 || cand_cap == 0) {
        g->failed_call = "collatz_device_open (report capacities must be at least 1)";
        return cudaErrorInvalidValue;
    }
    int dev, v;
    TRY(g, cudaGetDevice(&dev));
    TRY(g, cudaDeviceGetAttribute(&g->sm_count, cudaDevAttrMultiProcessorCount, dev));
    TRY(g, cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    g->shared_limit = (size_t)v;
    g->stream = stream;
    g->list_cap = list_cap;
    g->cand_cap = cand_cap;
    g->max_blocks = MAX_BLOCKS;
    TRY(g, cudaMalloc((void **)&g->d_list, list_cap * sizeof(uint64_t)));
    TRY(g, cudaMalloc((void **)&g->d_cand_n, cand_cap * sizeof(uint64_t)));
    TRY(g, cudaMalloc((void **)&g->d_cand_delay, cand_cap * sizeof(uint32_t)));
    TRY(g, cudaMalloc((void **)&g->d_counts, 2 * sizeof(unsigned long long)));
    TRY(g, cudaMalloc((void **)&g->d_partials, MAX_BLOCKS * PARTIAL_WORDS * sizeof(unsigned long long)));
    TRY(g, cudaMallocHost((void **)&g->h_partials, MAX_BLOCKS * PARTIAL_WORDS * sizeof(unsigned long long)));
    static const uint64_t zero[2] = {0, 0};
    TRY(g, cudaMalloc((void **)&g->d_s_all, sizeof zero));
    TRY(g, cudaMemcpyAsync(g->d_s_all, zero, sizeof zero, cudaMemcpyHostToDevice, g->stream));
    TRY(g, cudaStreamSynchronize(g->stream));
    return cudaSuccess;
}

void collatz_device_close(struct collatz_device *g)
{
    cudaFree(g->d_bc);
    cudaFree(g->d_ops);
    cudaFree(g->d_s);
    cudaFree(g->d_s_all);
    cudaFree(g->d_a);
    cudaFree(g->d_list);
    cudaFree(g->d_cand_n);
    cudaFree(g->d_cand_delay);
    cudaFree(g->d_counts);
    cudaFree(g->d_partials);
    cudaFreeHost(g->h_partials);
    memset(g, 0, sizeof *g);
}

size_t collatz_device_shared_bytes(unsigned d, bool with_ops)
{
    return with_ops ? collatz_bcj_bytes(d) : collatz_bc_bytes(d);
}

bool collatz_device_shared_fits(const struct collatz_device *g, unsigned d, bool with_ops)
{
    /* The kernels keep a few hundred bytes of their own for the block reductions. */
    return collatz_device_shared_bytes(d, with_ops) + 1024 <= g->shared_limit;
}

cudaError_t collatz_device_set_bc(struct collatz_device *g, const struct mpgpu_collatz_bc_table *t, bool with_ops)
{
    cudaFree(g->d_bc);
    cudaFree(g->d_ops);
    g->d_bc = NULL;
    g->d_ops = NULL;
    size_t n = (size_t)1 << t->bits;
    TRY(g, cudaMalloc((void **)&g->d_bc, collatz_bc_bytes(t->bits)));
    TRY(g, cudaMemcpyAsync(g->d_bc, t->bc, collatz_bc_bytes(t->bits), cudaMemcpyHostToDevice, g->stream));
    if (with_ops) {
        TRY(g, cudaMalloc((void **)&g->d_ops, n));
        TRY(g, cudaMemcpyAsync(g->d_ops, t->ops, n, cudaMemcpyHostToDevice, g->stream));
    }
    TRY(g, cudaStreamSynchronize(g->stream));
    g->bc_bits = t->bits;
    return cudaSuccess;
}

uint64_t collatz_device_s_bytes(uint64_t count)
{
    return 3 * collatz_s_bytes(count);
}

cudaError_t collatz_device_set_s(struct collatz_device *g, const struct mpgpu_collatz_s_table *s)
{
    cudaFree(g->d_s);
    g->d_s = NULL;
    uint64_t *d_res = NULL;
    TRY(g, cudaMalloc((void **)&g->d_s, 2 * collatz_s_bytes(s->count)));
    TRY(g, cudaMalloc((void **)&d_res, collatz_s_bytes(s->count)));
    /* On the kernels' stream: a cudaMemcpy from pageable memory may return before its DMA has
     * landed, and the non-blocking stream would not wait for it. */
    cudaError_t err = cudaMemcpyAsync(d_res, s->residues, collatz_s_bytes(s->count), cudaMemcpyHostToDevice,
                                      g->stream);
    if (err != cudaSuccess)
        g->failed_call = "cudaMemcpyAsync(S)";
    if (err == cudaSuccess && (err = collatz_s_jump_build(g->d_s, d_res, s->count, s->bits, g->stream)) != cudaSuccess)
        g->failed_call = "s_jump_kernel launch";
    if (err == cudaSuccess && (err = cudaStreamSynchronize(g->stream)) != cudaSuccess)
        g->failed_call = "cudaStreamSynchronize(s_jump_kernel)";
    cudaFree(d_res);
    if (err != cudaSuccess)
        return err;
    g->s_bits = s->bits;
    g->s_count = s->count;
    return cudaSuccess;
}

cudaError_t collatz_device_set_a(struct collatz_device *g, const uint16_t *a, unsigned a_bits)
{
    cudaFree(g->d_a);
    g->d_a = NULL;
    TRY(g, cudaMalloc((void **)&g->d_a, collatz_a_bytes(a_bits)));
    TRY(g, cudaMemcpyAsync(g->d_a, a, collatz_a_bytes(a_bits), cudaMemcpyHostToDevice, g->stream));
    TRY(g, cudaStreamSynchronize(g->stream));
    g->a_bits = a_bits;
    return cudaSuccess;
}

cudaError_t collatz_device_grid(struct collatz_device *g, const void *kernel, unsigned threads,
                                size_t smem, unsigned *blocks)
{
    if (smem > 48 * 1024)
        TRY(g, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int per_sm = 0;
    TRY(g, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, smem));
    *blocks = (unsigned)(per_sm > 0 ? per_sm : 1) * (unsigned)g->sm_count;
    if (*blocks > g->max_blocks)
        *blocks = g->max_blocks;
    return cudaSuccess;
}

cudaError_t collatz_device_fetch_overflows(struct collatz_device *g, struct mpgpu_collatz_list *list,
                                           size_t n)
{
    size_t at = list->n;
    for (size_t i = 0; i < n; i++)
        if (collatz_list_push(list, 0) != 0)
            return cudaErrorMemoryAllocation;
    if (n)
        TRY(g, cudaMemcpy(list->v + at, g->d_list, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    return cudaSuccess;
}
