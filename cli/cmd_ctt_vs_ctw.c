/* mpgpu ctt-vs-ctw: batches of variable-length integer or rational computations in the layout
 * of 003 (Gusenbauer 2015, 4.2.1, 4.4.1), mapped to the GPU one computation per thread (CTT, 003
 * ch. 3 and 4.3), one per warp (CTW, 003 4.5) or by length (auto, beyond 003), against GMP and
 * the CTT routines ported to the CPU (003 5.4). Every result is checked against GMP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"
#include "ctt_gen.h"
#include "ctt_gmp.h"
#include "ctt_ref.h"
#include "gpu.h"
#include "hostmem.h"
#include "loop_watch.h"
#include "mpgpu.h"
#include "mul_bench.h"
#include "name_list.h"
#include "progress.h"
#include "timing.h"

#define CTT_DEFAULT_WORDS 32u

enum { OPT_OP = 1000, OPT_WORDS, OPT_SIGMA, OPT_SIGNED, OPT_REDUCE };

/* The methods, in the order they run. */
enum ctt_method { M_CTT, M_CTW, M_AUTO, M_CPU_PORT, M_GMP, N_METHODS };
static const char *const method_names[N_METHODS] = {"ctt", "ctw", "auto", "cpu-port", "gmp"};
static const char *const op_names[MPGPU_CTT_N_OPS] = {"add", "sub", "mul", "qadd", "qsub", "qmul", "qdiv"};

struct ctt_args {
    bool ops[MPGPU_CTT_N_OPS]; /* --op, a list (issue 36): each runs */
    unsigned words[CLI_MAX_SIZES];
    size_t n_words;
    double sigma;
    bool signed_operands;
    bool reduce; /* rational results to lowest terms on the host (--reduce) */
};

struct ctt_bench {
    struct cli_common opt;
    struct ctt_args args;
    /* The cases, in order, and the operation of each (c->data is the method). */
    const struct bench_case *cases;
    mpgpu_ctt_op *case_ops;
    /* The batch held now: its operation and mean length (words 0: none). */
    mpgpu_ctt_op op;
    unsigned words;
    struct mpgpu_ctt_batch batch;
    uint32_t *mem;           /* a mapping's memory block as it left it */
    void *comps;             /* and its computations (mpgpu_ctt_comp or mpgpu_ctt_qcomp) */
    /* A GPU method's case: the batch's memory block and computations on the device, the
     * stream its passes are timed on, and the library's plan of the mapping. */
    cudaStream_t stream;
    uint32_t *d_mem;
    void *d_comps;
    mpgpu_ctt_plan *plan;
    struct ctt_gmp gmp;
    int all_threads;
};

static int ctt_handle(int id, const char *arg, void *ctx)
{
    struct ctt_args *a = ctx;
    if (id == OPT_OP) {
        name_list_parse("--op", arg, op_names, MPGPU_CTT_N_OPS, NULL, NULL, a->ops);
    } else if (id == OPT_WORDS) {
        char accepted[96];
        snprintf(accepted, sizeof accepted, "lengths in words separated by single commas, each "
                 "in 1..%u", MPGPU_CTT_MAX_WORDS);
        cli_add_number_list(&(struct cli_number_list){.option = "--words", .accepted = accepted, .noun = "lengths",
                                                      .min = 1, .max = MPGPU_CTT_MAX_WORDS, .values = a->words,
                                                      .value_size = sizeof a->words[0], .n = &a->n_words,
                                                      .capacity = CLI_MAX_SIZES},
                            arg);
    } else if (id == OPT_SIGMA) {
        a->sigma = cli_parse_real("--sigma", arg, MPGPU_CTT_MAX_WORDS, "a deviation in words", NULL);
    } else if (id == OPT_SIGNED) {
        a->signed_operands = true;
    } else if (id == OPT_REDUCE) {
        a->reduce = true;
    }
    return 0;
}

