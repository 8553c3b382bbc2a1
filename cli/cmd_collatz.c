/* mpgpu collatz: exhaustive verification of the convergence of the Collatz conjecture for a range
 * of 64-bit starting values on the GPU (000 Algorithm 5, section 4.4), its CPU twin, and the
 * tables of 000 section 4.3 as our generator computes them (--tables). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "collatz_command.h"
#include "collatz_convergence.h"
#include "commands.h"
#include "hostmem.h"
#include "interrupt.h"
#include "progress.h"
#include "timing.h"

enum { OPT_S_BITS = OPT_COLLATZ_FIRST_OWN, OPT_FIRST_STEP, OPT_TABLES };

/* Defaults: on the GPU the fastest settings measured on an H200 (docs/000-collatz.md):
 * S of 37 bits as the paper (larger S leaves fewer values to iterate), B and C of 12 bits in
 * shared memory (global memory made the kernel L2-bound); for the CPU twin alone the paper's
 * CPU setting (S of 32 bits, 000 Table 4.4; B and C of 12 bits; the published first step, as a
 * range of 2^32 holds one value per S entry, too few to share a jump). */
#define DEFAULT_BC_BITS 12u
#define DEFAULT_GPU_S_BITS 37u
#define DEFAULT_CPU_S_BITS 32u
#define DEFAULT_GPU_COUNT (UINT64_C(1) << 40)
#define DEFAULT_CPU_COUNT (UINT64_C(1) << 32)
/* Segments: the unit of progress, Ctrl-C, checkpoints and of the check of the timed pass, which
 * recomputes whole segments on the CPU twin (issue 36); about a second of work, and whole
 * multiples of 2^k so that each S entry gets full runs (and no S scan is needed to count).
 * Segments of 2^37, which would make the check of a sample cheap, made a pass 19.6x slower on
 * an H100 (docs/000-collatz.md). */
#define GPU_SEGMENT_BITS 44u
#define CPU_SEGMENT_BITS 32u
/* Overflowed starting values one launch can report (000 section 4.5.1 met 22932 in 2^50). */
#define OVERFLOW_CAP (1u << 20)
/* --verify sample: the CPU twin redoes the chunks of at least 2^33 starting values (or one
 * m_H), the fresh pass it redid before issue 36; but at least one chunk of each worker. */
#define VERIFY_SAMPLE_BITS 33u
/* Starting values that measure the CPU twin's rate before a long check. */
#define CHECK_PROBE (UINT64_C(1) << 26)

/* The command's state: the skeleton's, then its own options and table S. */
struct collatz_run {
    struct collatz_command r;
    unsigned s_bits;
    bool s_bits_set, first_step_set;
    mpgpu_collatz_first_step first_step;
    bool tables;
    mpgpu_collatz_s_table s;
};

static void collatz_option(struct collatz_command *r, int id, const char *arg)
{
    struct collatz_run *c = (struct collatz_run *)r;
    switch (id) {
    case OPT_S_BITS:
        c->s_bits = (unsigned)cli_parse_u64("--s-bits", arg, 0, MPGPU_COLLATZ_S_MAX_BITS);
        c->s_bits_set = true;
        break;
    case OPT_FIRST_STEP:
        if (!strcmp(arg, "jump"))
            c->first_step = MPGPU_COLLATZ_FIRST_JUMP;
        else if (!strcmp(arg, "table"))
            c->first_step = MPGPU_COLLATZ_FIRST_TABLE;
        else
            cli_bad_input("--first-step '%s' is not a first step; accepted: jump, table", arg);
        c->first_step_set = true;
        break;
    case OPT_TABLES:
        c->tables = true;
        break;
    }
}

