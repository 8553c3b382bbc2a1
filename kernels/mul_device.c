#include "mul.h"

#include <string.h>

#include "layout_transpose.h"
#include "cuda_try.h"

int mul_method_supports(const struct mul_method *m, unsigned words)
{
    return words >= m->min_words && words <= m->max_words && words % m->words_multiple == 0;
}

const struct mul_method *mul_method_find(const char *name)
{
    size_t n;
    const struct mul_method *all = mul_methods(&n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(all[i].name, name))
            return &all[i];
    return NULL;
}

static size_t scratch_bytes(const struct mul_method *m, unsigned words, size_t batch)
{
    return m->scratch_bytes ? m->scratch_bytes(words, batch) : 0;
}

size_t mul_device_bytes_per_product(const struct mul_method *m, unsigned words, size_t batch)
{
    size_t bytes = 4 * (size_t)words * sizeof(uint32_t); /* a, b, c */
    if (m->layout == MUL_LAYOUT_WORD_MAJOR)
        bytes += 2 * (size_t)words * sizeof(uint32_t); /* staging for the transposes */
    return bytes + (scratch_bytes(m, words, batch) + batch - 1) / batch;
}

#define TRY(call) CUDA_TRY(d, call, #call)

cudaError_t mul_device_open(struct mul_device *d, const struct mul_method *m, unsigned words,
                            size_t batch)
{
    memset(d, 0, sizeof *d);
    d->method = m;
    d->words = words;
    d->batch = batch;
    size_t op = (size_t)words * batch * sizeof(uint32_t);
    TRY(cudaStreamCreate(&d->stream));
    TRY(cudaMalloc((void **)&d->d_a, op));
    TRY(cudaMalloc((void **)&d->d_b, op));
    TRY(cudaMalloc((void **)&d->d_c, 2 * op));
    if (m->layout == MUL_LAYOUT_WORD_MAJOR)
        TRY(cudaMalloc((void **)&d->d_stage, 2 * op));
    size_t s = scratch_bytes(m, words, batch);
    if (s)
        TRY(cudaMalloc(&d->d_scratch, s));
    return cudaSuccess;
}

void mul_device_close(struct mul_device *d)
{
    cudaFree(d->d_a);
    cudaFree(d->d_b);
    cudaFree(d->d_c);
    cudaFree(d->d_stage);
    cudaFree(d->d_scratch);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    memset(d, 0, sizeof *d);
}

static cudaError_t upload_one(struct mul_device *d, uint32_t *dst, const uint32_t *src, size_t n)
{
    size_t bytes = (size_t)d->words * n * sizeof(uint32_t);
    if (d->method->layout == MUL_LAYOUT_PRODUCT_MAJOR) {
        TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, d->stream));
        return cudaSuccess;
    }
    TRY(cudaMemcpyAsync(d->d_stage, src, bytes, cudaMemcpyHostToDevice, d->stream));
    TRY(layout_transpose(d->d_stage, dst, n, d->words, d->stream));
    return cudaSuccess;
}

cudaError_t mul_device_upload(struct mul_device *d, const uint32_t *a, const uint32_t *b,
                              size_t n)
{
    cudaError_t err = upload_one(d, d->d_a, a, n);
    if (err == cudaSuccess)
        err = upload_one(d, d->d_b, b, n);
    return err;
}

cudaError_t mul_device_launch(struct mul_device *d, size_t n)
{
    TRY(d->method->launch(d->d_a, d->d_b, d->d_c, d->words, n, d->d_scratch, d->stream));
    return cudaSuccess;
}

cudaError_t mul_device_download(struct mul_device *d, uint32_t *c, size_t n)
{
    size_t bytes = 2 * (size_t)d->words * n * sizeof(uint32_t);
    if (d->method->layout == MUL_LAYOUT_PRODUCT_MAJOR) {
        TRY(cudaMemcpyAsync(c, d->d_c, bytes, cudaMemcpyDeviceToHost, d->stream));
    } else {
        TRY(layout_transpose(d->d_c, d->d_stage, 2 * (size_t)d->words, n, d->stream));
        TRY(cudaMemcpyAsync(c, d->d_stage, bytes, cudaMemcpyDeviceToHost, d->stream));
    }
    TRY(cudaStreamSynchronize(d->stream));
    return cudaSuccess;
}

cudaError_t mul_device_poison(struct mul_device *d, size_t n)
{
    TRY(cudaMemsetAsync(d->d_c, 0xA5, 2 * (size_t)d->words * n * sizeof(uint32_t), d->stream));
    return cudaSuccess;
}
