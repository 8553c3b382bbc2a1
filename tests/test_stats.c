/* cpu suite: the statistics of the run loop (cli/stats.c, issue 40) on samples with known answers:
 * - median, min, max and the noise (relative standard deviation) of a few samples, worked out by
 *   hand; one sample has no noise; the samples keep their order;
 * - the stopping rule: exactly --reps by default; --min-time stops once the timed work reaches
 *   it, --max-noise once the noise is below it, never before --reps, and at the cap at the latest
 *   (1000 repetitions, or 15 s of timed work for --max-noise alone);
 * - the same rules driven through the run loop (bench_run) by a made-up subcommand whose passes
 *   take chosen times, and a subcommand that fixed its own reps is not repeated further;
 * - the Mann-Whitney U test's p-values against values computed by hand (scipy agrees);
 * - a --json file read back by cJSON itself and by compare's reader, and a CSV with quoted
 *   fields and two schemas read by compare's reader;
 * - NVML where there is none (this machine: no GPU, no driver): nothing read, nothing failing;
 *   and the names of the throttling reasons. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "csv_read.h"
#include "json_report.h"
#include "nvml_probe.h"
#include "stats.h"
#include "test_seed.h"

#ifdef MPGPU_HAVE_CJSON
#include <cjson/cJSON.h>
#endif

static bool near(double x, double want, double tol)
{
    return fabs(x - want) <= tol;
}

static void test_stats_of(void)
{
    const double four[] = {4, 1, 3, 2};
    struct sample_stats st;
    stats_of(four, 4, &st);
    /* mean 2.5, squares 2.25+0.25+0.25+2.25 = 5, sd sqrt(5/3) = 1.290994, over 2.5: 51.6398 % */
    CHECK(st.n == 4 && st.median_ms == 2.5 && st.min_ms == 1 && st.max_ms == 4 && st.mean_ms == 2.5,
          "stats of 4,1,3,2: n %u median %g min %g max %g mean %g", st.n, st.median_ms, st.min_ms,
          st.max_ms, st.mean_ms);
    CHECK(near(st.noise_pct, 51.6398, 1e-3), "noise of 4,1,3,2: %g %%, want 51.6398", st.noise_pct);
    CHECK(four[0] == 4 && four[3] == 2, "stats_of reordered the samples");
    const double odd[] = {10, 30, 20};
    stats_of(odd, 3, &st);
    CHECK(st.median_ms == 20 && near(st.noise_pct, 50.0, 1e-9), "10,30,20: median %g noise %g",
          st.median_ms, st.noise_pct);
    const double same[] = {5, 5, 5};
    stats_of(same, 3, &st);
    CHECK(st.noise_pct == 0, "5,5,5: noise %g, want 0", st.noise_pct);
    const double one[] = {7};
    stats_of(one, 1, &st);
    CHECK(st.median_ms == 7 && isnan(st.noise_pct), "one sample: median %g noise %g (want NaN)",
          st.median_ms, st.noise_pct);
}