static const struct cli_option ctt_options[] = {
    {"op", "OP[,OP...]", OPT_OP, "the operations, a comma list: add, sub or mul on integers, or qadd, qsub, qmul or qdiv on rationals a/b and c/d, unreduced as 003 4.4.2: (ad+cb)/bd, (ad-cb)/bd, ac/bd, ad/bc; all: each (default mul)"},
    {"words", "W[,W...]", OPT_WORDS, "mean operand length in 32-bit words, 1..16384 (default 32); a comma list runs each in turn"},
    {"sigma", "S", OPT_SIGMA, "deviation of the operand lengths in words, a normal distribution around --words, rounded and clamped to 1..16384 (default 0: all equal)"},
    {"signed", NULL, OPT_SIGNED, "random operand signs, of the numerators for rationals (default: non-negative operands, as 003; denominators are always positive)"},
    {"reduce", NULL, OPT_REDUCE, "with a q-op: reduce every result to lowest terms by the GCD of numerator and denominator (003 6.2 leaves it to future work), on the host with GMP's mpz_gcd on --threads threads (cpu-port: one); each method's time then includes it, the GPU methods' also the download of the results; the check compares with GMP's reduced value (default: unreduced, as 003)"},
    {0},
};

static const char methods_help[] =
    "  ctt       one computation per thread; 32 taken per warp with one atomic, result space reserved by a warp scan and one atomic (003 Algorithms 3.1, 3.2, 4.3)\n"
    "  ctw       one warp per computation: 32-word chunks with the carry across the warp; mul row by row (003 4.5, after Langer 2015)\n"
    "  auto      beyond 003: computations binned by length, short ones to threads (sorted by length; products only when they fill the GPU), middle ones to warps (to a block each when one wave of blocks holds them), long products to a block summing tiles of columns, the longest to a block each; bins=thread/warp/warp-columns/tile/block in the params column\n"
    "  cpu-port  the ctt routines compiled for the CPU, one thread (003 5.4)\n"
    "  gmp       mpz_add / mpz_sub / mpz_mul per computation (for rationals the same unreduced formulas in mpz) on --threads threads\n"
    "  all       every method above\n";

static void add_method(bool want[N_METHODS], const char *name)
{
    if (!strcmp(name, "all")) {
        for (int k = 0; k < N_METHODS; k++)
            want[k] = true;
        return;
    }
    for (int k = 0; k < N_METHODS; k++)
        if (!strcmp(name, method_names[k])) {
            want[k] = true;
            return;
        }
    cli_bad_input("ctt-vs-ctw: unknown method '%s'; accepted: ctt, ctw, auto, cpu-port, gmp, all", name);
}

static bool on_gpu(enum ctt_method m)
{
    return m == M_CTT || m == M_CTW || m == M_AUTO;
}

static mpgpu_ctt_mapping mapping_of(enum ctt_method m)
{
    return m == M_CTT ? MPGPU_CTT_THREAD : m == M_CTW ? MPGPU_CTT_WARP : MPGPU_CTT_AUTO;
}

/* The CUDA error a failed library call left (mpgpu_last_error) and, in *failed_call, the CUDA
 * call it names, for gpu_fail; cudaSuccess for MPGPU_OK. A failure that was no CUDA call's (host
 * memory) ends the run here, named by `call`. */
static cudaError_t api_error(mpgpu_status st, const char *call, const char **failed_call)
{
    if (st == MPGPU_OK)
        return cudaSuccess;
    mpgpu_error_info e;
    mpgpu_last_error(&e);
    if (st != MPGPU_ERR_NO_DEVICE && st != MPGPU_ERR_OUT_OF_DEVICE_MEMORY && st != MPGPU_ERR_CUDA) {
        fprintf(stderr, "mpgpu: %s failed: %s\n", call, mpgpu_status_string(st));
        exit(EXIT_GPU_ERROR);
    }
    *failed_call = e.cuda_call;
    return (cudaError_t)e.cuda_error;
}

