#include "collatz_cli.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "random_words.h"

bool collatz_range_option(struct collatz_range_args *r, int id, const char *arg)
{
    switch (id) {
    case OPT_COLLATZ_START:
        r->start = cli_parse_u64("--start", arg, 1, UINT64_MAX);
        r->start_set = true;
        return true;
    case OPT_COLLATZ_COUNT:
        r->count = cli_parse_u64("--count", arg, 1, UINT64_MAX);
        r->count_set = true;
        return true;
    case OPT_COLLATZ_END:
        /* 2^64 itself ends the 64-bit range; cli_parse_u64 stops at 2^63. */
        if (!strcmp(arg, "2^64") || !strcmp(arg, "18446744073709551616"))
            r->last = UINT64_MAX;
        else
            r->last = cli_parse_u64("--end", arg, 2, UINT64_MAX) - 1;
        r->end_set = true;
        return true;
    default:
        return false;
    }
}

void collatz_resolve_range(const struct collatz_range_args *r, uint64_t seed, uint64_t default_count,
                           uint64_t *first, uint64_t *count)
{
    if (r->count_set && r->end_set)
        cli_bad_input("--count and --end both give the end of the range; give one");
    uint64_t start = r->start;
    if (!r->start_set)
        start = ((UINT64_C(1) << 62) | (splitmix64(seed) >> 3)) & ~((UINT64_C(1) << 40) - 1);
    uint64_t n = r->count_set ? r->count : default_count;
    if (r->end_set) {
        if (r->last < start)
            cli_bad_input("--end %" PRIu64 " is not above --start %" PRIu64 "; accepted: an end above the start",
                          r->last + 1, start);
        n = r->last - start + 1;
        if (n == 0) /* [1, 2^64): one value more than a 64-bit count holds */
            cli_bad_input("--start 1 --end 2^64 holds 2^64 starting values; accepted: at most 2^64 - 1 "
                          "per run (use --checkpoint to cover more in several)");
    } else if (n - 1 > UINT64_MAX - start) {
        cli_bad_input("--start %" PRIu64 " --count %" PRIu64 " runs past 2^64; starting values are 64-bit "
                      "(000 section 4.4.1); accepted: start + count <= 2^64",
                      start, n);
    }
    *first = start;
    *count = n;
}

void collatz_parse_methods(const struct cli_common *c, const char *command, struct collatz_methods *m)
{
    memset(m, 0, sizeof *m);
    m->explicit_ = c->n_methods > 0;
    if (!m->explicit_)
        m->gpu = true;
    for (size_t i = 0; i < c->n_methods; i++) {
        if (!strcmp(c->methods[i], "gpu"))
            m->gpu = true;
        else if (!strcmp(c->methods[i], "cpu"))
            m->cpu = true;
        else if (!strcmp(c->methods[i], "all"))
            m->gpu = m->cpu = true;
        else
            cli_bad_input("%s: unknown method '%s'; accepted: gpu, cpu, all", command, c->methods[i]);
    }
}

enum collatz_table_memory collatz_parse_table_memory(const char *arg)
{
    if (!strcmp(arg, "shared"))
        return COLLATZ_TABLES_SHARED;
    if (!strcmp(arg, "global"))
        return COLLATZ_TABLES_GLOBAL;
    cli_bad_input("--table-memory '%s' is not a place; accepted: shared, global", arg);
}

int collatz_setup(int argc, char **argv, const char *command, const struct cli_common *opt,
                  const char *checkpoint, struct collatz_setup *out)
{
    collatz_parse_methods(opt, command, &out->m);
    out->verify = collatz_option_given(argc, argv, "verify") ? opt->verify : VERIFY_SAMPLE;
    out->cpu_threads = opt->threads ? opt->threads : omp_get_num_procs();
    if (checkpoint && out->m.gpu && out->m.cpu)
        cli_bad_input("--checkpoint follows one run; give --method gpu or --method cpu");
    char why[256];
    out->have_dev = out->m.gpu && gpu_open(opt->device, why, sizeof why);
    if (out->m.gpu && !out->have_dev) {
        fprintf(stderr, "mpgpu: %s; %s\n", why,
                out->m.explicit_ ? "the gpu method cannot run" : "running the CPU twin instead");
        if (out->m.explicit_)
            return EXIT_GPU_ERROR;
        out->m.gpu = false;
        out->m.cpu = true;
    }
    return 0;
}

