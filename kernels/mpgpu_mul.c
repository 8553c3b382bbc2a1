/* libmpgpu's products (mpgpu.h) over the method registry of `mpgpu mul` (mul.h). */
#include <cuda_runtime_api.h>
#include <stdint.h>

#include "layout_transpose.h"
#include "mpgpu_internal.h"
#include "mul.h"

static void method_info(const struct mul_method *m, mpgpu_mul_method_info *info)
{
    info->name = m->name;
    info->summary = m->summary;
    info->min_bits = 32 * m->min_words;
    info->max_bits = 32 * m->max_words;
    info->bits_multiple = 32 * m->words_multiple;
}

size_t mpgpu_mul_method_count(void)
{
    size_t n;
    mul_methods(&n);
    return n;
}

mpgpu_status mpgpu_mul_method_get(size_t index, mpgpu_mul_method_info *info)
{
    size_t n;
    const struct mul_method *all = mul_methods(&n);
    if (!info || index >= n)
        return MPGPU_ERR_BAD_ARGUMENT;
    method_info(&all[index], info);
    return MPGPU_OK;
}

mpgpu_status mpgpu_mul_method_find(const char *name, mpgpu_mul_method_info *info)
{
    if (!name || !info)
        return MPGPU_ERR_BAD_ARGUMENT;
    const struct mul_method *m = mul_method_find(name);
    if (!m)
        return MPGPU_ERR_UNKNOWN_METHOD;
    method_info(m, info);
    return MPGPU_OK;
}

static mpgpu_status find_sized(const char *method, unsigned bits, const struct mul_method **m)
{
    if (!method)
        return MPGPU_ERR_BAD_ARGUMENT;
    *m = mul_method_find(method);
    if (!*m)
        return MPGPU_ERR_UNKNOWN_METHOD;
    if (bits % 32 != 0 || !mul_method_supports(*m, bits / 32))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    return MPGPU_OK;
}

mpgpu_status mpgpu_mul_check(const char *method, unsigned bits)
{
    const struct mul_method *m;
    return find_sized(method, bits, &m);
}

/* Each piece of the workspace starts on this boundary, as a cudaMalloc of its own would: the
 * kernels take their faster paths (thread-rowchain-karatsuba's uint4 moves) on aligned buffers. */
#define WORKSPACE_ALIGN 256u

/* Checks everything mpgpu_mul_device and mpgpu_mul_host take, before any CUDA call; sets the
 * operand size in bytes (the product has twice as many). */