/* Ends the run through gpu_fail when a library call failed. */
static void api_check(mpgpu_status st, const char *call)
{
    const char *failed = call;
    const cudaError_t err = api_error(st, call, &failed);
    if (err != cudaSuccess)
        gpu_fail(failed, err);
}

/* Words per computation, roughly: lengths as long as mean + 3 sigma (capped), two operands and
 * the result (of 2m words at most); for a rational computation four operands, x and y (4m + 1)
 * and qadd's and qsub's temporaries (4m). For the checks before any work. */
static uint64_t words_estimate(const struct ctt_bench *t, mpgpu_ctt_op op, unsigned words)
{
    double m = words + 3 * t->args.sigma;
    if (m > MPGPU_CTT_MAX_WORDS)
        m = MPGPU_CTT_MAX_WORDS;
    return (uint64_t)((MPGPU_CTT_OP_IS_RATIONAL(op) ? 12 : 4) * m + 1) * t->opt.count;
}

/* Bytes of one computation of op. */
static size_t comp_bytes(mpgpu_ctt_op op)
{
    return MPGPU_CTT_OP_IS_RATIONAL(op) ? sizeof(mpgpu_ctt_qcomp) : sizeof(mpgpu_ctt_comp);
}

/* The batch of op at words (the one held, if it is that): 0, or BENCH_STOPPED at Ctrl-C. */
static int prepare_batch(struct ctt_bench *t, mpgpu_ctt_op op, unsigned words)
{
    if (t->words == words && t->op == op)
        return 0;
    mpgpu_ctt_batch_free(&t->batch);
    free(t->mem);
    free(t->comps);
    t->mem = t->comps = NULL;
    t->words = 0;
    const struct ctt_gen g = {.seed = t->opt.seed, .op = op, .count = t->opt.count,
                              .mean_words = words, .sigma_words = t->args.sigma,
                              .max_words = MPGPU_CTT_MAX_WORDS, .signed_operands = t->args.signed_operands};
    struct progress_phase ph;
    const int rc = ctt_batch_generate(
        &t->batch, &g,
        progress_phase_begin(&ph, t->opt.quiet, "computations", t->opt.count,
                             "ctt-vs-ctw: generating the batch of %s at --words %u", op_names[op], words));
    progress_phase_end(&ph);
    if (rc == LOOP_STOPPED)
        return BENCH_STOPPED;
    if (rc != 0)
        cli_bad_input("--count %llu at --words %u: the batch needs 2^32 words (16 GiB) or more, the "
                      "limit of its 32-bit offsets, or more host memory than is free; lower --count",
                      (unsigned long long)t->opt.count, words);
    const uint64_t total = t->batch.operand_words + t->batch.result_words;
    t->mem = malloc(total * sizeof *t->mem);
    t->comps = malloc(t->batch.count * comp_bytes(op));
    if (!t->mem || !t->comps)
        cli_bad_input("--count %llu at --words %u: out of host memory",
                      (unsigned long long)t->opt.count, words);
    /* The result space starts zeroed on the host, as in 003 (it is what --include-transfers
     * moves). */
    memset(t->batch.words + t->batch.operand_words, 0, t->batch.result_words * 4);
    t->op = op;
    t->words = words;
    return 0;
}

