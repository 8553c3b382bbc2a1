/* mpgpu mul: bulk full products C = A * B on the GPU, each checked against GMP, and the GMP
 * baseline on the CPU (000 ch. 3, 001). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "gpu.h"
#include "hexio.h"
#include "interrupt.h"
#include "mul.h"
#include "mul_gmp.h"
#include "random_words.h"
#include "report.h"
#include "timing.h"

#define MUL_MIN_BITS 64u
#define MUL_MAX_BITS 65536u
/* What runs when no --method is given: the fastest GPU method and the papers' CPU baseline. */
static const char *const default_methods[] = {"thread-comba", "gmp"};

enum { OPT_INPUT = 1000, OPT_OUTPUT, OPT_BATCH };

struct mul_args {
    const char *input, *output;
    uint64_t batch; /* 0: as many products per device batch as fit */
};

static int mul_handle(int id, const char *arg, void *ctx)
{
    struct mul_args *m = ctx;
    if (id == OPT_INPUT)
        m->input = arg;
    else if (id == OPT_OUTPUT)
        m->output = arg;
    else if (id == OPT_BATCH)
        m->batch = cli_parse_u64("--batch", arg, 1, UINT64_C(1) << 40);
    return 0;
}

static const struct cli_option mul_options[] = {
    {"input", "FILE", OPT_INPUT, "read operand pairs from FILE, one 'HEX_A HEX_B' line each, instead of random operands"},
    {"output", "FILE", OPT_OUTPUT, "write the products to FILE, one hex line each, in input order (from the first method that ran and matched GMP)"},
    {"batch", "N", OPT_BATCH, "at most N products per device batch (default: all that fit in 90% of free device memory)"},
    {0},
};

static char *methods_help(void)
{
    size_t n, len = 0, cap = 8192;
    const struct mul_method *all = mul_methods(&n);
    char *s = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        char range[80];
        int k = snprintf(range, sizeof range, "%u..%u bits", all[i].min_words * 32, all[i].max_words * 32);
        if (all[i].words_multiple > 1)
            snprintf(range + k, sizeof range - k, ", multiples of %u", all[i].words_multiple * 32);
        len += snprintf(s + len, cap - len, "  %-30s %s [%s]\n", all[i].name, all[i].summary, range);
    }
    len += snprintf(s + len, cap - len, "  %-30s %s\n", "gmp",
                    "GMP mpn_mul_n per product on the CPU, on --threads threads (the papers' baseline)");
    snprintf(s + len, cap - len, "  %-30s %s\n", "all", "every GPU method that supports --bits, then gmp");
    return s;
}

/* The state of one `mpgpu mul` run, shared by the per-method steps. */
struct mul_run {
    struct cli_common opt;
    struct mul_args io;
    struct run_env env;
    unsigned words;
    size_t count;
    uint32_t *a, *b, *c;
    bool output_written;
    int exit_status;
};

static void emit(struct mul_run *r, struct result_row *row)
{
    row->subcommand = "mul";
    row->bits = r->words * 32;
    row->count = r->count;
    row->reps = r->opt.reps;
    row->warmup = r->opt.warmup;
    row->seed = r->io.input ? 0 : r->opt.seed;
    row->include_transfers = r->opt.include_transfers;
    row->throughput = row->median_ms > 0 ? r->count / (row->median_ms * 1e-3) : 0;
    row->throughput_unit = "products";
    if (!r->opt.quiet)
        table_row(stdout, row);
    fflush(stdout);
    if (r->opt.csv_path && csv_append(r->opt.csv_path, &r->env, row) != 0)
        r->exit_status = EXIT_BAD_INPUT;
}

static void write_output(struct mul_run *r)
{
    if (!r->io.output || r->output_written)
        return;
    FILE *f = fopen(r->io.output, "w");
    if (!f)
        cli_bad_input("--output '%s' cannot be opened for writing", r->io.output);
    for (size_t p = 0; p < r->count; p++)
        hex_write_number(f, r->c + p * 2 * r->words, 2 * (size_t)r->words);
    if (fclose(f) != 0)
        cli_bad_input("--output '%s': write failed", r->io.output);
    r->output_written = true;
}

static int all_threads(void)
{
    return omp_get_num_procs();
}

