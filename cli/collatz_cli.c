#include "collatz_cli.h"

#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "hostmem.h"
#include "interrupt.h"
#include "mpi_ranks.h"
#include "path_claim.h"
#include "progress.h"
#include "timing.h"
#include "random_words.h"
#include "test_hook.h"

bool collatz_range_option(struct collatz_range_args *r, int id, const char *arg)
{
    switch (id) {
    case OPT_COLLATZ_START:
        r->start = cli_parse_u64("--start", arg, 1, UINT64_MAX);
        r->start_set = true;
        return true;
    case OPT_COLLATZ_COUNT:
        r->count = cli_parse_u64("--count", arg, 1, UINT64_MAX);
        r->count_set = true;
        return true;
    case OPT_COLLATZ_END:
        r->last = cli_parse_end("--end", arg, 2);
        r->end_set = true;
        return true;
    default:
        return false;
    }
}

void collatz_resolve_range(const struct collatz_range_args *r, uint64_t seed, uint64_t default_count,
                           uint64_t *first, uint64_t *count)
{
    if (r->count_set && r->end_set)
        cli_bad_input("--count and --end both give the end of the range; give one");
    uint64_t start = r->start;
    if (!r->start_set)
        start = ((UINT64_C(1) << 62) | (splitmix64(seed) >> 3)) & ~((UINT64_C(1) << 40) - 1);
    uint64_t n = r->count_set ? r->count : default_count;
    if (r->end_set) {
        if (r->last < start)
            cli_bad_input("--end %" PRIu64 " is not above --start %" PRIu64 "; accepted: an end above the start",
                          r->last + 1, start);
        n = r->last - start + 1;
        if (n == 0) /* [1, 2^64): one value more than a 64-bit count holds */
            cli_bad_input("--start 1 --end 2^64 holds 2^64 starting values; accepted: at most 2^64 - 1 "
                          "per run (use --checkpoint to cover more in several)");
    } else if (n - 1 > UINT64_MAX - start) {
        cli_bad_input("--start %" PRIu64 " --count %" PRIu64 " runs past 2^64; starting values are 64-bit "
                      "(000 section 4.4.1); accepted: start + count <= 2^64",
                      start, n);
    }
    *first = start;
    *count = n;
}

void collatz_parse_methods(const struct cli_common *c, const char *command, struct collatz_methods *m)
{
    memset(m, 0, sizeof *m);
    m->explicit_ = c->n_methods > 0;
    if (!m->explicit_)
        m->gpu = true;
    for (size_t i = 0; i < c->n_methods; i++) {
        if (!strcmp(c->methods[i], "gpu"))
            m->gpu = true;
        else if (!strcmp(c->methods[i], "cpu"))
            m->cpu = true;
        else if (!strcmp(c->methods[i], "all"))
            m->gpu = m->cpu = true;
        else
            cli_bad_input("%s: unknown method '%s'; accepted: gpu, cpu, all", command, c->methods[i]);
    }
}

mpgpu_collatz_table_memory collatz_parse_table_memory(const char *arg)
{
    if (!strcmp(arg, "shared"))
        return MPGPU_COLLATZ_TABLES_SHARED;
    if (!strcmp(arg, "global"))
        return MPGPU_COLLATZ_TABLES_GLOBAL;
    cli_bad_input("--table-memory '%s' is not a place; accepted: shared, global", arg);
}