static const struct cli_option collatz_options[] = {
    {"start", "N", OPT_COLLATZ_START, "first starting value (default: from --seed, 2^40-aligned in [2^62, 2^63), as the paper's random M)"},
    {"count", "N", OPT_COLLATZ_COUNT, "starting values to verify, all counted as the paper counts, skipped ones included (default 2^40; 2^32 with --method cpu)"},
    {"end", "N", OPT_COLLATZ_END, "end of the range, exclusive, up to 2^64 (instead of --count)"},
    {"bc-bits", "D", OPT_COLLATZ_BC_BITS, "base bits of tables B and C, 1..20 (default 12)"},
    {"s-bits", "K", OPT_S_BITS, "base bits of table S, 0..40 (default 37 as the paper: 7.7 GB on the host, 23 GB on the GPU while loading; 32 with --method cpu)"},
    {"table-memory", "shared|global", OPT_COLLATZ_TABLE_MEMORY, "where B and C live on the GPU (default shared; it needs 2^D * 8 bytes per block)"},
    {"first-step", "jump|table", OPT_FIRST_STEP, "jump: the operations over the S bits are done once per S entry and shared by a thread's 256 values (default); table: Algorithm 5 as published (default with --method cpu)"},
    {"interleave", "I", OPT_COLLATZ_INTERLEAVE, "starting values each GPU thread keeps in flight, 1..2 (default 1; 2 gained nothing on an H200)"},
    {"checkpoint", "FILE", OPT_COLLATZ_CHECKPOINT, "resume from FILE if it exists, and keep it up to date; one pass (--reps above 1, --warmup above 0, --min-time and --max-noise are refused)"},
    {"devices", "all|LIST", OPT_COLLATZ_DEVICES, MD_DEVICES_HELP "; the range is handed out in segments, so a slower GPU takes fewer, and the totals and overflows are those of one GPU. Under mpirun -np N (an MPI build), each rank runs on its own --devices and rank 0 merges, prints and writes"},
    {"tables", NULL, OPT_TABLES, "print Tables 4.1, 4.2 and 4.3 as computed here next to the paper's, and exit (--s-bits K: Table 4.3 up to K)"},
    {0},
};

/* Sizes of the tables (mpgpu.h) for bits the options have checked. */
static size_t bc_bytes(unsigned bits)
{
    size_t b = 0;
    mpgpu_collatz_bc_bytes(bits, 0, &b);
    return b;
}

/* S on the host, or on the GPU while it loads. */
static uint64_t s_bytes(uint64_t count, bool device)
{
    uint64_t host = 0, dev = 0;
    mpgpu_collatz_s_bytes(count, &host, &dev);
    return device ? dev : host;
}

/* ---------------------------------------------------------------- --tables */

/* 000 Tables 4.1-4.3, as printed in the paper. */
static const uint32_t paper41_b[16] = {1, 9, 9, 9, 3, 3, 9, 27, 3, 27, 3, 27, 9, 9, 27, 81};
static const uint32_t paper41_c[16] = {0, 1, 2, 2, 1, 1, 4, 13, 2, 17, 2, 20, 8, 8, 26, 80};
static const uint64_t paper41_s[3] = {7, 11, 15};
static const char *const paper42_words[] = {"16", "32", "64", "128", "256", "512", "1k", "2k",
                                            "4k", "8k", "16k", "32k", "64k", "128k", "256k"};
static const double paper42_ops[] = {6.0, 7.5, 9.0, 10.5, 12.0, 13.5, 15.0, 16.5, 18.0, 19.5,
                                     21.0, 22.5, 24.0, 25.5, 27.0};
static const uint64_t paper43_words[] = {
    2, 3, 4, 8, 13, 19, 38, 64, 128, 226, 367, 734, 1295, 2114, 4228, 7495, 14990, 27328, 46611,
    93222, 168807, 286581, 573162, 1037374, 1762293, 3524586, 6385637, 12771274, 23642078,
    41347483, 82694966, 151917639, 263841377, 527682754, 967378591};
static const char *const paper43_ratio[] = {
    "0.2500", "0.1875", "0.1250", "0.1250", "0.1016", "0.0742", "0.0742", "0.0625", "0.0625",
    "0.0552", "0.0448", "0.0448", "0.0395", "0.0323", "0.0323", "0.0286", "0.0286", "0.0261",
    "0.0222", "0.0222", "0.0201", "0.0171", "0.0171", "0.0155", "0.0131", "0.0131", "0.0119",
    "0.0119", "0.0110", "0.0096", "0.0096", "0.0088", "0.0077", "0.0077", "0.0070"};

static void bits_string(char *out, uint64_t v, unsigned bits)
{
    for (unsigned i = 0; i < bits; i++)
        out[i] = (v >> (bits - 1 - i)) & 1 ? '1' : '0';
    out[bits] = '\0';
}

