/* mpgpu tune: measures which GPU multiplication method is fastest at each operand size and
 * count of products on this GPU, writes a table for `mpgpu mul --method auto`, and prints
 * the crossovers, as GMP's tune/tuneup picks its thresholds from measurements (STYLE.md). */
/* realpath is POSIX of the XSI option, beyond the project's _POSIX_C_SOURCE. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "gpu.h"
#include "interrupt.h"
#include "mpgpu.h"
#include "bench.h"
#include "mul_bench.h"
#include "path_claim.h"
#include "report.h"
#include "tune_table.h"

/* 000 Table 3.4's sizes plus the midpoints above 1024 bits, where Comba, Karatsuba and Toom-k
 * trade places (000 Fig. 3.5). */
static const unsigned default_sizes[] = {64,   128,  256,   512,   1024,  2048,  3072,  4096,  6144,
                                         8192, 12288, 16384, 24576, 32768, 49152, 65536};

/* At most this many --count items: the 10240 and 2^20 classes of experiments/toom_tune.sh and
 * room for a finer grid. */
#define TUNE_MAX_COUNTS 16

enum { OPT_TABLE = 1000, OPT_COUNTS };

struct tune_args {
    const char *table;
    uint64_t counts[TUNE_MAX_COUNTS]; /* --count as given; {10240} without it */
    size_t n_counts;
};

/* --count here is the common option's count (same range, same default) taken as a list, as
 * --bits is: each item is measured and the table keeps each, for --method auto's count class. */
static void add_counts(struct tune_args *t, const char *list)
{
    char lo[24], hi[24], accepted[96];
    snprintf(accepted, sizeof accepted,
             "counts separated by single commas, each an integer in %s..%s",
             cli_format_bound(lo, 1), cli_format_bound(hi, CLI_COUNT_MAX));
    cli_add_number_list(&(struct cli_number_list){.option = "--count", .accepted = accepted, .noun = "counts",
                                                  .min = 1, .max = CLI_COUNT_MAX, .values = t->counts,
                                                  .value_size = sizeof t->counts[0], .n = &t->n_counts,
                                                  .capacity = TUNE_MAX_COUNTS},
                        list);
}

static int tune_handle(int id, const char *arg, void *ctx)
{
    struct tune_args *t = ctx;
    if (id == OPT_TABLE)
        t->table = arg;
    else if (id == OPT_COUNTS)
        add_counts(t, arg);
    return 0;
}

static const struct cli_option tune_options[] = {
    {"table", "FILE", OPT_TABLE, "write the table to FILE (default $MPGPU_TUNE_TABLE, else " TUNE_TABLE_DEFAULT_PATH ")"},
    {"count", "N[,N...]", OPT_COUNTS, "number of independent problems (default 10240); a comma list or a repeated --count measures each count at every size, and the table keeps each"},
    {0},
};

static int cmp_unsigned(const void *x, const void *y)
{
    unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
    return (a > b) - (a < b);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Sorts v ascending and drops repeats, so that a size or count given twice is measured once and
 * the table holds one row per (bits, count, method). Returns the new length. */
static size_t sort_unique(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    char *p = v;
    qsort(p, n, size, cmp);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || cmp(p + (kept - 1) * size, p + i * size) != 0)
            memmove(p + kept++ * size, p + i * size, size);
    return kept;
}

/* mul_bench holds the operands of one count: a case of another count drops them, and the
 * setup makes them afresh at its count (the cases come count by count, so once per count and
 * size). */
static int tune_setup(void *ctx, struct bench_case *c)
{
    struct mul_bench *m = ctx;
    if (m->count != c->count) {
        mul_bench_free(m);
        m->count = c->count;
    }
    return mul_bench_ops.setup(ctx, c);
}

/* The table is written once everything is measured: a path that cannot be written is refused
 * before the GPU is looked for, so that no run is lost to it. Opening for appending changes
 * nothing of a table already there, and a file made only for the check is removed again.
 * `named`: "--table" or "MPGPU_TUNE_TABLE", whichever gave the path; NULL for the default. */
