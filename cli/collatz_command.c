#include "collatz_command.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "collatz_convergence.h"
#include "gpu.h"
#include "mpi_ranks.h"

static int command_handle(int id, const char *arg, void *ctx)
{
    struct collatz_command *r = ctx;
    if (collatz_range_option(&r->range, id, arg))
        return 0;
    switch (id) {
    case OPT_COLLATZ_BC_BITS:
        r->bc_bits = (unsigned)cli_parse_u64("--bc-bits", arg, MPGPU_COLLATZ_BC_MIN_BITS, MPGPU_COLLATZ_BC_MAX_BITS);
        r->bc_bits_set = true;
        break;
    case OPT_COLLATZ_TABLE_MEMORY:
        r->memory = collatz_parse_table_memory(arg);
        break;
    case OPT_COLLATZ_INTERLEAVE:
        r->interleave = (unsigned)cli_parse_u64("--interleave", arg, 1, MPGPU_COLLATZ_MAX_INTERLEAVE);
        break;
    case OPT_COLLATZ_CHECKPOINT:
        r->checkpoint = collatz_checkpoint_option(arg);
        break;
    case OPT_COLLATZ_DEVICES:
        md_parse(&r->devices, arg);
        break;
    default:
        r->kind->option(r, id, arg);
        break;
    }
    return 0;
}

static void pass_free(struct collatz_pass *p)
{
    mpgpu_collatz_list_free(&p->overflows);
    mpgpu_collatz_pairs_free(&p->records);
    memset(p, 0, sizeof *p);
}

void collatz_command_chunk_begin(void *ctx, size_t worker)
{
    struct collatz_command *r = ctx;
    collatz_worker_begin(&r->cb, worker);
}

void collatz_command_merge(struct collatz_command *r, const mpgpu_collatz_list *overflows, double overflow_ms)
{
    r->cur.overflow_ms += overflow_ms;
    collatz_list_append(&r->cur.overflows, overflows->v, overflows->n);
}

const char *collatz_command_memory(const struct collatz_command *r, bool gpu)
{
    return !gpu ? "host" : r->memory == MPGPU_COLLATZ_TABLES_SHARED ? "shared" : "global";
}

void collatz_command_upload(struct collatz_command *r, mpgpu_status (*upload)(struct collatz_command *r, mpgpu_collatz *dev))
{
    for (size_t w = 0; w < r->cb.devices.n; w++) {
        GPU_CHECK(cudaSetDevice(r->cb.devices.ids[w]));
        mpgpu_status st = mpgpu_collatz_set_bc(r->cb.devs[w], &r->bc, r->kind->with_j);
        if (st == MPGPU_OK)
            st = upload(r, r->cb.devs[w]);
        if (st != MPGPU_OK)
            collatz_gpu_fail(st, "table upload");
    }
    GPU_CHECK(cudaSetDevice(r->cb.devices.ids[0]));
}

static bool same_as_ref(void *ctx)
{
    struct collatz_command *r = ctx;
    const struct collatz_pass *x = &r->ref, *y = &r->cur;
    return r->kind->same_totals(&x->t, &y->t) && x->overflows.n == y->overflows.n &&
           (x->overflows.n == 0 || !memcmp(x->overflows.v, y->overflows.v, x->overflows.n * sizeof *x->overflows.v)) &&
           collatz_pairs_equal(&x->records, &y->records);
}

static int run_setup(void *ctx, struct bench_case *c)
{
    struct collatz_command *r = ctx;
    collatz_case_begin(&r->cb, c);
    memset(&r->base, 0, sizeof r->base);
    if (r->cb.resumed)
        r->kind->load_base(r);
    return 0;
}

static int run_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    struct collatz_command *r = ctx;
    pass_free(&r->cur);
    r->cur.floor = r->floor;
    int rc = collatz_timed_pass(&r->cb, c, pass_index, warmup, r->kind->seg_bits(r), r->kind->chunk_ops, r, ms);
    if (rc != 0)
        return rc;
    collatz_list_sort(&r->cur.overflows);
    if (collatz_pass_end(&r->cb, pass_index, warmup, r->cur.overflow_ms, same_as_ref, r)) {
        r->ref = r->cur;
        memset(&r->cur, 0, sizeof r->cur);
    }
    return 0;
}

static void run_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    struct collatz_command *r = ctx;
    r->kind->describe(r, collatz_case_gpu(c), params, len);
}