static void test_stop_rule(void)
{
    double ms[1000];
    for (int i = 0; i < 1000; i++)
        ms[i] = i % 2 ? 3.0 : 1.0; /* noise near 50 %: never below a --max-noise */

    struct stop_rule fixed = stop_rule_for(10, 0, 0);
    CHECK(!stop_rule_adaptive(&fixed) && fixed.max_reps == 10, "the default is not adaptive");
    CHECK(stop_rule_check(&fixed, ms, 9, 18) == STOP_MORE, "fixed: 9 of 10 stops");
    CHECK(stop_rule_check(&fixed, ms, 10, 20) == STOP_REPS, "fixed: 10 of 10 does not stop");
    /* Without the options a run is not longer however noisy or long its passes. */
    CHECK(stop_rule_check(&fixed, ms, 10, 1e9) == STOP_REPS, "fixed: long passes changed the count");

    struct stop_rule time_rule = stop_rule_for(3, 0.010, 0);
    CHECK(time_rule.max_reps == STATS_MAX_REPS && time_rule.min_time_ms == 10, "--min-time rule: cap %u, %g ms",
          time_rule.max_reps, time_rule.min_time_ms);
    CHECK(stop_rule_check(&time_rule, ms, 2, 100) == STOP_MORE, "--min-time stopped before --reps");
    CHECK(stop_rule_check(&time_rule, ms, 3, 9.99) == STOP_MORE, "--min-time stopped short of the time");
    CHECK(stop_rule_check(&time_rule, ms, 5, 10) == STOP_MIN_TIME, "--min-time did not stop at the time");
    CHECK(stop_rule_check(&time_rule, ms, 1000, 5) == STOP_CAP, "--min-time did not stop at 1000 repetitions");

    const double flat[] = {2, 2, 2, 2};
    struct stop_rule noise_rule = stop_rule_for(3, 0, 1.0);
    CHECK(stop_rule_check(&noise_rule, flat, 2, 4) == STOP_MORE, "--max-noise stopped before --reps");
    CHECK(stop_rule_check(&noise_rule, flat, 3, 6) == STOP_NOISE, "--max-noise: noise 0 did not stop");
    const double rough[] = {10, 10.5, 9.5}; /* noise 5 % */
    CHECK(stop_rule_check(&noise_rule, rough, 3, 30) == STOP_MORE, "--max-noise 1 stopped at noise 5 %%");
    struct stop_rule loose = stop_rule_for(3, 0, 5.1);
    CHECK(stop_rule_check(&loose, rough, 3, 30) == STOP_NOISE, "--max-noise 5.1 went on at noise 5 %%");
    CHECK(stop_rule_check(&noise_rule, ms, 999, 1998) == STOP_MORE, "--max-noise stopped at 999 noisy samples");
    CHECK(stop_rule_check(&noise_rule, ms, 1000, 2000) == STOP_CAP, "--max-noise: no cap at 1000");
    CHECK(stop_rule_check(&noise_rule, ms, 20, 15000) == STOP_CAP, "--max-noise alone: no stop after 15 s");

    /* Both: whichever is met first; the 15 s timeout belongs to --max-noise alone. */
    struct stop_rule both = stop_rule_for(3, 30, 1.0);
    CHECK(stop_rule_check(&both, flat, 3, 6) == STOP_NOISE, "both: the noise met did not stop");
    CHECK(stop_rule_check(&both, ms, 20, 15000) == STOP_MORE, "both: stopped at 15 s short of --min-time 30");
    CHECK(stop_rule_check(&both, ms, 20, 30000) == STOP_MIN_TIME, "both: --min-time met did not stop");

    struct stop_rule many = stop_rule_for(2000, 1, 0);
    CHECK(many.max_reps == 2000, "--reps above the cap: cap %u, want 2000", many.max_reps);
}

static void test_mann_whitney(void)
{
    const double low[] = {1, 2, 3, 4, 5}, high[] = {6, 7, 8, 9, 10};
    const double odd[] = {1, 3, 5, 7, 9}, even[] = {2, 4, 6, 8, 10};
    const double flat[] = {4, 4, 4, 4, 4};
    /* U = 0, mean 12.5, variance 25 * 11 / 12: z = 12 / 4.7871 = 2.5067, p = 0.01219. */
    double p = mann_whitney_p(low, 5, high, 5);
    CHECK(near(p, 0.01219, 5e-5), "U test 1..5 against 6..10: p %g, want 0.01219", p);
    p = mann_whitney_p(high, 5, low, 5);
    CHECK(near(p, 0.01219, 5e-5), "U test is not symmetric: p %g", p);
    /* U = 10: |U - 12.5| - 0.5 = 2, z = 0.41779, p = 0.6761. */
    p = mann_whitney_p(odd, 5, even, 5);
    CHECK(near(p, 0.6761, 5e-4), "U test interleaved: p %g, want 0.6761", p);
    p = mann_whitney_p(flat, 5, flat, 5);
    CHECK(p == 1.0, "U test of equal values: p %g, want 1", p);
    p = mann_whitney_p(low, 4, high, 5);
    CHECK(isnan(p), "U test of 4 samples: p %g, want NaN (too few)", p);
}

/* A subcommand whose passes take the times in `ms`, cycled. */
struct timed {
    const double *ms;
    unsigned n_ms, passes;
};

static int timed_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    (void)c;
    (void)pass_index;
    struct timed *t = ctx;
    *ms = warmup ? 100.0 : t->ms[t->passes++ % t->n_ms];
    return 0;
}

static int timed_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    (void)ctx;
    (void)c;
    spec->elements = 0; /* a reference case: nothing to check */
    return 0;
}

static void timed_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    (void)ctx;
    (void)c;
    snprintf(params, len, "synthetic=1");
}

static const struct bench_ops timed_ops = {
    .pass = timed_pass, .check_begin = timed_check_begin, .describe = timed_describe};

/* Samples the run loop takes with these options and pass times; reps_after_open: the reps the
 * subcommand sets after bench_open (0: leaves them). */
