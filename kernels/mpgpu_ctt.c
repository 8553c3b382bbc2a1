/* libmpgpu's batches of variable-length numbers (mpgpu.h, `mpgpu ctt-vs-ctw`): the checks of
 * every argument before any CUDA call, over the plans and launches of ctt_device.c. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "ctt.h"
#include "mpgpu_internal.h"

/* The batch's words must reach its result space: sealed since its last push. */
static bool batch_ok(const struct mpgpu_ctt_batch *b)
{
    return b && ctt_batch_sealed(b) && (b->count == 0 || b->words) &&
           (b->count == 0 || (b->rational ? b->qcomps != NULL : b->comps != NULL));
}

static bool mapping_ok(mpgpu_ctt_mapping m)
{
    return m == MPGPU_CTT_THREAD || m == MPGPU_CTT_WARP || m == MPGPU_CTT_AUTO;
}

mpgpu_status mpgpu_ctt_device_bytes(const struct mpgpu_ctt_batch *b, mpgpu_ctt_mapping m,
                                    uint64_t *bytes)
{
    if (!batch_ok(b) || !mapping_ok(m) || !bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    *bytes = ctt_device_bytes(b, (enum ctt_mapping)m);
    return MPGPU_OK;
}

mpgpu_status mpgpu_ctt_plan_create(mpgpu_ctt_plan **plan, const struct mpgpu_ctt_batch *b,
                                   mpgpu_ctt_mapping m)
{
    if (!plan || !batch_ok(b) || !mapping_ok(m))
        return MPGPU_ERR_BAD_ARGUMENT;
    *plan = NULL;
    struct mpgpu_ctt_plan *p = malloc(sizeof *p);
    if (!p)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    const mpgpu_status st = ctt_plan_open(p, b, (enum ctt_mapping)m);
    if (st != MPGPU_OK) {
        ctt_plan_close(p);
        free(p);
        return st;
    }
    *plan = p;
    return MPGPU_OK;
}

void mpgpu_ctt_plan_destroy(mpgpu_ctt_plan *plan)
{
    if (!plan)
        return;
    ctt_plan_close(plan);
    free(plan);
}

mpgpu_status mpgpu_ctt_plan_bins(const mpgpu_ctt_plan *plan, size_t counts[MPGPU_CTT_N_BINS])
{
    if (!plan || !counts)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (plan->mapping == CTT_MAP_AUTO) {
        memcpy(counts, plan->bin, sizeof plan->bin);
    } else {
        memset(counts, 0, MPGPU_CTT_N_BINS * sizeof *counts);
        counts[plan->mapping == CTT_MAP_THREAD ? CTT_BIN_THREAD : CTT_BIN_WARP] = plan->count;
    }
    return MPGPU_OK;
}

/* The memory block and the descriptors of a batch (words and count descriptors of comp_bytes)
 * at mem and comps: present when they hold anything, 4-byte aligned, apart. */
static bool buffers_ok(const void *mem, uint64_t words, const void *comps, size_t count,
                       size_t comp_bytes)
{
    if (count == 0 && words == 0)
        return true;
    if (!mem || !comps || ((uintptr_t)mem | (uintptr_t)comps) % 4)
        return false;
    if (words > SIZE_MAX / 4)
        return false;
    return !libmpgpu_overlap(mem, (size_t)words * 4, comps, count * comp_bytes);
}

mpgpu_status mpgpu_ctt_upload(const struct mpgpu_ctt_batch *b, uint32_t *d_mem, void *d_comps,
                              mpgpu_stream stream)
{
    if (!batch_ok(b))
        return MPGPU_ERR_BAD_ARGUMENT;
    const uint64_t words = b->operand_words + b->result_words;
    const size_t comp_bytes = ctt_comp_bytes(b);
    if (!buffers_ok(d_mem, words, d_comps, b->count, comp_bytes))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (words)
        LIBMPGPU_TRY(cudaMemcpyAsync(d_mem, b->words, words * 4, cudaMemcpyHostToDevice, stream));
    const void *comps = b->rational ? (const void *)b->qcomps : (const void *)b->comps;
    if (b->count)
        LIBMPGPU_TRY(cudaMemcpyAsync(d_comps, comps, b->count * comp_bytes, cudaMemcpyHostToDevice,
                                     stream));
    return MPGPU_OK;
}

mpgpu_status mpgpu_ctt_run_device(mpgpu_ctt_plan *plan, uint32_t *d_mem, void *d_comps,
                                  mpgpu_stream stream)
{
    if (!plan || !buffers_ok(d_mem, plan->total_words, d_comps, plan->count, plan->comp_bytes))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (plan->count == 0)
        return MPGPU_OK;
    return ctt_plan_launch(plan, d_mem, d_comps, stream);
}

mpgpu_status mpgpu_ctt_download(const mpgpu_ctt_plan *plan, const uint32_t *d_mem,
                                const void *d_comps, uint32_t *mem, void *comps,
                                mpgpu_stream stream)
{
    if (!plan || !buffers_ok(d_mem, plan->total_words, d_comps, plan->count, plan->comp_bytes) ||
        !buffers_ok(mem, plan->total_words, comps, plan->count, plan->comp_bytes))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (plan->total_words)
        LIBMPGPU_TRY(cudaMemcpyAsync(mem, d_mem, plan->total_words * 4, cudaMemcpyDeviceToHost,
                                     stream));
    if (plan->count)
        LIBMPGPU_TRY(cudaMemcpyAsync(comps, d_comps, plan->count * plan->comp_bytes,
                                     cudaMemcpyDeviceToHost, stream));
    return MPGPU_OK;
}

/* The device side of mpgpu_ctt_run_host; the caller frees what it leaves in the holder. */
struct host_run {
    cudaStream_t stream;
    uint32_t *d_mem;
    void *d_comps;
    mpgpu_ctt_plan *plan;
};

static mpgpu_status host_run(struct host_run *r, struct mpgpu_ctt_batch *b, mpgpu_ctt_mapping m)
{
    const uint64_t words = b->operand_words + b->result_words;
    LIBMPGPU_TRY(cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->d_mem, words * 4));
    LIBMPGPU_TRY(cudaMalloc(&r->d_comps, b->count * ctt_comp_bytes(b)));
    mpgpu_status st = mpgpu_ctt_plan_create(&r->plan, b, m);
    if (st == MPGPU_OK)
        st = mpgpu_ctt_upload(b, r->d_mem, r->d_comps, r->stream);
    if (st == MPGPU_OK)
        st = mpgpu_ctt_run_device(r->plan, r->d_mem, r->d_comps, r->stream);
    void *comps = b->rational ? (void *)b->qcomps : (void *)b->comps;
    if (st == MPGPU_OK)
        st = mpgpu_ctt_download(r->plan, r->d_mem, r->d_comps, b->words, comps, r->stream);
    if (st != MPGPU_OK)
        return st;
    LIBMPGPU_TRY(cudaStreamSynchronize(r->stream));
    return MPGPU_OK;
}

mpgpu_status mpgpu_ctt_run_host(struct mpgpu_ctt_batch *b, mpgpu_ctt_mapping m)
{
    if (!batch_ok(b) || !mapping_ok(m))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (b->count == 0)
        return MPGPU_OK;
    struct host_run r = {0};
    const mpgpu_status st = host_run(&r, b, m);
    /* On an error the stream may still hold copies into b: they end before the buffers go. */
    if (r.stream)
        cudaStreamSynchronize(r.stream);
    mpgpu_ctt_plan_destroy(r.plan);
    cudaFree(r.d_mem);
    cudaFree(r.d_comps);
    if (r.stream)
        cudaStreamDestroy(r.stream);
    return st;
}
