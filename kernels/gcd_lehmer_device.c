/* Host driver of the Lehmer GCD kernel: kernels/gcd_lehmer_device.h. */
#include "gcd_lehmer_device.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_try.h"
#include "gcd_modular.h"

#define TRY(d, call) CUDA_TRY(d, call, #call)

void gcd_lehmer_shape(uint32_t words, uint32_t *chunk, uint32_t *threads, uint32_t *cap)
{
    const uint32_t need = words + 1;
    uint32_t k = (need + GCD_LEHMER_MAX_THREADS - 1) / GCD_LEHMER_MAX_THREADS;
    if (k < GCD_LEHMER_MIN_CHUNK)
        k = GCD_LEHMER_MIN_CHUNK;
    /* An odd number of words: a warp's threads, k words apart, then touch 32 different banks of
     * shared memory (even chunks of 8 and 12 words took 5.3 us a step at 224 and 240 Kibit on
     * the H200, against 4.1 for 7 and 9 around them, results/gcd_lehmer.csv of bba8392). */
    k |= 1;
    const uint32_t chunks = (need + k - 1) / k;
    *chunk = k;
    *threads = (chunks + 31) / 32 * 32;
    *cap = k * *threads;
}

uint64_t gcd_lehmer_device_bytes(size_t words)
{
    uint32_t chunk, threads, cap;
    gcd_lehmer_shape((uint32_t)words, &chunk, &threads, &cap);
    /* U, V, the work arrays (two copies of both numbers) and the GCD */
    return 7 * (uint64_t)cap * sizeof(uint32_t) + sizeof(struct gcd_lehmer_result);
}