static int ctt_setup(void *ctx, struct bench_case *c)
{
    struct ctt_bench *t = ctx;
    const enum ctt_method m = (enum ctt_method)(uintptr_t)c->data;
    const mpgpu_ctt_op op = t->case_ops[c - t->cases];
    if (prepare_batch(t, op, c->bits / 32) != 0)
        return BENCH_STOPPED;
    if (m == M_GMP) {
        struct progress_phase ph;
        const int rc = ctt_gmp_init(
            &t->gmp, &t->batch,
            progress_phase_begin(&ph, t->opt.quiet, "computations", t->batch.count,
                                 "ctt-vs-ctw gmp, %s at %u words: converting the batch to GMP values",
                                 op_names[op], c->bits / 32));
        progress_phase_end(&ph);
        if (rc == LOOP_STOPPED)
            return BENCH_STOPPED;
        if (rc != 0)
            cli_bad_input("--count %llu: the GMP baseline needs more host memory than is free",
                          (unsigned long long)t->opt.count);
    } else if (on_gpu(m)) {
        size_t free_b = 0, total_b = 0;
        GPU_CHECK(cudaMemGetInfo(&free_b, &total_b));
        uint64_t need = 0;
        api_check(mpgpu_ctt_device_bytes(&t->batch, mapping_of(m), &need), "mpgpu_ctt_device_bytes");
        if (need > free_b / 10 * 9) {
            char n[32], f[32];
            hostmem_format(n, sizeof n, need);
            hostmem_format(f, sizeof f, free_b);
            cli_bad_input("--count %llu at --words %u with method %s needs %s of device memory; the "
                          "limit is 90%% of the %s free", (unsigned long long)t->opt.count,
                          c->bits / 32, c->method, n, f);
        }
        const uint64_t total = t->batch.operand_words + t->batch.result_words;
        GPU_CHECK(cudaStreamCreate(&t->stream));
        GPU_CHECK(cudaMalloc((void **)&t->d_mem, total * 4));
        GPU_CHECK(cudaMalloc(&t->d_comps, t->batch.count * comp_bytes(op)));
        api_check(mpgpu_ctt_plan_create(&t->plan, &t->batch, mapping_of(m)), "mpgpu_ctt_plan_create");
        api_check(mpgpu_ctt_upload(&t->batch, t->d_mem, t->d_comps, t->stream), "mpgpu_ctt_upload");
        /* The result space poisoned, so that a word no mapping writes shows up in the check. */
        GPU_CHECK(cudaMemsetAsync(t->d_mem + t->batch.operand_words, 0xa5,
                                  t->batch.result_words * 4, t->stream));
        GPU_CHECK(cudaStreamSynchronize(t->stream));
    }
    return 0;
}

/* The results of a GPU method's case to the host (t->mem, t->comps), waiting for them. */
static cudaError_t download(struct ctt_bench *t, const char **failed_call)
{
    cudaError_t err = api_error(mpgpu_ctt_download(t->plan, t->d_mem, t->d_comps, t->mem, t->comps,
                                                   t->stream), "mpgpu_ctt_download", failed_call);
    if (err == cudaSuccess && (err = cudaStreamSynchronize(t->stream)) != cudaSuccess)
        *failed_call = "cudaStreamSynchronize";
    return err;
}

static cudaError_t timed_region(void *p, const char **failed_call)
{
    struct ctt_bench *t = p;
    const bool transfers = t->opt.include_transfers;
    cudaError_t err = transfers ? api_error(mpgpu_ctt_upload(&t->batch, t->d_mem, t->d_comps, t->stream),
                                            "mpgpu_ctt_upload", failed_call)
                                : cudaSuccess;
    if (err == cudaSuccess)
        err = api_error(mpgpu_ctt_run_device(t->plan, t->d_mem, t->d_comps, t->stream),
                        "mpgpu_ctt_run_device", failed_call);
    if (err == cudaSuccess && transfers)
        err = download(t, failed_call);
    return err;
}