static unsigned loop_samples(unsigned reps, double min_time_s, double max_noise_pct, const double *ms,
                             unsigned n_ms, unsigned reps_after_open, double *noise)
{
    struct cli_common opt = {.reps = reps, .warmup = 1, .quiet = true, .min_time_s = min_time_s,
                             .max_noise_pct = max_noise_pct};
    struct timed t = {.ms = ms, .n_ms = n_ms};
    struct bench b;
    bench_open(&b, "synthetic", &opt, false, 0, NULL, NULL);
    if (reps_after_open)
        b.reps = reps_after_open;
    struct bench_case c = {.method = "m", .count = 1, .throughput_unit = "things", .timed_region = "cpu",
                           .cpu_threads = 1};
    const int rc = bench_run(&b, &timed_ops, &t, &c, 1);
    CHECK(rc == 0 && c.done, "bench_run: status %d", rc);
    *noise = c.stats.noise_pct;
    return c.stats.n;
}

static void test_run_loop(void)
{
    const double two[] = {2.0}, alternating[] = {1.0, 3.0};
    double noise;
    unsigned n = loop_samples(4, 0, 0, alternating, 2, 0, &noise);
    CHECK(n == 4 && near(noise, 100.0 * sqrt(4.0 / 3) / 2, 1e-9), "default: %u samples (want 4), noise %g", n, noise);
    n = loop_samples(3, 0.020, 0, two, 1, 0, &noise);
    CHECK(n == 10, "--min-time 0.02 with passes of 2 ms: %u samples, want 10", n);
    n = loop_samples(3, 0.001, 0, two, 1, 0, &noise);
    CHECK(n == 3, "--min-time below --reps' time: %u samples, want 3 (--reps)", n);
    n = loop_samples(5, 0, 1.0, two, 1, 0, &noise);
    CHECK(n == 5 && noise == 0, "--max-noise with steady passes: %u samples, want 5", n);
    n = loop_samples(5, 0, 1.0, alternating, 2, 0, &noise);
    CHECK(n == STATS_MAX_REPS, "--max-noise never met: %u samples, want the cap %u", n, STATS_MAX_REPS);
    n = loop_samples(10, 0, 0, two, 1, 1, &noise);
    CHECK(n == 1, "reps set by the subcommand after bench_open: %u samples, want 1", n);
    /* gcd --shared-factors' one pass by default still repeats to --min-time (it dropped it). */
    n = loop_samples(10, 0.020, 0, two, 1, 1, &noise);
    CHECK(n == 10, "reps set by the subcommand, --min-time 0.02 with passes of 2 ms: %u samples, want 10", n);
}


/* A result file read as compare reads it: opened, read by reader to its end, closed. */
static int read_table(const char *path, int (*reader)(FILE *, struct result_table *, char *, size_t),
                      struct result_table *t, char *err, size_t err_len)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "%s cannot be opened", path);
        return -1;
    }
    const int rc = reader(f, t, err, err_len);
    fclose(f);
    return rc;
}
static void test_json_round_trip(void)
{
    if (!json_supported()) {
        NOT_APPLICABLE("--json: this build has no cJSON");
        return;
    }
    char path[] = "/tmp/mpgpu_test_stats_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp failed");
    if (fd < 0)
        return;
    close(fd);
    struct run_env env;
    run_env_collect(&env, false, 0);
    char *argv[] = {"mul", "--json", path};
    struct cli_common opt = {.argc = 3, .argv = argv};
    struct json_report *j = json_report_open(path, &env, &opt);
    const double samples[] = {1.5, 0.5, 1.0};
    struct result_row row = {.subcommand = "mul", .method = "gmp", .bits = 128, .params = "words=4",
                             .count = 100, .reps = 3, .seed = UINT64_MAX, .timed_region = "cpu",
                             .median_ms = 1.0, .min_ms = 0.5, .max_ms = 1.5, .throughput = 1e5,
                             .throughput_unit = "products", .verify_mode = "reference",
                             .samples = 3, .noise_pct = 50.0};
    CHECK(json_report_add(j, &row, samples, NULL, 3) == 0, "json_report_add failed");
    json_report_close(j);
#ifdef MPGPU_HAVE_CJSON
    FILE *f = fopen(path, "r");
    char text[8192] = "";
    const size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[len] = '\0';
    if (f)
        fclose(f);
    cJSON *doc = cJSON_Parse(text);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    const cJSON *r0 = cJSON_GetArrayItem(rows, 0);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(r0, "samples_ms");
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(r0, "seed");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(doc, "command");
    CHECK(doc && cJSON_GetArraySize(rows) == 1 && cJSON_GetArraySize(s) == 3 &&
              cJSON_GetArrayItem(s, 0)->valuedouble == 1.5 && cJSON_GetArrayItem(s, 2)->valuedouble == 1.0,
          "cJSON read back: the row and its samples 1.5, 0.5, 1.0 in order");
    CHECK(cJSON_IsString(seed) && !strcmp(seed->valuestring, "18446744073709551615"),
          "the seed 2^64-1 lost digits");
    CHECK(cJSON_IsNumber(ver) && ver->valueint == CSV_SCHEMA_VERSION, "schema_version missing");
    CHECK(cJSON_GetArraySize(cmd) == 4 && !strcmp(cJSON_GetArrayItem(cmd, 3)->valuestring, path),
          "the command line is not recorded");
    CHECK(cJSON_GetObjectItemCaseSensitive(doc, "machine") && cJSON_GetObjectItemCaseSensitive(doc, "build"),
          "machine or build missing");
    cJSON_Delete(doc);
