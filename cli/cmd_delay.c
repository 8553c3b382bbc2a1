/* mpgpu delay: the delays D(n) of a range of 64-bit numbers on the GPU (000 Algorithm 6, section
 * 4.4.4), their sum, maximum and delay records, and the CPU twin. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "collatz_command.h"
#include "collatz_delay.h"
#include "commands.h"
#include "hostmem.h"
#include "interrupt.h"
#include "progress.h"
#include "timing.h"

enum { OPT_A_BITS = OPT_COLLATZ_FIRST_OWN, OPT_RECORDS, OPT_RECORD_FLOOR };

/* Defaults: on the GPU the fastest settings measured on an H200 (docs/000-collatz.md):
 * B, C and J of 12 bits in shared memory, A of 20 bits; for the CPU twin alone the paper's CPU
 * optimum (000 section 4.5.2: 11 and 23 bits). */
#define DEFAULT_GPU_BC_BITS 12u
#define DEFAULT_GPU_A_BITS 20u
#define DEFAULT_CPU_BC_BITS 11u
#define DEFAULT_CPU_A_BITS 23u
#define DEFAULT_GPU_COUNT (UINT64_C(1) << 34)
#define DEFAULT_CPU_COUNT (UINT64_C(1) << 24)
/* Segments (progress, Ctrl-C, checkpoints, record floors, and the check of the timed pass, which
 * recomputes whole segments on the CPU twin, issue 36): about a second of work. Segments of 2^26
 * made a pass 26 % slower on an H100 (docs/000-collatz.md). */
#define GPU_SEGMENT_BITS 34u
#define CPU_SEGMENT_BITS 24u
#define OVERFLOW_CAP (1u << 20)
/* Record candidates one launch reports; more make it redo the launch on halves (each launch that
 * overflows is wasted). 2^22 (48 MiB on the GPU) holds a 2^20 prefix with floor -1 whole, and
 * the candidates of the rest of a segment above that prefix's largest delay: with 2^16 the
 * records cost 1.5 s more (below). */
#define CANDIDATE_CAP (1u << 22)
/* With --records, a segment computes its first 2^20 numbers apart, then the rest with their
 * largest delay as the floor when that is higher than the one it was handed (it bounds the true
 * floor from below). Handed floor -1 (relative records: the first segment, and any handed out
 * before it merged), a whole segment is candidates: the launch overflows CANDIDATE_CAP and is
 * redone on halves, down to CANDIDATE_CAP numbers. On an H200, 2^37 numbers from the seed's
 * start took 18.8 s with --records against 9.6 s without; with this prefix and a cap of 2^16,
 * 11.1 s (d10d1cb); with a cap of 2^22, 9.8 s, and 8.7 s as two workers on the GPU
 * (results/delay_records_start.csv). Pieces growing from 2^20 by 4x, each above the largest delay
 * before it, measured slower with the 2^16 cap: 12.3 s (7f91adf). */
#define FLOOR_PREFIX_BITS 20u
/* --verify sample: the CPU twin redoes the chunks of at least 2^24 numbers, the fresh pass it
 * redid before issue 36; but at least one chunk of each worker. */
#define VERIFY_SAMPLE_BITS 24u
/* Numbers that measure the CPU twin's rate before a long check. */
#define CHECK_PROBE (UINT64_C(1) << 18)

/* The command's state: the skeleton's, then its own options and table A. */
struct delay_run {
    struct collatz_command r;
    unsigned a_bits;
    bool a_bits_set;
    bool records;
    bool floor_set;
    int64_t record_floor; /* --record-floor */
    uint16_t *table_a;
};

static void delay_option(struct collatz_command *cr, int id, const char *arg)
{
    struct delay_run *r = (struct delay_run *)cr;
    switch (id) {
    case OPT_A_BITS:
        r->a_bits = (unsigned)cli_parse_u64("--a-bits", arg, MPGPU_COLLATZ_A_MIN_BITS, MPGPU_COLLATZ_A_MAX_BITS);
        r->a_bits_set = true;
        break;
    case OPT_RECORDS:
        r->records = true;
        break;
    case OPT_RECORD_FLOOR:
        r->record_floor = (int64_t)cli_parse_u64("--record-floor", arg, 0, UINT32_MAX - 1);
        r->floor_set = true;
        break;
    }
}