int collatz_setup(int argc, char **argv, const char *command, struct collatz_bench *cb, const char *checkpoint,
                  const struct md_devices *devices, struct collatz_setup *out)
{
    struct cli_common *opt = &cb->opt;
    collatz_parse_methods(opt, command, &out->m);
    /* The options that shape the gpu method's kernel: refused where it cannot run, and asking
     * for the GPU where it may (below). */
    static const char *const kernel_options[] = {"interleave", "table-memory", NULL};
    if (!out->m.gpu)
        cli_refuse_options(argc, argv, kernel_options, "--method cpu",
                           "which runs the CPU twin: it shapes the gpu method's kernel");
    bool kernel_option_given = false;
    for (const char *const *o = kernel_options; *o; o++)
        kernel_option_given |= cli_option_given(argc, argv, *o);
    cb->devices = *devices;
    if (devices->arg && cli_option_given(argc, argv, "device"))
        cli_bad_input("--device and --devices both choose the GPU; give one");
    if (devices->arg && !out->m.gpu)
        cli_bad_input("--devices chooses GPUs, but --method cpu runs none; give --method gpu or all");
    if (!out->m.gpu && cli_option_given(argc, argv, "device"))
        cli_bad_input("--device chooses the GPU, but --method cpu runs none; give --method gpu or all");
    /* Every rank runs the chunks of one method: the run of rank 0 is the only one. */
    if (ranks_size() > 1 && out->m.gpu && out->m.cpu)
        cli_bad_input("--method all compares two runs, and MPI ranks share one; give --method gpu or cpu");
    /* GPUs named by --devices, and the options that shape the gpu method's kernel, ask for the
     * GPU: without one the run fails, as with --method gpu (--interleave was dropped by the CPU
     * twin, and its row said interleave=1). */
    const bool asked = out->m.explicit_ || devices->arg || kernel_option_given;
    out->verify = opt->verify; /* sample unless given: the specs' verify_default */
    out->cpu_threads = opt->threads ? opt->threads : omp_get_num_procs();
    if (checkpoint && out->m.gpu && out->m.cpu)
        cli_bad_input("--checkpoint follows one run; give --method gpu or --method cpu");
    char why[256];
    out->have_dev = out->m.gpu && md_resolve(&cb->devices, opt->device, why, sizeof why);
    if (out->m.gpu && !out->have_dev) {
        if (asked && !out->m.cpu) {
            /* Rank 0 alone opens the outputs and says it. */
            if (ranks_lead()) {
                if (checkpoint)
                    collatz_checkpoint_prepare(checkpoint);
                struct bench b;
                bench_open(&b, command, opt, false, opt->device, why, "the gpu method cannot run");
            }
            return EXIT_GPU_ERROR;
        }
        /* The cpu method named beside it runs, and the run exits 3 after it, as mul's GMP baseline
         * does. */
        snprintf(cb->no_gpu, sizeof cb->no_gpu, "%s", why);
        cb->gpu_named_missing = asked;
        out->m.gpu = false;
        out->m.cpu = true;
    }
    /* The workers of every rank: this process's GPUs, or one CPU twin. */
    cb->team_gpu = out->m.gpu;
    md_team_join(&cb->team, out->m.gpu ? &cb->devices : NULL);
    cb->stats = calloc(cb->team.total, sizeof *cb->stats);
    if (!cb->stats)
        cli_bad_input("out of host memory for the shares of %zu workers", cb->team.total);
    /* Only rank 0 prints and writes; the other ranks speak only when they fail. */
    if (!ranks_lead()) {
        opt->quiet = true;
        opt->csv_path = NULL;
    }
    return 0;
}

void collatz_checkpoint_begin(struct checkpoint *ck, const char *command, const char *params,
                              uint64_t start)
{
    snprintf(ck->command, sizeof ck->command, "%s", command);
    snprintf(ck->params, sizeof ck->params, "%s", params);
    ck->start = start;
}

size_t collatz_bench_cases(const struct collatz_bench *cb, const struct collatz_methods *m,
                           struct bench_case *out)
{
    size_t n = 0;
    for (int gpu = 1; gpu >= 0; gpu--) {
        if (gpu ? !m->gpu : !m->cpu)
            continue;
        out[n++] = (struct bench_case){
            .method = gpu ? "gpu" : "cpu",
            .count = cb->count - cb->done_before,
            .throughput_unit = "numbers",
            /* A pass includes the host's settlement of overflows with GMP, so it is timed whole
             * by the clock, not by CUDA events around the kernels. */
            .timed_region = "pass",
            .cpu_threads = gpu ? 0 : cb->cpu_threads,
            .data = gpu ? (void *)cb->devs : NULL,
        };
    }
    return n;
}

void collatz_devices_open(struct collatz_bench *cb, size_t list_cap, size_t cand_cap,
                          mpgpu_collatz_table_memory memory, unsigned bc_bits, bool with_ops)
{
    for (size_t w = 0; w < cb->devices.n; w++) {
        GPU_CHECK(cudaSetDevice(cb->devices.ids[w]));
        GPU_CHECK(cudaStreamCreateWithFlags(&cb->streams[w], cudaStreamNonBlocking));
        mpgpu_status st = mpgpu_collatz_create(&cb->devs[w], list_cap, cand_cap, cb->streams[w]);
        if (st != MPGPU_OK)
            collatz_gpu_fail(st, "collatz_device_open");
        size_t need = 0, limit = 0;
        if (memory == MPGPU_COLLATZ_TABLES_SHARED &&
            mpgpu_collatz_shared_check(cb->devs[w], bc_bits, with_ops, &need, &limit) != MPGPU_OK)
            cli_bad_input("--table-memory shared --bc-bits %u: %s need %zu bytes of shared memory per block; "
                          "GPU %d gives a block at most %zu (use --table-memory global or fewer bits)",
                          bc_bits, with_ops ? "B, C and J" : "B and C", need, cb->devices.ids[w], limit);
    }
    GPU_CHECK(cudaSetDevice(cb->devices.ids[0]));
}

