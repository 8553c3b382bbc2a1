/* mpgpu compare BASE NEW: two result files (CSV of any schema, or --json), case by case; a verdict
 * FAST, SLOW or SAME beyond the noise of both, and exit status 1 when a case is SLOW beyond
 * --threshold, for a user's CI (docs/compare.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "csv_read.h"
#include "json_report.h"
#include "output_file.h"
#include "path_claim.h"
#include "report.h"
#include "stats.h"

/* A rank test below this p-value is a difference. */
#define COMPARE_ALPHA 0.05
#define DEFAULT_THRESHOLD_PCT 5.0
#define THRESHOLD_MAX_PCT 1000.0

/* params keys that are measurements or the run's own choices, not parameters of the case: left
 * out of a case's identity, so that two runs of one case match (docs/compare.md lists them). */
static const char *const measured_keys[] = {
    "batches", "auto_bits", "auto_count", "mandatory", "steps", "overflows", "sum", "max",
    "argmax", "records", "n_q", "grid", "block", "steps_per_pair", "attempts", "retried_pairs",
    "gmp_fallbacks", "init", "pivots_per_pair", "spurious_bits_per_pair", "zero_checks",
    "common_factors", "pair_steps", "shift_steps", "one_steps", "quotients_per_pair_step",
    "negations", "ripple_rounds", "steps_planned_ahead", "bins",
    /* gcd --shared-factors: what the search found, and where a resumed search started */
    "found", "shared", "both", "duplicate", "small", "resumed_tiles",
};

static bool measured_key(const char *key, size_t len)
{
    if (len > 3 && !strncmp(key + len - 3, "_ms", 3))
        return true;
    for (size_t i = 0; i < sizeof measured_keys / sizeof measured_keys[0]; i++)
        if (strlen(measured_keys[i]) == len && !strncmp(measured_keys[i], key, len))
            return true;
    return false;
}

/* gcd's grid and block are the last launch's; fixed's are what --grid and --block asked for. */
static bool keeps_launch_shape(const char *subcommand)
{
    return !strcmp(subcommand, "fixed");
}

/* One case of a file: what identifies it, and its times. */
struct compare_case {
    char key[1024];     /* subcommand, method, bits, count, timed_region, cpu_threads, params */
    char label[1024];   /* the key as printed */
    double median_ms, min_ms, max_ms;
    double noise_pct;   /* NaN when the file has none (schema 1) */
    const double *samples;
    unsigned n_samples;
    unsigned timed;     /* repetitions behind the median (samples, else reps); 1: no noise known */
    struct compare_case *partner; /* the other side's case of the same key; NULL: none */
};

struct compare_side {
    const char *path;
    struct result_table table;
    struct compare_case *cases;
    size_t n_cases;
    size_t duplicates;  /* rows whose case an earlier row had: the last is compared */
};

static _Noreturn void bad_file(const struct compare_side *s, const char *why)
{
    cli_bad_input("compare: '%s' %s", s->path, why);
}

static const char *need(const struct compare_side *s, const struct result_record *r, const char *name)
{
    const char *v = result_get(r, name);
    if (!v) {
        char why[160];
        snprintf(why, sizeof why, "has no column %s (line %u); accepted: a CSV or --json file of mpgpu",
                 name, r->line);
        bad_file(s, why);
    }
    return v;
}

static double need_number(const struct compare_side *s, const struct result_record *r, const char *name)
{
    const char *v = need(s, r, name);
    char *end;
    const double x = strtod(v, &end);
    /* A median of 0 would make every ratio to it NaN, judged SAME: a gate that passes anything. */
    const bool median = !strcmp(name, "median_ms");
    if (!v[0] || *end || !isfinite(x) || !(median ? x > 0 : x >= 0)) {
        char why[200];
        snprintf(why, sizeof why, "line %u: %s '%.40s' is not a time in ms%s", r->line, name, v,
                 median ? " above 0" : "");
        bad_file(s, why);
    }
    return x;
}

/* params without its measured keys. */
static void case_params(const char *subcommand, const char *params, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = params; *p;) {
        const size_t item = strcspn(p, ";");
        const size_t key = strcspn(p, "=;");
        const bool shape = (key == 4 && !strncmp(p, "grid", 4)) || (key == 5 && !strncmp(p, "block", 5));
        /* An input file by its name, not the folder it was read from on that machine. */
        const char *slash = NULL;
        if (key == 5 && !strncmp(p, "input", 5))
            for (const char *q = p + key; q < p + item; q++)
                if (*q == '/')
                    slash = q;
        if (slash && used < len)
            used += (size_t)snprintf(out + used, len - used, "%sinput=%.*s", used ? ";" : "",
                                     (int)(p + item - slash - 1), slash + 1);
        else if (!(measured_key(p, key) && !(shape && keeps_launch_shape(subcommand))) && used < len)
            used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? ";" : "", (int)item, p);
        p += item + (p[item] == ';');
    }
}