static const struct cli_option delay_options[] = {
    {"start", "N", OPT_COLLATZ_START, "first number (default: from --seed, 2^40-aligned in [2^62, 2^63), as the paper's random M)"},
    {"count", "N", OPT_COLLATZ_COUNT, "numbers (default 2^34; 2^24 with --method cpu)"},
    {"end", "N", OPT_COLLATZ_END, "end of the range, exclusive, up to 2^64 (instead of --count)"},
    {"bc-bits", "D", OPT_COLLATZ_BC_BITS, "base bits of tables B, C and J, 1..20 (default 12; 11 with --method cpu)"},
    {"a-bits", "A", OPT_A_BITS, "table A holds the delays of all n < 2^A, A in D+1..32 (default 20; 23 with --method cpu)"},
    {"table-memory", "shared|global", OPT_COLLATZ_TABLE_MEMORY, "where B, C and J live on the GPU (default shared; it needs 2^D * 9 bytes per block)"},
    {"interleave", "I", OPT_COLLATZ_INTERLEAVE, "numbers each GPU thread keeps in flight, 1..2 (default 1; 2 gained nothing on an H200)"},
    {"records", NULL, OPT_RECORDS, "report the delay records of the range: n whose delay exceeds that of every smaller n"},
    {"record-floor", "D", OPT_RECORD_FLOOR, "the largest delay below --start, so that records of a later range are true records (default: 0 below 1, else relative to the range)"},
    {"checkpoint", "FILE", OPT_COLLATZ_CHECKPOINT, "resume from FILE if it exists (also with a later --end: the record search goes on), and keep it up to date; one pass (--reps above 1, --warmup above 0, --min-time and --max-noise are refused)"},
    {"devices", "all|LIST", OPT_COLLATZ_DEVICES, MD_DEVICES_HELP "; the range is handed out in segments, so a slower GPU takes fewer, and the totals, overflows and records are those of one GPU. Under mpirun -np N (an MPI build), each rank runs on its own --devices and rank 0 merges, prints and writes"},
    {0},
};

/* A segment's result between its worker and the in-order merge (issue 14). floor is the
 * running maximum when the segment was handed out: with several GPUs it may lag the true one,
 * which only lets more candidates through; the merge extracts the records against the true one,
 * so they are exact. worker (among all ranks') computed it, for the check. */
struct delay_chunk {
    int64_t floor;
    mpgpu_collatz_delay_totals t;
    mpgpu_collatz_pairs cand;
    mpgpu_collatz_list ov;
    double overflow_ms;
    uint32_t worker;
};

/* [first, last] on a GPU's device state (the CPU twin on `threads` threads when dev is NULL),
 * added to k: totals, overflows, and with --records the candidates above floor. Returns 0, or -1
 * when the CPU twin is short of host memory. */
static int delay_part(const struct delay_run *r, mpgpu_collatz *dev, uint64_t first, uint64_t last,
                      int64_t floor, int threads, struct delay_chunk *k)
{
    mpgpu_collatz_pairs *want = r->records ? &k->cand : NULL;
    if (!dev)
        return collatz_delay_cpu(&r->r.bc, r->table_a, r->a_bits, first, last, floor, threads, &k->t, want, &k->ov);
    mpgpu_status st = mpgpu_collatz_delay(dev, r->r.memory, r->r.interleave, first, last, floor, &k->t, want, &k->ov);
    if (st != MPGPU_OK)
        collatz_gpu_fail(st, "delay kernel");
    return 0;
}

/* [first, last] on the CPU twin in parts of a CPU segment, the floor raised to the largest delay
 * so far after each (so the candidates stay few; the records are taken from them against the
 * true running maximum anyway), with Ctrl-C heard between parts: a GPU chunk (2^34 numbers)
 * takes the twin a minute or more. Returns 0, -1 as delay_part, or -2 when stopped. */
