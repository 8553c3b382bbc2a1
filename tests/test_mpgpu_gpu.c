/* gpu suite: libmpgpu's products (mpgpu.h) against GMP, every method at its smallest size,
 * near 1024 bits and near 4096 bits (where it takes them), through mpgpu_mul_host and through
 * mpgpu_mul_device on a stream of the caller's, on the legacy default stream, and as squares
 * (a and b the same buffer); through mpgpu_mul_device_workspace in both layouts (the native
 * one: the kernels alone) with a workspace of the caller's; mpgpu_mul_transpose against a
 * transpose on the host; "auto" at sizes and counts of the built-in table; Toom-k through
 * mpgpu_toom_host and mpgpu_toom_device. The device products (and workspaces) are poisoned
 * first on the same stream, so a product the call never wrote, or one read before the stream
 * reached it, is caught. A prime count ends every kernel and transpose on a partial block.
 * Exits 77 without a GPU. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu.h"
#include "mul_gmp.h"
#include "random_words.h"
#include "test_seed.h"
#define TEST_PROGRAM "test_mpgpu_gpu"
#include "test_mpgpu_cuda.h"

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

/* out = in (COUNT numbers of `words` words, product-major) in `layout`, on the host. */
static void to_layout(mpgpu_mul_layout layout, const uint32_t *in, uint32_t *out, size_t words)
{
    for (size_t p = 0; p < COUNT; p++)
        for (size_t i = 0; i < words; i++)
            out[layout == MPGPU_MUL_WORD_MAJOR ? i * COUNT + p : p * words + i] = in[p * words + i];
}

/* The inverse of to_layout. */
static void from_layout(mpgpu_mul_layout layout, const uint32_t *in, uint32_t *out, size_t words)
{
    for (size_t p = 0; p < COUNT; p++)
        for (size_t i = 0; i < words; i++)
            out[p * words + i] = in[layout == MPGPU_MUL_WORD_MAJOR ? i * COUNT + p : p * words + i];
}

/* mpgpu_mul_device_workspace with the buffers in `layout` and a workspace of exactly the size
 * mpgpu_mul_workspace_bytes gives, poisoned as the products are; and, for word-major,
 * mpgpu_mul_transpose of the operands against to_layout. */
