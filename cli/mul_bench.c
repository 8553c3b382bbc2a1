#include "mul_bench.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "hexio.h"
#include "hostmem.h"
#include "loop_run.h"
#include "progress.h"
#include "random_words.h"
#include "test_hook.h"
#include "timing.h"

int mul_bench_all_threads(void)
{
    return omp_get_num_procs();
}

/* Room for libmpgpu's methods; mul_bench_methods refuses a library with more. */
#define MUL_BENCH_MAX_METHODS 64

const mpgpu_mul_method_info *mul_bench_methods(size_t *n)
{
    static mpgpu_mul_method_info all[MUL_BENCH_MAX_METHODS];
    static size_t n_all;
    if (n_all == 0) {
        const size_t count = mpgpu_mul_method_count();
        if (count > MUL_BENCH_MAX_METHODS) {
            fprintf(stderr, "mpgpu: libmpgpu has %zu product methods, more than the %d mpgpu "
                            "was built for\n", count, MUL_BENCH_MAX_METHODS);
            exit(EXIT_GPU_ERROR);
        }
        for (size_t i = 0; i < count; i++)
            mpgpu_mul_method_get(i, &all[i]);
        n_all = count;
    }
    *n = n_all;
    return all;
}

const mpgpu_mul_method_info *mul_bench_method_find(const char *name)
{
    size_t n;
    const mpgpu_mul_method_info *all = mul_bench_methods(&n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(all[i].name, name))
            return &all[i];
    return NULL;
}

bool mul_bench_supports(const mpgpu_mul_method_info *m, unsigned bits)
{
    return mpgpu_mul_check(m->name, bits) == MPGPU_OK;
}

size_t mul_bench_cases(const struct mul_bench *m, unsigned bits,
                       const mpgpu_mul_method_info *const *methods, size_t n_methods, bool gmp,
                       struct bench_case *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i <= n_methods && n < max; i++) {
        const bool is_gmp = i == n_methods;
        if (is_gmp ? !gmp : !mul_bench_supports(methods[i], bits))
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
    free(m->pass_wall_ms);
    m->pass_wall_ms = NULL;
    if (!m->from_input) {
        free(m->a);
        free(m->b);
        m->a = m->b = NULL;
    }
    free(m->c);
    m->c = NULL;
    m->words = 0;
}

/* The operands of the case's size: random from --seed, or those read from --input. Returns 0,
 * or BENCH_STOPPED at Ctrl-C. */
static int prepare_operands(struct mul_bench *m, unsigned words)
{
    if (m->words == words && m->c)
        return 0;
    if (!m->from_input) {
        mul_bench_free(m);
        m->a = malloc(m->count * words * sizeof(uint32_t));
        m->b = malloc(m->count * words * sizeof(uint32_t));
    }
    m->c = malloc(m->count * 2 * words * sizeof(uint32_t));
    if (!m->a || !m->b || !m->c)
        cli_bad_input("--count %zu of %u-bit products: out of host memory", m->count, words * 32);
    if (!m->from_input) {
        const long count = (long)m->count;
        const uint64_t seed = m->opt.seed;
        uint32_t *a = m->a, *b = m->b;
        struct progress_phase ph;
        struct loop_run run;
        loop_run_start(&run, progress_phase_begin(&ph, m->opt.quiet, "pairs", m->count,
                                                  "generating the operands of %u bits", words * 32));
#pragma omp parallel for schedule(static)
        for (long p = 0; p < count; p++) {
            if (loop_run_stopped(&run))
                continue;
            random_words(seed, 2 * (uint64_t)p, a + (size_t)p * words, words);
            random_words(seed, 2 * (uint64_t)p + 1, b + (size_t)p * words, words);
            loop_run_item_done(&run, (uint64_t)p);
        }
        progress_phase_end(&ph);
        if (loop_run_stopped(&run))
            return BENCH_STOPPED;
    }
    m->words = words;
    return 0;
}