cudaError_t gcd_lehmer_device_open(struct gcd_lehmer_device *d)
{
    memset(d, 0, sizeof *d);
    TRY(d, cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    TRY(d, cudaEventCreate(&d->start));
    TRY(d, cudaEventCreate(&d->stop));
    TRY(d, cudaMalloc((void **)&d->d_result, sizeof *d->d_result));
    TRY(d, cudaMallocHost((void **)&d->h_result, sizeof *d->h_result));
    return cudaSuccess;
}

/* The buffers that grow with the pair (ensure). */
static void free_word_buffers(struct gcd_lehmer_device *d)
{
    cudaFree(d->d_u);
    cudaFree(d->d_v);
    cudaFree(d->d_work);
    cudaFree(d->d_out);
    free(d->h_words);
    d->d_u = d->d_v = d->d_work = d->d_out = d->h_words = NULL;
    d->cap = 0;
}

void gcd_lehmer_device_close(struct gcd_lehmer_device *d)
{
    free_word_buffers(d);
    cudaFree(d->d_result);
    cudaFreeHost(d->h_result);
    if (d->start)
        cudaEventDestroy(d->start);
    if (d->stop)
        cudaEventDestroy(d->stop);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    memset(d, 0, sizeof *d);
}

/* Buffers of at least cap words an array. */
static cudaError_t ensure(struct gcd_lehmer_device *d, size_t cap)
{
    if (cap <= d->cap)
        return cudaSuccess;
    free_word_buffers(d);
    TRY(d, cudaMalloc((void **)&d->d_u, cap * sizeof(uint32_t)));
    TRY(d, cudaMalloc((void **)&d->d_v, cap * sizeof(uint32_t)));
    TRY(d, cudaMalloc((void **)&d->d_work, 4 * cap * sizeof(uint32_t)));
    TRY(d, cudaMalloc((void **)&d->d_out, cap * sizeof(uint32_t)));
    d->h_words = malloc(cap * sizeof(uint32_t));
    if (!d->h_words) {
        d->failed_call = "malloc (host words)";
        return cudaErrorMemoryAllocation;
    }
    d->cap = cap;
    return cudaSuccess;
}

cudaError_t gcd_lehmer_device_gcd(struct gcd_lehmer_device *d, mpz_t g, const mpz_t a,
                                  const mpz_t b)
{
    mpz_t u, v;
    mpz_inits(u, v, NULL);
    cudaError_t err = cudaSuccess;
    if (gcd_modular_prepare(u, v, g, a, b))
        goto out;
    const size_t nu = (mpz_sizeinbase(u, 2) + 31) / 32;
    uint32_t chunk, threads, cap;
    gcd_lehmer_shape((uint32_t)nu, &chunk, &threads, &cap);
    if (d->chunk_words >= GCD_LEHMER_MIN_CHUNK) {
        const uint32_t k = d->chunk_words, t = ((uint32_t)nu + 1 + k - 1) / k;
        if (t <= GCD_LEHMER_MAX_THREADS) {
            chunk = k;
            threads = (t + 31) / 32 * 32;
            cap = k * threads;
        }
    }
    if ((err = ensure(d, cap)) != cudaSuccess)
        goto out;
    size_t n_u = 0, n_v = 0;
    mpz_export(d->h_words, &n_u, -1, sizeof *d->h_words, 0, 0, u);
    err = cudaMemcpyAsync(d->d_u, d->h_words, n_u * sizeof *d->h_words, cudaMemcpyHostToDevice,
                          d->stream);
    /* The copy must finish before h_words is filled again. */
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(d->stream);
    if (err != cudaSuccess) {
        d->failed_call = "cudaMemcpyAsync (U)";
        goto out;
    }
    mpz_export(d->h_words, &n_v, -1, sizeof *d->h_words, 0, 0, v);
    if ((err = cudaMemcpyAsync(d->d_v, d->h_words, n_v * sizeof *d->h_words,
                               cudaMemcpyHostToDevice, d->stream)) != cudaSuccess) {
        d->failed_call = "cudaMemcpyAsync (V)";
        goto out;
    }
    const struct gcd_lehmer_params p = {
        .u = d->d_u, .v = d->d_v, .nu = (uint32_t)n_u, .nv = (uint32_t)n_v,
        .chunk = chunk, .cap = cap, .work = d->d_work, .out = d->d_out, .result = d->d_result,
    };
    int in_shared = 0;
    if ((err = cudaEventRecord(d->start, d->stream)) != cudaSuccess) {
        d->failed_call = "cudaEventRecord (start)";
        goto out;
    }
    if ((err = gcd_lehmer_launch(&p, threads, d->stream, &in_shared)) != cudaSuccess) {
        d->failed_call = "gcd_lehmer_launch";
        goto out;
    }
    if ((err = cudaEventRecord(d->stop, d->stream)) != cudaSuccess ||
        (err = cudaMemcpyAsync(d->h_result, d->d_result, sizeof *d->h_result,
                               cudaMemcpyDeviceToHost, d->stream)) != cudaSuccess ||
        (err = cudaStreamSynchronize(d->stream)) != cudaSuccess) {
        d->failed_call = "cudaStreamSynchronize (after the Lehmer GCD kernel)";
        goto out;
    }
    const struct gcd_lehmer_result *r = d->h_result;
    if (r->broken || r->out_words > cap) {
        d->failed_call = "the Lehmer GCD kernel (a step broke its bounds)";
        err = cudaErrorAssert;
        goto out;
    }
    if ((err = cudaMemcpy(d->h_words, d->d_out, r->out_words * sizeof *d->h_words,
                          cudaMemcpyDeviceToHost)) != cudaSuccess) {
        d->failed_call = "cudaMemcpy (the GCD)";
        goto out;
    }
    mpz_import(g, r->out_words, -1, sizeof *d->h_words, 0, 0, d->h_words);
    float ms = 0;
    if ((err = cudaEventElapsedTime(&ms, d->start, d->stop)) != cudaSuccess) {
        d->failed_call = "cudaEventElapsedTime";
        goto out;
    }
    d->kernel_ms += ms;
    d->stats.steps += r->stats.steps;
    d->stats.pairs += r->stats.pairs;
    d->stats.shifts += r->stats.shifts;
    d->stats.ones += r->stats.ones;
    d->stats.quotients += r->stats.quotients;
    d->stats.negations += r->stats.negations;
    d->stats.ripple_rounds += r->stats.ripple_rounds;
    d->stats.ahead += r->stats.ahead;
    d->chunk = chunk;
    d->threads = gcd_lehmer_block_threads(threads);
    d->in_shared = in_shared;
out:
    mpz_clears(u, v, NULL);
    return err;
}