static void test_layout(const mpgpu_mul_method_info *m, unsigned bits, mpgpu_mul_layout layout,
                        const uint32_t *a, const uint32_t *b, cudaStream_t stream)
{
    const size_t words = bits / 32, n = COUNT * words;
    uint32_t *la = malloc(n * 4), *lb = malloc(n * 4), *lc = malloc(2 * n * 4);
    uint32_t *c = malloc(2 * n * 4);
    to_layout(layout, a, la, words);
    to_layout(layout, b, lb, words);
    size_t ws_bytes = 0;
    char what[160];
    snprintf(what, sizeof what, "%s %u bits, mpgpu_mul_device_workspace, %s%s", m->name, bits,
             layout == MPGPU_MUL_WORD_MAJOR ? "word-major" : "product-major",
             layout == m->layout ? " (native)" : "");
    mpgpu_status st = mpgpu_mul_workspace_bytes(m->name, bits, COUNT, layout, &ws_bytes);
    CHECK(st == MPGPU_OK, "%s: workspace size: %s", what, mpgpu_status_string(st));
    struct device_buffers d;
    void *ws = NULL;
    CUDA_OK(cudaMalloc((void **)&d.a, n * 4));
    CUDA_OK(cudaMalloc((void **)&d.b, n * 4));
    CUDA_OK(cudaMalloc((void **)&d.c, 2 * n * 4));
    if (ws_bytes) {
        CUDA_OK(cudaMalloc(&ws, ws_bytes));
        CUDA_OK(cudaMemsetAsync(ws, 0xA5, ws_bytes, stream));
    }
    CUDA_OK(cudaMemcpyAsync(d.a, la, n * 4, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemcpyAsync(d.b, lb, n * 4, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemsetAsync(d.c, 0xA5, 2 * n * 4, stream));
    st = mpgpu_mul_device_workspace(m->name, bits, COUNT, layout, d.a, d.b, d.c, ws, ws_bytes,
                                    stream);
    CUDA_OK(cudaMemcpyAsync(lc, d.c, 2 * n * 4, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    CHECK(st == MPGPU_OK, "%s: %s", what, mpgpu_status_string(st));
    if (st == MPGPU_OK) {
        from_layout(layout, lc, c, 2 * words);
        CHECK(mismatches(what, a, b, c, (unsigned)words) == 0, "%s", what);
    }
    if (layout == MPGPU_MUL_WORD_MAJOR) {
        /* d.a holds a word-major: back to product-major in d.c, then forth again into d.b. */
        CUDA_OK(cudaMemcpyAsync(d.a, a, n * 4, cudaMemcpyHostToDevice, stream));
        mpgpu_status to = mpgpu_mul_transpose((unsigned)words, COUNT, MPGPU_MUL_PRODUCT_MAJOR,
                                              d.a, d.c, stream);
        CUDA_OK(cudaMemcpyAsync(lc, d.c, n * 4, cudaMemcpyDeviceToHost, stream));
        mpgpu_status back = mpgpu_mul_transpose((unsigned)words, COUNT, MPGPU_MUL_WORD_MAJOR,
                                                d.c, d.b, stream);
        CUDA_OK(cudaMemcpyAsync(c, d.b, n * 4, cudaMemcpyDeviceToHost, stream));
        CUDA_OK(cudaStreamSynchronize(stream));
        CHECK(to == MPGPU_OK && back == MPGPU_OK && !memcmp(lc, la, n * 4) && !memcmp(c, a, n * 4),
              "%u words: mpgpu_mul_transpose there (%d) and back (%d) differs from the host's",
              (unsigned)words, (int)to, (int)back);
    }
    CUDA_OK(cudaFree(d.a));
    CUDA_OK(cudaFree(d.b));
    CUDA_OK(cudaFree(d.c));
    CUDA_OK(cudaFree(ws));
    free(la);
    free(lb);
    free(lc);
    free(c);
}

/* Host and device calls named by `name` (a method, "auto", or Toom-k's) at one size. */
typedef mpgpu_status (*host_call)(const void *how, unsigned bits, const uint32_t *a,
                                  const uint32_t *b, uint32_t *c);
typedef mpgpu_status (*device_call)(const void *how, unsigned bits, const uint32_t *d_a,
                                    const uint32_t *d_b, uint32_t *d_c, cudaStream_t stream);

static void test_calls(const char *name, const void *how, host_call host, device_call device,
                       unsigned bits, uint64_t stream_id, cudaStream_t stream)
{
    const size_t words = bits / 32, n = COUNT * words;
    uint32_t *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(2 * n * 4);
    random_words(seed, 2 * stream_id, a, n);
    random_words(seed, 2 * stream_id + 1, b, n);
    char what[128];
    snprintf(what, sizeof what, "%s %u bits, host", name, bits);
    mpgpu_status st = host(how, bits, a, b, c);
    CHECK(st == MPGPU_OK, "%s: %s", what, mpgpu_status_string(st));
    if (st == MPGPU_OK)
        CHECK(mismatches(what, a, b, c, (unsigned)words) == 0, "%s", what);
    struct device_buffers d;
    CUDA_OK(cudaMalloc((void **)&d.a, n * 4));
    CUDA_OK(cudaMalloc((void **)&d.b, n * 4));
    CUDA_OK(cudaMalloc((void **)&d.c, 2 * n * 4));
    CUDA_OK(cudaMemcpyAsync(d.a, a, n * 4, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemcpyAsync(d.b, b, n * 4, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemsetAsync(d.c, 0xA5, 2 * n * 4, stream));
    st = device(how, bits, d.a, d.b, d.c, stream);
    CUDA_OK(cudaMemcpyAsync(c, d.c, 2 * n * 4, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    snprintf(what, sizeof what, "%s %u bits, device", name, bits);
    CHECK(st == MPGPU_OK, "%s: %s", what, mpgpu_status_string(st));
    if (st == MPGPU_OK)
        CHECK(mismatches(what, a, b, c, (unsigned)words) == 0, "%s", what);
    CUDA_OK(cudaFree(d.a));
    CUDA_OK(cudaFree(d.b));
    CUDA_OK(cudaFree(d.c));
    free(a);
    free(b);
    free(c);
}

static mpgpu_status auto_host(const void *how, unsigned bits, const uint32_t *a, const uint32_t *b,
                              uint32_t *c)
{
    (void)how;
    return mpgpu_mul_host("auto", bits, COUNT, a, b, c);
}

static mpgpu_status auto_device(const void *how, unsigned bits, const uint32_t *d_a,
                                const uint32_t *d_b, uint32_t *d_c, cudaStream_t stream)
{
    (void)how;
    return mpgpu_mul_device("auto", bits, COUNT, d_a, d_b, d_c, stream);
}

static mpgpu_status toom_host(const void *how, unsigned bits, const uint32_t *a, const uint32_t *b,
                              uint32_t *c)
{
    return mpgpu_toom_host(*(const unsigned *)how, bits, COUNT, a, b, c);
}

static mpgpu_status toom_device(const void *how, unsigned bits, const uint32_t *d_a,
                                const uint32_t *d_b, uint32_t *d_c, cudaStream_t stream)
{
    return mpgpu_toom_device(*(const unsigned *)how, bits, COUNT, d_a, d_b, d_c, stream);
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
    for (int layout = MPGPU_MUL_PRODUCT_MAJOR; layout <= MPGPU_MUL_WORD_MAJOR; layout++)
        test_layout(m, bits, (mpgpu_mul_layout)layout, a, b, stream);
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
    if (test_cuda_skip())
        return 77;
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
    /* auto at the built-in table's sizes and between them; Toom-k at its least size and at
     * sizes that split unevenly. */
    const unsigned auto_sizes[] = {64, 1056, 4096, 8224, 65536};
    for (size_t s = 0; s < sizeof auto_sizes / sizeof auto_sizes[0]; s++)
        test_calls("auto", NULL, auto_host, auto_device, auto_sizes[s], stream_id++, stream);
    for (unsigned k = mpgpu_toom_k_min(); k <= mpgpu_toom_k_max(); k++) {
        char name[16];
        snprintf(name, sizeof name, "Toom-%u", k);
        const unsigned toom_sizes[] = {32 * k, 1056, 4128};
        for (size_t s = 0; s < sizeof toom_sizes / sizeof toom_sizes[0]; s++)
            test_calls(name, &k, toom_host, toom_device, toom_sizes[s], stream_id++, stream);
    }
    CUDA_OK(cudaStreamDestroy(stream));
    return test_finish("test_mpgpu_gpu");
}
