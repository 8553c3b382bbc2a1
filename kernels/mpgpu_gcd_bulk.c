/* libmpgpu's bulk GCDs (mpgpu.h, "Bulk GCDs"): many independent pairs, one a GPU thread
 * (kernels/gcd_bulk.cu). The device call launches on the caller's word-major buffers; the host
 * call carries pair-major numbers through the GPU in batches that fit its free memory,
 * transposing them there (layout_transpose.cu). */
#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <string.h>

#include "gcd_bulk.h"
#include "layout_transpose.h"
#include "mpgpu_internal.h"

/* Indexed by enum gcd_bulk_method. */
static const mpgpu_gcd_method_info methods[] = {
    [GCD_BULK_LEHMER] = {"bulk-lehmer", "one pair a GPU thread: Lehmer's GCD with 64-bit leading "
                         "digits, a 2 x 2 matrix of 32-bit cofactors applied in one pass over the "
                         "words a step", 0},
    [GCD_BULK_BINARY] = {"bulk-binary", "one pair a GPU thread: Stein's binary GCD, a subtraction "
                         "and a shift over the words a round, no multiply", 0},
};
#define N_METHODS (sizeof methods / sizeof methods[0])

/* The host call's device memory a pair: its two numbers and its GCD word-major, and the
 * pair-major copies they are transposed from and to (two: A and B, then G into A's). */
#define HOST_ARRAYS_A_PAIR 5u

size_t mpgpu_gcd_bulk_method_count(void)
{
    return N_METHODS;
}

mpgpu_status mpgpu_gcd_bulk_method_get(size_t index, mpgpu_gcd_method_info *info)
{
    if (!info || index >= N_METHODS)
        return MPGPU_ERR_BAD_ARGUMENT;
    *info = methods[index];
    return MPGPU_OK;
}

/* The method called `name` into *id. */
static mpgpu_status find_method(const char *name, enum gcd_bulk_method *id)
{
    if (!name)
        return MPGPU_ERR_BAD_ARGUMENT;
    for (size_t i = 0; i < N_METHODS; i++)
        if (!strcmp(name, methods[i].name)) {
            *id = (enum gcd_bulk_method)i;
            return MPGPU_OK;
        }
    return MPGPU_ERR_UNKNOWN_METHOD;
}

mpgpu_status mpgpu_gcd_bulk_method_find(const char *name, mpgpu_gcd_method_info *info)
{
    enum gcd_bulk_method id;
    const mpgpu_status st = find_method(name, &id);
    if (st == MPGPU_OK && info)
        *info = methods[id];
    return st == MPGPU_OK && !info ? MPGPU_ERR_BAD_ARGUMENT : st;
}

mpgpu_status mpgpu_gcd_bulk_check(const char *method, uint64_t bits)
{
    enum gcd_bulk_method id;
    const mpgpu_status st = find_method(method, &id);
    if (st != MPGPU_OK)
        return st;
    return bits >= 1 && bits <= MPGPU_GCD_BULK_MAX_BITS ? MPGPU_OK : MPGPU_ERR_UNSUPPORTED_SIZE;
}