/* A pass of a CPU method (gmp, cpu-port) into *ms: 0, or LOOP_STOPPED when watch stopped it. */
static int cpu_pass(struct ctt_bench *t, enum ctt_method m, int threads, const struct loop_watch *watch,
                    double *ms)
{
    if (m == M_GMP) {
        const double t0 = time_now_ms();
        const int rc = ctt_gmp_run(&t->gmp, &t->batch, threads, t->args.reduce, watch);
        *ms = time_now_ms() - t0;
        return rc;
    }
    /* On a copy of the block, so the batch the GPU methods upload stays as generated. */
    const uint64_t total = t->batch.operand_words + t->batch.result_words;
    memcpy(t->mem, t->batch.words, total * 4);
    struct mpgpu_ctt_batch port = t->batch;
    port.words = t->mem;
    if (port.rational)
        port.qcomps = memcpy(t->comps, t->batch.qcomps, t->batch.count * comp_bytes(t->op));
    else
        port.comps = memcpy(t->comps, t->batch.comps, t->batch.count * comp_bytes(t->op));
    const double t0 = time_now_ms();
    const int rc = ctt_run_serial(&port, watch);
    if (rc == 0 && t->args.reduce)
        ctt_reduce(&port, port.words, port.qcomps, 1);
    *ms = time_now_ms() - t0;
    return rc;
}

static int ctt_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    struct ctt_bench *t = ctx;
    const enum ctt_method m = (enum ctt_method)(uintptr_t)c->data;
    if (!on_gpu(m)) {
        /* The CPU methods' passes can take minutes: progress, and a stop at Ctrl-C. */
        struct progress_phase ph;
        const struct loop_watch *watch =
            progress_phase_begin(&ph, t->opt.quiet, "computations", t->batch.count,
                                 "ctt-vs-ctw %s, %s at %u words: pass %u%s", c->method, op_names[t->op],
                                 c->bits / 32, pass_index + 1, warmup ? " (warm-up)" : "");
        const int rc = cpu_pass(t, m, c->cpu_threads, watch, ms);
        progress_phase_end(&ph);
        return rc == LOOP_STOPPED ? BENCH_STOPPED : 0;
    }
    const char *failed = NULL;
    cudaError_t err = time_gpu_region(timed_region, t, t->stream, gpu_region_held(&t->opt, warmup), 0, 1,
                                      ms, &failed);
    if (err != cudaSuccess)
        gpu_fail(failed ? failed : "kernel", err);
    if (t->args.reduce) {
        /* The reduction on the host: the results down (unless the region moved them), then
         * GMP's GCD, on the host's clock after the region's. */
        const double t0 = time_now_ms();
        if (!t->opt.include_transfers && (err = download(t, &failed)))
            gpu_fail(failed, err);
        ctt_reduce(&t->batch, t->mem, t->comps, t->opt.threads ? t->opt.threads : t->all_threads);
        *ms += time_now_ms() - t0;
    }
    return 0;
}

static int ctt_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    struct ctt_bench *t = ctx;
    const enum ctt_method m = (enum ctt_method)(uintptr_t)c->data;
    if (m == M_GMP)
        return 0;
    /* With --reduce the last pass left its reduced results on the host. */
    if (on_gpu(m) && !t->opt.include_transfers && !t->args.reduce) {
        const char *failed = NULL;
        cudaError_t err = download(t, &failed);
        if (err != cudaSuccess)
            gpu_fail(failed, err);
    }
    spec->elements = t->batch.count;
    spec->element = "computation";
    spec->reference = "GMP";
    spec->scratch_bytes = ctt_gmp_expect_bytes(&t->batch);
    spec->threads = t->all_threads;
    return 0;
}

/* From the batch as the host generated it: a mapping that changed an operand and wrote the
 * result of the changed one is still caught. */
static enum bench_ref ctt_reference(const void *ctx, const struct bench_case *c, uint64_t i, void *expect)
{
    (void)c;
    const struct ctt_bench *t = ctx;
    ctt_gmp_expect(&t->batch, (size_t)i, t->args.reduce, expect);
    return BENCH_REF_READY;
}

static bool ctt_compare(const void *ctx, const struct bench_case *c, uint64_t i, const void *expect)
{
    (void)c;
    const struct ctt_bench *t = ctx;
    return ctt_gmp_matches(&t->batch, (size_t)i, t->mem, t->comps, expect);
}

/* A mapping only reads the operands: every operand word as the host wrote it (also those of
 * computations a sample skipped). */
