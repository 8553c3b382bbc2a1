/* cpu suite: the check of `mpgpu collatz` and `mpgpu delay` (issue 36) without a GPU. A synthetic
 * pass of chunks from five GPU workers of two MPI ranks, each worker taking its own share (one
 * worker a single chunk), is recorded as the subcommands' commits record it and checked by the
 * run loop (cli/bench.c) through the callbacks both subcommands use (cli/collatz_cli.c,
 * cli/collatz_chunks.c), against a stand-in for the CPU twin. Checked: the spread sample takes
 * a chunk of every worker whatever its share, with any budget (so collatz_chunks_order and the
 * loop agree on which elements a sample takes); --verify all takes every chunk; a
 * chunk spoiled by the test hook (MPGPU_TEST_SPOIL) fails the run and is named with its range,
 * rank, GPU and thread; the summary counts each worker's checked chunks; of the CPU twin's
 * chunks only those of other ranks are checked, and in one process none (a reference row); a
 * pass that differed from pass 1 fails the run; a long check says how long first; the
 * order-independent hash of the lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "collatz_chunks.h"
#include "collatz_cli.h"
#include "random_words.h"
#include "test_seed.h"

#define CHUNK_BITS 20u
#define N_CHUNKS 200u
#define LONE_CHUNK 57u /* the one chunk of worker 3 (rank 1's first) */

/* What the stand-in GPU computed for a chunk, and the stand-in twin recomputes. */
struct fake_result {
    uint64_t value;
};

static uint64_t fake_value(uint64_t first, uint64_t last)
{
    return splitmix64(first ^ splitmix64(last));
}

static int probe_calls; /* the twin is slow on its first call of a run: the probe */
static bool slow_probe;

static int fake_twin(const void *ctx, const void *recorded, uint64_t first, uint64_t last, void *out)
{
    (void)ctx;
    (void)recorded;
    if (slow_probe && probe_calls++ == 0)
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    ((struct fake_result *)out)->value = fake_value(first, last);
    return 0;
}

static bool fake_same(const void *recorded, const void *twin)
{
    return ((const struct fake_result *)recorded)->value == ((const struct fake_result *)twin)->value;
}

static void fake_describe_result(const void *result, char *out, size_t len)
{
    snprintf(out, len, "value %016llx", (unsigned long long)((const struct fake_result *)result)->value);
}

static const struct collatz_twin twin = {
    .result_size = sizeof(struct fake_result),
    .compute = fake_twin,
    .same = fake_same,
    .describe = fake_describe_result,
    .probe = 1000,
};

/* The state of a run: the shared part first, as in cmd_collatz.c and cmd_delay.c. */
struct fake_run {
    struct collatz_bench cb;
    uint32_t worker_of[N_CHUNKS]; /* which worker of the team computed each chunk */
    char named[160];              /* what the loop named as the first bad element */
};

static const uint64_t base = UINT64_C(1) << 40;

/* The pass: every chunk committed in range order, as md_schedule commits them. */
static int fake_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    (void)c, (void)pass_index, (void)warmup;
    struct fake_run *r = ctx;
    collatz_chunks_clear(&r->cb.chunks);
    r->cb.seg_bits = CHUNK_BITS;
    for (uint32_t i = 0; i < N_CHUNKS; i++) {
        const uint64_t first = base + ((uint64_t)i << CHUNK_BITS), last = first + ((UINT64_C(1) << CHUNK_BITS) - 1);
        struct fake_result k = {fake_value(first, last)};
        if (collatz_chunk_spoiled(&r->cb, r->worker_of[i]))
            k.value++;
        collatz_chunk_record(&r->cb, first, last, r->worker_of[i], &k);
    }
    *ms = 1;
    return 0;
}

static void fake_name(const void *ctx, const struct bench_case *c, uint64_t i, char *out, size_t len)
{
    collatz_check_name(ctx, c, i, out, len);
    snprintf(((struct fake_run *)ctx)->named, sizeof ((struct fake_run *)ctx)->named, "%s", out);
}