void collatz_devices_close(struct collatz_bench *cb)
{
    for (size_t w = 0; w < cb->devices.n; w++) {
        cudaSetDevice(cb->devices.ids[w]);
        mpgpu_collatz_destroy(cb->devs[w]);
        if (cb->streams[w])
            cudaStreamDestroy(cb->streams[w]);
        cb->devs[w] = NULL;
        cb->streams[w] = NULL;
    }
}

void collatz_gpu_fail(mpgpu_status st, const char *what)
{
    mpgpu_error_info info;
    mpgpu_last_error(&info);
    /* The kernels' host code has always reported short host memory as this CUDA error. */
    if (st == MPGPU_ERR_OUT_OF_HOST_MEMORY || !info.cuda_error)
        gpu_fail(what, st == MPGPU_ERR_OUT_OF_HOST_MEMORY ? cudaErrorMemoryAllocation : cudaErrorInvalidValue);
    gpu_fail(info.cuda_call[0] ? info.cuda_call : what, (cudaError_t)info.cuda_error);
}

int collatz_plain_delay_of(uint64_t n, uint32_t *delay)
{
    const mpgpu_collatz_list one = {&n, 1, 1};
    mpgpu_collatz_delay_totals t = {0, 0, 0, 0, 0};
    uint64_t runaway = 0;
    if (mpgpu_collatz_settle_delay(&one, -1, 1, &t, NULL, &runaway) != MPGPU_OK || runaway)
        return -1;
    *delay = t.max;
    return 0;
}

void collatz_devices_check_memory(const struct collatz_bench *cb, uint64_t need, const char *what)
{
    for (size_t w = 0; w < cb->devices.n; w++) {
        uint64_t copies = 0;
        for (size_t v = 0; v < cb->devices.n; v++)
            copies += cb->devices.ids[v] == cb->devices.ids[w];
        size_t free_b = 0, total_b = 0;
        GPU_CHECK(cudaSetDevice(cb->devices.ids[w]));
        GPU_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (need * copies > free_b / 20 * 19) {
            char have[32];
            hostmem_format(have, sizeof have, free_b);
            cli_bad_input("%s needs %" PRIu64 " bytes of memory on GPU %d (%" PRIu64 " cop%s); %s are free",
                          what, need * copies, cb->devices.ids[w], copies, copies == 1 ? "y" : "ies", have);
        }
    }
    GPU_CHECK(cudaSetDevice(cb->devices.ids[0]));
}

void collatz_worker_begin(const struct collatz_bench *cb, size_t worker)
{
    if (cb->gpu)
        GPU_CHECK(cudaSetDevice(cb->devices.ids[worker]));
}

/* The team that runs the case in hand: the run's, or, for the CPU twin of --method all, one
 * worker of its own. */
static const struct md_team *case_team(const struct collatz_bench *cb)
{
    static const struct md_team one = {.local = 1, .total = 1, .ranks = 1};
    return cb->gpu == cb->team_gpu ? &cb->team : &one;
}

uint32_t collatz_worker_id(const struct collatz_bench *cb, size_t worker)
{
    return (uint32_t)(case_team(cb)->first + worker);
}

bool collatz_worker_known(const struct collatz_bench *cb, uint32_t worker)
{
    return worker < case_team(cb)->total;
}

/* "GPU 0 (thread 2)", "rank 1 CPU (thread 1)": worker w of a team made by md_team_join, its
 * thread counted within its rank. */
static void worker_name(const struct md_team *t, size_t w, char *out, size_t len)
{
    size_t thread = 1;
    while (thread <= w && t->rank[w - thread] == t->rank[w])
        thread++;
    char who[48];
    md_team_label(t, w, who, sizeof who);
    snprintf(out, len, "%s (thread %zu)", who, thread);
}

void collatz_devices_format(const struct collatz_bench *cb, char *out, size_t len)
{
    md_team_format(case_team(cb), out, len);
}

void collatz_report_devices(const struct collatz_bench *cb, FILE *out)
{
    const struct md_team *t = case_team(cb);
    if (t->total < 2)
        return;
    for (size_t w = 0; w < t->total; w++) {
        char who[80];
        worker_name(t, w, who, sizeof who);
        const struct md_stats *st = &cb->stats[w];
        fprintf(out, "#   %s: %" PRIu64 " numbers in %.3f s, %.4g numbers/s\n", who, st->items, st->busy_ms * 1e-3,
                st->busy_ms > 0 ? (double)st->items / (st->busy_ms * 1e-3) : 0.0);
    }
}