#define DEV_CHECK(dev, call)                                                                \
    do {                                                                                    \
        cudaError_t dev_err_ = (call);                                                      \
        if (dev_err_ != cudaSuccess)                                                        \
            gpu_fail((dev)->failed_call ? (dev)->failed_call : #call, dev_err_);            \
    } while (0)

/* The device side of a case, over libmpgpu: the buffers, the operands up in the method's
 * layout, the products back product-major. Each returns cudaSuccess, or the error with the
 * call that failed in d->failed_call. */

#define TRY(call)                                                                           \
    do {                                                                                    \
        cudaError_t try_err_ = (call);                                                      \
        if (try_err_ != cudaSuccess) {                                                      \
            d->failed_call = #call;                                                         \
            return try_err_;                                                                \
        }                                                                                   \
    } while (0)

/* A libmpgpu call's failure as the CUDA error behind it (the library checked the arguments
 * that mpgpu checked before: any other failure is a CUDA one). */
#define TRY_API(call)                                                                       \
    do {                                                                                    \
        mpgpu_status try_st_ = (call);                                                      \
        if (try_st_ != MPGPU_OK)                                                            \
            return api_failure(d, try_st_, #call);                                          \
    } while (0)

static cudaError_t api_failure(struct mul_buffers *d, mpgpu_status st, const char *call)
{
    mpgpu_error_info e;
    mpgpu_last_error(&e);
    const bool from_cuda = st == MPGPU_ERR_NO_DEVICE || st == MPGPU_ERR_OUT_OF_DEVICE_MEMORY ||
                           st == MPGPU_ERR_CUDA;
    d->failed_call = from_cuda && e.cuda_call[0] ? e.cuda_call : call;
    return from_cuda && e.cuda_error ? (cudaError_t)e.cuda_error : cudaErrorInvalidValue;
}

static size_t workspace_bytes(const mpgpu_mul_method_info *m, unsigned words, size_t batch)
{
    size_t bytes = 0;
    mpgpu_mul_workspace_bytes(m->name, words * 32, batch, m->layout, &bytes);
    return bytes;
}

/* Bytes of device memory one product needs with this method (operands, product, staging,
 * workspace). */
static size_t bytes_per_product(const mpgpu_mul_method_info *m, unsigned words, size_t batch)
{
    size_t bytes = 4 * (size_t)words * sizeof(uint32_t); /* a, b, c */
    if (m->layout == MPGPU_MUL_WORD_MAJOR)
        bytes += 2 * (size_t)words * sizeof(uint32_t); /* staging for the transposes */
    return bytes + (workspace_bytes(m, words, batch) + batch - 1) / batch;
}

static cudaError_t buffers_open(struct mul_buffers *d, const mpgpu_mul_method_info *m,
                                unsigned words, size_t batch)
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
    if (m->layout == MPGPU_MUL_WORD_MAJOR)
        TRY(cudaMalloc((void **)&d->d_stage, 2 * op));
    d->workspace_bytes = workspace_bytes(m, words, batch);
    if (d->workspace_bytes)
        TRY(cudaMalloc(&d->d_workspace, d->workspace_bytes));
    return cudaSuccess;
}

static void buffers_close(struct mul_buffers *d)
{
    cudaFree(d->d_a);
    cudaFree(d->d_b);
    cudaFree(d->d_c);
    cudaFree(d->d_stage);
    cudaFree(d->d_workspace);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    memset(d, 0, sizeof *d);
}

static cudaError_t upload_one(struct mul_buffers *d, uint32_t *dst, const uint32_t *src, size_t n)
{
    size_t bytes = (size_t)d->words * n * sizeof(uint32_t);
    if (d->method->layout == MPGPU_MUL_PRODUCT_MAJOR) {
        TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, d->stream));
        return cudaSuccess;
    }
    TRY(cudaMemcpyAsync(d->d_stage, src, bytes, cudaMemcpyHostToDevice, d->stream));
    TRY_API(mpgpu_mul_transpose(d->words, n, MPGPU_MUL_PRODUCT_MAJOR, d->d_stage, dst, d->stream));
    return cudaSuccess;
}