static void run_gmp(struct mul_run *r)
{
    int threads = r->opt.threads ? r->opt.threads : all_threads();
    struct gmp_batch g;
    if (gmp_batch_init(&g, r->words, r->count, r->a, r->b) != 0)
        cli_bad_input("--count %zu: the GMP baseline needs more host memory than is free", r->count);
    double *samples = malloc(r->opt.reps * sizeof *samples);
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
        for (size_t p = 0; p < r->count; p++)
            gmp_batch_product_words(&g, p, r->c + p * 2 * r->words);
        write_output(r);
    }
    free(samples);
    gmp_batch_free(&g);
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

/* Products per device batch: all of them when they fit in 90 % of free device memory. */
static size_t choose_batch(const struct mul_method *m, unsigned words, size_t count,
                           uint64_t limit)
{
    size_t free_b = 0, total_b = 0;
    GPU_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t usable = free_b / 10 * 9;
    size_t batch = limit && limit < count ? (size_t)limit : count;
    while (batch > 0 && mul_device_bytes_per_product(m, words, batch) * batch > usable)
        batch = batch > 1 ? batch / 2 : 0;
    if (batch == 0)
        cli_bad_input("--bits %u: one product with method %s needs %zu bytes of device memory; "
                      "%zu are free", words * 32, m->name, mul_device_bytes_per_product(m, words, 1),
                      free_b);
    return batch;
}

static void run_gpu(struct mul_run *r, const struct mul_method *m)
{
    size_t batch = choose_batch(m, r->words, r->count, r->io.batch);
    size_t n_batches = (r->count + batch - 1) / batch;
    struct mul_device dev;
    DEV_CHECK(&dev, mul_device_open(&dev, m, r->words, batch));
    double *total = calloc(r->opt.reps, sizeof *total);
    double *samples = malloc(r->opt.reps * sizeof *samples);
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
            mismatches += mul_verify(r->words, n, x.a, x.b, x.c, stride, all_threads(), &chk, &fb);
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
        if (mismatches) {
            fprintf(stderr, "mpgpu: mul %s at %u bits: %llu of %llu checked products differ from "
                            "GMP; first bad index %zu\n", m->name, r->words * 32,
                    (unsigned long long)mismatches, (unsigned long long)checked, first_bad);
            r->exit_status = EXIT_MISMATCH;
        } else {
            write_output(r);
        }
    }
    free(total);
    free(samples);
}

static void generate_operands(struct mul_run *r)
{
    const long count = (long)r->count;
    const unsigned w = r->words;
    const uint64_t seed = r->opt.seed;
#pragma omp parallel for schedule(static)
    for (long p = 0; p < count; p++) {
        random_words(seed, 2 * (uint64_t)p, r->a + (size_t)p * w, w);
        random_words(seed, 2 * (uint64_t)p + 1, r->b + (size_t)p * w, w);
    }
}