void collatz_follow(struct collatz_bench *cb, const struct md_chunk_ops *ops, void *ctx)
{
    cb->gpu = cb->team_gpu;
    md_follow(&cb->team, ops, ctx);
}

int collatz_run(struct collatz_bench *cb, const struct collatz_methods *m,
                void (*build_tables)(void *ctx, bool gpu), const struct bench_ops *ops,
                const struct md_chunk_ops *chunk_ops, void *ctx)
{
    if (!ranks_lead()) {
        build_tables(ctx, m->gpu);
        collatz_follow(cb, chunk_ops, ctx);
        return 0;
    }
    struct bench b;
    bench_open(&b, cb->command, &cb->opt, cb->have_dev, cb->have_dev ? cb->devices.ids[0] : cb->opt.device,
               cb->no_gpu[0] ? cb->no_gpu : NULL,
               cb->gpu_named_missing ? "the gpu method cannot run, running the cpu method only"
                                     : "running the CPU twin instead");
    /* A checkpointed run is one pass: the checkpoint follows it. */
    if (cb->checkpoint) {
        b.warmup = 0;
        b.reps = 1;
    }
    cb->warmup_passes = b.warmup;
    cb->timed_passes_least = b.reps;
    build_tables(ctx, m->gpu);
    if (cb->done_before == cb->count) {
        printf("# --checkpoint %s has finished the whole range [%" PRIu64 ", %" PRIu64 "]\n", cb->checkpoint,
               cb->first, cb->first + (cb->count - 1));
        return 0;
    }
    if (collatz_chunks_init(&cb->chunks, cb->twin->result_size, cb->team.total) != 0)
        cli_bad_input("out of host memory for the chunks of %zu workers", cb->team.total);
    struct bench_case cases[2];
    const size_t n_cases = collatz_bench_cases(cb, m, cases);
    int status = bench_run(&b, ops, ctx, cases, n_cases);
    /* The row above holds the run's results; only the file could not keep them. */
    if (cb->save_failed[0]) {
        fprintf(stderr, "mpgpu: --checkpoint %s could not be saved: %s; the results above are complete (the "
                        "whole range is done), the file keeps the last state saved, if any\n",
                cb->checkpoint, cb->save_failed);
        if (status == 0)
            status = EXIT_BAD_INPUT;
    }
    return status ? status : cb->gpu_named_missing ? EXIT_GPU_ERROR : 0;
}

void collatz_bench_free(struct collatz_bench *cb)
{
    collatz_chunks_free(&cb->chunks);
    md_team_free(&cb->team);
    free(cb->stats);
    cb->stats = NULL;
}

void collatz_case_begin(struct collatz_bench *cb, const struct bench_case *c)
{
    cb->gpu = collatz_case_gpu(c);
    cb->have_ref = false;
    cb->differing_pass = 0;
    cb->overflow_ms = 0;
    cb->timed_passes = 0;
}

bool collatz_pass_end(struct collatz_bench *cb, unsigned pass_index, bool warmup, double overflow_ms,
                      bool (*same_as_ref)(void *ctx), void *ctx)
{
    if (!warmup) {
        cb->overflow_ms += overflow_ms;
        cb->timed_passes++;
    }
    if (!cb->have_ref) {
        cb->have_ref = true;
        return true;
    }
    if (!cb->differing_pass && !same_as_ref(ctx))
        cb->differing_pass = pass_index + 1;
    return false;
}

double collatz_overflow_ms_per_pass(const struct collatz_bench *cb)
{
    return cb->timed_passes ? cb->overflow_ms / cb->timed_passes : 0;
}

int collatz_timed_pass(struct collatz_bench *cb, struct bench_case *c, unsigned pass_index, bool warmup,
                       unsigned seg_bits, const struct md_chunk_ops *ops, void *ctx, double *ms)
{
    /* "of N": a pass's time left is not the run's, which has N of them (and the other kind). */
    char label[96];
    if (warmup)
        snprintf(label, sizeof label, "%s %s warm-up %u of %u, then %u pass%s", cb->command, c->method,
                 pass_index + 1, cb->warmup_passes, cb->timed_passes_least,
                 cb->timed_passes_least == 1 ? "" : "es");
    else
        snprintf(label, sizeof label, "%s %s pass %u of %u", cb->command, c->method,
                 pass_index - cb->warmup_passes + 1, cb->timed_passes_least);
    cb->seg_bits = seg_bits;
    collatz_chunks_clear(&cb->chunks);
    const double t0 = time_now_ms();
    struct progress pg;
    progress_begin(&pg, progress_mode_for(cb->opt.quiet), label, "numbers", c->count);
    const uint64_t done = md_schedule(case_team(cb), cb->first + cb->done_before, c->count, seg_bits, ops, ctx,
                                      &pg, cb->stats);
    progress_end(&pg);
    *ms = time_now_ms() - t0;
    if (done < c->count) {
        collatz_report_interrupted(cb->command, cb->first, cb->done_before + done, cb->checkpoint);
        return BENCH_STOPPED;
    }
    return 0;
}