/* Copies n <= batch operand pairs (product-major host arrays) to the device, in the method's
 * layout. */
static cudaError_t buffers_upload(struct mul_buffers *d, const uint32_t *a, const uint32_t *b,
                                  size_t n)
{
    cudaError_t err = upload_one(d, d->d_a, a, n);
    if (err == cudaSuccess)
        err = upload_one(d, d->d_b, b, n);
    return err;
}

/* The method's kernels on the n products uploaded last, alone: no transpose, no allocation.
 * Asynchronous on d->stream. */
static cudaError_t buffers_launch(struct mul_buffers *d, size_t n)
{
    TRY_API(mpgpu_mul_device_workspace(d->method->name, d->words * 32, n, d->method->layout,
                                       d->d_a, d->d_b, d->d_c, d->d_workspace,
                                       d->workspace_bytes, d->stream));
    return cudaSuccess;
}

/* Copies the n products back to host memory, product-major (2 * words words each). */
static cudaError_t buffers_download(struct mul_buffers *d, uint32_t *c, size_t n)
{
    size_t bytes = 2 * (size_t)d->words * n * sizeof(uint32_t);
    if (d->method->layout == MPGPU_MUL_PRODUCT_MAJOR) {
        TRY(cudaMemcpyAsync(c, d->d_c, bytes, cudaMemcpyDeviceToHost, d->stream));
    } else {
        TRY_API(mpgpu_mul_transpose(2 * d->words, n, MPGPU_MUL_WORD_MAJOR, d->d_c, d->d_stage,
                                    d->stream));
        TRY(cudaMemcpyAsync(c, d->d_stage, bytes, cudaMemcpyDeviceToHost, d->stream));
    }
    TRY(cudaStreamSynchronize(d->stream));
    return cudaSuccess;
}

/* Fills the product buffer with a poison pattern, so a product a kernel never wrote is caught. */
static cudaError_t buffers_poison(struct mul_buffers *d, size_t n)
{
    TRY(cudaMemsetAsync(d->d_c, 0xA5, 2 * (size_t)d->words * n * sizeof(uint32_t), d->stream));
    return cudaSuccess;
}

static size_t workers(const struct mul_bench *m)
{
    return m->devices.n ? m->devices.n : 1;
}

/* Selects worker w's GPU on the calling thread (nothing for toom and tune, whose one GPU is
 * selected already). */
static void select_worker(const struct mul_bench *m, size_t w)
{
    if (m->devices.n)
        GPU_CHECK(cudaSetDevice(m->devices.ids[w]));
}

/* Products per device batch: all of them (at most max_batch when it is not 0, and with several
 * workers at most an equal share each, so that every GPU gets a batch) when they fit in 90 % of
 * free device memory; a GPU named `copies` times holds that many batches. */
static size_t choose_batch(const mpgpu_mul_method_info *m, unsigned words, size_t count,
                           size_t max_batch, size_t copies)
{
    size_t free_b = 0, total_b = 0;
    GPU_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t usable = free_b / 10 * 9 / copies;
    size_t batch = max_batch && max_batch < count ? max_batch : count;
    while (batch > 0 && bytes_per_product(m, words, batch) * batch > usable)
        batch = batch > 1 ? batch / 2 : 0;
    if (batch == 0)
        cli_bad_input("--bits %u: one product with method %s needs %zu bytes of device memory; "
                      "%zu are free", words * 32, m->name, bytes_per_product(m, words, 1),
                      free_b / copies);
    return batch;
}

