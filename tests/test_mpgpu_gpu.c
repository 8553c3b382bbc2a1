/* gpu suite: libmpgpu's products (mpgpu.h) against GMP, every method at its smallest size,
 * near 1024 bits and near 4096 bits (where it takes them), through mpgpu_mul_host and through
 * mpgpu_mul_device on a stream of the caller's, on the legacy default stream, and as squares
 * (a and b the same buffer). The device products are poisoned first on the same stream, so a
 * product the call never wrote, or one read before the stream reached it, is caught. A prime
 * count ends every kernel and transpose on a partial block. Exits 77 without a GPU. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu.h"
#include "mul_gmp.h"
#include "random_words.h"
#include "test_seed.h"

#define COUNT 257

/* Counts the products of c that differ from GMP's a[p] * b[p]; prints the first. */
static size_t mismatches(const char *what, const uint32_t *a, const uint32_t *b,
                         const uint32_t *c, unsigned words)
{
    uint32_t *want = malloc(2 * words * sizeof(uint32_t));
    size_t bad = 0;
    for (size_t p = 0; p < COUNT; p++) {
        gmp_mul_words(want, a + p * words, b + p * words, words);
        if (memcmp(want, c + 2 * p * words, 2 * words * sizeof(uint32_t)) && bad++ == 0)
            printf("FAIL (seed %llu) %s: product %zu differs from GMP's\n",
                   (unsigned long long)seed, what, p);
    }
    free(want);
    return bad;
}

/* Fails the program (exit 1) on a CUDA error of the test's own calls: not what is tested. */
static void cuda_ok(cudaError_t err, const char *call)
{
    if (err != cudaSuccess) {
        printf("test_mpgpu_gpu: %s: %s\n", call, cudaGetErrorString(err));
        exit(1);
    }
}
#define CUDA_OK(call) cuda_ok((call), #call)

struct device_buffers {
    uint32_t *a, *b, *c;
};

/* One mpgpu_mul_device call on `stream`, with b_is_a for a square; c gets its products. */
static mpgpu_status run_device(const struct device_buffers *d, const char *method, unsigned bits,
                               int b_is_a, cudaStream_t stream, uint32_t *c)
{
    const size_t product_bytes = (size_t)COUNT * 2 * (bits / 32) * sizeof(uint32_t);
    CUDA_OK(cudaMemsetAsync(d->c, 0xA5, product_bytes, stream));
    mpgpu_status st = mpgpu_mul_device(method, bits, COUNT, d->a, b_is_a ? d->a : d->b, d->c, stream);
    CUDA_OK(cudaMemcpyAsync(c, d->c, product_bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    return st;
}

static void test_size(const mpgpu_mul_method_info *m, unsigned bits, uint64_t stream_id,
                      cudaStream_t stream)
{
    const unsigned words = bits / 32;
    const size_t n = (size_t)COUNT * words;
    uint32_t *a = malloc(n * sizeof(uint32_t)), *b = malloc(n * sizeof(uint32_t));
    uint32_t *c = malloc(2 * n * sizeof(uint32_t));
    random_words(seed, 2 * stream_id, a, n);
    random_words(seed, 2 * stream_id + 1, b, n);
    char what[128];

    snprintf(what, sizeof what, "%s %u bits, mpgpu_mul_host", m->name, bits);
    mpgpu_status st = mpgpu_mul_host(m->name, bits, COUNT, a, b, c);
    CHECK(st == MPGPU_OK, "%s: %s", what, mpgpu_status_string(st));
    if (st == MPGPU_OK)
        CHECK(mismatches(what, a, b, c, words) == 0, "%s", what);

    struct device_buffers d;
    CUDA_OK(cudaMalloc((void **)&d.a, n * sizeof(uint32_t)));
    CUDA_OK(cudaMalloc((void **)&d.b, n * sizeof(uint32_t)));
    CUDA_OK(cudaMalloc((void **)&d.c, 2 * n * sizeof(uint32_t)));
    CUDA_OK(cudaMemcpy(d.a, a, n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d.b, b, n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    const struct {
        const char *how;
        int square;
        cudaStream_t stream;
    } runs[] = {{"the caller's stream", 0, stream},
                {"the legacy default stream", 0, NULL},
                {"the caller's stream, a square", 1, stream}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        snprintf(what, sizeof what, "%s %u bits, mpgpu_mul_device on %s", m->name, bits,
                 runs[r].how);
        st = run_device(&d, m->name, bits, runs[r].square, runs[r].stream, c);
        CHECK(st == MPGPU_OK, "%s: %s", what, mpgpu_status_string(st));
        if (st == MPGPU_OK)
            CHECK(mismatches(what, a, runs[r].square ? a : b, c, words) == 0, "%s", what);
    }
    CUDA_OK(cudaFree(d.a));
    CUDA_OK(cudaFree(d.b));
    CUDA_OK(cudaFree(d.c));
    free(a);
    free(b);
    free(c);
}

/* The smallest size of the method's at or above `bits`, or 0 past its range. */
static unsigned size_at_least(const mpgpu_mul_method_info *m, unsigned bits)
{
    if (bits < m->min_bits)
        bits = m->min_bits;
    bits = (bits + m->bits_multiple - 1) / m->bits_multiple * m->bits_multiple;
    return bits <= m->max_bits ? bits : 0;
}

int main(void)
{
    seed = test_seed();
    int devices = 0;
    cudaError_t err = cudaGetDeviceCount(&devices);
    if (err != cudaSuccess || devices == 0) {
        printf("skipped: %s\n", err != cudaSuccess ? cudaGetErrorString(err) : "no CUDA device");
        return 77;
    }
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    uint64_t stream_id = 0;
    for (size_t i = 0; i < mpgpu_mul_method_count(); i++) {
        mpgpu_mul_method_info m;
        CHECK(mpgpu_mul_method_get(i, &m) == MPGPU_OK, "method %zu", i);
        /* 1056 and 4128 bits: not powers of two, so padded and uneven splits are run. */
        const unsigned sizes[] = {m.min_bits, size_at_least(&m, 1056), size_at_least(&m, 4128)};
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            if (sizes[s] && (s == 0 || sizes[s] != sizes[s - 1]))
                test_size(&m, sizes[s], stream_id++, stream);
        printf("%s: checked\n", m.name);
    }
    CUDA_OK(cudaStreamDestroy(stream));
    return test_finish("test_mpgpu_gpu");
}
