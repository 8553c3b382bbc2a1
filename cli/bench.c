#include "bench.h"

#include <inttypes.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "markdown_stream.h"
#include "nvml_probe.h"
#include "output_file.h"
#include "progress.h"

/* The whole of a case predicted to last longer than this says so after its first pass. */
#define ANNOUNCE_CASE_S 10.0

bool bench_talk(const struct bench *b)
{
    return !b->opt->quiet;
}

void bench_open(struct bench *b, const char *subcommand, const struct cli_common *opt, bool have_gpu,
                int device, const char *no_gpu, const char *instead)
{
    memset(b, 0, sizeof *b);
    b->subcommand = subcommand;
    b->opt = opt;
    b->warmup = opt->warmup;
    b->reps = opt->reps;
    b->seed = opt->seed;
    interrupt_install(); /* first: a reader gone is an error to say from the CSV's header on */
    if (opt->csv_path) {
        b->csv = csv_open(opt->csv_path, &b->csv_schema);
        if (!b->csv)
            exit(EXIT_BAD_INPUT);
        b->csv_is_stdout = b->csv == stdout;
    }
    /* With the CSV on stdout the readable table moves to stderr, so stdout stays one CSV. */
    b->table = opt->quiet ? NULL : b->csv_is_stdout ? stderr : stdout;
    if (b->table && opt->markdown) {
        FILE *md = markdown_stream_open(b->table);
        if (md)
            b->table = md;
    }
    run_env_collect(&b->env, have_gpu, device);
    if (opt->json_path)
        b->json = json_report_open(opt->json_path, &b->env, opt);
    if (have_gpu)
        nvml_open(device);
    if (no_gpu)
        fprintf(stderr, "mpgpu: %s; %s\n", no_gpu, instead);
}

static void announce_case(const struct bench *b, const struct bench_case *c, double first_ms,
                          unsigned passes_left)
{
    const double left_s = first_ms * passes_left * 1e-3;
    if (!bench_talk(b) || left_s <= ANNOUNCE_CASE_S)
        return;
    char eta[32];
    progress_format_duration(eta, sizeof eta, left_s);
    char size[32] = "";
    if (c->bits)
        snprintf(size, sizeof size, " at %u bits", c->bits);
    fprintf(stderr, "mpgpu: %s %s%s: about %s more (%u pass%s of %.3g s)\n", b->subcommand, c->method,
            size, eta, passes_left, passes_left == 1 ? "" : "es", first_ms * 1e-3);
}

/* The timed passes of a case: their times in the order taken, and what NVML saw. */
struct case_samples {
    double *ms;       /* room for the stop rule's max_reps */
    bool *throttled;  /* after each: a throttling reason was active */
    unsigned n;
    enum stop_reason why;
    struct nvml_row gpu;
};

/* Warm-up and timed passes of one case, the timed ones until the rule stops them; a GPU case's
 * state is read before the first timed pass and after the last, and its throttle reasons after
 * each (a call of microseconds, outside the timed region). Returns 0, BENCH_STOPPED or an EXIT_*
 * status. */
static int time_case(struct bench *b, const struct bench_ops *ops, void *ctx, struct bench_case *c,
                     const struct stop_rule *rule, struct case_samples *s)
{
    const bool probe = c->cpu_threads == 0 && nvml_available();
    memset(&s->gpu, 0, sizeof s->gpu);
    s->n = 0;
    double total_ms = 0;
    for (unsigned i = 0;; i++) {
        const bool warm = i < b->warmup;
        if (!warm && (s->why = stop_rule_check(rule, s->ms, s->n, total_ms)) != STOP_MORE)
            break;
        if (interrupt_requested())
            return BENCH_STOPPED;
        if (probe && i == b->warmup)
            nvml_read(&s->gpu.start);
        double ms = 0;
        int rc = ops->pass(ctx, c, i, warm, &ms);
        if (rc != 0)
            return rc;
        if (!warm) {
            unsigned long long reasons;
            const bool read = probe && nvml_reasons(&reasons);
            s->throttled[s->n] = read && (reasons & NVML_THROTTLING);
            s->gpu.reasons_read |= read;
            s->gpu.throttled_samples += s->throttled[s->n];
            s->gpu.reasons |= read ? reasons & NVML_THROTTLING : 0;
            s->ms[s->n++] = ms;
            total_ms += ms;
        }
        if (i == 0)
            announce_case(b, c, ms, b->warmup + rule->min_reps - 1);
    }
    if (probe)
        nvml_read(&s->gpu.end);
    return 0;
}

/* A warning under a row whose noise makes its median doubtful, and a note where an adaptive
 * run gave up before --max-noise was met. */