static int delay_twin_parts(const struct delay_run *r, uint64_t first, uint64_t last, int64_t floor,
                            int threads, struct delay_chunk *k)
{
    for (uint64_t from = first;;) {
        const uint64_t part_last = from | ((UINT64_C(1) << CPU_SEGMENT_BITS) - 1);
        const uint64_t to = part_last < last ? part_last : last;
        if (delay_part(r, NULL, from, to, floor, threads, k) != 0)
            return -1;
        if (to == last)
            return 0;
        if (interrupt_requested())
            return -2;
        if (k->t.numbers && (int64_t)k->t.max > floor)
            floor = k->t.max;
        from = to + 1;
    }
}

/* One segment, with its overflows resolved by plain iteration and its record candidates above
 * k->floor (and with --records its first 2^FLOOR_PREFIX_BITS numbers apart). Returns 0, or -1
 * as delay_part, or -2 when Ctrl-C stopped the CPU twin part-way. */
static int delay_compute(const struct delay_run *r, mpgpu_collatz *dev, uint64_t first, uint64_t last,
                         int threads, struct delay_chunk *k)
{
    mpgpu_collatz_pairs *want = r->records ? &k->cand : NULL;
    int64_t floor = k->floor;
    if (want && last - first >= (UINT64_C(1) << FLOOR_PREFIX_BITS)) {
        const uint64_t prefix_last = first + ((UINT64_C(1) << FLOOR_PREFIX_BITS) - 1);
        if (delay_part(r, dev, first, prefix_last, floor, threads, k) != 0)
            return -1;
        if (k->t.numbers && (int64_t)k->t.max > floor)
            floor = k->t.max;
        first = prefix_last + 1;
    }
    const int rc = dev ? delay_part(r, dev, first, last, floor, threads, k)
                       : delay_twin_parts(r, first, last, floor, threads, k);
    if (rc != 0)
        return rc;
    const double o0 = time_now_ms();
    uint64_t runaway = 0;
    if (mpgpu_collatz_settle_delay(&k->ov, k->floor, 0, &k->t, want, &runaway) != MPGPU_OK)
        return -1;
    if (runaway) {
        fprintf(stderr, "mpgpu: delay: %" PRIu64 " did not reach 1 within %llu operations at any length\n",
                runaway, (unsigned long long)MPGPU_COLLATZ_SETTLE_MAX_OPS);
        exit(EXIT_MISMATCH);
    }
    k->overflow_ms = time_now_ms() - o0;
    return 0;
}

/* What the check keeps of a chunk (collatz_chunks.h): the floor it was handed (the twin's input),
 * its totals, its overflowed numbers as a count and a hash, and the records among its candidates
 * above that floor, as a count and a hash: what the merge takes from it, the same whichever
 * candidates beyond them a launch listed (a launch redone on halves lists fewer). */
struct delay_result {
    int64_t floor;
    mpgpu_collatz_delay_totals t;
    uint64_t overflows_listed, overflows_hash;
    uint64_t records, records_hash;
};

/* k's result; its candidates sorted by n. */
static void delay_result_of(const struct delay_chunk *k, struct delay_result *out)
{
    *out = (struct delay_result){.floor = k->floor, .t = k->t, .overflows_listed = k->ov.n,
                                 .overflows_hash = collatz_chunks_hash(k->ov.v, k->ov.n)};
    int64_t floor = k->floor;
    for (size_t i = 0; i < k->cand.n; i++)
        if ((int64_t)k->cand.v[i].delay > floor) {
            floor = k->cand.v[i].delay;
            out->records++;
            out->records_hash += collatz_chunks_pair_hash(k->cand.v[i].n, k->cand.v[i].delay);
        }
}

