#include "mul_bench.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "hexio.h"
#include "hostmem.h"
#include "interrupt.h"
#include "random_words.h"
#include "timing.h"

int mul_bench_all_threads(void)
{
    return omp_get_num_procs();
}

size_t mul_bench_cases(const struct mul_bench *m, unsigned bits, const struct mul_method *const *methods,
                       size_t n_methods, bool gmp, struct bench_case *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i <= n_methods && n < max; i++) {
        const bool is_gmp = i == n_methods;
        if (is_gmp ? !gmp : !mul_method_supports(methods[i], bits / 32))
            continue;
        out[n++] = (struct bench_case){
            .method = is_gmp ? "gmp" : methods[i]->name,
            .bits = bits,
            .count = m->count,
            .throughput_unit = "products",
            .timed_region = is_gmp ? "cpu" : gpu_region_name(&m->opt),
            .cpu_threads = is_gmp ? (m->opt.threads ? m->opt.threads : mul_bench_all_threads()) : 0,
            .data = is_gmp ? NULL : (void *)methods[i],
        };
    }
    return n;
}

/* Host bytes a case needs: operands and products, and the GMP baseline's limbs. */
static uint64_t host_bytes(const struct mul_bench *m, const struct bench_case *c)
{
    const uint64_t w = c->bits / 32, limbs = (w + 1) / 2;
    uint64_t per = 16 * w;
    if (!c->data)
        per += 4 * limbs * sizeof(mp_limb_t);
    return per * m->count;
}

void mul_bench_check_host(const struct mul_bench *m, const struct bench_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char what[128];
        snprintf(what, sizeof what, "--count %zu of %u-bit products%s", m->count, cases[i].bits,
                 cases[i].data ? "" : " with the GMP baseline");
        hostmem_require(host_bytes(m, &cases[i]), what);
    }
}

void mul_bench_free(struct mul_bench *m)
{
    if (!m->from_input) {
        free(m->a);
        free(m->b);
        m->a = m->b = NULL;
    }
    free(m->c);
    m->c = NULL;
    m->words = 0;
}

/* The operands of the case's size: random from --seed, or those read from --input. */
static void prepare_operands(struct mul_bench *m, unsigned words)
{
    if (m->words == words && m->c)
        return;
    if (!m->from_input) {
        mul_bench_free(m);
        m->a = malloc(m->count * words * sizeof(uint32_t));
        m->b = malloc(m->count * words * sizeof(uint32_t));
    }
    m->c = malloc(m->count * 2 * words * sizeof(uint32_t));
    if (!m->a || !m->b || !m->c)
        cli_bad_input("--count %zu of %u-bit products: out of host memory", m->count, words * 32);
    m->words = words;
    if (m->from_input)
        return;
    const long count = (long)m->count;
    const uint64_t seed = m->opt.seed;
    uint32_t *a = m->a, *b = m->b;
#pragma omp parallel for schedule(static)
    for (long p = 0; p < count; p++) {
        random_words(seed, 2 * (uint64_t)p, a + (size_t)p * words, words);
        random_words(seed, 2 * (uint64_t)p + 1, b + (size_t)p * words, words);
    }
}