/* Whether the check looks at worker w's chunks: every GPU's; of the CPU twin, those of other
 * ranks (rank 0's are the reference itself). */
static bool chunk_checked(const struct collatz_bench *cb, uint32_t worker)
{
    const struct md_team *t = case_team(cb);
    return cb->gpu || (t->rank && t->rank[worker] != 0);
}

bool collatz_chunk_spoiled(const struct collatz_bench *cb, uint32_t worker)
{
    char site[32];
    snprintf(site, sizeof site, "%s-chunk", cb->command);
    return chunk_checked(cb, worker) && test_hook_spoil(site, cb->chunks.n);
}

void collatz_chunk_record(struct collatz_bench *cb, uint64_t first, uint64_t last, uint32_t worker,
                          const void *result)
{
    if (chunk_checked(cb, worker) && collatz_chunks_add(&cb->chunks, first, last, worker, result) != 0)
        cli_bad_input("%s: out of host memory for the record of chunk [%" PRIu64 ", %" PRIu64 "], which the "
                      "check needs", cb->command, first, last);
}

/* A check predicted to take longer than this says so before it starts. */
#define ANNOUNCE_CHECK_S 10.0

/* Says how long the check will take when that is long: the twin's rate measured on a few numbers
 * of the first chunk, times the numbers of the chunks it will recompute (every one, or about the
 * sample's). */
static void announce_check(const struct collatz_bench *cb, const struct bench_case *c, uint64_t sample)
{
    const struct collatz_chunks *k = &cb->chunks;
    if (cb->opt.quiet || cb->verify == VERIFY_NONE || k->n == 0)
        return;
    uint64_t numbers = 0;
    for (size_t i = 0; i < k->n; i++)
        numbers += k->place[i].last - k->place[i].first + 1;
    const uint64_t picks = cb->verify == VERIFY_ALL || sample >= k->n ? k->n : sample + 1;
    const double check_numbers = (double)numbers / (double)k->n * (double)picks;
    const struct collatz_chunk_place *p = &k->place[k->order[0]];
    const uint64_t probe = p->last - p->first < cb->twin->probe ? p->last - p->first + 1 : cb->twin->probe;
    if (check_numbers <= (double)probe)
        return;
    void *scratch = malloc(cb->twin->result_size);
    const double t0 = time_now_ms();
    const bool measured = scratch && cb->twin->compute(cb, collatz_chunks_result(k, k->order[0]), p->first,
                                                      p->first + (probe - 1), scratch) == 0;
    const double s = (time_now_ms() - t0) * 1e-3 / (double)probe * check_numbers;
    free(scratch);
    if (!measured || s <= ANNOUNCE_CHECK_S)
        return;
    char eta[32];
    progress_format_duration(eta, sizeof eta, s);
    fprintf(stderr, "mpgpu: %s %s: checking about %" PRIu64 " of the %zu chunks (%.3g numbers) on the CPU twin "
                    "takes about %s (its rate measured on %" PRIu64 " numbers)\n",
            cb->command, c->method, picks, k->n, check_numbers, eta, probe);
}

int collatz_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    struct collatz_bench *cb = ctx;
    spec->element = "chunk";
    spec->reference = "the CPU twin";
    spec->scratch_bytes = cb->twin->result_size;
    /* A chunk is large: the twin spreads each over every core, one after another. */
    spec->threads = 1;
    spec->elements = cb->chunks.n;
    spec->sample = collatz_chunks_order(&cb->chunks, cb->check_budget >> cb->seg_bits);
    announce_check(cb, c, spec->sample);
    return 0;
}

enum bench_ref collatz_check_reference(const void *ctx, const struct bench_case *c, uint64_t i,
                                       void *scratch)
{
    (void)c;
    const struct collatz_bench *cb = ctx;
    const size_t chunk = cb->chunks.order[i];
    const struct collatz_chunk_place *p = &cb->chunks.place[chunk];
    return cb->twin->compute(ctx, collatz_chunks_result(&cb->chunks, chunk), p->first, p->last, scratch) == 0
               ? BENCH_REF_READY : BENCH_REF_NO_MEMORY;
}