static void ctt_check_end(void *ctx, struct bench_case *c, struct bench_check *out)
{
    const struct ctt_bench *t = ctx;
    if ((enum ctt_method)(uintptr_t)c->data == M_GMP || t->opt.verify == VERIFY_NONE)
        return;
    for (uint64_t k = 0; k < t->batch.operand_words; k++)
        if (t->mem[k] != t->batch.words[k]) {
            out->mismatches++;
            snprintf(out->first_bad, sizeof out->first_bad,
                     "operand word %llu was changed by the mapping", (unsigned long long)k);
            return;
        }
}

static void ctt_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    struct ctt_bench *t = ctx;
    const enum ctt_method m = (enum ctt_method)(uintptr_t)c->data;
    int k = snprintf(params, len, "op=%s;words=%u;sigma=%g;signed=%d;operand_words=%llu;result_words=%llu",
                     op_names[t->op], c->bits / 32, t->args.sigma, t->args.signed_operands,
                     (unsigned long long)t->batch.operand_words,
                     (unsigned long long)t->batch.result_words);
    if (t->args.reduce && k > 0 && (size_t)k < len)
        k += snprintf(params + k, len - k, ";reduce=1");
    size_t bin[MPGPU_CTT_N_BINS];
    if (m == M_AUTO && k > 0 && (size_t)k < len && mpgpu_ctt_plan_bins(t->plan, bin) == MPGPU_OK)
        snprintf(params + k, len - k, ";bins=%zu/%zu/%zu/%zu/%zu", bin[MPGPU_CTT_BIN_THREAD],
                 bin[MPGPU_CTT_BIN_WARP], bin[MPGPU_CTT_BIN_WARP_COLUMNS],
                 bin[MPGPU_CTT_BIN_TILE64] + bin[MPGPU_CTT_BIN_TILE128] + bin[MPGPU_CTT_BIN_TILE256],
                 bin[MPGPU_CTT_BIN_BLOCK]);
}

static void ctt_teardown(void *ctx, struct bench_case *c)
{
    struct ctt_bench *t = ctx;
    const enum ctt_method m = (enum ctt_method)(uintptr_t)c->data;
    if (m == M_GMP) {
        /* At Ctrl-C the watch stops this at once: the process ends next. */
        struct progress_phase ph;
        ctt_gmp_free(&t->gmp, progress_phase_begin(&ph, t->opt.quiet, "computations", t->gmp.count,
                                                   "ctt-vs-ctw gmp: freeing the GMP values"));
        progress_phase_end(&ph);
    } else if (on_gpu(m)) {
        mpgpu_ctt_plan_destroy(t->plan);
        cudaFree(t->d_mem);
        cudaFree(t->d_comps);
        if (t->stream)
            cudaStreamDestroy(t->stream);
        t->plan = NULL;
        t->d_mem = NULL;
        t->d_comps = NULL;
        t->stream = NULL;
    }
}

static const struct bench_ops ctt_ops = {
    .setup = ctt_setup,
    .pass = ctt_pass,
    .check_begin = ctt_check_begin,
    .reference = ctt_reference,
    .compare = ctt_compare,
    .check_end = ctt_check_end,
    .describe = ctt_describe,
    .teardown = ctt_teardown,
};

