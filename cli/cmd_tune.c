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
#include "bench.h"
#include "mul_bench.h"
#include "report.h"
#include "tune_table.h"

/* 000 Table 3.4's sizes plus the midpoints above 1024 bits, where Comba, Karatsuba and Toom-k
 * trade places (000 Fig. 3.5). */
static const unsigned default_sizes[] = {64,   128,  256,   512,   1024,  2048,  3072,  4096,  6144,
                                         8192, 12288, 16384, 24576, 32768, 49152, 65536};

enum { OPT_TABLE = 1000 };

static int tune_handle(int id, const char *arg, void *ctx)
{
    if (id == OPT_TABLE)
        *(const char **)ctx = arg;
    return 0;
}

static const struct cli_option tune_options[] = {
    {"table", "FILE", OPT_TABLE, "write the table to FILE (default $MPGPU_TUNE_TABLE, else " TUNE_TABLE_DEFAULT_PATH ")"},
    {0},
};

static int cmp_unsigned(const void *x, const void *y)
{
    unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
    return (a > b) - (a < b);
}

int cmd_tune(int argc, char **argv)
{
    struct mul_bench r;
    const char *table_arg = NULL;
    memset(&r, 0, sizeof r);
    const struct cli_spec spec = {
        .command = "tune",
        .usage = "mpgpu tune [--bits B,...] [--count N] [--method M,...] [--table FILE] [options]",
        .description =
            "Times every GPU multiplication method (or those of --method) at each size of\n"
            "--bits with --count products, checks them against GMP (see --verify), writes\n"
            "the measured table that `mpgpu mul --method auto` reads, and prints the fastest\n"
            "method per size and the sizes where it changes (the crossovers). Default sizes:\n"
            "64..65536 bits (000 Table 3.4's sizes and the midpoints above 1024). Default\n"
            "--reps 10; fewer are fine for a quick table.",
        .common = (OPT_ALL_COMMON & ~(OPT_THREADS | OPT_INCLUDE_TRANSFERS)),
        .bits_min = 64,
        .bits_max = MUL_MAX_WORDS * 32,
        .bits_multiple = 32,
        .bits_default = "000 Table 3.4's sizes, 64..65536, and the midpoints above 1024",
        .options = tune_options,
        .handle = tune_handle,
        .ctx = &table_arg,
        .examples = "  mpgpu tune\n"
                    "  mpgpu tune --bits 1024,4096,16384,65536 --count 10240 --reps 3 --verify sample\n",
    };
    cli_parse(argc, argv, &spec, &r.opt);
    unsigned sizes[CLI_MAX_SIZES];
    size_t n_sizes = r.opt.bits_set ? r.opt.n_bits : sizeof default_sizes / sizeof default_sizes[0];
    memcpy(sizes, r.opt.bits_set ? r.opt.bits_list : default_sizes, n_sizes * sizeof sizes[0]);
    qsort(sizes, n_sizes, sizeof sizes[0], cmp_unsigned); /* ascending: crossovers read in order */
    const char *table = table_arg ? table_arg : tune_table_path();

    size_t n_all;
    const struct mul_method *all = mul_methods(&n_all);
    const struct mul_method **candidates = malloc(n_all * sizeof *candidates);
    size_t n_candidates = 0;
    bool *wanted = calloc(n_all, sizeof *wanted);
    for (size_t i = 0; i < r.opt.n_methods; i++) {
        if (!strcmp(r.opt.methods[i], "all")) {
            for (size_t k = 0; k < n_all; k++)
                wanted[k] = true;
            continue;
        }
        const struct mul_method *m = mul_method_find(r.opt.methods[i]);
        if (!m)
            cli_bad_input("tune: unknown method '%s'; accepted: a GPU method of `mpgpu mul --help`, "
                          "or all", r.opt.methods[i]);
        wanted[m - all] = true;
    }
    for (size_t k = 0; k < n_all; k++)
        if (wanted[k] || r.opt.n_methods == 0)
            candidates[n_candidates++] = &all[k];
    free(wanted);

    r.count = r.opt.count;
    struct bench_case *cases = malloc(n_sizes * n_candidates * sizeof *cases);
    size_t n_cases = 0;
    for (size_t s = 0; s < n_sizes; s++)
        n_cases += mul_bench_cases(&r, sizes[s], candidates, n_candidates, false, cases + n_cases,
                                   n_candidates);
    free(candidates);
    mul_bench_check_host(&r, cases, n_cases);

    char why[256];
    if (!gpu_open(r.opt.device, why, sizeof why)) {
        fprintf(stderr, "mpgpu: %s; tune measures the GPU\n", why);
        free(cases);
        return EXIT_GPU_ERROR;
    }
    struct bench b;
    bench_open(&b, "tune", &r.opt, true, r.opt.device);
    int status = bench_run(&b, &mul_bench_ops, &r, cases, n_cases);
    mul_bench_free(&r);

    struct tune_entry *entries = malloc((n_cases ? n_cases : 1) * sizeof *entries);
    const struct bench_case **best = calloc(n_sizes, sizeof *best);
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
        size_t s = 0;
        while (sizes[s] != c->bits)
            s++;
        if (!best[s] || c->median_ms < best[s]->median_ms)
            best[s] = c;
    }
    if (status != 0) {
        fprintf(stderr, "mpgpu: tune: the table was not written\n");
    } else if (tune_table_write(table, &b.env, entries, n_entries) != 0) {
        status = EXIT_BAD_INPUT;
    } else if (!r.opt.quiet) {
        printf("\nfastest method per size (%llu products), written to %s:\n",
               (unsigned long long)r.opt.count, table);
        for (size_t s = 0; s < n_sizes; s++)
            if (best[s]) {
                char med[24];
                format_ms(med, sizeof med, best[s]->median_ms);
                printf("  %6u bits  %-30s %11s\n", sizes[s], best[s]->method, med);
            }
        printf("crossovers:\n");
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
    free(entries);
    free(best);
    free(cases);
    return status;
}