bool collatz_check_compare(const void *ctx, const struct bench_case *c, uint64_t i, const void *scratch)
{
    const struct collatz_bench *cb = ctx;
    const size_t chunk = cb->chunks.order[i];
    const uint32_t w = cb->chunks.place[chunk].worker;
    const void *recorded = collatz_chunks_result(&cb->chunks, chunk);
    uint64_t *checked = &cb->chunks.checked[w], *differ = &cb->chunks.differ[w], differing;
#pragma omp atomic
    (*checked)++;
    if (cb->twin->same(recorded, scratch))
        return true;
#pragma omp atomic capture
    differing = ++(*differ);
    /* What differs, for the first bad chunk of each worker: a faulty GPU may spoil many. */
    if (differing == 1) {
        char name[160], got[200], want[200];
        collatz_check_name(ctx, c, i, name, sizeof name);
        cb->twin->describe(recorded, got, sizeof got);
        cb->twin->describe(scratch, want, sizeof want);
        fprintf(stderr, "mpgpu: %s %s: %s gives %s; the CPU twin %s\n", cb->command, c->method, name, got, want);
    }
    return false;
}

void collatz_check_name(const void *ctx, const struct bench_case *c, uint64_t i, char *out, size_t len)
{
    (void)c;
    const struct collatz_bench *cb = ctx;
    const struct collatz_chunk_place *p = &cb->chunks.place[cb->chunks.order[i]];
    char who[80];
    worker_name(case_team(cb), p->worker, who, sizeof who);
    snprintf(out, len, "chunk [%" PRIu64 ", %" PRIu64 "] on %s", p->first, p->last, who);
}

void collatz_check_end(void *ctx, struct bench_case *c, struct bench_check *out)
{
    (void)c;
    const struct collatz_bench *cb = ctx;
    if (cb->differing_pass) {
        out->mismatches++;
        out->checked += !out->checked;
        snprintf(out->first_bad, sizeof out->first_bad, "pass %u gives other totals than pass 1",
                 cb->differing_pass);
    }
}

void collatz_report_checked(const struct collatz_bench *cb, FILE *out)
{
    const struct collatz_chunks *k = &cb->chunks;
    const struct md_team *t = case_team(cb);
    if (k->n == 0 || cb->verify == VERIFY_NONE)
        return;
    fprintf(out, "#   checked chunks:");
    const char *sep = "";
    for (uint32_t w = 0; w < t->total; w++) {
        if (!chunk_checked(cb, w))
            continue;
        char who[80];
        worker_name(t, w, who, sizeof who);
        fprintf(out, "%s %s: %" PRIu64 " of %" PRIu64, sep, who, k->checked[w], k->per_worker[w]);
        if (k->differ[w])
            fprintf(out, " (%" PRIu64 " DIFFER)", k->differ[w]);
        sep = ",";
    }
    fprintf(out, "%s\n", cb->gpu ? "" : "; rank 0's are the CPU twin's own");
}

/* What to do about a --checkpoint path that cannot be used. */
#define CHECKPOINT_PATH_HINT "give the path of a file (created when absent) in a writable folder"

void collatz_checkpoint_prepare(const char *path)
{
    char why[512];
    if (checkpoint_writable(path, why, sizeof why) != 0)
        cli_bad_input("--checkpoint %s %s; " CHECKPOINT_PATH_HINT, path, why);
}

/* The keys of two "k=v;k=v" lists whose values differ: "s_bits 32 there, 37 here, ...". */
static void params_differ(const char *there, const char *here, char *out, size_t len)
{
    out[0] = '\0';
    for (const char *p = there; *p;) {
        const char *end = strchr(p, ';');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (eq) {
            const size_t key_len = (size_t)(eq - p);
            const char *mine = NULL;
            for (const char *q = here; *q && !mine;) {
                if (!strncmp(q, p, key_len + 1))
                    mine = q + key_len + 1;
                q = strchr(q, ';') ? strchr(q, ';') + 1 : q + strlen(q);
            }
            const size_t theirs_len = n - key_len - 1, mine_len = mine ? strcspn(mine, ";") : 0;
            if (!mine || mine_len != theirs_len || strncmp(mine, eq + 1, theirs_len) != 0)
                snprintf(out + strlen(out), len - strlen(out), "%s%.*s %.*s there, %.*s here",
                         out[0] ? ", " : "", (int)key_len, p, (int)theirs_len, eq + 1, (int)mine_len,
                         mine ? mine : "");
        }
        p += n + (end != NULL);
    }
    if (!out[0])
        snprintf(out, len, "the keys differ");
}