static int print_tables(unsigned max_s_bits, int threads)
{
    int differ = 0;
    /* --tables ends before the run's setup, which installs it for the other runs. */
    interrupt_install();
    struct mpgpu_collatz_bc_table t;
    struct mpgpu_collatz_s_table s;
    uint64_t counts[MPGPU_COLLATZ_S_MAX_BITS + 1];
    if (mpgpu_collatz_bc_build(&t, 4) != MPGPU_OK ||
        mpgpu_collatz_s_counts(4, threads, NULL, NULL, counts) != MPGPU_OK ||
        mpgpu_collatz_s_build(&s, 4, counts[4], threads, NULL, NULL) != MPGPU_OK)
        cli_bad_input("--tables: out of memory");
    struct mpgpu_collatz_list sl = {s.residues, s.count, s.count};
    collatz_list_sort(&sl);
    printf("Table 4.1: tables B, C and S for base bits 4 (ours | paper)\n");
    printf("%-8s %5s %5s %-8s | %5s %5s %-8s\n", "n_L", "B", "C", "S", "B", "C", "S");
    for (unsigned i = 0; i < 16; i++) {
        char nl[8], so[8] = "-", sp[8] = "-";
        bits_string(nl, i, 4);
        if (i < s.count)
            bits_string(so, s.residues[i], 4);
        if (i < 3)
            bits_string(sp, paper41_s[i], 4);
        int same = t.bc[2 * i] == paper41_b[i] && t.bc[2 * i + 1] == paper41_c[i] && !strcmp(so, sp);
        differ |= !same;
        printf("(%s)_2 %5u %5u %-8s | %5u %5u %-8s%s\n", nl, t.bc[2 * i], t.bc[2 * i + 1], so,
               paper41_b[i], paper41_c[i], sp, same ? "" : " DIFFERS");
    }
    mpgpu_collatz_bc_free(&t);
    mpgpu_collatz_s_free(&s);

    printf("\nTable 4.2: tables B and C (ours | paper); operations = odd/even operations one table "
           "operation stands for, on average over n_L\n");
    printf("%-9s %10s %12s %12s | %8s %10s\n", "base bits", "entries", "B+C bytes", "operations", "words", "operation");
    for (unsigned d = 4; d <= 18; d++) {
        if (mpgpu_collatz_bc_build(&t, d) != MPGPU_OK)
            cli_bad_input("--tables: out of memory");
        uint64_t sum = 0;
        for (uint32_t i = 0; i < (1u << d); i++)
            sum += t.ops[i];
        double mean = (double)sum / (double)(1u << d);
        char ours[16], paper[16];
        snprintf(ours, sizeof ours, "%.1f", mean);
        snprintf(paper, sizeof paper, "%.1f", paper42_ops[d - 4]);
        int same = !strcmp(ours, paper);
        differ |= !same;
        printf("%-9u %10u %12zu %12s | %8s %10s%s\n", d, 1u << d, bc_bytes(d), ours,
               paper42_words[d - 4], paper, same ? "" : " DIFFERS");
        mpgpu_collatz_bc_free(&t);
    }

    /* One search counts S of every base bits up to the largest, in about the time of the largest
     * alone (seconds at 40 bits): it says its time once its first second measures its rate. */
    fflush(stdout);
    struct progress_phase ph;
    progress_phase_begin(&ph, false, "subtrees", 1, "collatz --tables: counting table S up to %u bits", max_s_bits);
    const mpgpu_status st = mpgpu_collatz_s_counts(max_s_bits, threads, progress_phase_call, &ph, counts);
    progress_phase_end(&ph);
    if (st == MPGPU_ERR_CANCELLED) {
        fprintf(stderr, "mpgpu: interrupted; Tables 4.1 and 4.2 above are complete, Table 4.3 was not counted\n");
        return EXIT_INTERRUPTED;
    }
    if (st != MPGPU_OK)
        cli_bad_input("--tables: out of memory");
    printf("\nTable 4.3: table S, the mandatory residues (ours | paper); bytes = 8 per residue\n");
    printf("%-9s %12s %8s %12s | %12s %8s\n", "base bits", "words", "ratio", "bytes", "words", "ratio");
    for (unsigned k = 3; k <= max_s_bits; k++) {
        uint64_t n = counts[k];
        char ratio[16], bytes[32];
        snprintf(ratio, sizeof ratio, "%.4f", (double)n / (double)((uint64_t)1 << k));
        hostmem_format(bytes, sizeof bytes, s_bytes(n, false));
        if (k <= 37) {
            int same = n == paper43_words[k - 3] && !strcmp(ratio, paper43_ratio[k - 3]);
            differ |= !same;
            printf("%-9u %12" PRIu64 " %8s %12s | %12" PRIu64 " %8s%s\n", k, n, ratio, bytes,
                   paper43_words[k - 3], paper43_ratio[k - 3], same ? "" : " DIFFERS");
        } else {
            printf("%-9u %12" PRIu64 " %8s %12s | %12s %8s\n", k, n, ratio, bytes, "-", "-");
        }
    }
    if (differ)
        printf("\nRows marked DIFFERS disagree with the paper; docs/errata.md gives the evidence.\n");
    return 0;
}