static int twin_compute(const void *ctx, const void *recorded, uint64_t first, uint64_t last, void *out)
{
    struct delay_chunk k = {.floor = ((const struct delay_result *)recorded)->floor};
    const int rc = delay_compute(ctx, NULL, first, last, 0, &k);
    collatz_pairs_sort(&k.cand);
    delay_result_of(&k, out);
    mpgpu_collatz_pairs_free(&k.cand);
    mpgpu_collatz_list_free(&k.ov);
    return rc;
}

static bool twin_same(const void *recorded, const void *twin)
{
    const struct delay_result *x = recorded, *y = twin;
    return x->t.numbers == y->t.numbers && x->t.sum == y->t.sum && x->t.max == y->t.max &&
           x->t.argmax == y->t.argmax && x->t.overflows == y->t.overflows &&
           x->overflows_listed == y->overflows_listed && x->overflows_hash == y->overflows_hash &&
           x->records == y->records && x->records_hash == y->records_hash;
}

static void twin_describe(const void *result, char *out, size_t len)
{
    const struct delay_result *x = result;
    snprintf(out, len, "sum %" PRIu64 " of %" PRIu64 " delays, largest %u at %" PRIu64 ", %" PRIu64 " overflows (%"
             PRIu64 " listed, hash %016" PRIx64 "), %" PRIu64 " records (hash %016" PRIx64 ")", x->t.sum,
             x->t.numbers, x->t.max, x->t.argmax, x->t.overflows, x->overflows_listed, x->overflows_hash, x->records,
             x->records_hash);
}

static const struct collatz_twin delay_twin_check = {
    .result_size = sizeof(struct delay_result),
    .compute = twin_compute,
    .same = twin_same,
    .describe = twin_describe,
    .probe = CHECK_PROBE,
};

/* The floor a segment is handed out with: the running maximum of the segments merged so far. */
static int64_t chunk_take(void *ctx)
{
    struct collatz_command *r = ctx;
    return r->cur.floor;
}

static void chunk_run(void *ctx, size_t worker, uint64_t first, uint64_t last, int64_t floor, void *slot)
{
    struct delay_run *r = ctx;
    struct delay_chunk *k = slot;
    k->floor = floor;
    k->worker = collatz_worker_id(&r->r.cb, worker);
    if (delay_compute(r, r->r.cb.gpu ? r->r.cb.devs[worker] : NULL, first, last, r->r.cb.cpu_threads, k) != 0)
        cli_bad_input("delay: out of host memory for the overflow and candidate lists");
}

/* A segment's result as bytes, between MPI ranks. */
static void *chunk_pack(void *ctx, void *slot, size_t *len)
{
    (void)ctx;
    struct delay_chunk *k = slot;
    struct md_writer w = {0};
    md_put(&w, &k->floor, sizeof k->floor);
    md_put(&w, &k->t, sizeof k->t);
    md_put(&w, &k->overflow_ms, sizeof k->overflow_ms);
    md_put(&w, &k->worker, sizeof k->worker);
    md_put_array(&w, k->cand.v, k->cand.n, sizeof *k->cand.v);
    md_put_array(&w, k->ov.v, k->ov.n, sizeof *k->ov.v);
    mpgpu_collatz_pairs_free(&k->cand);
    mpgpu_collatz_list_free(&k->ov);
    return md_writer_bytes(&w, len);
}

static int chunk_unpack(void *ctx, const void *bytes, size_t len, void *slot)
{
    struct collatz_command *r = ctx;
    struct delay_chunk *k = slot;
    struct md_reader rd = {bytes, len, false};
    md_get(&rd, &k->floor, sizeof k->floor);
    md_get(&rd, &k->t, sizeof k->t);
    md_get(&rd, &k->overflow_ms, sizeof k->overflow_ms);
    md_get(&rd, &k->worker, sizeof k->worker);
    md_get_array(&rd, (void **)&k->cand.v, &k->cand.n, sizeof *k->cand.v);
    md_get_array(&rd, (void **)&k->ov.v, &k->ov.n, sizeof *k->ov.v);
    k->cand.cap = k->cand.n;
    k->ov.cap = k->ov.n;
    return rd.failed || rd.left || !collatz_worker_known(&r->cb, k->worker) ? -1 : 0;
}

