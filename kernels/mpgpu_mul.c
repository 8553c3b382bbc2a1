/* libmpgpu's products (mpgpu.h) over the method registry of `mpgpu mul` (mul.h). */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <string.h>

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
    info->layout = m->layout == MUL_LAYOUT_WORD_MAJOR ? MPGPU_MUL_WORD_MAJOR : MPGPU_MUL_PRODUCT_MAJOR;
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

/* The method named, "auto" resolved from the built-in tune table for `count` products (as for
 * one product when count is 0, a call that does nothing). */
static mpgpu_status find_sized(const char *method, unsigned bits, size_t count,
                               const struct mul_method **m)
{
    if (!method)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!strcmp(method, "auto")) {
        mpgpu_mul_auto_choice choice;
        mpgpu_status st = mpgpu_mul_auto_pick(NULL, 0, bits, count ? count : 1, &choice);
        if (st != MPGPU_OK)
            return st;
        method = choice.method;
    }
    *m = mul_method_find(method);
    if (!*m)
        return MPGPU_ERR_UNKNOWN_METHOD;
    if (bits % 32 != 0 || !mul_method_supports(*m, bits / 32))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    return MPGPU_OK;
}

/* "auto" takes `bits` when the built-in table's entry for that size has a method for it at
 * each count measured there. */
static mpgpu_status auto_check(unsigned bits)
{
    const mpgpu_mul_tune_entry *rows;
    size_t n;
    mpgpu_mul_auto_choice choice;
    mpgpu_status st = mpgpu_mul_auto_pick(NULL, 0, bits, 1, &choice);
    mpgpu_mul_tune_builtin(&rows, &n, NULL);
    for (size_t i = 0; i < n && st == MPGPU_OK; i++)
        if (rows[i].bits == choice.bits)
            st = mpgpu_mul_auto_pick(NULL, 0, bits, rows[i].count, &choice);
    return st;
}

mpgpu_status mpgpu_mul_check(const char *method, unsigned bits)
{
    if (method && !strcmp(method, "auto"))
        return auto_check(bits);
    const struct mul_method *m;
    return find_sized(method, bits, 1, &m);
}

/* Each piece of the workspace starts on this boundary, as a cudaMalloc of its own would: the
 * kernels take their faster paths (thread-rowchain-karatsuba's uint4 moves) on aligned buffers. */
#define WORKSPACE_ALIGN 256u

static int layout_valid(mpgpu_mul_layout layout)
{
    return layout == MPGPU_MUL_PRODUCT_MAJOR || layout == MPGPU_MUL_WORD_MAJOR;
}

static mpgpu_mul_layout native_layout(const struct mul_method *m)
{
    return m->layout == MUL_LAYOUT_WORD_MAJOR ? MPGPU_MUL_WORD_MAJOR : MPGPU_MUL_PRODUCT_MAJOR;
}

/* Checks the method, the size and the count; sets the operand size in bytes (the product has
 * twice as many). */