static void case_of(const struct compare_side *s, const struct result_record *r, struct compare_case *c)
{
    const char *sub = need(s, r, "subcommand"), *method = need(s, r, "method");
    const char *bits = need(s, r, "bits"), *count = need(s, r, "count");
    const char *region = need(s, r, "timed_region"), *threads = need(s, r, "cpu_threads");
    char params[700];
    case_params(sub, need(s, r, "params"), params, sizeof params);
    snprintf(c->key, sizeof c->key, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", sub, method, bits, count,
             region, threads, params);
    char where[64] = "";
    if (strcmp(threads, "0") != 0)
        snprintf(where, sizeof where, " cpu_threads=%s", threads);
    else if (strcmp(region, "kernels") != 0)
        snprintf(where, sizeof where, " %s", region);
    snprintf(c->label, sizeof c->label, "%s %s bits=%s count=%s%s%s%s", sub, method, bits, count,
             where, params[0] ? " " : "", params);
    c->median_ms = need_number(s, r, "median_ms");
    c->min_ms = need_number(s, r, "min_ms");
    c->max_ms = need_number(s, r, "max_ms");
    const char *noise = result_get(r, "noise_rsd_pct");
    c->noise_pct = noise && noise[0] ? strtod(noise, NULL) : NAN;
    c->samples = r->samples_ms;
    c->n_samples = r->n_samples;
    const char *timed = result_get(r, "samples");
    if (!timed || !timed[0])
        timed = result_get(r, "reps");
    c->timed = timed && timed[0] ? (unsigned)strtoul(timed, NULL, 10) : 0;
    c->partner = NULL;
}

static void load_side(struct compare_side *s)
{
    /* Opened once and read start to end, so that a pipe, a FIFO or '-' (stdin) works: JSON when
     * it starts with '{' (after blanks), else CSV. */
    const bool std_in = !strcmp(s->path, "-");
    FILE *f = std_in ? stdin : fopen(s->path, "r");
    if (!f) {
        char why[160];
        snprintf(why, sizeof why, "cannot be read: %s", strerror(errno));
        bad_file(s, why);
    }
    const int ch = result_file_first_char(f);
    ungetc(ch, f);
    char err[256];
    const int rc = ch == '{' ? json_read_table(f, &s->table, err, sizeof err)
                             : csv_read_table(f, &s->table, err, sizeof err);
    if (!std_in)
        fclose(f);
    if (rc != 0)
        bad_file(s, err);
    s->cases = calloc(s->table.n_rows ? s->table.n_rows : 1, sizeof *s->cases);
    if (!s->cases)
        bad_file(s, "is too large: out of memory");
    for (size_t i = 0; i < s->table.n_rows; i++) {
        struct compare_case c;
        case_of(s, &s->table.rows[i], &c);
        size_t at = s->n_cases;
        for (size_t k = 0; k < s->n_cases; k++)
            if (!strcmp(s->cases[k].key, c.key))
                at = k;
        s->duplicates += at < s->n_cases;
        s->cases[at] = c;
        s->n_cases += at == s->n_cases;
    }
}

/* Pairs each case of base with the case of new of the same key (a side holds a key once);
 * returns how many pairs. */
static size_t pair_cases(struct compare_side *base, struct compare_side *new)
{
    size_t pairs = 0;
    for (size_t i = 0; i < base->n_cases; i++)
        for (size_t k = 0; k < new->n_cases && !base->cases[i].partner; k++)
            if (!new->cases[k].partner && !strcmp(base->cases[i].key, new->cases[k].key)) {
                base->cases[i].partner = &new->cases[k];
                new->cases[k].partner = &base->cases[i];
                pairs++;
            }
    return pairs;
}

/* Two significant digits below 10, whole percent from 10 on (220, not 2.2e+02), so that the
 * table's column keeps its width. */
static const char *percent_text(char *out, size_t len, double pct)
{
    snprintf(out, len, pct < 10 ? "%.2g" : "%.0f", pct);
    return out;
}

/* How far a case's median may move by noise alone, in percent: its relative standard deviation,
 * or for a schema-1 row (no noise column) half its min-max range over the median. */