static void warn_noise(const struct bench *b, const struct bench_case *c, const struct case_samples *s,
                       const struct stop_rule *rule)
{
    if (!bench_talk(b))
        return;
    char size[32] = "";
    if (c->bits)
        snprintf(size, sizeof size, " at %u bits", c->bits);
    const double noise = c->stats.noise_pct;
    if (s->why == STOP_CAP && rule->max_noise_pct > 0)
        fprintf(stderr, "mpgpu: note: %s %s%s: stopped after %u repetitions (%s) with noise %.2f %%, "
                        "above --max-noise %g\n", b->subcommand, c->method, size, s->n,
                s->n >= rule->max_reps ? "the most taken" : "15 s of timed work", noise,
                rule->max_noise_pct);
    else if (noise > STATS_NOISY_PCT)
        fprintf(stderr, "mpgpu: warning: %s %s%s: noise %.2f %% (relative standard deviation of %u "
                        "repetitions) is above %g %%; --min-time or --max-noise repeat longer\n",
                b->subcommand, c->method, size, noise, s->n, STATS_NOISY_PCT);
    char reasons[96];
    if (s->gpu.throttled_samples)
        fprintf(stderr, "mpgpu: warning: %s %s%s: %u of %u repetitions ran throttled (%s)\n",
                b->subcommand, c->method, size, s->gpu.throttled_samples, s->n,
                nvml_reason_names(s->gpu.reasons, reasons, sizeof reasons));
}

static void emit_row(struct bench *b, const struct bench_ops *ops, void *ctx, const struct bench_case *c,
                     const struct bench_check *chk, const struct case_samples *s)
{
    struct result_row row = {
        .subcommand = b->subcommand, .method = c->method, .bits = c->bits, .count = c->count,
        .reps = b->reps, .warmup = b->warmup, .seed = b->seed, .cpu_threads = c->cpu_threads,
        .timed_region = c->timed_region, .median_ms = c->median_ms, .min_ms = c->min_ms,
        .max_ms = c->max_ms, .throughput_unit = c->throughput_unit, .verify_mode = chk->verify_mode,
        .checked = chk->checked, .mismatches = chk->mismatches, .samples = s->n,
        .noise_pct = c->stats.noise_pct, .gpu_state = c->cpu_threads == 0 ? &s->gpu : NULL,
    };
    row.throughput = c->median_ms > 0 ? (double)c->count / (c->median_ms * 1e-3) : 0;
    ops->describe(ctx, c, row.params, sizeof row.params);
    if (b->table) {
        table_row(b->table, &row, b->opt->markdown);
        const int err = output_flush_error(b->table);
        if (err && b->table == stdout) {
            output_note_stdout_error(err); /* said at exit, as for any failure of stdout */
            b->output_failed = true;
        }
    }
    if (b->csv && csv_write_row(b->csv, b->csv_schema, &b->env, &row) != 0) {
        b->output_failed = true;
        if (b->exit_status == 0)
            b->exit_status = EXIT_BAD_INPUT;
    }
    if (b->json && json_report_add(b->json, &row, s->ms, s->gpu.reasons_read ? s->throttled : NULL, s->n) != 0 &&
        b->exit_status == 0)
        b->exit_status = EXIT_BAD_INPUT;
}

/* Element s of the elements a check looks at: every one, or a spread sample (0, stride,
 * 2 stride, ... and the last), so that a fault confined to one part of the batch (one GPU's
 * share, one block, the tail) is still seen. */
struct check_pick {
    uint64_t elements, stride, steps;
    bool add_last;
};

static struct check_pick check_pick_for(enum verify_mode v, const struct bench_check_spec *spec)
{
    struct check_pick p = {.elements = spec->elements, .stride = 1};
    const uint64_t sample = spec->sample ? spec->sample : BENCH_SAMPLE_ELEMENTS;
    if (v == VERIFY_SAMPLE && p.elements > sample)
        p.stride = p.elements / sample;
    p.steps = (p.elements + p.stride - 1) / p.stride;
    p.add_last = p.elements > 0 && (p.elements - 1) % p.stride != 0;
    return p;
}

bool bench_sample_takes(uint64_t i, uint64_t elements, uint64_t sample)
{
    const struct bench_check_spec spec = {.elements = elements, .sample = sample};
    const struct check_pick p = check_pick_for(VERIFY_SAMPLE, &spec);
    return i % p.stride == 0 || i == elements - 1;
}

static uint64_t check_pick_element(const struct check_pick *p, uint64_t s)
{
    return s == p->steps ? p->elements - 1 : s * p->stride;
}

void bench_check_unit(const struct bench_check_spec *spec, char *unit, size_t len)
{
    if (spec->element_plural)
        snprintf(unit, len, "%s", spec->element_plural);
    else
        snprintf(unit, len, "%ss", spec->element);
}