/* Merges a segment in range order (its records extracted against the true floor, which it
 * raises to its running maximum), records it for the check, then saves the checkpoint: its
 * finished prefix, totals and records are exact whatever order the GPUs finished their segments
 * in. */
static void chunk_commit(void *ctx, uint64_t first, uint64_t last, uint64_t done_after, void *slot)
{
    struct delay_run *r = ctx;
    struct collatz_pass *p = &r->r.cur;
    struct delay_chunk *k = slot;
    if (collatz_chunk_spoiled(&r->r.cb, k->worker))
        k->t.sum++;
    if (r->records)
        mpgpu_collatz_records(&k->cand, &p->floor, &p->records);
    collatz_delay_add(&p->t.delay, &k->t);
    collatz_command_merge(&r->r, &k->ov, k->overflow_ms);
    struct delay_result result;
    delay_result_of(k, &result);
    mpgpu_collatz_pairs_free(&k->cand);
    mpgpu_collatz_list_free(&k->ov);
    collatz_chunk_record(&r->r.cb, first, last, k->worker, &result);
    if (!r->r.cb.checkpoint)
        return;
    struct checkpoint c = r->r.cb.ck;
    mpgpu_collatz_delay_totals t = r->r.base.delay;
    collatz_delay_add(&t, &p->t.delay);
    c.done = r->r.cb.done_before + done_after;
    checkpoint_set(&c, "numbers", t.numbers);
    checkpoint_set(&c, "sum", t.sum);
    checkpoint_set(&c, "max", t.max);
    checkpoint_set(&c, "argmax", t.argmax);
    checkpoint_set(&c, "overflows", t.overflows);
    checkpoint_set(&c, "floor_plus_one", (uint64_t)(p->floor + 1));
    mpgpu_collatz_pairs all = {0};
    for (size_t i = 0; i < r->r.cb.ck.records.n; i++)
        mpgpu_collatz_pairs_push(&all, r->r.cb.ck.records.v[i].n, r->r.cb.ck.records.v[i].delay);
    for (size_t i = 0; i < p->records.n; i++)
        mpgpu_collatz_pairs_push(&all, p->records.v[i].n, p->records.v[i].delay);
    c.records = all;
    collatz_checkpoint_keep(&r->r.cb, &c);
    mpgpu_collatz_pairs_free(&all);
}

static const struct md_chunk_ops delay_chunk_ops = {
    .slot_size = sizeof(struct delay_chunk),
    .begin = collatz_command_chunk_begin,
    .take = chunk_take,
    .run = chunk_run,
    .commit = chunk_commit,
    .pack = chunk_pack,
    .unpack = chunk_unpack,
};

static void delay_describe(struct collatz_command *cr, bool gpu, char *params, size_t len)
{
    const struct delay_run *r = (const struct delay_run *)cr;
    const mpgpu_collatz_delay_totals *t = &cr->ref.t.delay;
    char devices[400];
    collatz_devices_format(&cr->cb, devices, sizeof devices);
    snprintf(params, len,
             "start=%" PRIu64 ";bc_bits=%u;a_bits=%u;memory=%s;interleave=%u;sum=%" PRIu64 ";max=%u;argmax=%" PRIu64
             ";overflows=%" PRIu64 ";overflow_ms=%.3f;records=%zu;devices=%s",
             cr->cb.first + cr->cb.done_before, cr->bc_bits, r->a_bits, collatz_command_memory(cr, gpu),
             gpu ? cr->interleave : 1, t->sum, t->max, t->argmax, t->overflows, collatz_overflow_ms_per_pass(&cr->cb),
             cr->ref.records.n, devices);
}