static double noise_band_pct(const struct compare_case *c)
{
    if (!isnan(c->noise_pct))
        return c->noise_pct;
    return c->median_ms > 0 ? 50.0 * (c->max_ms - c->min_ms) / c->median_ms : 0;
}

enum verdict { SAME, FAST, SLOW };
static const char *const verdict_names[] = {"SAME", "FAST", "SLOW"};

/* The verdict for base against new, and how it was reached ("U p=0.003", "noise 2.1+3.0 %", or
 * "1 sample: threshold" where a row of one repetition has no noise to judge by, so that only a
 * difference beyond --threshold counts). */
static enum verdict judge(const struct compare_case *b, const struct compare_case *n,
                          double threshold, char *how, size_t len)
{
    const double diff_pct = b->median_ms > 0 ? 100.0 * (n->median_ms / b->median_ms - 1) : 0;
    const double p = b->samples && n->samples ? mann_whitney_p(b->samples, b->n_samples, n->samples,
                                                               n->n_samples)
                                              : NAN;
    bool differs;
    if (!isnan(p)) {
        snprintf(how, len, "U p=%.2g", p);
        differs = p < COMPARE_ALPHA;
    } else if (b->timed == 1 || n->timed == 1) {
        snprintf(how, len, "1 sample: threshold");
        differs = fabs(diff_pct) > threshold;
    } else {
        const double band = noise_band_pct(b) + noise_band_pct(n);
        char nb[16], nn[16];
        snprintf(how, len, "noise %s+%s %%", percent_text(nb, sizeof nb, noise_band_pct(b)),
                 percent_text(nn, sizeof nn, noise_band_pct(n)));
        differs = fabs(diff_pct) > band;
    }
    if (!differs || diff_pct == 0)
        return SAME;
    return diff_pct > 0 ? SLOW : FAST;
}

static void usage(FILE *f)
{
    cli_print_wrapped(f,
        "usage: mpgpu compare BASE NEW [--threshold P] [--csv FILE]\n\n"
        "Compares two result files of mpgpu, each a CSV (--csv, either schema) or a --json file. "
        "Cases are matched by subcommand, method, bits, count, timed region, CPU threads and "
        "params (measured keys left out, docs/compare.md). Each matched case gets base, new, "
        "their ratio new/base and a verdict: SLOW or FAST when the difference is beyond the noise "
        "of both rows (a Mann-Whitney U test, p < 0.05, where both files hold the samples: "
        "--json), SAME otherwise. Cases on one side only are listed. BASE or NEW may be '-' "
        "(stdin), a pipe or a FIFO: each is read once, start to end.\n\n"
        "options:\n"
        "  --threshold P    a SLOW case more than P % slower makes the exit status 1 (default 5; "
        "0..1000)\n"
        "  --csv FILE       also write the matched cases to FILE as CSV ('-': stdout, the table "
        "then going to stderr; make -f Makefile.plots compare draws it)\n"
        "  --help           print this help and exit\n\n"
        "A row of one repetition has no noise to judge by: its case is SLOW or FAST only beyond "
        "--threshold.\n\n"
        "Exit status: 0 no case SLOW beyond the threshold, 1 one or more, 2 bad input or no case "
        "in common.\n");
}