static void check_table(const char *table, const char *named)
{
    path_claim(named ? named : "the default table", table, PATH_WRITE);
    struct stat st;
    const bool existed = stat(table, &st) == 0;
    FILE *f = fopen(table, "a");
    if (!f && named)
        cli_bad_input("%s '%s' cannot be opened for writing: %s; accepted: a file in a folder that "
                      "exists and can be written", named, table, strerror(errno));
    if (!f)
        cli_bad_input("the default table '%s' (relative to the current folder) cannot be opened "
                      "for writing: %s; give --table FILE or set MPGPU_TUNE_TABLE, or run from "
                      "the top folder of mpgpu's source", table, strerror(errno));
    fclose(f);
    if (!existed)
        remove(table);
}

/* The fastest case per size at one count and the sizes where it changes. */
static void print_best(const struct bench_case *const *best, const unsigned *sizes, size_t n_sizes,
                       uint64_t count)
{
    printf("fastest method per size at %llu products:\n", (unsigned long long)count);
    for (size_t s = 0; s < n_sizes; s++)
        if (best[s]) {
            char med[24];
            format_ms(med, sizeof med, best[s]->median_ms);
            printf("  %6u bits  %-30s %11s\n", sizes[s], best[s]->method, med);
        }
    printf("crossovers at %llu products:\n", (unsigned long long)count);
    bool any = false;
    for (size_t s = 1; s < n_sizes; s++)
        if (best[s] && best[s - 1] && strcmp(best[s]->method, best[s - 1]->method)) {
            printf("  %s -> %s between %u and %u bits\n", best[s - 1]->method, best[s]->method,
                   sizes[s - 1], sizes[s]);
            any = true;
        }
    if (!any)
        printf("  none: one method is fastest at every measured size\n");
}