static void fake_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    (void)ctx, (void)c;
    snprintf(params, len, "fake");
}

static const struct bench_ops ops = {
    .pass = fake_pass,
    .check_begin = collatz_check_begin,
    .reference = collatz_check_reference,
    .compare = collatz_check_compare,
    .name_element = fake_name,
    .check_end = collatz_check_end,
    .describe = fake_describe,
};

/* One case through the run loop with --verify v; returns its exit status. */
static int run_case(struct fake_run *r, enum verify_mode v, bool quiet)
{
    r->cb.verify = r->cb.opt.verify = v;
    r->cb.opt.quiet = quiet;
    r->cb.opt.reps = 1;
    r->cb.opt.warmup = 0;
    r->named[0] = '\0';
    probe_calls = 0;
    struct bench b;
    bench_open(&b, "collatz", &r->cb.opt, false, 0, NULL, NULL);
    struct bench_case c = {.method = "gpu", .count = (uint64_t)N_CHUNKS << CHUNK_BITS, .throughput_unit = "numbers",
                           .timed_region = "pass", .data = r};
    return bench_run(&b, &ops, r, &c, 1);
}

/* The summary line of the check, as the subcommands print it. */
static void summary(const struct fake_run *r, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fmemopen(out, len, "w");
    if (f) {
        collatz_report_checked(&r->cb, f);
        fclose(f);
    }
}

/* Five GPU workers: rank 0's GPU 0 twice and GPU 1, rank 1's GPU 0 and GPU 1. */
static int team_rank[] = {0, 0, 0, 1, 1}, team_device[] = {0, 0, 1, 0, 1};

static void gpu_team(struct fake_run *r)
{
    r->cb.team = (struct md_team){.local = 3, .first = 0, .total = 5, .ranks = 2, .rank = team_rank,
                                  .device = team_device};
    r->cb.gpu = r->cb.team_gpu = true;
    /* Shares of 1 (worker 3), 2 (worker 4), and the rest drawn among rank 0's three. */
    for (uint32_t i = 0; i < N_CHUNKS; i++)
        r->worker_of[i] = (uint32_t)(splitmix64(seed + i) % 100 < 70 ? 0 : splitmix64(seed + i) % 100 < 90 ? 1 : 2);
    r->worker_of[0] = 0;
    r->worker_of[LONE_CHUNK] = 3;
    r->worker_of[10] = r->worker_of[N_CHUNKS - 1] = 4;
}