/* The value of --NAME VALUE or --NAME=VALUE at argv[*i], advancing *i; NULL when argv[*i] is
 * not --NAME. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    const size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc)
        cli_bad_input("compare: option '%s' needs a value; see 'mpgpu compare --help'", name);
    return argv[++*i];
}

int cmd_compare(int argc, char **argv)
{
    struct compare_side sides[2] = {{0}};
    int n_files = 0;
    double threshold = DEFAULT_THRESHOLD_PCT;
    const char *csv_path = NULL, *threshold_given = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if ((v = option_value(argc, argv, &i, "--threshold"))) {
            if (threshold_given)
                cli_refuse_repeat("--threshold", threshold_given, v);
            threshold = cli_parse_real("--threshold", threshold_given = v, THRESHOLD_MAX_PCT, "percent", NULL);
        } else if ((v = option_value(argc, argv, &i, "--csv"))) {
            if (csv_path)
                cli_refuse_repeat("--csv", csv_path, v);
            path_claim("--csv", csv_path = v, PATH_WRITE);
        } else if (!strncmp(argv[i], "--", 2)) {
            cli_bad_input("compare: unknown option '%s'; see 'mpgpu compare --help'", argv[i]);
        } else if (n_files == 2) {
            cli_bad_input("compare: unexpected argument '%s'; accepted: two files, BASE and NEW", argv[i]);
        } else {
            path_claim(n_files ? "NEW" : "BASE", argv[i], PATH_READ);
            sides[n_files++].path = argv[i];
        }
    }
    if (n_files != 2)
        cli_bad_input("compare: %s; accepted: mpgpu compare BASE NEW [--threshold P] [--csv FILE]",
                      n_files ? "the NEW file is missing" : "the BASE and NEW files are missing");
    if (!strcmp(sides[0].path, "-") && !strcmp(sides[1].path, "-"))
        cli_bad_input("compare: BASE and NEW are both '-' (stdin); accepted: '-' for one of them");
    load_side(&sides[0]);
    load_side(&sides[1]);
    struct compare_side *base = &sides[0], *new = &sides[1];
    /* A gate that compared nothing must not pass; said before --csv is written. */
    if (pair_cases(base, new) == 0)
        cli_bad_input("compare: no case of %s is in %s, so nothing was compared (%zu and %zu cases); "
                      "accepted: two files with a case in common (docs/compare.md says what makes a "
                      "case)", base->path, new->path, base->n_cases, new->n_cases);
    /* Replaced only once every case is written; with the CSV on stdout the table goes to stderr. */
    struct output_file csv;
    output_file_open(&csv, "--csv", csv_path, NULL);
    FILE *out_csv = csv.f, *table = stdout;
    output_file_move_table(&csv, &table);
    if (out_csv) {
        /* Written through at once, so that a file that takes nothing (a full disk) is said before
         * the table rather than after it. */
        fprintf(out_csv, "case,base_ms,new_ms,ratio,verdict\n");
        const int err = output_flush_error(out_csv);
        if (err)
            cli_bad_input("--csv '%s': writing failed: %s", csv_path, strerror(err));
    }

    fprintf(table, "# base %s (%zu case%s), new %s (%zu case%s); ratio new/base, above 1 slower\n",
            base->path, base->n_cases, base->n_cases == 1 ? "" : "s", new->path, new->n_cases,
            new->n_cases == 1 ? "" : "s");
    for (int k = 0; k < 2; k++)
        if (sides[k].duplicates)
            fprintf(table, "# %s has %zu row(s) of a case an earlier row had: the last of each is "
                    "compared\n", sides[k].path, sides[k].duplicates);
    fprintf(table, "%-7s %8s %11s %11s  %-18s %s\n", "verdict", "ratio", "base", "new", "by", "case");
    size_t counts[3] = {0}, slow_beyond = 0;
    for (size_t i = 0; i < base->n_cases; i++) {
        const struct compare_case *b = &base->cases[i], *n = b->partner;
        if (!n)
            continue;
        char how[48], bt[24], nt[24];
        const enum verdict v = judge(b, n, threshold, how, sizeof how);
        const double ratio = n->median_ms / b->median_ms; /* medians are above 0 (need_number) */
        const bool beyond = v == SLOW && 100.0 * (ratio - 1) > threshold;
        counts[v]++;
        slow_beyond += beyond;
        format_ms(bt, sizeof bt, b->median_ms);
        format_ms(nt, sizeof nt, n->median_ms);
        fprintf(table, "%-7s %8.4f %11s %11s  %-18s %s\n", beyond ? "SLOW!" : verdict_names[v],
                ratio, bt, nt, how, b->label);
        if (out_csv) {
            fputc('"', out_csv);
            for (const char *c = b->label; *c; c++) {
                if (*c == '"')
                    fputc('"', out_csv);
                fputc(*c, out_csv);
            }
            fprintf(out_csv, "\",%.6g,%.6g,%.6g,%s\n", b->median_ms, n->median_ms, ratio,
                    verdict_names[v]);
        }
    }
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sides[k].n_cases; i++)
            if (!sides[k].cases[i].partner)
                fprintf(table, "only in %s: %s\n", k ? "NEW" : "BASE", sides[k].cases[i].label);
    fprintf(table, "# %zu matched: %zu FAST, %zu SLOW (%zu beyond --threshold %g %%), %zu SAME\n",
            counts[0] + counts[1] + counts[2], counts[FAST], counts[SLOW], slow_beyond, threshold,
            counts[SAME]);
    const int csv_status = out_csv ? output_file_commit(&csv) : 0;
    const int status = slow_beyond ? EXIT_MISMATCH : csv_status;
    for (int k = 0; k < 2; k++) {
        free(sides[k].cases);
        result_table_free(&sides[k].table);
    }
    return status;
}