/* ---------------------------------------------------------------- verification runs */

/* ---------------------------------------------------------------- verification runs */

static enum collatz_first_step twin_first_step(const struct collatz_run *c)
{
    return c->first_step == MPGPU_COLLATZ_FIRST_JUMP ? COLLATZ_FIRST_JUMP : COLLATZ_FIRST_TABLE;
}

/* A segment's result between its worker and the in-order merge (issue 14), and the worker (among
 * all ranks') that computed it, for the check. */
struct conv_chunk {
    mpgpu_collatz_conv_totals t;
    mpgpu_collatz_list ov;
    double overflow_ms;
    uint32_t worker;
};

/* What the check keeps of a chunk (collatz_chunks.h): its totals, and its overflowed starting
 * values as a count and a hash. */
struct conv_result {
    mpgpu_collatz_conv_totals t;
    uint64_t overflows_listed, overflows_hash;
};

static void conv_result_of(const mpgpu_collatz_conv_totals *t, const mpgpu_collatz_list *ov,
                           struct conv_result *out)
{
    *out = (struct conv_result){*t, ov->n, collatz_chunks_hash(ov->v, ov->n)};
}

/* A chunk of the GPU (2^44 values) takes the twin a minute or more, so it goes in parts of a CPU
 * segment (whole S periods; totals and overflows add up), with Ctrl-C heard between parts: then
 * -2, and what was done is not a result. */
static int twin_compute(const void *ctx, const void *recorded, uint64_t first, uint64_t last, void *out)
{
    (void)recorded;
    const struct collatz_run *c = ctx;
    const unsigned bits = c->s.bits > CPU_SEGMENT_BITS ? c->s.bits : CPU_SEGMENT_BITS;
    mpgpu_collatz_conv_totals t = {0, 0, 0};
    mpgpu_collatz_list ov = {0};
    int rc = 0;
    for (uint64_t from = first;;) {
        const uint64_t part_last = from | ((UINT64_C(1) << bits) - 1);
        const uint64_t to = part_last < last ? part_last : last;
        if ((rc = collatz_conv_cpu(&c->s, &c->r.bc, twin_first_step(c), from, to, 0, &t, &ov)) != 0 || to == last)
            break;
        if (interrupt_requested()) {
            rc = -2;
            break;
        }
        from = to + 1;
    }
    conv_result_of(&t, &ov, out);
    mpgpu_collatz_list_free(&ov);
    return rc;
}

static bool twin_same(const void *recorded, const void *twin)
{
    const struct conv_result *x = recorded, *y = twin;
    return x->t.mandatory == y->t.mandatory && x->t.steps == y->t.steps && x->t.overflows == y->t.overflows &&
           x->overflows_listed == y->overflows_listed && x->overflows_hash == y->overflows_hash;
}

static void twin_describe(const void *result, char *out, size_t len)
{
    const struct conv_result *x = result;
    snprintf(out, len, "%" PRIu64 " iterated, %" PRIu64 " table operations, %" PRIu64 " overflows (%" PRIu64
             " listed, hash %016" PRIx64 ")", x->t.mandatory, x->t.steps, x->t.overflows, x->overflows_listed,
             x->overflows_hash);
}