static void delay_summary(struct collatz_command *cr, const struct bench_case *c, FILE *out)
{
    const struct delay_run *r = (const struct delay_run *)cr;
    mpgpu_collatz_delay_totals total = cr->base.delay;
    collatz_delay_add(&total, &cr->ref.t.delay);
    const uint64_t last = cr->cb.first + (cr->cb.count - 1);
    fprintf(out, "# %s: delays of [%" PRIu64 ", %" PRIu64 "]: %" PRIu64 " numbers, sum %" PRIu64
                 ", largest %u at n = %" PRIu64 "%s\n",
            c->method, cr->cb.first, last, total.numbers, total.sum, total.max, total.argmax,
            cr->cb.resumed ? " (resumed from --checkpoint)" : "");
    fprintf(out, "#   %" PRIu64 " overflowed 96 bits and were resolved by plain iteration with GMP in %.3f ms per pass\n",
            total.overflows, collatz_overflow_ms_per_pass(&cr->cb));
    collatz_report_devices(&cr->cb, out);
    collatz_report_checked(&cr->cb, out);
    if (!r->records)
        return;
    for (size_t i = 0; cr->cb.resumed && i < cr->cb.ck.records.n; i++)
        fprintf(out, "# record: n = %" PRIu64 ", D(n) = %u (before this run)\n", cr->cb.ck.records.v[i].n,
                cr->cb.ck.records.v[i].delay);
    for (size_t i = 0; i < cr->ref.records.n; i++)
        fprintf(out, "# record: n = %" PRIu64 ", D(n) = %u\n", cr->ref.records.v[i].n, cr->ref.records.v[i].delay);
    fprintf(out, "#   running maximum after %" PRIu64 ": %" PRId64 " (pass --record-floor %" PRId64
                 " to continue from %" PRIu64 ")\n", last, cr->ref.floor, cr->ref.floor, last + 1);
}

static mpgpu_status upload_a(struct collatz_command *cr, mpgpu_collatz *dev)
{
    const struct delay_run *r = (const struct delay_run *)cr;
    return mpgpu_collatz_set_a(dev, r->table_a, r->a_bits);
}

static void delay_build_tables(struct collatz_command *cr, bool gpu)
{
    struct delay_run *r = (struct delay_run *)cr;
    char what[128];
    snprintf(what, sizeof what, "--a-bits %u: table A (2^%u delays)", r->a_bits, r->a_bits);
    uint64_t a_bytes = 0;
    size_t bcj_bytes = 0;
    mpgpu_collatz_a_bytes(r->a_bits, &a_bytes);
    mpgpu_collatz_bc_bytes(cr->bc_bits, 1, &bcj_bytes);
    uint64_t need = a_bytes + bcj_bytes;
    hostmem_require(need, what);
    if (gpu) {
        char with[160];
        snprintf(with, sizeof with, "%s with B, C and J", what);
        collatz_devices_check_memory(&cr->cb, need, with);
    }
    const double t0 = time_now_ms();
    /* Its time is said once the build's first second measures its rate (a build of 2^20 entries
     * timed apart and scaled up said 2 times too little in one run, 6 times too much in another). */
    struct progress_phase ph;
    progress_phase_begin(&ph, cr->cb.opt.quiet, "entries", 1, "delay: building table A of 2^%u delays",
                         r->a_bits);
    const mpgpu_status st = mpgpu_collatz_a_build(&r->table_a, r->a_bits, 0, progress_phase_call, &ph);
    progress_phase_end(&ph);
    /* Stopped: the run stops before its first pass (bench_run), with exit 130. */
    if (st == MPGPU_ERR_CANCELLED)
        return;
    if (st != MPGPU_OK || mpgpu_collatz_bc_build(&cr->bc, cr->bc_bits) != MPGPU_OK)
        cli_bad_input("%s: out of host memory while building", what);
    if (gpu)
        collatz_command_upload(cr, upload_a);
    if (!cr->cb.opt.quiet)
        fprintf(stderr, "mpgpu: tables B, C, J (%u bits) and A (%u bits) ready in %.2f s\n", cr->bc_bits,
                r->a_bits, (time_now_ms() - t0) * 1e-3);
}

static void delay_free_tables(struct collatz_command *cr)
{
    mpgpu_collatz_a_free(((struct delay_run *)cr)->table_a);
}