static void run_summary(void *ctx, const struct bench_case *c, FILE *out)
{
    struct collatz_command *r = ctx;
    r->kind->summary(r, c, out);
}

static void run_teardown(void *ctx, struct bench_case *c)
{
    (void)c;
    struct collatz_command *r = ctx;
    pass_free(&r->ref);
    pass_free(&r->cur);
}

static const struct bench_ops command_ops = {
    .setup = run_setup,
    .pass = run_pass,
    .check_begin = collatz_check_begin,
    .reference = collatz_check_reference,
    .compare = collatz_check_compare,
    .name_element = collatz_check_name,
    .check_end = collatz_check_end,
    .describe = run_describe,
    .summary = run_summary,
    .teardown = run_teardown,
};

static void build_tables(void *ctx, bool gpu)
{
    struct collatz_command *r = ctx;
    r->kind->build_tables(r, gpu);
}

static int free_run(struct collatz_command *r, bool gpu, int status)
{
    if (gpu)
        collatz_devices_close(&r->cb);
    mpgpu_collatz_bc_free(&r->bc);
    r->kind->free_tables(r);
    checkpoint_free(&r->cb.ck);
    collatz_bench_free(&r->cb);
    return status;
}

int collatz_command_main(int argc, char **argv, const struct collatz_kind *kind, struct collatz_command *r)
{
    r->kind = kind;
    r->bc_bits = kind->default_bc_bits_gpu;
    r->memory = MPGPU_COLLATZ_TABLES_SHARED;
    r->interleave = 1;
    struct cli_spec spec = kind->spec;
    spec.command = kind->command;
    spec.handle = command_handle;
    spec.ctx = r;
    cli_parse(argc, argv, &spec, &r->cb.opt);
    const int parsed = kind->parsed(r, argc, argv);
    if (parsed >= 0)
        return parsed;
    if (r->range.start_set && cli_option_given(argc, argv, "seed"))
        cli_bad_input("--seed draws the start of the range; it does not apply with --start");
    const char *repeat = cli_repeat_option(&r->cb.opt);
    if (r->checkpoint && repeat)
        cli_bad_input("%s is not accepted with --checkpoint, whose run is one pass, the checkpoint following it",
                      repeat);
    /* The range's own errors before the GPU is sought: with a count of 1 where none is given,
     * since the default count waits for the method (resolved again below). */
    uint64_t first, count;
    collatz_resolve_range(&r->range, r->cb.opt.seed, 1, &first, &count);
    struct collatz_setup su;
    if (collatz_setup(argc, argv, kind->command, &r->cb, r->checkpoint, &r->devices, &su) != 0)
        return EXIT_GPU_ERROR;
    /* Rank 0 alone reads and writes the checkpoint, which may be on its host only. */
    if (!ranks_lead())
        r->checkpoint = NULL;
    struct collatz_methods m = su.m;
    r->cb.command = kind->command;
    r->cb.verify = su.verify;
    r->cb.cpu_threads = su.cpu_threads;
    r->cb.have_dev = su.have_dev;
    r->cb.checkpoint = r->checkpoint;
    r->cb.twin = kind->twin;
    if (!m.gpu && !r->bc_bits_set)
        r->bc_bits = kind->default_bc_bits_cpu;
    kind->configure(r, m.gpu);
    md_ranks_agree(r->params);
    if (r->checkpoint) {
        collatz_checkpoint_prepare(r->checkpoint);
        r->cb.resumed = collatz_checkpoint_load(r->checkpoint, kind->command, r->params, &r->range, &r->cb.ck);
    }
    collatz_resolve_range(&r->range, r->cb.opt.seed, m.gpu ? kind->default_count_gpu : kind->default_count_cpu,
                          &r->cb.first, &r->cb.count);
    if (r->cb.resumed) {
        collatz_checkpoint_check(r->checkpoint, &r->cb.ck, r->cb.count);
        r->cb.done_before = r->cb.ck.done;
    } else if (r->checkpoint) {
        collatz_checkpoint_begin(&r->cb.ck, kind->command, r->params, r->cb.first);
    }
    if (kind->resolved)
        kind->resolved(r);
    if (m.gpu)
        collatz_devices_open(&r->cb, kind->list_cap, kind->cand_cap, r->memory, r->bc_bits, kind->with_j);
    return free_run(r, m.gpu, collatz_run(&r->cb, &m, build_tables, &command_ops, kind->chunk_ops, r));
}
