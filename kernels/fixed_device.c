#include "fixed_device.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_try.h"
#include "fixed_bits.h"
#include "fixed_ref.h"

/* One launcher per built precision, each in its own library (kernels/meson.build). */
typedef cudaError_t fixed_launch_fn(const struct fixed_launch *);
extern fixed_launch_fn MPGPU_FIXED_LAUNCHERS;
static const unsigned built_bits[] = {MPGPU_FIXED_BITS};
static fixed_launch_fn *const launchers[] = {MPGPU_FIXED_LAUNCHERS};
#define N_BUILT (sizeof built_bits / sizeof built_bits[0])

const unsigned *fixed_built_bits(size_t *n)
{
    *n = N_BUILT;
    return built_bits;
}

static fixed_launch_fn *launcher_of(unsigned bits)
{
    for (size_t i = 0; i < N_BUILT; i++)
        if (built_bits[i] == bits)
            return launchers[i];
    return NULL;
}

bool fixed_bits_built(unsigned bits) { return launcher_of(bits) != NULL; }

/* montred has one operand: nothing to interleave it with. */
static bool interleaved(const struct fixed_device *d) { return d->cfg.interleaved && d->bw > 0; }

size_t fixed_device_bytes_per_element(const struct fixed_config *cfg)
{
    const unsigned n = fixed_words(cfg->bits);
    const size_t aw = fixed_a_words(cfg->op, n), bw = fixed_b_words(cfg->op, n);
    const size_t rw = fixed_r_words(cfg->op, n);
    return (aw + bw + rw) * sizeof(uint32_t);
}

#define TRY(call) CUDA_TRY(d, call, #call)

cudaError_t fixed_device_open(struct fixed_device *d, const struct fixed_config *cfg, size_t count)
{
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    d->count = count;
    const unsigned n = fixed_words(cfg->bits);
    d->aw = fixed_a_words(cfg->op, n);
    d->bw = fixed_b_words(cfg->op, n);
    d->rw = fixed_r_words(cfg->op, n);
    if (!launcher_of(cfg->bits)) {
        d->failed_call = "fixed_device_open (precision not built)";
        return cudaErrorInvalidValue;
    }
    if (fixed_op_modular(cfg->op)) {
        d->mp = fixed_neg_inv(cfg->m[0]);
        fixed_r2(n, cfg->m, d->r2);
    }
    const size_t ab = (size_t)(d->aw + d->bw) * count, r = (size_t)d->rw * count;
    d->stage = malloc((ab > r ? ab : r) * sizeof(uint32_t));
    if (!d->stage) {
        d->failed_call = "malloc (host staging buffer)";
        return cudaErrorMemoryAllocation;
    }
    TRY(cudaStreamCreate(&d->stream));
    TRY(cudaMalloc((void **)&d->d_a, ab * sizeof(uint32_t)));
    if (d->bw && !interleaved(d))
        d->d_b = d->d_a + (size_t)d->aw * count;
    else if (d->bw)
        d->d_b = d->d_a + 1;
    TRY(cudaMalloc((void **)&d->d_r, r * sizeof(uint32_t)));
    return cudaSuccess;
}

void fixed_device_close(struct fixed_device *d)
{
    cudaFree(d->d_a);
    cudaFree(d->d_r);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    free(d->stage);
    memset(d, 0, sizeof *d);
}

/* Index of word j of element p in an array of `words`-word numbers, as the kernels compute it. */
static size_t index_of(const struct fixed_device *d, unsigned words, unsigned j, size_t p, unsigned step)
{
    return (d->cfg.coalesced ? (size_t)j * d->count + p : p * words + j) * step;
}

cudaError_t fixed_device_upload(struct fixed_device *d, const uint32_t *a, const uint32_t *b)
{
    const long count = (long)d->count;
    const unsigned step = interleaved(d) ? 2 : 1;
    uint32_t *sa = d->stage, *sb = d->bw ? d->stage + (d->d_b - d->d_a) : NULL;
    for (long p = 0; p < count; p++) {
        for (unsigned j = 0; j < d->aw; j++)
            sa[index_of(d, d->aw, j, (size_t)p, step)] = a[(size_t)p * d->aw + j];
        for (unsigned j = 0; j < d->bw; j++)
            sb[index_of(d, d->bw, j, (size_t)p, step)] = b[(size_t)p * d->bw + j];
    }
    TRY(cudaMemcpyAsync(d->d_a, d->stage, (size_t)(d->aw + d->bw) * d->count * sizeof(uint32_t),
                        cudaMemcpyHostToDevice, d->stream));
    TRY(cudaStreamSynchronize(d->stream));
    return cudaSuccess;
}

cudaError_t fixed_device_poison(struct fixed_device *d)
{
    TRY(cudaMemsetAsync(d->d_r, 0xa5, (size_t)d->rw * d->count * sizeof(uint32_t), d->stream));
    return cudaSuccess;
}

cudaError_t fixed_device_launch(struct fixed_device *d)
{
    const struct fixed_launch x = {&d->cfg, d->d_a, d->d_b, d->d_r, d->count, d->mp, d->r2, d->stream};
    const cudaError_t err = launcher_of(d->cfg.bits)(&x);
    if (err != cudaSuccess)
        d->failed_call = "the fixed kernel launch (too many threads per block for its registers?)";
    return err;
}

cudaError_t fixed_device_download(struct fixed_device *d, uint32_t *r)
{
    TRY(cudaMemcpyAsync(d->stage, d->d_r, (size_t)d->rw * d->count * sizeof(uint32_t),
                        cudaMemcpyDeviceToHost, d->stream));
    TRY(cudaStreamSynchronize(d->stream));
    const long count = (long)d->count;
    for (long p = 0; p < count; p++)
        for (unsigned j = 0; j < d->rw; j++)
            r[(size_t)p * d->rw + j] = d->stage[index_of(d, d->rw, j, (size_t)p, 1)];
    return cudaSuccess;
}
