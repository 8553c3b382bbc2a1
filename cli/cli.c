#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Noreturn void cli_bad_input(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mpgpu: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(EXIT_BAD_INPUT);
}

uint64_t cli_parse_u64(const char *option, const char *arg, uint64_t min, uint64_t max)
{
    uint64_t v;
    const char *p = arg;
    while (*p == ' ')
        p++;
    if (*p == '-' || *p == '\0')
        goto bad;
    if ((p[0] == '2' && p[1] == '^') || (p[0] == '1' && p[1] == '0' && p[2] == '^')) {
        const unsigned base = p[0] == '2' ? 2 : 10;
        const char *digits = p + (base == 2 ? 2 : 3);
        char *end;
        errno = 0;
        unsigned long e = strtoul(digits, &end, 10);
        if (errno || *end || end == digits || e > (base == 2 ? 63u : 19u))
            goto bad;
        v = 1;
        while (e--)
            v *= base;
    } else {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(p, &end, 0);
        if (errno || *end || end == p)
            goto bad;
        v = x;
    }
    if (v < min || v > max)
        cli_bad_input("%s %s is out of range; accepted: %llu..%llu", option, arg,
                      (unsigned long long)min, (unsigned long long)max);
    return v;
bad:
    cli_bad_input("%s '%s' is not a number; accepted: an integer in %llu..%llu", option, arg,
                  (unsigned long long)min, (unsigned long long)max);
}

double cli_parse_double(const char *option, const char *arg, double min, double max)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (errno || *end || end == arg || isnan(v))
        cli_bad_input("%s '%s' is not a number; accepted: %g..%g", option, arg, min, max);
    if (v < min || v > max)
        cli_bad_input("%s %s is out of range; accepted: %g..%g", option, arg, min, max);
    return v;
}

bool cli_progress_enabled(const struct cli_common *c)
{
    return !c->quiet && isatty(STDERR_FILENO);
}

struct common_def {
    unsigned bit;
    const char *name;
    const char *arg_name;
    const char *help;
};

static const struct common_def common_defs[] = {
    {OPT_COUNT, "count", "N", "number of independent problems (default 10240)"},
    {OPT_BITS, "bits", "B", "operand size in bits (default 1024)"},
    {OPT_METHOD, "method", "M[,M...]", "method(s) to run; repeatable or a comma list; 'all' runs every method"},
    {OPT_REPS, "reps", "R", "timed repetitions; the median, min and max are reported (default 10, as the papers)"},
    {OPT_WARMUP, "warmup", "W", "untimed warm-up runs before timing (default 2)"},
    {OPT_SEED, "seed", "S", "seed of the random input generator (default 1)"},
    {OPT_DEVICE, "device", "D", "CUDA device index (default 0)"},
    {OPT_THREADS, "threads", "T", "CPU threads for the CPU baseline (default 1, as the papers; 0: all cores)"},
    {OPT_CSV, "csv", "FILE", "append result rows to FILE (the header is written once)"},
    {OPT_VERIFY, "verify", "all|sample|none", "check GPU results against the CPU reference (GMP, or the CPU twin): all, a sample, or none (default: all for mul and toom, sample for collatz and delay)"},
    {OPT_INCLUDE_TRANSFERS, "include-transfers", NULL, "include host<->device copies in the timed region (default: kernels only, as the papers)"},
    {OPT_QUIET, "quiet", NULL, "print no table and no progress; errors still go to stderr"},
};
#define N_COMMON (sizeof common_defs / sizeof common_defs[0])

static void print_option(const char *name, const char *arg_name, const char *help)
{
    char left[64];
    if (arg_name)
        snprintf(left, sizeof left, "--%s %s", name, arg_name);
    else
        snprintf(left, sizeof left, "--%s", name);
    printf("  %-28s %s\n", left, help);
}

static void print_help(const struct cli_spec *spec)
{
    printf("usage: %s\n\n%s\n\noptions:\n", spec->usage, spec->description);
    for (const struct cli_option *o = spec->options; o && o->name; o++)
        print_option(o->name, o->arg_name, o->help);
    for (size_t i = 0; i < N_COMMON; i++)
        if (spec->common & common_defs[i].bit)
            print_option(common_defs[i].name, common_defs[i].arg_name, common_defs[i].help);
    print_option("help", NULL, "print this help and exit");
    if (spec->methods_help)
        printf("\nmethods:\n%s", spec->methods_help);
    if (spec->examples)
        printf("\nexamples:\n%s", spec->examples);
}