static bool delay_same_totals(const union collatz_totals *x, const union collatz_totals *y)
{
    return x->delay.numbers == y->delay.numbers && x->delay.sum == y->delay.sum && x->delay.max == y->delay.max &&
           x->delay.argmax == y->delay.argmax && x->delay.overflows == y->delay.overflows;
}

static void delay_load_base(struct collatz_command *cr)
{
    uint64_t v = 0;
    checkpoint_get(&cr->cb.ck, "numbers", &cr->base.delay.numbers);
    checkpoint_get(&cr->cb.ck, "sum", &cr->base.delay.sum);
    checkpoint_get(&cr->cb.ck, "max", &v);
    cr->base.delay.max = (uint32_t)v;
    checkpoint_get(&cr->cb.ck, "argmax", &cr->base.delay.argmax);
    checkpoint_get(&cr->cb.ck, "overflows", &cr->base.delay.overflows);
}

static unsigned delay_seg_bits(const struct collatz_command *cr)
{
    return cr->cb.gpu ? GPU_SEGMENT_BITS : CPU_SEGMENT_BITS;
}

/* --a-bits must exceed --bc-bits: checked as soon as both are given, or --bc-bits and a gpu
 * method that must run (named, or --devices), before the GPU is sought; and again with the
 * defaults of the method that runs. */
static void check_a_bits(const struct delay_run *r, const char *a_default_of)
{
    if (r->a_bits <= r->r.bc_bits && r->a_bits_set)
        cli_bad_input("--a-bits %u must exceed --bc-bits %u: a table operation from a value >= 2^A must "
                      "not pass through 1 (000 Algorithm 6); accepted: --a-bits %u..%u",
                      r->a_bits, r->r.bc_bits, r->r.bc_bits + 1, MPGPU_COLLATZ_A_MAX_BITS);
    if (r->a_bits <= r->r.bc_bits)
        cli_bad_input("--bc-bits %u is not below --a-bits, whose default for the %s method is %u: a table "
                      "operation from a value >= 2^A must not pass through 1 (000 Algorithm 6); accepted: "
                      "--bc-bits below %u, or --a-bits %u..%u", r->r.bc_bits, a_default_of, r->a_bits,
                      r->a_bits, r->r.bc_bits + 1, MPGPU_COLLATZ_A_MAX_BITS);
}

static int delay_parsed(struct collatz_command *cr, int argc, char **argv)
{
    const struct delay_run *r = (const struct delay_run *)cr;
    if (r->floor_set && !r->records)
        cli_bad_input("--record-floor applies to --records, which this run does not keep; give "
                      "--records too, or drop it");
    struct collatz_methods m;
    collatz_parse_methods(&cr->cb.opt, "delay", &m);
    const bool gpu_must_run = (m.explicit_ && m.gpu) || cli_option_given(argc, argv, "devices");
    if (cr->bc_bits_set && (r->a_bits_set || gpu_must_run))
        check_a_bits(r, "gpu");
    return -1;
}

static void delay_configure(struct collatz_command *cr, bool gpu)
{
    struct delay_run *r = (struct delay_run *)cr;
    cr->cb.check_budget = UINT64_C(1) << VERIFY_SAMPLE_BITS;
    if (!gpu && !r->a_bits_set)
        r->a_bits = DEFAULT_CPU_A_BITS;
    check_a_bits(r, gpu ? "gpu" : "cpu");
    snprintf(cr->params, sizeof cr->params, "bc_bits=%u;records=%s", cr->bc_bits, r->records ? "on" : "off");
}

static void delay_resolved(struct collatz_command *cr)
{
    const struct delay_run *r = (const struct delay_run *)cr;
    cr->floor = r->floor_set ? r->record_floor : -1;
    if (cr->cb.resumed) {
        uint64_t fp1 = 0;
        if (checkpoint_get(&cr->cb.ck, "floor_plus_one", &fp1) != 0)
            cli_bad_input("--checkpoint %s lacks its record floor; remove it to start afresh", cr->checkpoint);
        if (r->floor_set)
            cli_bad_input("--record-floor and a resumed --checkpoint both give the record floor; give one");
        cr->floor = (int64_t)fp1 - 1;
    }
    if (r->records && !r->floor_set && !cr->cb.resumed && cr->cb.first > 1 && !cr->cb.opt.quiet)
        fprintf(stderr, "mpgpu: note: records are relative to the range, as no --record-floor gives the "
                        "largest delay below %" PRIu64 "\n", cr->cb.first);
}