static mpgpu_status check_call(const char *method, unsigned bits, size_t count, const uint32_t *a,
                               const uint32_t *b, const uint32_t *c,
                               const struct mul_method **m, size_t *operand_bytes)
{
    mpgpu_status st = find_sized(method, bits, m);
    if (st != MPGPU_OK)
        return st;
    const size_t word_bytes = bits / 32 * sizeof(uint32_t);
    /* The largest size, word-major staging, is 4x an operand's, and a rounding for each part. */
    if (count > (SIZE_MAX - 3 * WORKSPACE_ALIGN) / 4 / word_bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    *operand_bytes = count * word_bytes;
    if (count == 0)
        return MPGPU_OK;
    if (!a || !b || !c)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (libmpgpu_overlap(c, 2 * *operand_bytes, a, *operand_bytes) ||
        libmpgpu_overlap(c, 2 * *operand_bytes, b, *operand_bytes))
        return MPGPU_ERR_BAD_ARGUMENT;
    return MPGPU_OK;
}

static size_t workspace_round(size_t bytes)
{
    return (bytes + WORKSPACE_ALIGN - 1) / WORKSPACE_ALIGN * WORKSPACE_ALIGN;
}

/* The method on product-major device buffers: word-major methods get transposed copies of the
 * operands in the workspace and write their products there, to be transposed into d_c. */
static mpgpu_status run_method(const struct mul_method *m, unsigned words, size_t count,
                               const uint32_t *d_a, const uint32_t *d_b, uint32_t *d_c,
                               char *workspace, size_t operand_bytes, cudaStream_t stream)
{
    if (m->layout == MUL_LAYOUT_PRODUCT_MAJOR) {
        LIBMPGPU_TRY(
            m->launch(d_a, d_b, d_c, words, count, m->scratch_bytes ? workspace : NULL, stream));
        return MPGPU_OK;
    }
    uint32_t *wa = (uint32_t *)workspace;
    uint32_t *wb = (uint32_t *)(workspace + workspace_round(operand_bytes));
    uint32_t *wc = (uint32_t *)(workspace + 2 * workspace_round(operand_bytes));
    void *scratch = workspace + 2 * workspace_round(operand_bytes) +
                    workspace_round(2 * operand_bytes);
    LIBMPGPU_TRY(layout_transpose(d_a, wa, count, words, stream));
    LIBMPGPU_TRY(layout_transpose(d_b, wb, count, words, stream));
    LIBMPGPU_TRY(m->launch(wa, wb, wc, words, count, m->scratch_bytes ? scratch : NULL, stream));
    LIBMPGPU_TRY(layout_transpose(wc, d_c, 2 * (size_t)words, count, stream));
    return MPGPU_OK;
}

/* Some kernels move four words at once (warp-tensor-toeplitz stores its products as uint4). */
#define DEVICE_BUFFER_ALIGN 16u

mpgpu_status mpgpu_mul_device(const char *method, unsigned bits, size_t count,
                              const uint32_t *d_a, const uint32_t *d_b, uint32_t *d_c,
                              mpgpu_stream stream)
{
    const struct mul_method *m;
    size_t operand_bytes;
    mpgpu_status st = check_call(method, bits, count, d_a, d_b, d_c, &m, &operand_bytes);
    if (st != MPGPU_OK || count == 0)
        return st;
    if (((uintptr_t)d_a | (uintptr_t)d_b | (uintptr_t)d_c) % DEVICE_BUFFER_ALIGN)
        return MPGPU_ERR_BAD_ARGUMENT;
    const unsigned words = bits / 32;
    size_t staging_bytes = 0; /* word-major a, b and c */
    if (m->layout == MUL_LAYOUT_WORD_MAJOR)
        staging_bytes = 2 * workspace_round(operand_bytes) + workspace_round(2 * operand_bytes);
    const size_t scratch_bytes = m->scratch_bytes ? m->scratch_bytes(words, count) : 0;
    if (scratch_bytes > SIZE_MAX - staging_bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    const size_t workspace_bytes = staging_bytes + scratch_bytes;
    char *workspace = NULL;
    if (workspace_bytes)
        LIBMPGPU_TRY(cudaMallocAsync((void **)&workspace, workspace_bytes, stream));
    st = run_method(m, words, count, d_a, d_b, d_c, workspace, operand_bytes, stream);
    if (workspace) {
        cudaError_t err = cudaFreeAsync(workspace, stream);
        if (err != cudaSuccess && st == MPGPU_OK)
            st = libmpgpu_cuda_failure(err, "cudaFreeAsync(workspace, stream)");
    }
    return st;
}

/* The device side of mpgpu_mul_host; the caller frees what it leaves in the holder. */
struct host_run {
    cudaStream_t stream;
    uint32_t *d_a, *d_b, *d_c;
};

static mpgpu_status host_run(struct host_run *r, const char *method, unsigned bits, size_t count,
                             const uint32_t *a, const uint32_t *b, uint32_t *c,
                             size_t operand_bytes)
{
    LIBMPGPU_TRY(cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->d_a, operand_bytes));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->d_b, operand_bytes));
    LIBMPGPU_TRY(cudaMalloc((void **)&r->d_c, 2 * operand_bytes));
    LIBMPGPU_TRY(cudaMemcpyAsync(r->d_a, a, operand_bytes, cudaMemcpyHostToDevice, r->stream));
    LIBMPGPU_TRY(cudaMemcpyAsync(r->d_b, b, operand_bytes, cudaMemcpyHostToDevice, r->stream));
    mpgpu_status st = mpgpu_mul_device(method, bits, count, r->d_a, r->d_b, r->d_c, r->stream);
    if (st != MPGPU_OK)
        return st;
    LIBMPGPU_TRY(cudaMemcpyAsync(c, r->d_c, 2 * operand_bytes, cudaMemcpyDeviceToHost, r->stream));
    LIBMPGPU_TRY(cudaStreamSynchronize(r->stream));
    return MPGPU_OK;
}

mpgpu_status mpgpu_mul_host(const char *method, unsigned bits, size_t count, const uint32_t *a,
                            const uint32_t *b, uint32_t *c)
{
    const struct mul_method *m;
    size_t operand_bytes;
    mpgpu_status st = check_call(method, bits, count, a, b, c, &m, &operand_bytes);
    if (st != MPGPU_OK || count == 0)
        return st;
    struct host_run r = {0};
    st = host_run(&r, method, bits, count, a, b, c, operand_bytes);
    /* On an error the stream may still hold copies into c and reads of a and b: they end
     * before the buffers go, since cudaFree waits for the device. */
    if (r.stream)
        cudaStreamSynchronize(r.stream);
    cudaFree(r.d_a);
    cudaFree(r.d_b);
    cudaFree(r.d_c);
    if (r.stream)
        cudaStreamDestroy(r.stream);
    return st;
}