/* Looks at the picked elements on spec->threads threads: each one's reference, then the
 * comparison. Returns 0, BENCH_STOPPED (Ctrl-C) or EXIT_BAD_INPUT (no scratch memory). */
static int check_elements(struct bench *b, const struct bench_ops *ops, void *ctx, struct bench_case *c,
                          const struct bench_check_spec *spec, struct bench_check *out)
{
    const struct check_pick pick = check_pick_for(b->opt->verify, spec);
    const uint64_t total = pick.steps + pick.add_last;
    char label[96];
    snprintf(label, sizeof label, "%s %s: check against %s", b->subcommand, c->method, spec->reference);
    char unit[48];
    bench_check_unit(spec, unit, sizeof unit);
    struct progress pg;
    progress_begin(&pg, progress_mode_for(b->opt->quiet), label, unit, total);
    uint64_t done = 0, bad = 0, no_scratch = 0, fallbacks = 0, first = UINT64_MAX;
#pragma omp parallel num_threads(spec->threads > 1 ? spec->threads : 1) \
    reduction(+ : bad, no_scratch, fallbacks)
    {
        void *scratch = malloc(spec->scratch_bytes ? spec->scratch_bytes : 1);
        uint64_t my_first = UINT64_MAX;
        no_scratch += scratch == NULL;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t s = 0; s < total; s++) {
            if (!scratch || interrupt_requested())
                continue;
            const uint64_t i = check_pick_element(&pick, s);
            const enum bench_ref ref = ops->reference(ctx, c, i, scratch);
            if (interrupt_requested())
                continue; /* a reference cut short by Ctrl-C judges nothing */
            if (ref == BENCH_REF_NO_MEMORY) {
                no_scratch++;
                continue;
            }
            if (ref == BENCH_REF_FALLBACK) {
                fallbacks++;
                continue;
            }
            if (!ops->compare(ctx, c, i, scratch)) {
                bad++;
                if (i < my_first)
                    my_first = i;
            }
            uint64_t now;
#pragma omp atomic capture
            now = ++done;
            if (omp_get_thread_num() == 0)
                progress_update(&pg, now);
        }
#pragma omp critical
        if (my_first < first)
            first = my_first;
        free(scratch);
    }
    progress_end(&pg);
    if (interrupt_requested())
        return BENCH_STOPPED;
    if (no_scratch) {
        fprintf(stderr, "mpgpu: %s %s: out of host memory for the check against %s\n", b->subcommand,
                c->method, spec->reference);
        return EXIT_BAD_INPUT;
    }
    out->checked = done;
    out->mismatches = bad;
    out->fallbacks = fallbacks;
    if (bad) {
        char name[120];
        if (ops->name_element)
            ops->name_element(ctx, c, first, name, sizeof name);
        else
            snprintf(name, sizeof name, "%s %" PRIu64, spec->element, first);
        snprintf(out->first_bad, sizeof out->first_bad, "first bad %s", name);
    }
    return 0;
}

/* The check of a case after its timed passes: the results against the reference, element by
 * element (which ones by --verify), then the subcommand's checks of the case as a whole. */
static int check_case(struct bench *b, const struct bench_ops *ops, void *ctx, struct bench_case *c,
                      struct bench_check *out)
{
    struct bench_check_spec spec = {.element = "element", .reference = "GMP", .threads = 1};
    int rc = ops->check_begin(ctx, c, &spec);
    if (rc != 0)
        return rc;
    const enum verify_mode v = b->opt->verify;
    out->reference = spec.reference;
    out->element = spec.element;
    if (spec.elements == 0)
        out->verify_mode = "reference";
    else
        out->verify_mode = v == VERIFY_ALL ? "all" : v == VERIFY_SAMPLE ? "sample" : "none";
    if (spec.elements > 0 && v != VERIFY_NONE && (rc = check_elements(b, ops, ctx, c, &spec, out)) != 0)
        return rc;
    if (ops->check_end)
        ops->check_end(ctx, c, out);
    return 0;
}

/* The worse of two exit statuses: a wrong result outranks everything but a failed CUDA call. */
static void raise_status(struct bench *b, int status)
{
    if (status != 0 && (b->exit_status == 0 || status == EXIT_MISMATCH))
        b->exit_status = status;
}