static const struct collatz_twin conv_twin_check = {
    .result_size = sizeof(struct conv_result),
    .compute = twin_compute,
    .same = twin_same,
    .describe = twin_describe,
    .probe = CHECK_PROBE,
};

/* One segment of a pass on its worker: its overflows settled by plain iteration with GMP, its
 * completeness checked (the iterated count equals the count S implies). */
static void chunk_run(void *ctx, size_t worker, uint64_t first, uint64_t last, int64_t hint, void *slot)
{
    (void)hint;
    struct collatz_run *c = ctx;
    struct collatz_command *r = &c->r;
    struct conv_chunk *k = slot;
    k->worker = collatz_worker_id(&r->cb, worker);
    if (r->cb.gpu) {
        mpgpu_status st = mpgpu_collatz_convergence(r->cb.devs[worker], r->memory, c->first_step, r->interleave,
                                                    first, last, &k->t, &k->ov);
        if (st != MPGPU_OK)
            collatz_gpu_fail(st, "collatz kernel");
    } else if (collatz_conv_cpu(&c->s, &r->bc, twin_first_step(c), first, last, r->cb.cpu_threads, &k->t, &k->ov) !=
               0) {
        cli_bad_input("collatz: out of host memory for the overflow list");
    }
    const double o0 = time_now_ms();
    size_t bad = 0;
    if (mpgpu_collatz_settle_convergence(k->ov.v, k->ov.n, 0, &bad) != MPGPU_OK)
        bad = 0;
    k->overflow_ms = time_now_ms() - o0;
    if (bad < k->ov.n) {
        fprintf(stderr, "mpgpu: collatz: starting value %" PRIu64 " did not fall below itself "
                        "within %llu operations at any length: NOT verified\n",
                k->ov.v[bad], (unsigned long long)MPGPU_COLLATZ_SETTLE_MAX_OPS);
        exit(EXIT_MISMATCH);
    }
    const uint64_t expected = collatz_conv_expected(&c->s, first, last, 0);
    if (k->t.mandatory != expected) {
        fprintf(stderr, "mpgpu: collatz %s: [%" PRIu64 ", %" PRIu64 "] iterated %" PRIu64
                        " starting values where S implies %" PRIu64 ": work was skipped\n",
                r->cb.gpu ? "gpu" : "cpu", first, last, k->t.mandatory, expected);
        exit(EXIT_MISMATCH);
    }
}

/* Merges a segment into the pass, in range order, records it for the check, then saves the
 * checkpoint: its finished prefix is exact whatever order the GPUs finished their segments in. */
static void chunk_commit(void *ctx, uint64_t first, uint64_t last, uint64_t done_after, void *slot)
{
    struct collatz_command *r = ctx;
    mpgpu_collatz_conv_totals *t = &r->cur.t.conv;
    struct conv_chunk *k = slot;
    if (collatz_chunk_spoiled(&r->cb, k->worker))
        k->t.steps++;
    collatz_conv_add(t, &k->t);
    collatz_command_merge(r, &k->ov, k->overflow_ms);
    struct conv_result result;
    conv_result_of(&k->t, &k->ov, &result);
    mpgpu_collatz_list_free(&k->ov);
    collatz_chunk_record(&r->cb, first, last, k->worker, &result);
    if (r->cb.checkpoint) {
        struct checkpoint ck = r->cb.ck;
        ck.done = r->cb.done_before + done_after;
        checkpoint_set(&ck, "mandatory", r->base.conv.mandatory + t->mandatory);
        checkpoint_set(&ck, "steps", r->base.conv.steps + t->steps);
        checkpoint_set(&ck, "overflows", r->base.conv.overflows + t->overflows);
        collatz_checkpoint_keep(&r->cb, &ck);
    }
}

/* A segment's result as bytes, between MPI ranks. */
static void *chunk_pack(void *ctx, void *slot, size_t *len)
{
    (void)ctx;
    struct conv_chunk *k = slot;
    struct md_writer w = {0};
    md_put(&w, &k->t, sizeof k->t);
    md_put(&w, &k->overflow_ms, sizeof k->overflow_ms);
    md_put(&w, &k->worker, sizeof k->worker);
    md_put_array(&w, k->ov.v, k->ov.n, sizeof *k->ov.v);
    mpgpu_collatz_list_free(&k->ov);
    return md_writer_bytes(&w, len);
}