void collatz_checkpoint_begin(struct checkpoint *ck, const char *command, const char *params,
                              uint64_t start)
{
    snprintf(ck->command, sizeof ck->command, "%s", command);
    snprintf(ck->params, sizeof ck->params, "%s", params);
    ck->start = start;
}

bool collatz_option_given(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, n) &&
            (argv[i][2 + n] == '\0' || argv[i][2 + n] == '='))
            return true;
    return false;
}

uint64_t collatz_host_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    uint64_t kib = 0;
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1)
                break;
        fclose(f);
    }
    return kib ? kib * 1024 : UINT64_MAX;
}

void collatz_format_bytes(char *out, size_t len, uint64_t bytes)
{
    if (bytes >= (UINT64_C(1) << 30))
        snprintf(out, len, "%.2f GiB", bytes / 1073741824.0);
    else if (bytes >= (UINT64_C(1) << 20))
        snprintf(out, len, "%.2f MiB", bytes / 1048576.0);
    else
        snprintf(out, len, "%" PRIu64 " bytes", bytes);
}

void collatz_require_host(uint64_t bytes, const char *what)
{
    uint64_t avail = collatz_host_available();
    if (bytes > avail) {
        char need[32], have[32];
        collatz_format_bytes(need, sizeof need, bytes);
        collatz_format_bytes(have, sizeof have, avail);
        cli_bad_input("%s needs %s (%" PRIu64 " bytes) of host memory; %s are available", what, need,
                      bytes, have);
    }
}

bool collatz_checkpoint_load(const char *path, const char *command, const char *params,
                             struct collatz_range_args *r, struct checkpoint *ck)
{
    char why[256];
    int rc = checkpoint_read(path, ck, why, sizeof why);
    if (rc == 0)
        return false;
    if (rc < 0)
        cli_bad_input("--checkpoint %s %s; remove it to start afresh", path, why);
    if (strcmp(ck->command, command) != 0)
        cli_bad_input("--checkpoint %s belongs to 'mpgpu %s', not 'mpgpu %s'", path, ck->command, command);
    if (strcmp(ck->params, params) != 0)
        cli_bad_input("--checkpoint %s was made with %s, not %s; give the same parameters to resume",
                      path, ck->params, params);
    if (r->start_set && r->start != ck->start)
        cli_bad_input("--checkpoint %s starts at %" PRIu64 ", not --start %" PRIu64, path, ck->start, r->start);
    r->start = ck->start;
    r->start_set = true;
    return true;
}

void collatz_checkpoint_check(const char *path, const struct checkpoint *ck, uint64_t count)
{
    if (ck->done > count)
        cli_bad_input("--checkpoint %s has finished %" PRIu64 " starting values, more than the %" PRIu64
                      " of this range; give a later --end", path, ck->done, count);
}

void collatz_checkpoint_save(const char *path, const struct checkpoint *ck)
{
    if (checkpoint_write(path, ck) != 0)
        perror("mpgpu: writing --checkpoint failed (the run goes on)");
}

void collatz_report_interrupted(const char *command, uint64_t first, uint64_t done, const char *checkpoint)
{
    if (done == 0)
        fprintf(stderr, "mpgpu: %s interrupted before the first segment finished; nothing to keep\n", command);
    else
        fprintf(stderr, "mpgpu: %s interrupted; finished exactly [%" PRIu64 ", %" PRIu64 "] (%" PRIu64
                        " starting values)%s%s\n",
                command, first, first + (done - 1), done,
                checkpoint ? "; resume with the same command and --checkpoint " : "", checkpoint ? checkpoint : "");
}
