/* mpgpu tune: measures which GPU multiplication method is fastest at each operand size on this
 * GPU, writes the table `mpgpu mul --method auto` reads, and prints the crossovers, as GMP's
 * tune/tuneup picks its thresholds from measurements (STYLE.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "gpu.h"
#include "interrupt.h"
#include "mul.h"
#include "mul_bench.h"
#include "report.h"
#include "tune_table.h"

#define TUNE_MAX_SIZES 64
/* 000 Table 3.4's sizes plus the midpoints above 1024 bits, where Comba, Karatsuba and Toom-k
 * trade places (000 Fig. 3.5). */
static const unsigned default_sizes[] = {64,   128,  256,   512,   1024,  2048,  3072,  4096,  6144,
                                         8192, 12288, 16384, 24576, 32768, 49152, 65536};

enum { OPT_SIZES = 1000, OPT_TABLE };

struct tune_args {
    unsigned sizes[TUNE_MAX_SIZES];
    size_t n_sizes;
    const char *table;
};

static int tune_handle(int id, const char *arg, void *ctx)
{
    struct tune_args *t = ctx;
    if (id == OPT_TABLE) {
        t->table = arg;
        return 0;
    }
    char *copy = strdup(arg);
    t->n_sizes = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (t->n_sizes == TUNE_MAX_SIZES)
            cli_bad_input("--sizes: more than %d sizes given", TUNE_MAX_SIZES);
        unsigned bits = (unsigned)cli_parse_u64("--sizes", tok, 64, MUL_MAX_WORDS * 32);
        if (bits % 32)
            cli_bad_input("--sizes %u is not accepted; accepted: multiples of 32 in 64..%u", bits,
                          MUL_MAX_WORDS * 32);
        t->sizes[t->n_sizes++] = bits;
    }
    free(copy);
    if (t->n_sizes == 0)
        cli_bad_input("--sizes '%s' names no size; accepted: multiples of 32 in 64..%u", arg,
                      MUL_MAX_WORDS * 32);
    return 0;
}

static const struct cli_option tune_options[] = {
    {"sizes", "B[,B...]", OPT_SIZES, "operand sizes in bits to measure (default 64..65536: 000 Table 3.4's sizes and midpoints above 1024)"},
    {"table", "FILE", OPT_TABLE, "write the table to FILE (default $MPGPU_TUNE_TABLE, else " TUNE_TABLE_DEFAULT_PATH ")"},
    {0},
};