static int mul_setup(void *ctx, struct bench_case *c)
{
    struct mul_bench *m = ctx;
    if (prepare_operands(m, c->bits / 32) != 0)
        return BENCH_STOPPED;
    const mpgpu_mul_method_info *method = c->data;
    if (!method) {
        struct progress_phase ph;
        const int rc = gmp_batch_init(&m->gmp, m->words, m->count, m->a, m->b,
                                      progress_phase_begin(&ph, m->opt.quiet, "pairs", m->count,
                                                           "gmp at %u bits: converting the operands to "
                                                           "GMP limbs", c->bits));
        progress_phase_end(&ph);
        if (rc == LOOP_STOPPED)
            return BENCH_STOPPED;
        if (rc != 0)
            cli_bad_input("--count %zu: the GMP baseline needs more host memory than is free", m->count);
        return 0;
    }
    free(m->pass_wall_ms);
    m->pass_wall_ms = malloc(m->opt.reps * sizeof *m->pass_wall_ms);
    m->n_pass_wall = 0;
    if (!m->pass_wall_ms)
        cli_bad_input("--reps %u: out of host memory", m->opt.reps);
    const size_t nw = workers(m), share = (m->count + nw - 1) / nw;
    m->batch = share;
    for (size_t w = 0; w < nw; w++) {
        size_t copies = 0;
        for (size_t v = 0; v < nw; v++)
            copies += !m->devices.n || m->devices.ids[v] == m->devices.ids[w];
        select_worker(m, w);
        const size_t b = choose_batch(method, m->words, share, m->max_batch, copies);
        m->batch = b < m->batch ? b : m->batch;
    }
    m->n_batches = (m->count + m->batch - 1) / m->batch;
    for (size_t w = 0; w < nw; w++) {
        select_worker(m, w);
        DEV_CHECK(&m->devs[w], buffers_open(&m->devs[w], method, m->words, m->batch));
    }
    select_worker(m, 0);
    if (m->n_batches == 1 && !m->opt.include_transfers) {
        DEV_CHECK(&m->devs[0], buffers_upload(&m->devs[0], m->a, m->b, m->count));
        DEV_CHECK(&m->devs[0], buffers_poison(&m->devs[0], m->count));
    }
    return 0;
}

struct launch_ctx {
    struct mul_buffers *dev;
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
        err = buffers_upload(x->dev, x->a, x->b, x->n);
    if (err == cudaSuccess)
        err = buffers_launch(x->dev, x->n);
    if (err == cudaSuccess && x->transfers)
        err = buffers_download(x->dev, x->c, x->n);
    if (err != cudaSuccess)
        *failed_call = x->dev->failed_call;
    return err;
}

/* One batch on one worker's GPU: the operands go up and the products come back outside the
 * timed region (unless --include-transfers, or when they stay on the GPU: resident). */
static double run_batch(struct mul_bench *m, size_t w, size_t s, bool resident)
{
    struct mul_buffers *dev = &m->devs[w];
    const size_t off = s * m->batch, n = m->count - off < m->batch ? m->count - off : m->batch;
    struct launch_ctx x = {dev, m->a + off * m->words, m->b + off * m->words, m->c + off * 2 * m->words, n,
                           m->opt.include_transfers};
    if (!resident && !x.transfers) {
        DEV_CHECK(dev, buffers_upload(dev, x.a, x.b, n));
        DEV_CHECK(dev, buffers_poison(dev, n));
    }
    const char *failed = NULL;
    double sample = 0;
    cudaError_t err = time_gpu_region(timed_region, &x, dev->stream, m->held, 0, 1, &sample, &failed);
    if (err != cudaSuccess)
        gpu_fail(failed ? failed : "kernel", err);
    if (!resident && !x.transfers)
        DEV_CHECK(dev, buffers_download(dev, x.c, n));
    if (test_hook_spoil("mul-worker", w))
        x.c[0] ^= 1; /* the first product of each batch this worker ran */
    return sample;
}

/* The batches as chunks of md_schedule (issue 14): one batch each, products written in place,
 * so the merge only adds each worker's time. */
struct batch_chunk {
    size_t worker, products;
    double ms;
};

static void batch_begin(void *ctx, size_t worker)
{
    select_worker(ctx, worker);
}

static void batch_run(void *ctx, size_t worker, uint64_t first, uint64_t last, int64_t hint, void *slot)
{
    (void)last;
    (void)hint;
    struct mul_bench *m = ctx;
    struct batch_chunk *k = slot;
    k->worker = worker;
    k->products = m->count - first * m->batch < m->batch ? m->count - first * m->batch : m->batch;
    k->ms = run_batch(m, worker, (size_t)first, false);
}