static mpgpu_status check_sizes(const char *method, unsigned bits, size_t count,
                                const struct mul_method **m, size_t *operand_bytes)
{
    mpgpu_status st = find_sized(method, bits, count, m);
    if (st != MPGPU_OK)
        return st;
    const size_t word_bytes = bits / 32 * sizeof(uint32_t);
    /* The largest size, word-major staging, is 4x an operand's, and a rounding for each part. */
    if (count > (SIZE_MAX - 3 * WORKSPACE_ALIGN) / 4 / word_bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    *operand_bytes = count * word_bytes;
    return MPGPU_OK;
}

/* Checks everything the product calls take, before any CUDA call: the sizes, and the buffers
 * unless count is 0. */
static mpgpu_status check_call(const char *method, unsigned bits, size_t count, const uint32_t *a,
                               const uint32_t *b, const uint32_t *c,
                               const struct mul_method **m, size_t *operand_bytes)
{
    mpgpu_status st = check_sizes(method, bits, count, m, operand_bytes);
    if (st != MPGPU_OK || count == 0)
        return st;
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

/* The workspace of a call: the transposed operands and products when the buffers are off the
 * method's layout (staging), then the method's scratch. *bytes = 0 with MPGPU_ERR_BAD_ARGUMENT
 * past SIZE_MAX. */
static mpgpu_status workspace_bytes(const struct mul_method *m, unsigned words, size_t count,
                                    mpgpu_mul_layout layout, size_t operand_bytes,
                                    size_t *staging, size_t *bytes)
{
    *staging = 0;
    if (layout != native_layout(m))
        *staging = 2 * workspace_round(operand_bytes) + workspace_round(2 * operand_bytes);
    const size_t scratch = m->scratch_bytes && count ? m->scratch_bytes(words, count) : 0;
    if (scratch > SIZE_MAX - *staging) {
        *bytes = 0;
        return MPGPU_ERR_BAD_ARGUMENT;
    }
    *bytes = *staging + scratch;
    return MPGPU_OK;
}

mpgpu_status mpgpu_mul_workspace_bytes(const char *method, unsigned bits, size_t count,
                                       mpgpu_mul_layout layout, size_t *bytes)
{
    const struct mul_method *m;
    size_t operand_bytes, staging;
    if (!bytes || !layout_valid(layout))
        return MPGPU_ERR_BAD_ARGUMENT;
    mpgpu_status st = check_sizes(method, bits, count, &m, &operand_bytes);
    if (st != MPGPU_OK)
        return st;
    return workspace_bytes(m, bits / 32, count, layout, operand_bytes, &staging, bytes);
}

/* in (count numbers of `words` words in layout `from`) to the other layout in out. */
static cudaError_t transpose(mpgpu_mul_layout from, size_t words, size_t count,
                             const uint32_t *in, uint32_t *out, cudaStream_t stream)
{
    if (from == MPGPU_MUL_PRODUCT_MAJOR)
        return layout_transpose(in, out, count, words, stream);
    return layout_transpose(in, out, words, count, stream);
}

/* The method on device buffers in `layout`: off its native layout, it gets transposed copies of
 * the operands in the workspace and writes its products there, to be transposed into d_c. */
static mpgpu_status run_method(const struct mul_method *m, unsigned words, size_t count,
                               mpgpu_mul_layout layout, const uint32_t *d_a, const uint32_t *d_b,
                               uint32_t *d_c, char *workspace, size_t staging,
                               size_t operand_bytes, cudaStream_t stream)
{
    /* A method with scratch may need none at this size: then there may be no workspace. */
    void *scratch = m->scratch_bytes && workspace ? workspace + staging : NULL;
    if (layout == native_layout(m)) {
        LIBMPGPU_TRY(m->launch(d_a, d_b, d_c, words, count, scratch, stream));
        return MPGPU_OK;
    }
    uint32_t *wa = (uint32_t *)workspace;
    uint32_t *wb = (uint32_t *)(workspace + workspace_round(operand_bytes));
    uint32_t *wc = (uint32_t *)(workspace + 2 * workspace_round(operand_bytes));
    LIBMPGPU_TRY(transpose(layout, words, count, d_a, wa, stream));
    LIBMPGPU_TRY(transpose(layout, words, count, d_b, wb, stream));
    LIBMPGPU_TRY(m->launch(wa, wb, wc, words, count, scratch, stream));
    LIBMPGPU_TRY(transpose(native_layout(m), 2 * (size_t)words, count, wc, d_c, stream));
    return MPGPU_OK;
}

/* Some kernels move four words at once (warp-tensor-toeplitz stores its products as uint4). */
#define DEVICE_BUFFER_ALIGN 16u

static int device_aligned(const void *a, const void *b, const void *c)
{
    return ((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % DEVICE_BUFFER_ALIGN == 0;
}

mpgpu_status mpgpu_mul_device_workspace(const char *method, unsigned bits, size_t count,
                                        mpgpu_mul_layout layout, const uint32_t *d_a,
                                        const uint32_t *d_b, uint32_t *d_c, void *d_workspace,
                                        size_t workspace_bytes_given, mpgpu_stream stream)
{
    const struct mul_method *m;
    size_t operand_bytes, staging, needed;
    if (!layout_valid(layout))
        return MPGPU_ERR_BAD_ARGUMENT;
    mpgpu_status st = check_call(method, bits, count, d_a, d_b, d_c, &m, &operand_bytes);
    if (st != MPGPU_OK || count == 0)
        return st;
    if (!device_aligned(d_a, d_b, d_c))
        return MPGPU_ERR_BAD_ARGUMENT;
    st = workspace_bytes(m, bits / 32, count, layout, operand_bytes, &staging, &needed);
    if (st != MPGPU_OK)
        return st;
    if (needed > 0) {
        if (!d_workspace || workspace_bytes_given < needed ||
            (uintptr_t)d_workspace % WORKSPACE_ALIGN != 0 ||
            libmpgpu_overlap(d_workspace, needed, d_a, operand_bytes) ||
            libmpgpu_overlap(d_workspace, needed, d_b, operand_bytes) ||
            libmpgpu_overlap(d_workspace, needed, d_c, 2 * operand_bytes))
            return MPGPU_ERR_BAD_ARGUMENT;
    }
    return run_method(m, bits / 32, count, layout, d_a, d_b, d_c, d_workspace, staging,
                      operand_bytes, stream);
}

mpgpu_status mpgpu_mul_device(const char *method, unsigned bits, size_t count,
                              const uint32_t *d_a, const uint32_t *d_b, uint32_t *d_c,
                              mpgpu_stream stream)
{
    const struct mul_method *m;
    size_t operand_bytes, staging, bytes;
    mpgpu_status st = check_call(method, bits, count, d_a, d_b, d_c, &m, &operand_bytes);
    if (st != MPGPU_OK || count == 0)
        return st;
    if (!device_aligned(d_a, d_b, d_c))
        return MPGPU_ERR_BAD_ARGUMENT;
    st = workspace_bytes(m, bits / 32, count, MPGPU_MUL_PRODUCT_MAJOR, operand_bytes, &staging,
                         &bytes);
    if (st != MPGPU_OK)
        return st;
    char *workspace = NULL;
    if (bytes)
        LIBMPGPU_TRY(cudaMallocAsync((void **)&workspace, bytes, stream));
    st = run_method(m, bits / 32, count, MPGPU_MUL_PRODUCT_MAJOR, d_a, d_b, d_c, workspace,
                    staging, operand_bytes, stream);
    if (workspace) {
        cudaError_t err = cudaFreeAsync(workspace, stream);
        if (err != cudaSuccess && st == MPGPU_OK)
            st = libmpgpu_cuda_failure(err, "cudaFreeAsync(workspace, stream)");
    }
    return st;
}

mpgpu_status mpgpu_mul_transpose(unsigned words, size_t count, mpgpu_mul_layout from,
                                 const uint32_t *d_src, uint32_t *d_dst, mpgpu_stream stream)
{
    if (!layout_valid(from) || words == 0 || !d_src || !d_dst)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (count > SIZE_MAX / sizeof(uint32_t) / words)
        return MPGPU_ERR_BAD_ARGUMENT;
    const size_t bytes = count * words * sizeof(uint32_t);
    if (libmpgpu_overlap(d_src, bytes, d_dst, bytes))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (count == 0)
        return MPGPU_OK;
    LIBMPGPU_TRY(transpose(from, words, count, d_src, d_dst, stream));
    return MPGPU_OK;
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
