#include "mul_bench.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "hexio.h"
#include "interrupt.h"
#include "mul_gmp.h"
#include "random_words.h"
#include "timing.h"

int mul_bench_all_threads(void)
{
    return omp_get_num_procs();
}

static void emit(struct mul_bench *r, struct result_row *row)
{
    row->subcommand = r->subcommand;
    row->bits = r->words * 32;
    row->count = r->count;
    row->reps = r->opt.reps;
    row->warmup = r->opt.warmup;
    row->seed = r->from_input ? 0 : r->opt.seed;
    row->include_transfers = r->opt.include_transfers;
    row->throughput = row->median_ms > 0 ? r->count / (row->median_ms * 1e-3) : 0;
    row->throughput_unit = "products";
    if (!r->opt.quiet)
        table_row(stdout, row);
    fflush(stdout);
    if (r->opt.csv_path && csv_append(r->opt.csv_path, &r->env, row) != 0)
        r->exit_status = EXIT_BAD_INPUT;
}

static void write_output(struct mul_bench *r)
{
    if (!r->output_path || r->output_written)
        return;
    FILE *f = fopen(r->output_path, "w");
    if (!f)
        cli_bad_input("--output '%s' cannot be opened for writing", r->output_path);
    for (size_t p = 0; p < r->count; p++)
        hex_write_number(f, r->c + p * 2 * r->words, 2 * (size_t)r->words);
    if (fclose(f) != 0)
        cli_bad_input("--output '%s': write failed", r->output_path);
    r->output_written = true;
}