bool collatz_checkpoint_load(const char *path, const char *command, const char *params,
                             struct collatz_range_args *r, struct checkpoint *ck)
{
    char why[256];
    int rc = checkpoint_read(path, ck, why, sizeof why);
    if (rc == 0)
        return false;
    if (rc == -2)
        cli_bad_input("--checkpoint %s %s; " CHECKPOINT_PATH_HINT, path, why);
    if (rc < 0)
        cli_bad_input("--checkpoint %s %s; remove it to start afresh", path, why);
    if (strcmp(ck->command, command) != 0)
        cli_bad_input("--checkpoint %s belongs to 'mpgpu %s', not 'mpgpu %s'", path, ck->command, command);
    if (strcmp(ck->params, params) != 0) {
        char differ[256];
        params_differ(ck->params, params, differ, sizeof differ);
        cli_bad_input("--checkpoint %s was made with %s, not %s (%s); give the options of the run "
                      "that made it to resume (the CPU twin's defaults of --s-bits and --first-step "
                      "are not the gpu method's)", path, ck->params, params, differ);
    }
    if (r->start_set && r->start != ck->start)
        cli_bad_input("--checkpoint %s starts at %" PRIu64 ", not --start %" PRIu64, path, ck->start, r->start);
    r->start = ck->start;
    r->start_set = true;
    return true;
}

/* The totals each subcommand's checkpoint holds, as cmd_collatz.c and cmd_delay.c save them. */
static const char *const conv_totals[] = {"mandatory", "steps", "overflows", NULL};
static const char *const delay_totals[] = {"numbers", "sum", "max", "argmax", "overflows",
                                           "floor_plus_one", NULL};

/* A checkpoint whose checksum holds but whose fields cannot be a state of its range: refused,
 * naming the field, as resuming from it would print wrong totals. */
#define CHECKPOINT_UNFIT(path, fmt, ...)                                                          \
    cli_bad_input("--checkpoint %s does not fit its range: " fmt "; remove it to start afresh",   \
                  path, __VA_ARGS__)

static uint64_t checkpoint_total(const struct checkpoint *ck, const char *key)
{
    uint64_t v = 0;
    checkpoint_get(ck, key, &v);
    return v;
}

/* The delay fields: one delay per finished starting value, the maximum and its place among
 * them, and the records, each D(n) recomputed by plain iteration (a few hundred at most). */
static void check_delay_fields(const char *path, const struct checkpoint *ck)
{
    const uint64_t done = ck->done, last = ck->start + (done - 1);
    const uint64_t numbers = checkpoint_total(ck, "numbers"), sum = checkpoint_total(ck, "sum"),
                   max = checkpoint_total(ck, "max"), argmax = checkpoint_total(ck, "argmax"),
                   overflows = checkpoint_total(ck, "overflows"),
                   floor_plus_one = checkpoint_total(ck, "floor_plus_one");
    if (numbers != done)
        CHECKPOINT_UNFIT(path, "numbers is %" PRIu64 ", not done %" PRIu64
                         " (one delay per finished starting value)", numbers, done);
    if (overflows > numbers)
        CHECKPOINT_UNFIT(path, "overflows %" PRIu64 " exceed numbers %" PRIu64, overflows, numbers);
    if (done == 0 && (sum || max || argmax || ck->records.n))
        CHECKPOINT_UNFIT(path, "%s is set, but no starting value is done",
                         sum ? "sum" : max ? "max" : argmax ? "argmax" : "a record");
    if (done > 0) {
        uint32_t d = 0;
        if (argmax < ck->start || argmax > last)
            CHECKPOINT_UNFIT(path, "argmax %" PRIu64 " is outside the finished [%" PRIu64 ", %" PRIu64
                             "]", argmax, ck->start, last);
        if (collatz_plain_delay_of(argmax, &d) != 0 || d != max)
            CHECKPOINT_UNFIT(path, "max %" PRIu64 " is not the delay of argmax %" PRIu64 " (%u)", max,
                             argmax, d);
        if (sum < max || (unsigned __int128)max * numbers < sum)
            CHECKPOINT_UNFIT(path, "sum %" PRIu64 " cannot be %" PRIu64 " delays of at most max %" PRIu64,
                             sum, numbers, max);
    }
    const bool records = strstr(ck->params, "records=on") != NULL;
    if (!records && ck->records.n)
        CHECKPOINT_UNFIT(path, "it holds %zu records, but was made without --records", ck->records.n);
    /* With --records the floor is raised to the running maximum of every finished segment. */
    if (records && done > 0 && floor_plus_one <= max)
        CHECKPOINT_UNFIT(path, "floor_plus_one %" PRIu64 " is not above max %" PRIu64, floor_plus_one,
                         max);
    for (size_t i = 0; i < ck->records.n; i++) {
        const uint64_t n = ck->records.v[i].n;
        const uint32_t delay = ck->records.v[i].delay;
        uint32_t d = 0;
        if (n < ck->start || n > last)
            CHECKPOINT_UNFIT(path, "record %zu, n = %" PRIu64 ", is outside the finished [%" PRIu64
                             ", %" PRIu64 "]", i + 1, n, ck->start, last);
        if (i > 0 && (n <= ck->records.v[i - 1].n || delay <= ck->records.v[i - 1].delay))
            CHECKPOINT_UNFIT(path, "record %zu (n = %" PRIu64 ", delay %u) does not follow record %zu "
                             "in n and delay", i + 1, n, delay, i);
        if (delay > max || collatz_plain_delay_of(n, &d) != 0 || d != delay)
            CHECKPOINT_UNFIT(path, "record %zu gives D(%" PRIu64 ") = %u; it is %u", i + 1, n, delay, d);
    }
}