int cmd_mul(int argc, char **argv)
{
    struct mul_run r;
    memset(&r, 0, sizeof r);
    char *mhelp = methods_help();
    const struct cli_spec spec = {
        .command = "mul",
        .usage = "mpgpu mul [--bits B] [--count N] [--method M,...] [options]",
        .description =
            "Computes --count independent full products C = A * B of two --bits-bit operands on\n"
            "the GPU with each chosen method, checks every product against GMP (see --verify),\n"
            "and reports kernel time (median, min, max of --reps runs) and products per second.\n"
            "Operands come from a seeded generator, or from --input. B is a multiple of 32 in\n"
            "64..65536. Without --method: thread-comba and gmp.",
        .common = OPT_ALL_COMMON,
        .options = mul_options,
        .handle = mul_handle,
        .ctx = &r.io,
        .methods_help = mhelp,
        .examples = "  mpgpu mul --bits 4096 --count 10240\n"
                    "  mpgpu mul --bits 1024 --count 2^20 --method all --csv results.csv\n"
                    "  mpgpu mul --input pairs.txt --output products.txt --method gmp\n",
    };
    cli_parse(argc, argv, &spec, &r.opt);
    free(mhelp);

    if (r.opt.bits_set && (r.opt.bits % 32 || r.opt.bits < MUL_MIN_BITS || r.opt.bits > MUL_MAX_BITS))
        cli_bad_input("--bits %u is not accepted; accepted: a multiple of 32 in %u..%u", r.opt.bits,
                      MUL_MIN_BITS, MUL_MAX_BITS);
    if (!r.opt.bits_set && r.opt.bits % 32)
        r.opt.bits = 1024;

    /* Resolve the method list before any work, so a typo costs nothing. */
    bool explicit_methods = r.opt.n_methods > 0;
    if (!explicit_methods)
        for (size_t i = 0; i < sizeof default_methods / sizeof default_methods[0]; i++)
            r.opt.methods[r.opt.n_methods++] = default_methods[i];

    if (r.io.input) {
        struct hex_pairs hp;
        hex_pairs_read(r.io.input, r.opt.bits_set ? r.opt.bits / 32 : 0, MUL_MAX_BITS / 32, &hp);
        r.words = hp.words;
        r.count = hp.count;
        r.a = hp.a;
        r.b = hp.b;
        if (r.opt.count_set && r.opt.count != r.count)
            cli_bad_input("--count %llu differs from the %zu pairs in --input %s; give only one",
                          (unsigned long long)r.opt.count, r.count, r.io.input);
    } else {
        r.words = r.opt.bits / 32;
        r.count = r.opt.count;
    }

    size_t n_all;
    const struct mul_method *all = mul_methods(&n_all);
    const struct mul_method *chosen[CLI_MAX_METHODS + 64];
    size_t n_chosen = 0;
    bool want_gmp = false;
    for (size_t i = 0; i < r.opt.n_methods; i++) {
        const char *name = r.opt.methods[i];
        if (!strcmp(name, "gmp")) {
            want_gmp = true;
        } else if (!strcmp(name, "all")) {
            for (size_t k = 0; k < n_all; k++)
                if (mul_method_supports(&all[k], r.words))
                    chosen[n_chosen++] = &all[k];
            want_gmp = true;
        } else {
            const struct mul_method *m = mul_method_find(name);
            if (!m) {
                char list[2048];
                size_t len = 0;
                for (size_t k = 0; k < n_all; k++)
                    len += snprintf(list + len, sizeof list - len, "%s, ", all[k].name);
                cli_bad_input("mul: unknown method '%s'; accepted: %sgmp, all", name, list);
            }
            if (!mul_method_supports(m, r.words))
                cli_bad_input("mul: method %s does not support %u bits; accepted: multiples of %u "
                              "bits in %u..%u", m->name, r.words * 32, m->words_multiple * 32,
                              m->min_words * 32, m->max_words * 32);
            chosen[n_chosen++] = m;
        }
    }

    char why[256];
    bool have_gpu = n_chosen > 0 && gpu_open(r.opt.device, why, sizeof why);
    if (n_chosen > 0 && !have_gpu) {
        fprintf(stderr, "mpgpu: %s; GPU methods skipped%s\n", why,
                want_gmp ? ", running the GMP baseline only" : "");
        if (explicit_methods && !want_gmp)
            return EXIT_GPU_ERROR;
        r.exit_status = explicit_methods ? EXIT_GPU_ERROR : 0;
        n_chosen = 0;
    }
    run_env_collect(&r.env, have_gpu, r.opt.device);
    interrupt_install();

    if (!r.io.input) {
        r.a = malloc(r.count * r.words * sizeof(uint32_t));
        r.b = malloc(r.count * r.words * sizeof(uint32_t));
    }
    r.c = malloc(r.count * 2 * r.words * sizeof(uint32_t));
    if (!r.a || !r.b || !r.c)
        cli_bad_input("--count %zu of %u-bit products needs %.1f GiB of host memory, more than is "
                      "free", r.count, r.words * 32, r.count * 16.0 * r.words / (1u << 30));
    if (!r.io.input)
        generate_operands(&r);

    if (!r.opt.quiet) {
        run_env_print(stdout, &r.env);
        table_begin(stdout);
    }
    for (size_t i = 0; i < n_chosen && !interrupt_requested(); i++) {
        if (cli_progress_enabled(&r.opt))
            fprintf(stderr, "[%zu/%zu] %s\n", i + 1, n_chosen + want_gmp, chosen[i]->name);
        run_gpu(&r, chosen[i]);
    }
    if (want_gmp && !interrupt_requested())
        run_gmp(&r);
    free(r.a);
    free(r.b);
    free(r.c);
    if (interrupt_requested()) {
        fprintf(stderr, "mpgpu: interrupted; the rows above are complete, later methods did not run\n");
        return EXIT_INTERRUPTED;
    }
    return r.exit_status;
}