int main(void)
{
    seed = test_seed();
    static struct fake_run r;
    r.cb.command = "collatz";
    r.cb.twin = &twin;
    gpu_team(&r);
    if (collatz_chunks_init(&r.cb.chunks, twin.result_size, r.cb.team.total) != 0) {
        printf("out of memory\n");
        return 1;
    }
    unsetenv("MPGPU_TEST_SPOIL");
    char line[512];

    /* --verify sample, budgets from none to more than a worker's share: every worker's chunks are
     * met, the sample is spread from the first element to the last, and the lone chunk is in it. */
    const uint64_t budgets[] = {0, 1, 3, 17, 150};
    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
        r.cb.check_budget = budgets[b] << CHUNK_BITS;
        const int st = run_case(&r, VERIFY_SAMPLE, true);
        uint64_t total = 0;
        bool every = true;
        for (size_t w = 0; w < 5; w++) {
            total += r.cb.chunks.checked[w];
            every = every && r.cb.chunks.checked[w] >= 1 && r.cb.chunks.checked[w] <= r.cb.chunks.per_worker[w];
        }
        CHECK(st == 0 && r.cb.chunks.n == N_CHUNKS && every && total >= budgets[b] && total < N_CHUNKS / 2 + budgets[b],
              "budget %llu: status %d, %zu recorded, checked %llu/%llu/%llu/%llu/%llu (%llu)",
              (unsigned long long)budgets[b], st, r.cb.chunks.n, (unsigned long long)r.cb.chunks.checked[0],
              (unsigned long long)r.cb.chunks.checked[1], (unsigned long long)r.cb.chunks.checked[2],
              (unsigned long long)r.cb.chunks.checked[3], (unsigned long long)r.cb.chunks.checked[4],
              (unsigned long long)total);
    }
    summary(&r, line, sizeof line);
    CHECK(strstr(line, "#   checked chunks: rank 0 GPU 0 (thread 1): ") == line &&
              strstr(line, ", rank 1 GPU 0 (thread 1): 1 of 1, rank 1 GPU 1 (thread 2): ") && strstr(line, " of 2\n"),
          "summary: %s", line);

    /* --verify all: every chunk of every worker. */
    r.cb.check_budget = 0;
    int st = run_case(&r, VERIFY_ALL, true);
    bool every = true;
    for (size_t w = 0; w < 5; w++)
        every = every && r.cb.chunks.checked[w] == r.cb.chunks.per_worker[w];
    CHECK(st == 0 && every, "--verify all: status %d, not every chunk checked", st);

    /* --verify none: nothing, and no summary line. */
    st = run_case(&r, VERIFY_NONE, true);
    summary(&r, line, sizeof line);
    CHECK(st == 0 && r.cb.chunks.checked[0] == 0 && line[0] == '\0', "--verify none: status %d, summary '%s'", st, line);

    /* The lone chunk of rank 1 spoiled, as a faulty GPU would: the sample meets it, the run fails
     * and names it. The hook counts the chunks the pass records, from 0. */
    char want[160];
    setenv("MPGPU_TEST_SPOIL", "collatz-chunk:57", 1);
    st = run_case(&r, VERIFY_SAMPLE, true);
    snprintf(want, sizeof want, "chunk [%llu, %llu] on rank 1 GPU 0 (thread 1)",
             (unsigned long long)(base + ((uint64_t)LONE_CHUNK << CHUNK_BITS)),
             (unsigned long long)(base + ((uint64_t)(LONE_CHUNK + 1) << CHUNK_BITS) - 1));
    summary(&r, line, sizeof line);
    CHECK(st == EXIT_MISMATCH && !strcmp(r.named, want) && strstr(line, ", rank 1 GPU 0 (thread 1): 1 of 1 (1 DIFFER),"),
          "spoiled chunk 57: status %d, named '%s', want '%s'; summary %s", st, r.named, want, line);
    /* Another site's spoil, or none, leaves the chunks alone. */
    setenv("MPGPU_TEST_SPOIL", "delay-chunk:57", 1);
    st = run_case(&r, VERIFY_ALL, true);
    CHECK(st == 0 && r.named[0] == '\0', "delay-chunk:57 spoiled a collatz chunk: status %d", st);
    /* The first chunk of the pass, which the sample keeps. */
    setenv("MPGPU_TEST_SPOIL", "collatz-chunk:0", 1);
    st = run_case(&r, VERIFY_SAMPLE, true);
    CHECK(st == EXIT_MISMATCH && !strcmp(r.named, "chunk [1099511627776, 1099512676351] on rank 0 GPU 0 (thread 1)"),
          "spoiled chunk 0: status %d, named '%s'", st, r.named);
    unsetenv("MPGPU_TEST_SPOIL");

    /* A pass whose totals differed from pass 1 fails the case, also with --verify none. */
    r.cb.differing_pass = 3;
    st = run_case(&r, VERIFY_NONE, true);
    CHECK(st == EXIT_MISMATCH, "a differing pass 3: status %d", st);
    r.cb.differing_pass = 0;

    /* A check that will take long says so before it starts: the probe (the twin's first call,
     * slow here) predicts 200 chunks of 2^20 numbers at 1000 numbers per 20 ms. */
    fflush(stderr);
    const int saved = dup(STDERR_FILENO);
    FILE *err = tmpfile();
    if (saved >= 0 && err && dup2(fileno(err), STDERR_FILENO) >= 0) {
        slow_probe = true;
        st = run_case(&r, VERIFY_ALL, false);
        slow_probe = false;
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        rewind(err);
        bool said = false;
        while (fgets(line, sizeof line, err))
            said = said || strstr(line, "mpgpu: collatz gpu: checking about 200 of the 200 chunks (2.1e+08 numbers) "
                                        "on the CPU twin takes about ") == line;
        CHECK(st == 0 && said, "a long check is not announced (status %d)", st);
    } else {
        CHECK(false, "cannot capture stderr");
    }
    if (err)
        fclose(err);

    /* The CPU twin under MPI: rank 0's chunks are the reference itself, not recorded; rank 1's
     * are, and the hook counts only them. */
    static int cpu_rank[] = {0, 1}, cpu_device[] = {-1, -1};
    r.cb.team = (struct md_team){.local = 1, .first = 0, .total = 2, .ranks = 2, .rank = cpu_rank, .device = cpu_device};
    r.cb.gpu = r.cb.team_gpu = false;
    uint32_t first_of_rank1 = N_CHUNKS, of_rank1 = 0;
    for (uint32_t i = 0; i < N_CHUNKS; i++) {
        r.worker_of[i] = (uint32_t)(splitmix64(seed ^ i) & 1);
        of_rank1 += r.worker_of[i];
        if (r.worker_of[i] && first_of_rank1 == N_CHUNKS)
            first_of_rank1 = i;
    }
    setenv("MPGPU_TEST_SPOIL", "collatz-chunk:0", 1);
    st = run_case(&r, VERIFY_SAMPLE, true);
    snprintf(want, sizeof want, "chunk [%llu, %llu] on rank 1 CPU (thread 1)",
             (unsigned long long)(base + ((uint64_t)first_of_rank1 << CHUNK_BITS)),
             (unsigned long long)(base + ((uint64_t)(first_of_rank1 + 1) << CHUNK_BITS) - 1));
    summary(&r, line, sizeof line);
    CHECK(st == EXIT_MISMATCH && r.cb.chunks.n == of_rank1 && !strcmp(r.named, want) &&
              strstr(line, "#   checked chunks: rank 1 CPU (thread 1): ") == line &&
              strstr(line, "; rank 0's are the CPU twin's own\n"),
          "CPU twin of 2 ranks: status %d, %zu of %u recorded, named '%s' (want '%s'), summary '%s'", st,
          r.cb.chunks.n, of_rank1, r.named, want, line);
    unsetenv("MPGPU_TEST_SPOIL");
    CHECK(collatz_worker_known(&r.cb, 1) && !collatz_worker_known(&r.cb, 2), "worker numbers of 2 ranks");

    /* The CPU twin in one process (--method all's cpu case): nothing recorded, a reference row. */
    r.cb.team_gpu = true;
    setenv("MPGPU_TEST_SPOIL", "collatz-chunk:0", 1);
    st = run_case(&r, VERIFY_ALL, true);
    CHECK(st == 0 && r.cb.chunks.n == 0, "CPU twin in one process: status %d, %zu recorded", st, r.cb.chunks.n);
    unsetenv("MPGPU_TEST_SPOIL");
    collatz_chunks_free(&r.cb.chunks);

    /* The lists' hash: the same in any order, another for a changed, missing or repeated item. */
    uint64_t v[64], u[64];
    for (size_t i = 0; i < 64; i++)
        v[i] = splitmix64(seed * 3 + i);
    for (size_t i = 0; i < 64; i++)
        u[i] = v[(i * 37) % 64];
    const uint64_t h = collatz_chunks_hash(v, 64);
    CHECK(h == collatz_chunks_hash(u, 64), "hash depends on the order");
    u[5]++;
    CHECK(h != collatz_chunks_hash(u, 64), "hash misses a changed item");
    CHECK(h != collatz_chunks_hash(v, 63), "hash misses a missing item");
    u[5] = u[6];
    CHECK(h != collatz_chunks_hash(u, 64), "hash misses a repeated item in place of another");
    CHECK(collatz_chunks_pair_hash(27, 111) != collatz_chunks_pair_hash(27, 112) &&
              collatz_chunks_pair_hash(27, 111) != collatz_chunks_pair_hash(28, 111),
          "pair hash misses a changed n or delay");
    return test_finish("collatz_check");
}