int cmd_tune(int argc, char **argv)
{
    struct mul_bench r;
    struct tune_args t = {0};
    memset(&r, 0, sizeof r);
    r.subcommand = "tune";
    const struct cli_spec spec = {
        .command = "tune",
        .usage = "mpgpu tune [--sizes B,...] [--count N] [--method M,...] [--table FILE] [options]",
        .description =
            "Times every GPU multiplication method (or those of --method) at each size with\n"
            "--count products, checks them against GMP (see --verify), writes the measured table\n"
            "that `mpgpu mul --method auto` reads, and prints the fastest method per size and\n"
            "the sizes where it changes (the crossovers). Default --reps 10; fewer are fine for a\n"
            "quick table.",
        .common = (OPT_ALL_COMMON & ~(OPT_BITS | OPT_THREADS | OPT_INCLUDE_TRANSFERS)),
        .options = tune_options,
        .handle = tune_handle,
        .ctx = &t,
        .examples = "  mpgpu tune\n"
                    "  mpgpu tune --sizes 1024,4096,16384,65536 --count 10240 --reps 3 --verify sample\n",
    };
    cli_parse(argc, argv, &spec, &r.opt);
    if (t.n_sizes == 0) {
        t.n_sizes = sizeof default_sizes / sizeof default_sizes[0];
        memcpy(t.sizes, default_sizes, sizeof default_sizes);
    }
    for (size_t i = 1; i < t.n_sizes; i++) /* ascending, so the crossovers read in order */
        for (size_t j = i; j > 0 && t.sizes[j - 1] > t.sizes[j]; j--) {
            unsigned x = t.sizes[j];
            t.sizes[j] = t.sizes[j - 1];
            t.sizes[j - 1] = x;
        }
    const char *table = t.table ? t.table : tune_table_path();

    size_t n_all;
    const struct mul_method *all = mul_methods(&n_all);
    bool *candidate = calloc(n_all, sizeof *candidate);
    for (size_t i = 0; i < r.opt.n_methods; i++) {
        if (!strcmp(r.opt.methods[i], "all")) {
            for (size_t k = 0; k < n_all; k++)
                candidate[k] = true;
            continue;
        }
        const struct mul_method *m = mul_method_find(r.opt.methods[i]);
        if (!m)
            cli_bad_input("tune: unknown method '%s'; accepted: a GPU method of `mpgpu mul --help`, "
                          "or all", r.opt.methods[i]);
        candidate[m - all] = true;
    }
    if (r.opt.n_methods == 0)
        for (size_t k = 0; k < n_all; k++)
            candidate[k] = true;

    char why[256];
    if (!gpu_open(r.opt.device, why, sizeof why)) {
        fprintf(stderr, "mpgpu: %s; tune measures the GPU\n", why);
        free(candidate);
        return EXIT_GPU_ERROR;
    }
    run_env_collect(&r.env, true, r.opt.device);
    interrupt_install();
    if (!r.opt.quiet) {
        run_env_print(stdout, &r.env);
        table_begin(stdout);
    }
    struct tune_entry *entries = malloc(t.n_sizes * n_all * sizeof *entries);
    const char **best = calloc(t.n_sizes, sizeof *best);
    double *best_ms = calloc(t.n_sizes, sizeof *best_ms);
    size_t n_entries = 0;
    for (size_t s = 0; s < t.n_sizes && !interrupt_requested(); s++) {
        r.words = t.sizes[s] / 32;
        r.count = r.opt.count;
        mul_bench_prepare(&r);
        for (size_t k = 0; k < n_all && !interrupt_requested(); k++) {
            if (!candidate[k] || !mul_method_supports(&all[k], r.words))
                continue;
            double ms = mul_bench_run_gpu(&r, &all[k]);
            if (ms < 0)
                break;
            struct tune_entry *e = &entries[n_entries++];
            e->bits = t.sizes[s];
            e->count = r.count;
            snprintf(e->method, sizeof e->method, "%s", all[k].name);
            e->median_ms = ms;
            if (!best[s] || ms < best_ms[s]) {
                best[s] = all[k].name;
                best_ms[s] = ms;
            }
        }
        mul_bench_free(&r);
    }
    int status = r.exit_status;
    if (interrupt_requested()) {
        fprintf(stderr, "mpgpu: interrupted; the table was not written\n");
        status = EXIT_INTERRUPTED;
    } else if (status == 0 && tune_table_write(table, &r.env, entries, n_entries) != 0) {
        status = EXIT_BAD_INPUT;
    } else if (status != 0) {
        fprintf(stderr, "mpgpu: tune: a method's products differ from GMP; the table was not written\n");
    } else {
        printf("\nfastest method per size (%llu products), written to %s:\n",
               (unsigned long long)r.opt.count, table);
        for (size_t s = 0; s < t.n_sizes; s++)
            if (best[s])
                printf("  %6u bits  %-30s %10.4f ms\n", t.sizes[s], best[s], best_ms[s]);
        printf("crossovers:\n");
        bool any = false;
        for (size_t s = 1; s < t.n_sizes; s++)
            if (best[s] && best[s - 1] && strcmp(best[s], best[s - 1])) {
                printf("  %s -> %s between %u and %u bits\n", best[s - 1], best[s], t.sizes[s - 1],
                       t.sizes[s]);
                any = true;
            }
        if (!any)
            printf("  none: one method is fastest at every measured size\n");
    }
    free(entries);
    free(best);
    free(best_ms);
    free(candidate);
    return status;
}