static void add_methods(struct cli_common *out, char *list)
{
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*tok == '\0')
            continue;
        if (out->n_methods == CLI_MAX_METHODS)
            cli_bad_input("--method: more than %d methods given", CLI_MAX_METHODS);
        out->methods[out->n_methods++] = tok;
    }
}

void cli_parse(int argc, char **argv, const struct cli_spec *spec, struct cli_common *out)
{
    memset(out, 0, sizeof *out);
    out->count = 10240;
    out->bits = 1024;
    out->reps = 10;
    out->warmup = 2;
    out->seed = 1;
    out->threads = 1;
    out->verify = VERIFY_ALL;

    struct option longopts[N_COMMON + 64];
    size_t n = 0;
    for (size_t i = 0; i < N_COMMON; i++)
        if (spec->common & common_defs[i].bit)
            longopts[n++] = (struct option){common_defs[i].name,
                                            common_defs[i].arg_name ? required_argument : no_argument,
                                            NULL, (int)common_defs[i].bit};
    for (const struct cli_option *o = spec->options; o && o->name; o++) {
        if (n == sizeof longopts / sizeof longopts[0] - 2)
            break;
        longopts[n++] = (struct option){o->name, o->arg_name ? required_argument : no_argument,
                                        NULL, o->id};
    }
    longopts[n++] = (struct option){"help", no_argument, NULL, 'h'};
    longopts[n] = (struct option){NULL, 0, NULL, 0};

    opterr = 0;
    optind = 1;
    for (;;) {
        int idx = -1;
        int c = getopt_long(argc, argv, ":h", longopts, &idx);
        if (c == -1)
            break;
        const char *arg = optarg;
        switch (c) {
        case 'h':
            print_help(spec);
            exit(0);
        case '?':
            if (optopt)
                cli_bad_input("%s: unknown option '-%c'; see 'mpgpu %s --help'", spec->command,
                              optopt, spec->command);
            cli_bad_input("%s: unknown option '%s'; see 'mpgpu %s --help'", spec->command,
                          argv[optind - 1], spec->command);
        case ':':
            cli_bad_input("%s: option '%s' needs a value; see 'mpgpu %s --help'", spec->command,
                          argv[optind - 1], spec->command);
        case OPT_COUNT:
            out->count = cli_parse_u64("--count", arg, 1, UINT64_C(1) << 40);
            out->count_set = true;
            break;
        case OPT_BITS:
            out->bits = (unsigned)cli_parse_u64("--bits", arg, 1, 1u << 30);
            out->bits_set = true;
            break;
        case OPT_METHOD:
            add_methods(out, (char *)arg);
            break;
        case OPT_REPS:
            out->reps = (unsigned)cli_parse_u64("--reps", arg, 1, 100000);
            break;
        case OPT_WARMUP:
            out->warmup = (unsigned)cli_parse_u64("--warmup", arg, 0, 100000);
            break;
        case OPT_SEED:
            out->seed = cli_parse_u64("--seed", arg, 0, UINT64_MAX);
            break;
        case OPT_DEVICE:
            out->device = (int)cli_parse_u64("--device", arg, 0, 1023);
            break;
        case OPT_THREADS:
            out->threads = (int)cli_parse_u64("--threads", arg, 0, 4096);
            break;
        case OPT_CSV:
            out->csv_path = arg;
            break;
        case OPT_VERIFY:
            if (!strcmp(arg, "all"))
                out->verify = VERIFY_ALL;
            else if (!strcmp(arg, "sample"))
                out->verify = VERIFY_SAMPLE;
            else if (!strcmp(arg, "none"))
                out->verify = VERIFY_NONE;
            else
                cli_bad_input("--verify '%s' is not a mode; accepted: all, sample, none", arg);
            break;
        case OPT_INCLUDE_TRANSFERS:
            out->include_transfers = true;
            break;
        case OPT_QUIET:
            out->quiet = true;
            break;
        default:
            if (spec->handle)
                spec->handle(c, arg, spec->ctx);
            break;
        }
    }
    if (optind < argc)
        cli_bad_input("%s: unexpected argument '%s'; see 'mpgpu %s --help'", spec->command,
                      argv[optind], spec->command);
}