#define DEV_CHECK(dev, call)                                                                \
    do {                                                                                    \
        cudaError_t dev_err_ = (call);                                                      \
        if (dev_err_ != cudaSuccess)                                                        \
            gpu_fail((dev)->failed_call ? (dev)->failed_call : #call, dev_err_);            \
    } while (0)

/* Products per device batch: all of them (at most max_batch when it is not 0) when they fit in
 * 90 % of free device memory. */
static size_t choose_batch(const struct mul_method *m, unsigned words, size_t count,
                           size_t max_batch)
{
    size_t free_b = 0, total_b = 0;
    GPU_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t usable = free_b / 10 * 9;
    size_t batch = max_batch && max_batch < count ? max_batch : count;
    while (batch > 0 && mul_device_bytes_per_product(m, words, batch) * batch > usable)
        batch = batch > 1 ? batch / 2 : 0;
    if (batch == 0)
        cli_bad_input("--bits %u: one product with method %s needs %zu bytes of device memory; "
                      "%zu are free", words * 32, m->name, mul_device_bytes_per_product(m, words, 1),
                      free_b);
    return batch;
}

static int mul_setup(void *ctx, struct bench_case *c)
{
    struct mul_bench *m = ctx;
    prepare_operands(m, c->bits / 32);
    const struct mul_method *method = c->data;
    if (!method) {
        if (gmp_batch_init(&m->gmp, m->words, m->count, m->a, m->b) != 0)
            cli_bad_input("--count %zu: the GMP baseline needs more host memory than is free", m->count);
        return 0;
    }
    m->batch = choose_batch(method, m->words, m->count, m->max_batch);
    m->n_batches = (m->count + m->batch - 1) / m->batch;
    DEV_CHECK(&m->dev, mul_device_open(&m->dev, method, m->words, m->batch));
    if (m->n_batches == 1 && !m->opt.include_transfers) {
        DEV_CHECK(&m->dev, mul_device_upload(&m->dev, m->a, m->b, m->count));
        DEV_CHECK(&m->dev, mul_device_poison(&m->dev, m->count));
    }
    return 0;
}

struct launch_ctx {
    struct mul_device *dev;
    const uint32_t *a, *b;
    uint32_t *c;
    size_t n;
    bool transfers;
};

static cudaError_t timed_region(void *p, const char **failed_call)
{
    struct launch_ctx *x = p;
    cudaError_t err = cudaSuccess;
    if (x->transfers)
        err = mul_device_upload(x->dev, x->a, x->b, x->n);
    if (err == cudaSuccess)
        err = mul_device_launch(x->dev, x->n);
    if (err == cudaSuccess && x->transfers)
        err = mul_device_download(x->dev, x->c, x->n);
    if (err != cudaSuccess)
        *failed_call = x->dev->failed_call;
    return err;
}

/* One pass over all products: per device batch, the operands go up and the products come back
 * outside the timed region (unless --include-transfers); the batches' times are added. */
static int mul_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    (void)pass_index;
    struct mul_bench *m = ctx;
    if (!c->data) {
        const double t0 = time_now_ms();
        gmp_batch_multiply(&m->gmp, c->cpu_threads);
        *ms = time_now_ms() - t0;
        return 0;
    }
    const bool resident = m->n_batches == 1 && !m->opt.include_transfers;
    *ms = 0;
    for (size_t s = 0; s < m->n_batches; s++) {
        if (s > 0 && interrupt_requested())
            return BENCH_STOPPED;
        const size_t off = s * m->batch, n = m->count - off < m->batch ? m->count - off : m->batch;
        struct launch_ctx x = {&m->dev, m->a + off * m->words, m->b + off * m->words,
                               m->c + off * 2 * m->words, n, m->opt.include_transfers};
        if (!resident && !x.transfers) {
            DEV_CHECK(&m->dev, mul_device_upload(&m->dev, x.a, x.b, n));
            DEV_CHECK(&m->dev, mul_device_poison(&m->dev, n));
        }
        const char *failed = NULL;
        double sample = 0;
        cudaError_t err = time_gpu_region(timed_region, &x, m->dev.stream, gpu_region_held(&m->opt, warmup), 0, 1,
                                          &sample, &failed);
        if (err != cudaSuccess)
            gpu_fail(failed ? failed : "kernel", err);
        *ms += sample;
        if (!resident && !x.transfers)
            DEV_CHECK(&m->dev, mul_device_download(&m->dev, x.c, n));
    }
    return 0;
}

static void write_output(struct mul_bench *m)
{
    if (!m->output || m->output_written)
        return;
    for (size_t p = 0; p < m->count; p++)
        hex_write_number(m->output, m->c + p * 2 * m->words, 2 * (size_t)m->words);
    if (fclose(m->output) != 0)
        cli_bad_input("--output '%s': writing failed", m->output_path);
    m->output = NULL;
    m->output_written = true;
}

static void mul_check(void *ctx, struct bench_case *c, struct bench_check *out)
{
    struct mul_bench *m = ctx;
    if (!c->data) {
        out->verify_mode = "reference";
        for (size_t p = 0; p < m->count; p++)
            gmp_batch_product_words(&m->gmp, p, m->c + p * 2 * m->words);
        write_output(m);
        return;
    }
    if (m->n_batches == 1 && !m->opt.include_transfers)
        DEV_CHECK(&m->dev, mul_device_download(&m->dev, m->c, m->count));
    const enum verify_mode v = m->opt.verify;
    out->verify_mode = v == VERIFY_ALL ? "all" : v == VERIFY_SAMPLE ? "sample" : "none";
    if (v == VERIFY_NONE) {
        write_output(m); /* unchecked, as the user asked */
        return;
    }
    const size_t stride = v == VERIFY_ALL ? 1 : (m->count > 1000 ? m->count / 1000 : 1);
    size_t first_bad = m->count;
    out->mismatches = mul_verify(m->words, m->count, m->a, m->b, m->c, stride, mul_bench_all_threads(),
                                 &out->checked, &first_bad);
    if (out->mismatches)
        snprintf(out->first_bad, sizeof out->first_bad, "first bad index %zu", first_bad);
    else
        write_output(m);
}

static void mul_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    struct mul_bench *m = ctx;
    if (c->data) {
        char from_auto[64] = "";
        for (size_t i = 0; i < m->n_auto_picks; i++)
            if (m->auto_picks[i].method == c->data && m->auto_picks[i].for_bits == c->bits) {
                snprintf(from_auto, sizeof from_auto, ";auto_bits=%u;auto_count=%llu",
                         m->auto_picks[i].bits, (unsigned long long)m->auto_picks[i].count);
                break;
            }
        snprintf(params, len, "words=%u;batches=%zu%s", c->bits / 32, m->n_batches, from_auto);
    } else {
        snprintf(params, len, "words=%u;limbs=%zu", c->bits / 32, (size_t)(c->bits / 32 + 1) / 2);
    }
}

static void mul_teardown(void *ctx, struct bench_case *c)
{
    struct mul_bench *m = ctx;
    if (c->data)
        mul_device_close(&m->dev);
    else
        gmp_batch_free(&m->gmp);
}

const struct bench_ops mul_bench_ops = {
    .setup = mul_setup,
    .pass = mul_pass,
    .check = mul_check,
    .describe = mul_describe,
    .teardown = mul_teardown,
};
