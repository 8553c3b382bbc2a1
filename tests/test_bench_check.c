/* cpu suite: the one check path of the run loop (cli/bench.c, issue 36), driven by a made-up
 * subcommand whose "GPU results" are a function of the element's index with faults planted at
 * chosen elements, so that every answer is known:
 * - --verify all looks at every element, counts the bad ones and names the lowest, on one and
 *   several threads (the lowest must survive the threads' reduction);
 * - --verify sample looks at 0, stride, 2 stride, ... and the last, about BENCH_SAMPLE_ELEMENTS
 *   of them (or the subcommand's own sample size), and so misses a fault between two of them
 *   and sees one on a sampled element and on the last;
 * - --verify none looks at nothing, and the case's own check (check_end) still runs;
 * - a reference case (no elements) is written as "reference";
 * - elements the reference itself answered (a GMP fallback) are counted apart, never checked;
 * - a mismatch makes the run's status EXIT_MISMATCH, a clean run 0;
 * - a reference that cannot be had (no memory) is an error, not a pass. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "test_seed.h"

#define MAX_PLANTED 8

struct synthetic {
    uint64_t elements, sample;
    int threads;
    uint64_t bad[MAX_PLANTED], fallback[MAX_PLANTED];
    size_t n_bad, n_fallback;
    bool no_memory_at_3;
    uint64_t salt; /* from the seed: the "results" differ run to run */
    /* What the loop reported, seen by check_end. */
    struct bench_check seen;
    bool check_end_ran;
};

static bool listed(const uint64_t *list, size_t n, uint64_t i)
{
    for (size_t k = 0; k < n; k++)
        if (list[k] == i)
            return true;
    return false;
}

static uint64_t value_of(const struct synthetic *s, uint64_t i)
{
    return (i + s->salt) * UINT64_C(0x9e3779b97f4a7c15);
}

static int synthetic_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    (void)ctx, (void)c, (void)pass_index, (void)warmup;
    *ms = 1.0;
    return 0;
}

static int synthetic_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    struct synthetic *s = ctx;
    (void)c;
    spec->elements = s->elements;
    spec->element = "widget";
    spec->reference = "the oracle";
    spec->scratch_bytes = sizeof(uint64_t);
    spec->threads = s->threads;
    spec->sample = s->sample;
    return 0;
}

static enum bench_ref synthetic_reference(const void *ctx, const struct bench_case *c, uint64_t i,
                                          void *scratch)
{
    (void)c;
    const struct synthetic *s = ctx;
    if (s->no_memory_at_3 && i == 3)
        return BENCH_REF_NO_MEMORY;
    if (listed(s->fallback, s->n_fallback, i))
        return BENCH_REF_FALLBACK;
    *(uint64_t *)scratch = value_of(s, i);
    return BENCH_REF_READY;
}

/* The "device's" result: right but where a fault was planted. */
static bool synthetic_compare(const void *ctx, const struct bench_case *c, uint64_t i, const void *scratch)
{
    (void)c;
    const struct synthetic *s = ctx;
    const uint64_t got = value_of(s, i) ^ (listed(s->bad, s->n_bad, i) ? 1 : 0);
    return got == *(const uint64_t *)scratch;
}

static void synthetic_check_end(void *ctx, struct bench_case *c, struct bench_check *out)
{
    (void)c;
    struct synthetic *s = ctx;
    s->seen = *out;
    s->check_end_ran = true;
}

static void synthetic_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    (void)ctx, (void)c;
    snprintf(params, len, "synthetic=1");
}

static const struct bench_ops synthetic_ops = {
    .pass = synthetic_pass,
    .check_begin = synthetic_check_begin,
    .reference = synthetic_reference,
    .compare = synthetic_compare,
    .check_end = synthetic_check_end,
    .describe = synthetic_describe,
};

/* One run of the loop over one case; returns its exit status. */
static int run(struct synthetic *s, enum verify_mode v)
{
    struct cli_common opt = {.reps = 1, .warmup = 0, .seed = seed, .verify = v, .quiet = true};
    struct bench b;
    bench_open(&b, "synthetic", &opt, false, 0, NULL, NULL);
    struct bench_case c = {.method = "made-up", .count = s->elements, .throughput_unit = "widgets",
                           .timed_region = "cpu", .data = s};
    s->check_end_ran = false;
    memset(&s->seen, 0, sizeof s->seen);
    return bench_run(&b, &synthetic_ops, s, &c, 1);
}

/* The elements a spread sample looks at, counted as the loop picks them. */
static uint64_t sampled_count(uint64_t n, uint64_t sample)
{
    const uint64_t stride = n > sample ? n / sample : 1;
    return (n + stride - 1) / stride + ((n - 1) % stride != 0);
}