int cmd_ctt_vs_ctw(int argc, char **argv)
{
    struct ctt_bench t;
    memset(&t, 0, sizeof t);
    const struct cli_spec spec = {
        .command = "ctt-vs-ctw",
        .usage = "mpgpu ctt-vs-ctw [--op OP,...] [--words W,...] [--sigma S] [--count N] "
                 "[--method M,...] [options]",
        .description =
            "Runs a batch of --count computations of --op on integers whose lengths (in 32-bit "
            "words) are drawn around --words with deviation --sigma, all in one device buffer as "
            "Gusenbauer 2015 (4.2.1) lays them out, with each method: one computation per "
            "thread (ctt), per warp (ctw), or by length (auto); and on the CPU with GMP and with "
            "the ctt routines. Integers are sign and magnitude, so sub is exact; every result "
            "is checked against GMP (see --verify). The q-ops work on rationals (003 4.4): each "
            "computation holds numerator and denominator of both operands and of the result, "
            "all four operand integers drawn as above, and each mapping runs the products and "
            "the sum of one rational computation with its own integer routines, the "
            "temporaries ad and cb of qadd and qsub in the result space it reserves. Without "
            "--method: ctt, ctw, auto and gmp. --op, --words and --method each take a comma list "
            "(or repeat): every combination runs, operation by operation (in the order add, sub, "
            "mul, qadd, qsub, qmul, qdiv), then --words as given, then the methods in the order "
            "listed below. 003 runs 8192 computations (Fig. 5.5): give --count 8192 to match it.",
        .common = (OPT_ALL_COMMON & ~OPT_BITS) | OPT_INCLUDE_LAUNCH,
        .verify_help = "check each computation against GMP, which computes it from the host's own copy of the batch (a mapping's operands and descriptors must come back unchanged): all of them, a sample of about 1000 spread over the batch (every k-th and the last), or none",
        .options = ctt_options,
        .handle = ctt_handle,
        .ctx = &t.args,
        .methods_help = methods_help,
        .examples = "  mpgpu ctt-vs-ctw --op mul --words 512 --count 8192 --method all --threads 0\n"
                    "  mpgpu ctt-vs-ctw --op add --words 1,2,4,8,16,32,64,128,256,512\n"
                    "  mpgpu ctt-vs-ctw --op mul --words 64 --sigma 64 --method ctt,ctw,auto\n"
                    "  mpgpu ctt-vs-ctw --op qadd --words 1,2,4,8,16,32 --count 8192 --method all\n",
    };
    cli_parse(argc, argv, &spec, &t.opt);
    bool any_op = false;
    for (int op = 0; op < MPGPU_CTT_N_OPS; op++)
        any_op |= t.args.ops[op];
    if (!any_op)
        t.args.ops[MPGPU_CTT_MUL] = true;
    for (int op = 0; op < MPGPU_CTT_N_OPS; op++)
        if (t.args.reduce && t.args.ops[op] && !MPGPU_CTT_OP_IS_RATIONAL(op))
            cli_bad_input("--reduce applies to the rational operations qadd, qsub, qmul and qdiv; "
                          "--op %s is an integer operation", op_names[op]);
    if (t.args.n_words == 0)
        t.args.words[t.args.n_words++] = CTT_DEFAULT_WORDS;
    t.all_threads = mul_bench_all_threads();

    bool want[N_METHODS] = {false};
    const bool explicit_methods = t.opt.n_methods > 0;
    for (size_t i = 0; i < t.opt.n_methods; i++)
        add_method(want, t.opt.methods[i]);
    if (!explicit_methods)
        want[M_CTT] = want[M_CTW] = want[M_AUTO] = want[M_GMP] = true;

    for (int op = 0; op < MPGPU_CTT_N_OPS; op++)
        for (size_t s = 0; s < t.args.n_words && t.args.ops[op]; s++) {
            const uint64_t words = words_estimate(&t, op, t.args.words[s]);
            if (words >= UINT64_C(1) << 32)
                cli_bad_input("--count %llu at --words %u: the batch needs about %llu words, more "
                              "than the 2^32 its 32-bit offsets reach; accepted: --count up to %llu here",
                              (unsigned long long)t.opt.count, t.args.words[s], (unsigned long long)words,
                              (unsigned long long)(((UINT64_C(1) << 32) - 1) / (words / t.opt.count)));
            char what[96];
            snprintf(what, sizeof what, "--count %llu at --words %u of --op %s",
                     (unsigned long long)t.opt.count, t.args.words[s], op_names[op]);
            /* The batch, a mapping's copy of it, and GMP's values (three or six a computation). */
            const unsigned values = MPGPU_CTT_OP_IS_RATIONAL(op) ? 6 : 3;
            hostmem_require(words * 4 * 3 + t.opt.count * (comp_bytes(op) * 2 + values * 32), what);
        }

    char why[256];
    const bool any_gpu = want[M_CTT] || want[M_CTW] || want[M_AUTO];
    const bool any_cpu = want[M_CPU_PORT] || want[M_GMP];
    /* --threads sets GMP's threads and --reduce's: cpu-port alone runs on one. */
    if (!any_gpu && !want[M_GMP] && cli_option_given(argc, argv, "threads"))
        cli_bad_input("--threads is not accepted with --method cpu-port, which runs on one thread "
                      "(003 5.4); --threads sets gmp's threads and --reduce's");
    if (!any_gpu) {
        static const char *const gpu_only[] = {"include-transfers", "include-launch", "device", NULL};
        char mode[200];
        const size_t n_given = cli_methods_text(&t.opt, "ctt, ctw, auto, gmp", mode, sizeof mode);
        cli_refuse_options(argc, argv, gpu_only, mode,
                           n_given > 1 ? "which run no GPU method; name one" : "which runs no GPU method; name one");
    }
    const bool have_gpu = any_gpu && gpu_open(t.opt.device, why, sizeof why);
    const bool gpu_missing = any_gpu && !have_gpu;
    const int gpu_status = gpu_missing && explicit_methods ? EXIT_GPU_ERROR : 0;
    if (gpu_missing)
        want[M_CTT] = want[M_CTW] = want[M_AUTO] = false;

    const size_t max_cases = MPGPU_CTT_N_OPS * t.args.n_words * N_METHODS;
    struct bench_case *cases = malloc(max_cases * sizeof *cases);
    t.case_ops = malloc(max_cases * sizeof *t.case_ops);
    if (!cases || !t.case_ops)
        cli_bad_input("ctt-vs-ctw: out of host memory for %zu cases", max_cases);
    size_t n_cases = 0;
    for (int op = 0; op < MPGPU_CTT_N_OPS; op++)
        for (size_t s = 0; s < t.args.n_words; s++)
            for (int k = 0; k < N_METHODS; k++) {
                if (!t.args.ops[op] || !want[k])
                    continue;
                const bool cpu = k == M_CPU_PORT || k == M_GMP;
                t.case_ops[n_cases] = (mpgpu_ctt_op)op;
                cases[n_cases++] = (struct bench_case){
                    .method = method_names[k],
                    .bits = t.args.words[s] * 32,
                    .count = t.opt.count,
                    .throughput_unit = "computations",
                    .timed_region = cpu ? "cpu"
                                  : t.args.reduce ? (t.opt.include_transfers ? "kernels+transfers+host-reduce"
                                                                             : "kernels+download+host-reduce")
                                  : gpu_region_name(&t.opt),
                    .cpu_threads = k == M_GMP ? (t.opt.threads ? t.opt.threads : t.all_threads)
                                              : k == M_CPU_PORT ? 1 : 0,
                    .data = (void *)(uintptr_t)k,
                };
            }

    t.cases = cases;
    struct bench b;
    bench_open(&b, "ctt-vs-ctw", &t.opt, have_gpu, t.opt.device, gpu_missing ? why : NULL,
               any_cpu ? "GPU methods skipped, running the CPU methods only" : "GPU methods skipped");
    if (gpu_missing && explicit_methods && !any_cpu) {
        free(cases);
        free(t.case_ops);
        return EXIT_GPU_ERROR;
    }
    int status = bench_run(&b, &ctt_ops, &t, cases, n_cases);
    mpgpu_ctt_batch_free(&t.batch);
    free(t.mem);
    free(t.comps);
    free(cases);
    free(t.case_ops);
    return status ? status : gpu_status;
}