static int chunk_unpack(void *ctx, const void *bytes, size_t len, void *slot)
{
    struct collatz_command *r = ctx;
    struct conv_chunk *k = slot;
    struct md_reader rd = {bytes, len, false};
    md_get(&rd, &k->t, sizeof k->t);
    md_get(&rd, &k->overflow_ms, sizeof k->overflow_ms);
    md_get(&rd, &k->worker, sizeof k->worker);
    md_get_array(&rd, (void **)&k->ov.v, &k->ov.n, sizeof *k->ov.v);
    k->ov.cap = k->ov.n;
    return rd.failed || rd.left || !collatz_worker_known(&r->cb, k->worker) ? -1 : 0;
}

static const struct md_chunk_ops conv_chunk_ops = {
    .slot_size = sizeof(struct conv_chunk),
    .begin = collatz_command_chunk_begin,
    .run = chunk_run,
    .commit = chunk_commit,
    .pack = chunk_pack,
    .unpack = chunk_unpack,
};

static bool conv_same_totals(const union collatz_totals *x, const union collatz_totals *y)
{
    return x->conv.mandatory == y->conv.mandatory && x->conv.steps == y->conv.steps &&
           x->conv.overflows == y->conv.overflows;
}

static void conv_load_base(struct collatz_command *r)
{
    checkpoint_get(&r->cb.ck, "mandatory", &r->base.conv.mandatory);
    checkpoint_get(&r->cb.ck, "steps", &r->base.conv.steps);
    checkpoint_get(&r->cb.ck, "overflows", &r->base.conv.overflows);
}

static unsigned conv_seg_bits(const struct collatz_command *r)
{
    const struct collatz_run *c = (const struct collatz_run *)r;
    const unsigned min_bits = r->cb.gpu ? GPU_SEGMENT_BITS : CPU_SEGMENT_BITS;
    return c->s.bits > min_bits ? c->s.bits : min_bits;
}

static void conv_describe(struct collatz_command *r, bool gpu, char *params, size_t len)
{
    const struct collatz_run *c = (const struct collatz_run *)r;
    char devices[400];
    collatz_devices_format(&r->cb, devices, sizeof devices);
    snprintf(params, len,
             "start=%" PRIu64 ";bc_bits=%u;s_bits=%u;memory=%s;first_step=%s;interleave=%u;mandatory=%" PRIu64
             ";steps=%" PRIu64 ";overflows=%" PRIu64 ";overflow_ms=%.3f;devices=%s",
             r->cb.first + r->cb.done_before, r->bc_bits, c->s_bits, collatz_command_memory(r, gpu),
             c->first_step == MPGPU_COLLATZ_FIRST_JUMP ? "jump" : "table", gpu ? r->interleave : 1,
             r->ref.t.conv.mandatory, r->ref.t.conv.steps, r->ref.t.conv.overflows,
             collatz_overflow_ms_per_pass(&r->cb), devices);
}

static void conv_summary(struct collatz_command *r, const struct bench_case *bc, FILE *out)
{
    const struct collatz_run *c = (const struct collatz_run *)r;
    mpgpu_collatz_conv_totals total = r->base.conv;
    collatz_conv_add(&total, &r->ref.t.conv);
    const uint64_t last = r->cb.first + (r->cb.count - 1);
    fprintf(out, "# %s: every starting value in [%" PRIu64 ", %" PRIu64 "] falls below itself: %" PRIu64
                 " verified, counted as the paper counts%s\n",
            bc->method, r->cb.first, last, r->cb.count, r->cb.resumed ? " (resumed from --checkpoint)" : "");
    fprintf(out, "#   %" PRIu64 " iterated (the rest skipped by S, %u bits), %" PRIu64
                 " table operations; %" PRIu64 " overflowed 96 bits and were settled with GMP in %.3f ms per pass\n",
            total.mandatory, c->s.bits, total.steps, total.overflows, collatz_overflow_ms_per_pass(&r->cb));
    collatz_report_devices(&r->cb, out);
    collatz_report_checked(&r->cb, out);
}

static mpgpu_status upload_s(struct collatz_command *r, mpgpu_collatz *dev)
{
    return mpgpu_collatz_set_s(dev, &((struct collatz_run *)r)->s);
}