/* The bytes of `arrays` arrays of numbers of `bits` bits a pair, after the size checks. */
static mpgpu_status bytes_a_pair(const char *method, uint64_t bits, unsigned arrays,
                                 const void *out, uint64_t *bytes)
{
    const mpgpu_status st = mpgpu_gcd_bulk_check(method, bits);
    if (st != MPGPU_OK)
        return st;
    if (!out)
        return MPGPU_ERR_BAD_ARGUMENT;
    *bytes = arrays * ((bits + 31) / 32) * sizeof(uint32_t);
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_bulk_device_bytes(const char *method, uint64_t bits, size_t count,
                                         uint64_t *bytes)
{
    uint64_t per_pair = 0;
    const mpgpu_status st = bytes_a_pair(method, bits, 3, bytes, &per_pair);
    if (st == MPGPU_OK)
        *bytes = per_pair * count;
    return st;
}

mpgpu_status mpgpu_gcd_bulk_max_count(const char *method, uint64_t bits, uint64_t free_bytes,
                                      size_t *count)
{
    uint64_t per_pair = 1;
    const mpgpu_status st = bytes_a_pair(method, bits, HOST_ARRAYS_A_PAIR, count, &per_pair);
    if (st == MPGPU_OK)
        *count = free_bytes / per_pair > SIZE_MAX ? SIZE_MAX : (size_t)(free_bytes / per_pair);
    return st;
}

/* The checks the two calls share: the method, the words, and g apart from a and b. */
static mpgpu_status check_call(const char *method, size_t count, size_t words, const uint32_t *a,
                               const uint32_t *b, const uint32_t *g, enum gcd_bulk_method *id)
{
    mpgpu_status st = find_method(method, id);
    if (st != MPGPU_OK)
        return st;
    if (words == 0 || words > MPGPU_GCD_BULK_MAX_BITS / 32)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    if (count && (!a || !b || !g))
        return MPGPU_ERR_BAD_ARGUMENT;
    const size_t bytes = count * words * sizeof(uint32_t);
    if (count && (libmpgpu_overlap(g, bytes, a, bytes) || libmpgpu_overlap(g, bytes, b, bytes)))
        return MPGPU_ERR_BAD_ARGUMENT;
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_bulk_device(const char *method, size_t count, size_t words,
                                   const uint32_t *d_a, const uint32_t *d_b, uint32_t *d_g,
                                   mpgpu_stream stream)
{
    enum gcd_bulk_method id;
    const mpgpu_status st = check_call(method, count, words, d_a, d_b, d_g, &id);
    if (st != MPGPU_OK || count == 0)
        return st;
    LIBMPGPU_TRY(gcd_bulk_launch(id, d_a, d_b, d_g, (uint32_t)words, count, stream));
    return MPGPU_OK;
}

/* The host call's device side: its buffers, stream and events. */
struct bulk_host_run {
    uint32_t *a_pm, *b_pm, *a, *b, *g;
    cudaStream_t stream;
    cudaEvent_t start, stop;
};

static void bulk_host_free(struct bulk_host_run *r)
{
    if (r->stream)
        cudaStreamSynchronize(r->stream);
    cudaFree(r->a_pm);
    cudaFree(r->b_pm);
    cudaFree(r->a);
    cudaFree(r->b);
    cudaFree(r->g);
    if (r->start)
        cudaEventDestroy(r->start);
    if (r->stop)
        cudaEventDestroy(r->stop);
    if (r->stream)
        cudaStreamDestroy(r->stream);
}

/* Every batch of the host call: upload, transpose, reduce, transpose back, download. */
static mpgpu_status bulk_host_batches(struct bulk_host_run *r, enum gcd_bulk_method id,
                                      size_t count, size_t batch, size_t words, const uint32_t *a,
                                      const uint32_t *b, uint32_t *g, double *kernel_ms)
{
    const size_t bytes = batch * words * sizeof(uint32_t);
    LIBMPGPU_TRY(cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking));
    LIBMPGPU_TRY(cudaEventCreate(&r->start));
    LIBMPGPU_TRY(cudaEventCreate(&r->stop));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->a_pm, bytes));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->b_pm, bytes));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->a, bytes));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->b, bytes));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->g, bytes));
    double ms_sum = 0;
    for (size_t first = 0; first < count; first += batch) {
        const size_t n = count - first < batch ? count - first : batch;
        const size_t part = n * words * sizeof(uint32_t), at = first * words;
        LIBMPGPU_TRY(cudaMemcpyAsync(r->a_pm, a + at, part, cudaMemcpyHostToDevice, r->stream));
        LIBMPGPU_TRY(cudaMemcpyAsync(r->b_pm, b + at, part, cudaMemcpyHostToDevice, r->stream));
        LIBMPGPU_TRY(layout_transpose(r->a_pm, r->a, n, words, r->stream));
        LIBMPGPU_TRY(layout_transpose(r->b_pm, r->b, n, words, r->stream));
        LIBMPGPU_TRY(cudaEventRecord(r->start, r->stream));
        LIBMPGPU_TRY(gcd_bulk_launch(id, r->a, r->b, r->g, (uint32_t)words, n, r->stream));
        LIBMPGPU_TRY(cudaEventRecord(r->stop, r->stream));
        LIBMPGPU_TRY(layout_transpose(r->g, r->a_pm, words, n, r->stream));
        LIBMPGPU_TRY(cudaMemcpyAsync(g + at, r->a_pm, part, cudaMemcpyDeviceToHost, r->stream));
        LIBMPGPU_TRY(cudaStreamSynchronize(r->stream));
        float ms = 0;
        LIBMPGPU_TRY(cudaEventElapsedTime(&ms, r->start, r->stop));
        ms_sum += ms;
    }
    if (kernel_ms)
        *kernel_ms = ms_sum;
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_bulk_host(const char *method, size_t count, size_t words, const uint32_t *a,
                                 const uint32_t *b, uint32_t *g, double *kernel_ms)
{
    enum gcd_bulk_method id;
    mpgpu_status st = check_call(method, count, words, a, b, g, &id);
    if (kernel_ms)
        *kernel_ms = 0;
    if (st != MPGPU_OK || count == 0)
        return st;
    size_t free_b = 0, total_b = 0, batch = 0;
    LIBMPGPU_TRY(cudaMemGetInfo(&free_b, &total_b));
    /* A tenth of the free memory is left to the CUDA context and other users. */
    st = mpgpu_gcd_bulk_max_count(method, 32 * (uint64_t)words, free_b / 10 * 9, &batch);
    if (st != MPGPU_OK)
        return st;
    if (batch == 0)
        return MPGPU_ERR_OUT_OF_DEVICE_MEMORY;
    if (batch > count)
        batch = count;
    struct bulk_host_run r = {0};
    st = bulk_host_batches(&r, id, count, batch, words, a, b, g, kernel_ms);
    bulk_host_free(&r);
    return st;
}