static void check_all(int threads)
{
    struct synthetic s = {.elements = 5000 + seed % 1000, .threads = threads, .salt = seed};
    int rc = run(&s, VERIFY_ALL);
    CHECK(rc == 0 && s.check_end_ran && s.seen.checked == s.elements && s.seen.mismatches == 0 &&
              !strcmp(s.seen.verify_mode, "all"),
          "all, clean, %d threads: status %d, %" PRIu64 " of %" PRIu64 " checked, %" PRIu64 " bad",
          threads, rc, s.seen.checked, s.elements, s.seen.mismatches);

    /* Faults far apart (different schedule chunks of different threads), the lowest one last. */
    s.bad[0] = s.elements - 1;
    s.bad[1] = s.elements / 2 + 1;
    s.bad[2] = 17 + seed % 100;
    s.n_bad = 3;
    rc = run(&s, VERIFY_ALL);
    char want[64];
    snprintf(want, sizeof want, "first bad widget %" PRIu64, s.bad[2]);
    CHECK(rc == EXIT_MISMATCH && s.seen.checked == s.elements && s.seen.mismatches == 3 &&
              !strcmp(s.seen.first_bad, want),
          "all, 3 planted, %d threads: status %d, %" PRIu64 " bad, '%s' (want '%s')", threads, rc,
          s.seen.mismatches, s.seen.first_bad, want);
}

static void check_sample(int threads)
{
    const uint64_t n = 100000 + 7 + seed % 50;
    const uint64_t stride = n / BENCH_SAMPLE_ELEMENTS;
    struct synthetic s = {.elements = n, .threads = threads, .salt = seed};
    /* One fault between two sampled elements, one on a sampled element, one on the last. */
    s.bad[0] = 5 * stride + 1;
    s.bad[1] = 9 * stride;
    s.bad[2] = n - 1;
    s.n_bad = 3;
    int rc = run(&s, VERIFY_SAMPLE);
    char want[64];
    snprintf(want, sizeof want, "first bad widget %" PRIu64, s.bad[1]);
    CHECK(rc == EXIT_MISMATCH && s.seen.checked == sampled_count(n, BENCH_SAMPLE_ELEMENTS) &&
              s.seen.mismatches == 2 && !strcmp(s.seen.first_bad, want) &&
              !strcmp(s.seen.verify_mode, "sample"),
          "sample, %d threads: status %d, %" PRIu64 " checked (want %" PRIu64 "), %" PRIu64
          " bad (want 2), '%s' (want '%s')",
          threads, rc, s.seen.checked, sampled_count(n, BENCH_SAMPLE_ELEMENTS), s.seen.mismatches,
          s.seen.first_bad, want);

    /* A subcommand's own sample size (chunks of a range cost more than products). */
    s.sample = 10;
    s.n_bad = 0;
    rc = run(&s, VERIFY_SAMPLE);
    CHECK(rc == 0 && s.seen.checked == sampled_count(n, 10),
          "sample of 10, %d threads: status %d, %" PRIu64 " checked (want %" PRIu64 ")", threads,
          rc, s.seen.checked, sampled_count(n, 10));

    /* Fewer elements than the sample: every one. */
    struct synthetic few = {.elements = 3, .threads = threads, .salt = seed};
    rc = run(&few, VERIFY_SAMPLE);
    CHECK(rc == 0 && few.seen.checked == 3, "sample of 3 elements: status %d, %" PRIu64 " checked",
          rc, few.seen.checked);
}

static void check_none_reference_fallback(void)
{
    struct synthetic s = {.elements = 1000, .threads = 2, .salt = seed, .bad = {4}, .n_bad = 1};
    int rc = run(&s, VERIFY_NONE);
    CHECK(rc == 0 && s.check_end_ran && s.seen.checked == 0 && s.seen.mismatches == 0 &&
              !strcmp(s.seen.verify_mode, "none"),
          "none: status %d, check_end %d, %" PRIu64 " checked, mode %s", rc, s.check_end_ran,
          s.seen.checked, s.seen.verify_mode);

    struct synthetic ref = {.elements = 0, .threads = 1, .salt = seed};
    rc = run(&ref, VERIFY_ALL);
    CHECK(rc == 0 && ref.check_end_ran && ref.seen.checked == 0 &&
              !strcmp(ref.seen.verify_mode, "reference"),
          "reference case: status %d, %" PRIu64 " checked, mode %s", rc, ref.seen.checked,
          ref.seen.verify_mode);

    /* Two elements the reference answered, one of them also "wrong": neither is checked. */
    struct synthetic fb = {.elements = 1000, .threads = 3, .salt = seed, .fallback = {10, 500},
                           .n_fallback = 2, .bad = {500}, .n_bad = 1};
    rc = run(&fb, VERIFY_ALL);
    CHECK(rc == 0 && fb.seen.checked == 998 && fb.seen.fallbacks == 2 && fb.seen.mismatches == 0,
          "fallbacks: status %d, %" PRIu64 " checked (want 998), %" PRIu64 " fallbacks (want 2), %"
          PRIu64 " bad", rc, fb.seen.checked, fb.seen.fallbacks, fb.seen.mismatches);

    struct synthetic oom = {.elements = 100, .threads = 2, .salt = seed, .no_memory_at_3 = true};
    rc = run(&oom, VERIFY_ALL);
    CHECK(rc == EXIT_BAD_INPUT && !oom.check_end_ran,
          "reference without memory: status %d (want %d), check_end %d", rc, EXIT_BAD_INPUT,
          oom.check_end_ran);
}

int main(void)
{
    seed = test_seed();
    check_all(1);
    check_all(4);
    check_sample(1);
    check_sample(3);
    check_none_reference_fallback();
    return test_finish("test_bench_check");
}