static void conv_build_tables(struct collatz_command *r, bool gpu)
{
    struct collatz_run *c = (struct collatz_run *)r;
    const int threads = 0;
    const double t0 = time_now_ms();
    /* S is counted first (seconds at 40 bits), so that its memory is checked before it is built:
     * silently, as a refusal for memory is one line, but stopped by Ctrl-C. The build says its
     * time once its first second measures its rate (a build of 2^24 residues timed apart and
     * scaled up took no account of the share of mandatory residues, which falls with the bits).
     * Either stopped, the run stops before its first pass (bench_run), exit 130. */
    uint64_t counts[MPGPU_COLLATZ_S_MAX_BITS + 1];
    struct progress_phase ph;
    progress_phase_begin(&ph, true, "subtrees", 1, "collatz: counting table S of %u bits", c->s_bits);
    mpgpu_status st = mpgpu_collatz_s_counts(c->s_bits, threads, progress_phase_call, &ph, counts);
    progress_phase_end(&ph);
    if (st == MPGPU_ERR_CANCELLED)
        return;
    if (st != MPGPU_OK)
        cli_bad_input("--s-bits %u: out of host memory while counting table S", c->s_bits);
    const uint64_t count = counts[c->s_bits];
    char what[160], bytes[32];
    hostmem_format(bytes, sizeof bytes, s_bytes(count, false));
    snprintf(what, sizeof what, "--s-bits %u: table S (%" PRIu64 " residues, %s)", c->s_bits, count, bytes);
    hostmem_require(s_bytes(count, false) + bc_bytes(r->bc_bits), what);
    if (gpu) {
        char with[192];
        snprintf(with, sizeof with, "%s with B and C", what);
        collatz_devices_check_memory(&r->cb, s_bytes(count, true) + bc_bytes(r->bc_bits), with);
    }
    progress_phase_begin(&ph, r->cb.opt.quiet, "subtrees", 1, "collatz: building table S of %u bits", c->s_bits);
    st = mpgpu_collatz_s_build(&c->s, c->s_bits, count, threads, progress_phase_call, &ph);
    progress_phase_end(&ph);
    if (st == MPGPU_ERR_CANCELLED)
        return;
    if (st != MPGPU_OK || mpgpu_collatz_bc_build(&r->bc, r->bc_bits) != MPGPU_OK)
        cli_bad_input("%s: out of host memory while building", what);
    if (gpu)
        collatz_command_upload(r, upload_s);
    if (!r->cb.opt.quiet)
        fprintf(stderr, "mpgpu: tables B, C (%u bits) and S (%u bits, %" PRIu64 " residues, %s) ready in %.2f s\n",
                r->bc_bits, c->s_bits, count, bytes, (time_now_ms() - t0) * 1e-3);
}

static void conv_free_tables(struct collatz_command *r)
{
    mpgpu_collatz_s_free(&((struct collatz_run *)r)->s);
}

static int conv_parsed(struct collatz_command *r, int argc, char **argv)
{
    const struct collatz_run *c = (const struct collatz_run *)r;
    if (!c->tables)
        return -1;
    static const char *const unused[] = {"start", "count", "end", "bc-bits", "table-memory",
                                         "first-step", "interleave", "checkpoint", "devices",
                                         "method", "reps", "warmup", "min-time", "max-noise", "seed",
                                         "device", "csv", "json", "verify", "quiet", "markdown", NULL};
    cli_refuse_options(argc, argv, unused, "--tables",
                       "which prints Tables 4.1 to 4.3 (up to --s-bits, on --threads) and exits");
    return print_tables(c->s_bits_set ? c->s_bits : MPGPU_COLLATZ_S_MAX_BITS,
                        cli_option_given(argc, argv, "threads") ? r->cb.opt.threads : 0);
}

static void conv_configure(struct collatz_command *r, bool gpu)
{
    struct collatz_run *c = (struct collatz_run *)r;
    if (!gpu) {
        if (!c->s_bits_set)
            c->s_bits = DEFAULT_CPU_S_BITS;
        if (!c->first_step_set)
            c->first_step = MPGPU_COLLATZ_FIRST_TABLE;
    }
    r->cb.check_budget = UINT64_C(1) << (c->s_bits > VERIFY_SAMPLE_BITS ? c->s_bits : VERIFY_SAMPLE_BITS);
    snprintf(r->params, sizeof r->params, "bc_bits=%u;s_bits=%u;first_step=%s", r->bc_bits, c->s_bits,
             c->first_step == MPGPU_COLLATZ_FIRST_JUMP ? "jump" : "table");
}