static void batch_commit(void *ctx, uint64_t first, uint64_t last, uint64_t done_after, void *slot)
{
    (void)first;
    (void)last;
    (void)done_after;
    struct mul_bench *m = ctx;
    const struct batch_chunk *k = slot;
    m->workers[k->worker].items += k->products;
    m->workers[k->worker].busy_ms += k->ms;
}

static const struct md_chunk_ops batch_ops = {
    .slot_size = sizeof(struct batch_chunk),
    .begin = batch_begin,
    .run = batch_run,
    .commit = batch_commit,
};

static void record_pass_wall(struct mul_bench *m, bool warmup, double t0)
{
    if (!warmup && m->n_pass_wall < m->opt.reps)
        m->pass_wall_ms[m->n_pass_wall++] = time_now_ms() - t0;
}

/* One pass over all products, in device batches. One GPU: the batches' times are added, as
 * before issue 14. Several: they run at once, so the pass takes the time of the busiest, the
 * largest of the workers' added times. */
static int mul_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    struct mul_bench *m = ctx;
    if (!c->data) {
        struct progress_phase ph;
        const struct loop_watch *watch = progress_phase_begin(
            &ph, m->opt.quiet, "products", m->count, "gmp at %u bits: pass %u%s", c->bits, pass_index + 1,
            warmup ? " (warm-up)" : "");
        const double t0 = time_now_ms();
        const int rc = gmp_batch_multiply(&m->gmp, c->cpu_threads, watch);
        *ms = time_now_ms() - t0;
        progress_phase_end(&ph);
        return rc == LOOP_STOPPED ? BENCH_STOPPED : 0;
    }
    memset(m->workers, 0, sizeof m->workers);
    m->held = gpu_region_held(&m->opt, warmup);
    const double t0 = time_now_ms();
    if (m->n_batches == 1 && !m->opt.include_transfers) {
        *ms = run_batch(m, 0, 0, true);
        m->workers[0] = (struct md_stats){m->count, *ms};
        record_pass_wall(m, warmup, t0);
        return 0;
    }
    const size_t nw = workers(m);
    /* One process (mpgpu mul does not run over MPI ranks). md_schedule's own shares count
     * batches in wall time; the rates shown are products over each worker's timed region, added
     * by batch_commit. */
    const struct md_team team = {.local = nw, .total = nw, .ranks = 1};
    struct md_stats batches[MD_MAX_DEVICES];
    struct progress pg;
    progress_begin(&pg, PROGRESS_OFF, c->method, "batches", m->n_batches);
    const uint64_t done = md_schedule(&team, 0, m->n_batches, 0, &batch_ops, m, &pg, batches);
    record_pass_wall(m, warmup, t0);
    progress_end(&pg);
    select_worker(m, 0);
    *ms = 0;
    for (size_t w = 0; w < nw; w++)
        *ms = m->workers[w].busy_ms > *ms ? m->workers[w].busy_ms : *ms;
    return done < m->n_batches ? BENCH_STOPPED : 0;
}

static void write_output(struct mul_bench *m)
{
    if (!m->output.f || m->output_written)
        return;
    for (size_t p = 0; p < m->count; p++)
        hex_write_number(m->output.f, m->c + p * 2 * m->words, 2 * (size_t)m->words);
    m->output_status = output_file_commit(&m->output);
    m->output_written = true;
}

static int mul_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    struct mul_bench *m = ctx;
    if (!c->data) {
        /* The baseline is the reference: its products are what --output gets. */
        for (size_t p = 0; p < m->count; p++)
            gmp_batch_product_words(&m->gmp, p, m->c + p * 2 * m->words);
        return 0;
    }
    if (m->n_batches == 1 && !m->opt.include_transfers)
        DEV_CHECK(&m->devs[0], buffers_download(&m->devs[0], m->c, m->count));
    spec->elements = m->count;
    spec->element = "product";
    spec->reference = "GMP";
    spec->scratch_bytes = 2 * (size_t)m->words * sizeof(uint32_t);
    spec->threads = mul_bench_all_threads();
    return 0;
}