void collatz_checkpoint_check(const char *path, const struct checkpoint *ck, uint64_t count)
{
    if (ck->done > count)
        cli_bad_input("--checkpoint %s has finished %" PRIu64 " starting values, more than the %" PRIu64
                      " of this range; give a later --end", path, ck->done, count);
    const bool delay = !strcmp(ck->command, "delay");
    const char *const *keys = delay ? delay_totals : conv_totals;
    for (size_t i = 0; i < ck->n_totals; i++) {
        size_t k = 0;
        while (keys[k] && strcmp(keys[k], ck->totals[i].key) != 0)
            k++;
        if (!keys[k])
            CHECKPOINT_UNFIT(path, "it holds a total '%s', which 'mpgpu %s' does not keep",
                             ck->totals[i].key, ck->command);
    }
    for (size_t k = 0; keys[k]; k++) {
        uint64_t v;
        if (checkpoint_get(ck, keys[k], &v) != 0)
            CHECKPOINT_UNFIT(path, "it lacks the total '%s'", keys[k]);
    }
    if (delay) {
        check_delay_fields(path, ck);
        return;
    }
    const uint64_t mandatory = checkpoint_total(ck, "mandatory"), steps = checkpoint_total(ck, "steps"),
                   overflows = checkpoint_total(ck, "overflows");
    if (mandatory > ck->done)
        CHECKPOINT_UNFIT(path, "mandatory %" PRIu64 " exceeds done %" PRIu64
                         " (iterated starting values are among the finished ones)", mandatory, ck->done);
    if (overflows > mandatory)
        CHECKPOINT_UNFIT(path, "overflows %" PRIu64 " exceed mandatory %" PRIu64, overflows, mandatory);
    /* Every iterated starting value takes at least one table operation. */
    if (steps < mandatory)
        CHECKPOINT_UNFIT(path, "steps %" PRIu64 " are fewer than mandatory %" PRIu64, steps, mandatory);
    if (ck->records.n)
        CHECKPOINT_UNFIT(path, "it holds %zu delay records, which 'mpgpu collatz' does not keep",
                         ck->records.n);
}

const char *collatz_checkpoint_option(const char *arg)
{
    if (!arg[0])
        cli_bad_input("--checkpoint '' is not accepted: it is empty; accepted: the path of a file (created when "
                      "absent) in a writable folder");
    path_claim("--checkpoint", arg, PATH_WRITE);
    return arg;
}

void collatz_checkpoint_keep(struct collatz_bench *cb, const struct checkpoint *ck)
{
    if (checkpoint_write(cb->checkpoint, ck) == 0)
        return;
    if (ck->done == cb->count) {
        snprintf(cb->save_failed, sizeof cb->save_failed, "%s", strerror(errno));
        return;
    }
    fprintf(stderr, "mpgpu: --checkpoint %s could not be saved: %s; the file keeps the last state "
                    "saved, if any\n", cb->checkpoint, strerror(errno));
    exit(EXIT_BAD_INPUT);
}

void collatz_report_interrupted(const char *command, uint64_t first, uint64_t done, const char *checkpoint)
{
    if (done == 0)
        fprintf(stderr, "mpgpu: %s interrupted before the first segment finished; nothing to keep\n", command);
    else
        fprintf(stderr, "mpgpu: %s interrupted; finished exactly [%" PRIu64 ", %" PRIu64 "] (%" PRIu64
                        " starting values)%s%s\n",
                command, first, first + (done - 1), done,
                checkpoint ? "; resume with the same command and --checkpoint " : "", checkpoint ? checkpoint : "");
}