static const struct collatz_kind collatz_kind = {
    .command = "collatz",
    .spec = {
        .usage = "mpgpu collatz [--start N] [--count N | --end N] [options]\n"
                 "       mpgpu collatz --tables [--s-bits K] [--threads T]",
        .description =
            "Verifies that every starting value in the range falls below itself under the Collatz\n"
            "operations (000 Algorithm 5), so that with all smaller values the conjecture holds up\n"
            "to the end of the range. Starting values whose low bits are not in table S are\n"
            "skipped (they provably fall); the others run table operations n <- B[n_L] * n_H +\n"
            "C[n_L] on 96-bit values in registers. A value that passes 2^96 is settled on the host\n"
            "by plain iteration with GMP at any length, so nothing is assumed. Reports starting\n"
            "values per second counted as the paper counts (the whole range), the overflows and\n"
            "their time. --method cpu runs the CPU twin with the same tables.",
        .common = OPT_METHOD | OPT_REPS | OPT_WARMUP | OPT_SEED | OPT_DEVICE | OPT_THREADS | OPT_CSV |
                  OPT_VERIFY | OPT_QUIET,
        .options = collatz_options,
        .verify_default = VERIFY_SAMPLE,
        .verify_help =
            "check the timed pass itself, chunk by chunk (the part of the range one GPU took at a "
            "time: 2^44 starting values, or 2^K with S of K > 44 bits), against the CPU twin with "
            "the same tables, since GMP has no Collatz counterpart: each chunk's iterated count, "
            "table operations and overflowed values. all: every chunk; sample: chunks spread over "
            "the pass, at least one of each GPU and MPI rank and at least 2^33 starting values' "
            "worth (2^K with S of K bits); none. A gpu row is checked; a cpu row is the reference, "
            "except for the chunks of MPI ranks other than 0. Overflows are always settled by GMP. "
            "With S of K bits the CPU twin shares a jump only among the values of one S entry, so "
            "its check takes long above K = 33",
        .methods_help = "  gpu    the GPU kernel (default; where there is no GPU and no method,\n"
                        "         --devices, --interleave or --table-memory was given, the CPU\n"
                        "         twin instead, saying so)\n"
                        "  cpu    the CPU twin, on --threads threads (default 1, as the paper)\n"
                        "  all    both, compared\n",
        .examples = "  mpgpu collatz --start 2^62 --count 2^44\n"
                    "  mpgpu collatz --start 1 --end 2^40 --checkpoint run.ckpt\n"
                    "  mpgpu collatz --bc-bits 12 --table-memory shared --s-bits 32 --csv r.csv\n"
                    "  mpgpu collatz --start 2^62 --count 2^48 --devices all\n"
                    "  mpgpu collatz --tables\n",
    },
    /* The run: its default range, caps and tables, and its check. */
    .default_count_gpu = DEFAULT_GPU_COUNT, .default_count_cpu = DEFAULT_CPU_COUNT,
    .default_bc_bits_gpu = DEFAULT_BC_BITS, .default_bc_bits_cpu = DEFAULT_BC_BITS, .list_cap = OVERFLOW_CAP, .cand_cap = 1, .with_j = false,
    .twin = &conv_twin_check, .chunk_ops = &conv_chunk_ops,
    /* What differs, in the order the skeleton calls it. */
    .option = collatz_option, .parsed = conv_parsed, .configure = conv_configure,
    .build_tables = conv_build_tables, .free_tables = conv_free_tables, .load_base = conv_load_base,
    .seg_bits = conv_seg_bits, .same_totals = conv_same_totals, .describe = conv_describe,
    .summary = conv_summary,
};

int cmd_collatz(int argc, char **argv)
{
    struct collatz_run c = {.s_bits = DEFAULT_GPU_S_BITS, .first_step = MPGPU_COLLATZ_FIRST_JUMP};
    return collatz_command_main(argc, argv, &collatz_kind, &c.r);
}