static enum bench_ref mul_reference(const void *ctx, const struct bench_case *c, uint64_t p, void *expect)
{
    (void)c;
    const struct mul_bench *m = ctx;
    gmp_mul_words(expect, m->a + p * m->words, m->b + p * m->words, m->words);
    return BENCH_REF_READY;
}

static bool mul_compare(const void *ctx, const struct bench_case *c, uint64_t p, const void *expect)
{
    (void)c;
    const struct mul_bench *m = ctx;
    return memcmp(expect, m->c + p * 2 * m->words, 2 * (size_t)m->words * sizeof(uint32_t)) == 0;
}

/* --output gets the products of the first case that is the reference or matched it (unchecked
 * ones with --verify none, as the user asked). */
static void mul_check_end(void *ctx, struct bench_case *c, struct bench_check *out)
{
    (void)c;
    if (out->mismatches == 0)
        write_output(ctx);
}

static void mul_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    struct mul_bench *m = ctx;
    if (c->data) {
        char from_auto[64] = "", devices[MD_MAX_DEVICES * 6 + 16] = "";
        for (size_t i = 0; i < m->n_auto_picks; i++)
            if (!strcmp(m->auto_picks[i].method, c->method) && m->auto_picks[i].for_bits == c->bits) {
                snprintf(from_auto, sizeof from_auto, ";auto_bits=%u;auto_count=%llu",
                         m->auto_picks[i].bits, (unsigned long long)m->auto_picks[i].count);
                break;
            }
        /* mul's GPUs (toom and tune run on the one selected, and say nothing). */
        if (m->devices.n) {
            strcpy(devices, ";devices=");
            md_format(&m->devices, devices + strlen(devices), sizeof devices - strlen(devices));
        }
        char wall[48] = "";
        if (m->n_pass_wall > 0) {
            struct timing_stats st;
            timing_stats_from(m->pass_wall_ms, m->n_pass_wall, &st);
            snprintf(wall, sizeof wall, ";pass_wall_ms=%.4g", st.median_ms);
        }
        snprintf(params, len, "words=%u;batches=%zu%s%s%s", c->bits / 32, m->n_batches, from_auto,
                 devices, wall);
    } else {
        snprintf(params, len, "words=%u;limbs=%zu", c->bits / 32, (size_t)(c->bits / 32 + 1) / 2);
    }
}

static void mul_teardown(void *ctx, struct bench_case *c)
{
    struct mul_bench *m = ctx;
    if (c->data) {
        for (size_t w = 0; w < workers(m); w++) {
            select_worker(m, w);
            buffers_close(&m->devs[w]);
        }
        select_worker(m, 0);
    } else {
        gmp_batch_free(&m->gmp);
    }
}

/* With several workers, one line each: its GPU, products and rate over its timed region. */
static void mul_summary(void *ctx, const struct bench_case *c, FILE *out)
{
    const struct mul_bench *m = ctx;
    if (!c->data || workers(m) < 2)
        return;
    for (size_t w = 0; w < workers(m); w++)
        fprintf(out, "#   %s on GPU %d (thread %zu): %" PRIu64 " products in %.3f ms, %.4g products/s\n",
                c->method, m->devices.ids[w], w + 1, m->workers[w].items, m->workers[w].busy_ms,
                m->workers[w].busy_ms > 0 ? (double)m->workers[w].items / (m->workers[w].busy_ms * 1e-3) : 0.0);
}

const struct bench_ops mul_bench_ops = {
    .setup = mul_setup,
    .pass = mul_pass,
    .check_begin = mul_check_begin,
    .reference = mul_reference,
    .compare = mul_compare,
    .check_end = mul_check_end,
    .describe = mul_describe,
    .summary = mul_summary,
    .teardown = mul_teardown,
};