double mul_bench_run_gmp(struct mul_bench *r)
{
    int threads = r->opt.threads ? r->opt.threads : mul_bench_all_threads();
    struct gmp_batch g;
    if (gmp_batch_init(&g, r->words, r->count, r->a, r->b) != 0)
        cli_bad_input("--count %zu: the GMP baseline needs more host memory than is free", r->count);
    double *samples = malloc(r->opt.reps * sizeof *samples);
    double median = -1;
    for (unsigned i = 0; i < r->opt.warmup && !interrupt_requested(); i++)
        gmp_batch_multiply(&g, threads);
    unsigned done = 0;
    for (; done < r->opt.reps && !interrupt_requested(); done++) {
        double t0 = time_now_ms();
        gmp_batch_multiply(&g, threads);
        samples[done] = time_now_ms() - t0;
    }
    if (done == r->opt.reps) {
        struct timing_stats st;
        timing_stats_from(samples, done, &st);
        struct result_row row = {.method = "gmp", .cpu_threads = threads, .median_ms = st.median_ms,
                                 .min_ms = st.min_ms, .max_ms = st.max_ms, .verify_mode = "reference"};
        snprintf(row.params, sizeof row.params, "words=%u;limbs=%zu", r->words, g.limbs);
        emit(r, &row);
        median = st.median_ms;
        for (size_t p = 0; p < r->count; p++)
            gmp_batch_product_words(&g, p, r->c + p * 2 * r->words);
        write_output(r);
    }
    free(samples);
    gmp_batch_free(&g);
    return median;
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

double mul_bench_run_gpu(struct mul_bench *r, const struct mul_method *m)
{
    size_t batch = choose_batch(m, r->words, r->count, r->max_batch);
    size_t n_batches = (r->count + batch - 1) / batch;
    struct mul_device dev;
    DEV_CHECK(&dev, mul_device_open(&dev, m, r->words, batch));
    double *total = calloc(r->opt.reps, sizeof *total);
    double *samples = malloc(r->opt.reps * sizeof *samples);
    double median = -1;
    uint64_t checked = 0, mismatches = 0;
    size_t first_bad = r->count;
    bool stopped = false;
    for (size_t s = 0; s < n_batches; s++) {
        if (interrupt_requested()) {
            stopped = true;
            break;
        }
        size_t off = s * batch, n = r->count - off < batch ? r->count - off : batch;
        struct launch_ctx x = {&dev, r->a + off * r->words, r->b + off * r->words,
                               r->c + off * 2 * r->words, n, r->opt.include_transfers};
        if (!x.transfers)
            DEV_CHECK(&dev, mul_device_upload(&dev, x.a, x.b, n));
        DEV_CHECK(&dev, mul_device_poison(&dev, n));
        const char *failed = NULL;
        cudaError_t err = time_gpu_region(timed_region, &x, dev.stream, r->opt.warmup, r->opt.reps,
                                          samples, &failed);
        if (err != cudaSuccess)
            gpu_fail(failed ? failed : "kernel", err);
        for (unsigned i = 0; i < r->opt.reps; i++)
            total[i] += samples[i];
        if (!x.transfers)
            DEV_CHECK(&dev, mul_device_download(&dev, x.c, n));
        if (r->opt.verify != VERIFY_NONE) {
            size_t stride = r->opt.verify == VERIFY_ALL ? 1 : (n > 1000 ? n / 1000 : 1);
            uint64_t chk;
            size_t fb;
            mismatches += mul_verify(r->words, n, x.a, x.b, x.c, stride, mul_bench_all_threads(),
                                     &chk, &fb);
            checked += chk;
            if (fb < n && off + fb < first_bad)
                first_bad = off + fb;
        }
        if (n_batches > 1 && cli_progress_enabled(&r->opt))
            fprintf(stderr, "\r%s: batch %zu/%zu", m->name, s + 1, n_batches);
    }
    if (n_batches > 1 && cli_progress_enabled(&r->opt))
        fputc('\n', stderr);
    mul_device_close(&dev);
    if (!stopped) {
        struct timing_stats st;
        timing_stats_from(total, r->opt.reps, &st);
        struct result_row row = {.method = m->name, .median_ms = st.median_ms, .min_ms = st.min_ms,
                                 .max_ms = st.max_ms, .checked = checked, .mismatches = mismatches};
        row.verify_mode = r->opt.verify == VERIFY_ALL ? "all" : r->opt.verify == VERIFY_SAMPLE ? "sample" : "none";
        snprintf(row.params, sizeof row.params, "words=%u;batches=%zu", r->words, n_batches);
        emit(r, &row);
        median = st.median_ms;
        if (mismatches) {
            fprintf(stderr, "mpgpu: %s %s at %u bits: %llu of %llu checked products differ from "
                            "GMP; first bad index %zu\n", r->subcommand, m->name, r->words * 32,
                    (unsigned long long)mismatches, (unsigned long long)checked, first_bad);
            r->exit_status = EXIT_MISMATCH;
        } else {
            write_output(r);
        }
    }
    free(total);
    free(samples);
    return median;
}

void mul_bench_prepare(struct mul_bench *r)
{
    if (!r->from_input) {
        r->a = malloc(r->count * r->words * sizeof(uint32_t));
        r->b = malloc(r->count * r->words * sizeof(uint32_t));
    }
    r->c = malloc(r->count * 2 * r->words * sizeof(uint32_t));
    if (!r->a || !r->b || !r->c)
        cli_bad_input("--count %zu of %u-bit products needs %.1f GiB of host memory, more than is "
                      "free", r->count, r->words * 32, r->count * 16.0 * r->words / (1u << 30));
    if (r->from_input)
        return;
    const long count = (long)r->count;
    const unsigned w = r->words;
    const uint64_t seed = r->opt.seed;
#pragma omp parallel for schedule(static)
    for (long p = 0; p < count; p++) {
        random_words(seed, 2 * (uint64_t)p, r->a + (size_t)p * w, w);
        random_words(seed, 2 * (uint64_t)p + 1, r->b + (size_t)p * w, w);
    }
}

void mul_bench_free(struct mul_bench *r)
{
    free(r->a);
    free(r->b);
    free(r->c);
    r->a = r->b = r->c = NULL;
}

int mul_bench_run_all(struct mul_bench *r, const struct mul_method *const *methods, size_t n,
                      bool gmp)
{
    if (!r->opt.quiet) {
        run_env_print(stdout, &r->env);
        table_begin(stdout);
    }
    for (size_t i = 0; i < n && !interrupt_requested(); i++) {
        if (cli_progress_enabled(&r->opt))
            fprintf(stderr, "[%zu/%zu] %s\n", i + 1, n + gmp, methods[i]->name);
        mul_bench_run_gpu(r, methods[i]);
    }
    if (gmp && !interrupt_requested())
        mul_bench_run_gmp(r);
    mul_bench_free(r);
    if (interrupt_requested()) {
        fprintf(stderr, "mpgpu: interrupted; the rows above are complete, later methods did not run\n");
        return EXIT_INTERRUPTED;
    }
    return r->exit_status;
}