int bench_run(struct bench *b, const struct bench_ops *ops, void *ctx, struct bench_case *cases,
              size_t n_cases)
{
    if (b->table && n_cases > 0) {
        run_env_print(b->table, &b->env);
        table_begin(b->table, cases[0].throughput_unit, b->opt->markdown);
    }
    /* A subcommand that sets its own repetitions (one pass of gcd --shared-factors by default)
     * still repeats to --min-time or --max-noise when they are given; where one pass is all
     * there can be (collatz --checkpoint) they are refused. */
    const struct stop_rule rule = stop_rule_for(b->reps, b->opt->min_time_s, b->opt->max_noise_pct);
    struct case_samples samples = {.ms = malloc((rule.max_reps ? rule.max_reps : 1) * sizeof *samples.ms),
                                   .throttled = malloc(rule.max_reps ? rule.max_reps : 1)};
    if (!samples.ms || !samples.throttled) {
        fprintf(stderr, "mpgpu: out of host memory for the samples of %u repetitions\n", rule.max_reps);
        exit(EXIT_BAD_INPUT);
    }
    uint64_t rows = 0, checked = 0, bad_rows = 0;
    size_t i = 0;
    for (; i < n_cases && !b->interrupted && !b->output_failed; i++) {
        struct bench_case *c = &cases[i];
        if (progress_mode_for(b->opt->quiet) == PROGRESS_BAR && n_cases > 1) {
            fprintf(stderr, "[%zu/%zu] %s", i + 1, n_cases, c->method);
            if (c->bits)
                fprintf(stderr, " %u bits", c->bits);
            fputc('\n', stderr);
        }
        int rc = ops->setup ? ops->setup(ctx, c) : 0;
        if (rc == 0)
            rc = time_case(b, ops, ctx, c, &rule, &samples);
        if (rc == 0 && interrupt_requested())
            rc = BENCH_STOPPED;
        struct bench_check chk = {.verify_mode = "none"};
        if (rc == 0) {
            stats_of(samples.ms, samples.n, &c->stats);
            c->median_ms = c->stats.median_ms;
            c->min_ms = c->stats.min_ms;
            c->max_ms = c->stats.max_ms;
            rc = check_case(b, ops, ctx, c, &chk);
        }
        if (rc == BENCH_STOPPED) {
            b->interrupted = true;
        } else if (rc != 0) {
            raise_status(b, rc);
        } else {
            c->done = true;
            emit_row(b, ops, ctx, c, &chk, &samples);
            warn_noise(b, c, &samples, &rule);
            rows++;
            checked += chk.checked;
            if (chk.mismatches) {
                bad_rows++;
                fprintf(stderr, "mpgpu: %s %s", b->subcommand, c->method);
                if (c->bits)
                    fprintf(stderr, " at %u bits", c->bits);
                fprintf(stderr, ": %llu of %llu checked %ss differ from the reference; %s\n",
                        (unsigned long long)chk.mismatches, (unsigned long long)chk.checked,
                        chk.element ? chk.element : "result", chk.first_bad);
                raise_status(b, EXIT_MISMATCH);
            }
            if (chk.fallbacks && b->table)
                fprintf(b->table, "# %s: %llu of the %s were answered by %s, not by the GPU: "
                        "not counted as checked\n", c->method, (unsigned long long)chk.fallbacks,
                        c->throughput_unit, chk.reference);
            if (ops->summary && b->table)
                ops->summary(ctx, c, b->table);
        }
        if (ops->teardown)
            ops->teardown(ctx, c);
    }
    free(samples.ms);
    free(samples.throttled);
    json_report_close(b->json);
    b->json = NULL;
    if (b->table && rows > 0) {
        fprintf(b->table, "# %llu row(s): ", (unsigned long long)rows);
        if (bad_rows)
            fprintf(b->table, "%llu with results that DIFFER from the reference (see stderr)\n",
                    (unsigned long long)bad_rows);
        else if (checked)
            fprintf(b->table, "%llu result(s) checked, all equal to the reference\n",
                    (unsigned long long)checked);
        else
            fprintf(b->table, "no result checked (reference rows, or --verify none)\n");
    }
    if (b->csv && b->csv != stdout && fclose(b->csv) != 0 && b->exit_status == 0) {
        fprintf(stderr, "mpgpu: closing --csv '%s' failed\n", b->opt->csv_path);
        b->exit_status = EXIT_BAD_INPUT;
    }
    b->csv = NULL;
    if (b->interrupted) {
        fprintf(stderr, "mpgpu: interrupted; the rows above are complete, later cases did not run\n");
        return EXIT_INTERRUPTED;
    }
    if (b->output_failed && i < n_cases) {
        /* Rows that could not be written would be measurements lost. */
        fprintf(stderr, "mpgpu: a row could not be written; the %zu later case%s did not run\n", n_cases - i,
                n_cases - i == 1 ? "" : "s");
        if (b->exit_status == 0)
            b->exit_status = EXIT_BAD_INPUT;
    }
    return b->exit_status;
}