#endif
    struct result_table t;
    char err[256];
    CHECK(read_table(path, json_read_table, &t, err, sizeof err) == 0, "json_read_table: %s", err);
    CHECK(t.n_rows == 1 && !strcmp(result_get(&t.rows[0], "method"), "gmp") &&
              !strcmp(result_get(&t.rows[0], "bits"), "128") && t.rows[0].n_samples == 3 &&
              t.rows[0].samples_ms[1] == 0.5,
          "compare's JSON reader: the row's fields and samples");
    result_table_free(&t);
    remove(path);
}

static void test_csv_read(void)
{
    char path[] = "/tmp/mpgpu_test_stats_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp failed");
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    fprintf(f, "timestamp,cpu,method,median_ms\n"
               "t1,\"Xeon, \"\"fast\"\"\",gmp,1.5\n"
               "timestamp,cpu,method,median_ms,noise_rsd_pct\n"
               "t2,plain,comba,2.5,\n");
    fclose(f);
    struct result_table t;
    char err[256];
    CHECK(read_table(path, csv_read_table, &t, err, sizeof err) == 0, "csv_read_table: %s", err);
    CHECK(t.n_rows == 2 && !strcmp(result_get(&t.rows[0], "cpu"), "Xeon, \"fast\"") &&
              !strcmp(result_get(&t.rows[0], "median_ms"), "1.5") && !result_get(&t.rows[0], "noise_rsd_pct"),
          "a quoted field, and a column the first schema lacks");
    CHECK(t.n_rows == 2 && !strcmp(result_get(&t.rows[1], "noise_rsd_pct"), "") &&
              !strcmp(result_get(&t.rows[1], "method"), "comba") && t.rows[1].line == 4,
          "the second header's row");
    result_table_free(&t);
    f = fopen(path, "w");
    fprintf(f, "timestamp,method\nt1,gmp,extra\n");
    fclose(f);
    CHECK(read_table(path, csv_read_table, &t, err, sizeof err) != 0 && strstr(err, "line 2 has 3 fields"),
          "a row longer than its header: '%s'", err);
    result_table_free(&t);
    remove(path);
}

static void test_nvml(void)
{
    char names[96];
    CHECK(!strcmp(nvml_reason_names(0x4 | 0x40 | 0x1 | 0x2, names, sizeof names), "sw_power_cap/hw_thermal"),
          "reason names of power cap, hw thermal, idle, app clocks: '%s'", names);
    CHECK(!strcmp(nvml_reason_names(0x1 | 0x10 | 0x100, names, sizeof names), ""),
          "idle, sync boost and display clocks are not throttling: '%s'", names);
    if (nvml_open(0)) {
        NOT_APPLICABLE("NVML absent: this machine has NVML and a GPU");
        return;
    }
    struct nvml_sample s;
    nvml_read(&s);
    unsigned long long reasons = 1;
    CHECK(!nvml_available() && !s.valid && !nvml_reasons(&reasons) && reasons == 0,
          "without NVML: available %d, reading valid %d, reasons %llu", nvml_available(), s.valid, reasons);
}

/* The check's progress names its unit in the plural: "moduli", not "moduluss". */
static void test_check_unit(void)
{
    char unit[48];
    const struct bench_check_spec pairs = {.element = "pair"};
    bench_check_unit(&pairs, unit, sizeof unit);
    CHECK(!strcmp(unit, "pairs"), "the unit of pairs: '%s'", unit);
    const struct bench_check_spec moduli = {.element = "modulus", .element_plural = "moduli"};
    bench_check_unit(&moduli, unit, sizeof unit);
    CHECK(!strcmp(unit, "moduli"), "the unit of moduli: '%s'", unit);
}

int main(void)
{
    seed = test_seed();
    test_stats_of();
    test_stop_rule();
    test_mann_whitney();
    test_run_loop();
    test_json_round_trip();
    test_csv_read();
    test_nvml();
    test_check_unit();
    return test_finish("test_stats");
}