static const struct collatz_kind delay_kind = {
    .command = "delay",
    .spec = {
        .usage = "mpgpu delay [--start N] [--count N | --end N] [--records] [options]",
        .description =
            "Computes the delay D(n) (odd plus even operations until 1) of every n in the range\n"
            "(000 Algorithm 6): table operations n <- B[n_L] * n_H + C[n_L] adding J[n_L] on 96-bit\n"
            "values in registers until n < 2^A, then A[n]. A value that passes 2^96 is resolved on\n"
            "the host by plain iteration with GMP at any length. Reports numbers per second, the\n"
            "sum of all delays (a checksum), the largest delay, overflows and their time, and with\n"
            "--records the delay records. --method cpu runs the CPU twin with the same tables.",
        .common = OPT_METHOD | OPT_REPS | OPT_WARMUP | OPT_SEED | OPT_DEVICE | OPT_THREADS | OPT_CSV |
                  OPT_VERIFY | OPT_QUIET,
        .options = delay_options,
        .verify_default = VERIFY_SAMPLE,
        .verify_help =
            "check the timed pass itself, chunk by chunk (the part of the range one GPU took at a "
            "time: 2^34 numbers), against the CPU twin with the same tables, since GMP has no "
            "Collatz counterpart: each chunk's count, sum, largest delay and its n, overflowed "
            "numbers and records. all: every chunk; sample: chunks spread over the pass, at least "
            "one of each GPU and MPI rank and at least 2^24 numbers' worth; none. A gpu row is "
            "checked; a cpu row is the reference, except for the chunks of MPI ranks other than 0",
        .methods_help = "  gpu    the GPU kernel (default; where there is no GPU and no method,\n"
                        "         --devices, --interleave or --table-memory was given, the CPU\n"
                        "         twin instead, saying so)\n"
                        "  cpu    the CPU twin, on --threads threads (default 1, as the paper)\n"
                        "  all    both, compared\n",
        .examples = "  mpgpu delay --start 2^62 --count 2^34\n"
                    "  mpgpu delay --start 1 --end 2^34 --records\n"
                    "  mpgpu delay --start 1 --end 2^40 --records --checkpoint rec.ckpt\n"
                    "  mpgpu delay --start 1 --end 2^40 --records --devices all\n"
                    "  mpgpu delay --bc-bits 11 --a-bits 23 --method cpu --threads 0\n",
    },
    /* The run: its default range, caps and tables, and its check. */
    .default_count_gpu = DEFAULT_GPU_COUNT, .default_count_cpu = DEFAULT_CPU_COUNT,
    .default_bc_bits_gpu = DEFAULT_GPU_BC_BITS, .default_bc_bits_cpu = DEFAULT_CPU_BC_BITS, .list_cap = OVERFLOW_CAP, .cand_cap = CANDIDATE_CAP, .with_j = true,
    .twin = &delay_twin_check, .chunk_ops = &delay_chunk_ops,
    /* What differs, in the order the skeleton calls it. */
    .option = delay_option, .parsed = delay_parsed, .configure = delay_configure, .resolved = delay_resolved,
    .build_tables = delay_build_tables, .free_tables = delay_free_tables, .load_base = delay_load_base,
    .seg_bits = delay_seg_bits, .same_totals = delay_same_totals, .describe = delay_describe,
    .summary = delay_summary,
};

int cmd_delay(int argc, char **argv)
{
    struct delay_run r = {.a_bits = DEFAULT_GPU_A_BITS};
    return collatz_command_main(argc, argv, &delay_kind, &r.r);
}