int cmd_tune(int argc, char **argv)
{
    struct mul_bench r;
    struct tune_args t = {0};
    memset(&r, 0, sizeof r);
    const struct cli_spec spec = {
        .command = "tune",
        .usage = "mpgpu tune [--bits B,...] [--count N,...] [--method M,...] [--table FILE] [options]",
        .description =
            "Times every GPU multiplication method (or those of --method) at each size of\n"
            "--bits and each count of --count, checks them against GMP (see --verify), writes\n"
            "the measured table (one row per size, count and method), and prints per count\n"
            "the fastest method per size and the sizes where it changes (the crossovers).\n"
            "`mpgpu mul --method auto` reads $MPGPU_TUNE_TABLE, else the installed table,\n"
            "else the one built into mpgpu: set MPGPU_TUNE_TABLE to the file written for auto\n"
            "to use it. Default sizes: 64..65536 bits (000 Table 3.4's sizes and the\n"
            "midpoints above 1024). Default --reps 10; fewer are fine for a quick table.",
        .common = (OPT_ALL_COMMON & ~(OPT_THREADS | OPT_INCLUDE_TRANSFERS | OPT_COUNT)),
        .bits_min = 64,
        .bits_max = 65536, /* libmpgpu's products' largest size */
        .bits_multiple = 32,
        .bits_default = "000 Table 3.4's sizes, 64..65536, and the midpoints above 1024",
        .options = tune_options,
        .handle = tune_handle,
        .ctx = &t,
        .examples = "  mpgpu tune                      (from the top folder of mpgpu's source)\n"
                    "  mpgpu tune --table t.csv       (from any folder)\n"
                    "  mpgpu tune --bits 1024,4096,16384,65536 --count 10240 --reps 3 --verify sample\n"
                    "  mpgpu tune --bits 1024,4096,8192 --count 10240,2^20 --reps 3 --verify sample\n",
    };
    cli_parse(argc, argv, &spec, &r.opt);
    unsigned sizes[CLI_MAX_SIZES];
    size_t n_sizes = r.opt.bits_set ? r.opt.n_bits : sizeof default_sizes / sizeof default_sizes[0];
    memcpy(sizes, r.opt.bits_set ? r.opt.bits_list : default_sizes, n_sizes * sizeof sizes[0]);
    /* ascending: crossovers read in order */
    n_sizes = sort_unique(sizes, n_sizes, sizeof sizes[0], cmp_unsigned);
    if (t.n_counts == 0)
        t.counts[t.n_counts++] = r.opt.count; /* cli_parse's default, that of every --count */
    t.n_counts = sort_unique(t.counts, t.n_counts, sizeof t.counts[0], cmp_u64);
    const char *table = t.table ? t.table : tune_table_path();

    size_t n_all;
    const mpgpu_mul_method_info *all = mul_bench_methods(&n_all);
    const mpgpu_mul_method_info **candidates = malloc(n_all * sizeof *candidates);
    size_t n_candidates = 0;
    bool *wanted = calloc(n_all, sizeof *wanted);
    for (size_t i = 0; i < r.opt.n_methods; i++) {
        if (!strcmp(r.opt.methods[i], "all")) {
            for (size_t k = 0; k < n_all; k++)
                wanted[k] = true;
            continue;
        }
        const mpgpu_mul_method_info *m = mul_bench_method_find(r.opt.methods[i]);
        if (!m)
            cli_bad_input("tune: unknown method '%s'; accepted: a GPU method of `mpgpu mul --help`, "
                          "or all", r.opt.methods[i]);
        wanted[m - all] = true;
    }
    for (size_t k = 0; k < n_all; k++)
        if (wanted[k] || r.opt.n_methods == 0)
            candidates[n_candidates++] = &all[k];
    free(wanted);

    const size_t per_count = n_sizes * n_candidates;
    struct bench_case *cases = malloc(t.n_counts * per_count * sizeof *cases);
    size_t n_cases = 0;
    for (size_t k = 0; k < t.n_counts; k++) {
        const size_t first = n_cases;
        r.count = t.counts[k];
        for (size_t s = 0; s < n_sizes; s++)
            n_cases += mul_bench_cases(&r, sizes[s], candidates, n_candidates, false,
                                       cases + n_cases, n_candidates);
        mul_bench_check_host(&r, cases + first, n_cases - first);
    }
    free(candidates);
    const char *table_named = t.table ? "--table"
                              : strcmp(table, TUNE_TABLE_DEFAULT_PATH) != 0 ? "MPGPU_TUNE_TABLE"
                                                                            : NULL;
    check_table(table, table_named);

    char why[256];
    const bool have_gpu = gpu_open(r.opt.device, why, sizeof why);
    struct bench b;
    bench_open(&b, "tune", &r.opt, have_gpu, r.opt.device, have_gpu ? NULL : why,
               "tune measures the GPU");
    if (!have_gpu) {
        free(cases);
        return EXIT_GPU_ERROR;
    }
    struct bench_ops ops = mul_bench_ops;
    ops.setup = tune_setup;
    int status = bench_run(&b, &ops, &r, cases, n_cases);
    mul_bench_free(&r);

    struct tune_entry *entries = malloc((n_cases ? n_cases : 1) * sizeof *entries);
    /* best[k * n_sizes + s]: the fastest case at counts[k] and sizes[s] */
    const struct bench_case **best = calloc(t.n_counts * n_sizes, sizeof *best);
    size_t n_entries = 0;
    for (size_t i = 0; i < n_cases; i++) {
        const struct bench_case *c = &cases[i];
        if (!c->done)
            continue;
        struct tune_entry *e = &entries[n_entries++];
        e->bits = c->bits;
        e->count = c->count;
        snprintf(e->method, sizeof e->method, "%s", c->method);
        e->median_ms = c->median_ms;
        size_t s = 0, k = 0;
        while (sizes[s] != c->bits)
            s++;
        while (t.counts[k] != c->count)
            k++;
        const struct bench_case **b_ks = &best[k * n_sizes + s];
        if (!*b_ks || c->median_ms < (*b_ks)->median_ms)
            *b_ks = c;
    }
    if (status != 0) {
        fprintf(stderr, "mpgpu: tune: the table was not written\n");
    } else if (tune_table_write(table, &b.env, entries, n_entries) != 0) {
        status = EXIT_BAD_INPUT;
    } else if (!r.opt.quiet) {
        printf("\ntable written to %s\n", table);
        /* --method auto reads $MPGPU_TUNE_TABLE, else the installed table, else the one built
         * in: a table written elsewhere is read only once that variable names it. */
        const char *env = getenv("MPGPU_TUNE_TABLE");
        if (!env || !*env || strcmp(env, table) != 0) {
            char *abs = realpath(table, NULL);
            printf("mpgpu mul --method auto reads it with MPGPU_TUNE_TABLE=%s (else it reads %s, "
                   "or the table built into mpgpu)\n", abs ? abs : table, tune_table_installed_path());
            free(abs);
        }
        for (size_t k = 0; k < t.n_counts; k++)
            print_best(best + k * n_sizes, sizes, n_sizes, t.counts[k]);
    }
    free(entries);
    free(best);
    free(cases);
    return status;
}
