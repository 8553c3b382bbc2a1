#include "tune_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tune_table_path(void)
{
    const char *env = getenv("MPGPU_TUNE_TABLE");
    return env && *env ? env : TUNE_TABLE_DEFAULT_PATH;
}

static int by_bits_then_time(const void *x, const void *y)
{
    const struct tune_entry *a = x, *b = y;
    if (a->bits != b->bits)
        return a->bits < b->bits ? -1 : 1;
    return (a->median_ms > b->median_ms) - (a->median_ms < b->median_ms);
}

int tune_table_write(const char *path, const struct run_env *env, struct tune_entry *e, size_t n)
{
    qsort(e, n, sizeof *e, by_bits_then_time);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "mpgpu: cannot open tune table '%s' for writing\n", path);
        return -1;
    }
    fprintf(f, "# mpgpu tune: median kernel time per method and size, fastest first\n"
               "# gpu: %s, %d SMs, SM clock %d MHz\n# commit: %s\n# date: %s\n",
            env->gpu, env->sm_count, env->sm_clock_mhz, env->commit, env->timestamp);
    fprintf(f, "bits,count,method,median_ms\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%u,%llu,%s,%.6f\n", e[i].bits, (unsigned long long)e[i].count, e[i].method,
                e[i].median_ms);
    if (fclose(f) != 0) {
        fprintf(stderr, "mpgpu: writing tune table '%s' failed\n", path);
        return -1;
    }
    return 0;
}

const struct mul_method *tune_table_pick(unsigned words, char *why, size_t why_len)
{
    const char *path = tune_table_path();
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, why_len, "no tune table at '%s' (run mpgpu tune, or set MPGPU_TUNE_TABLE)",
                 path);
        return NULL;
    }
    const unsigned want = words * 32;
    unsigned chosen_bits = 0; /* the measured size that decides */
    const struct mul_method *best = NULL;
    double best_ms = 0;
    char line[512];
    unsigned lineno = 0;
    /* Two passes: pick the size, then the fastest supported method at that size. */
    for (int pass = 0; pass < 2; pass++) {
        rewind(f);
        lineno = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            if (line[0] == '#' || !strncmp(line, "bits,", 5) || line[0] == '\n')
                continue;
            unsigned bits;
            unsigned long long count;
            char method[64];
            double ms;
            if (sscanf(line, "%u,%llu,%63[^,],%lf", &bits, &count, method, &ms) != 4) {
                snprintf(why, why_len, "tune table '%s', line %u, is not 'bits,count,method,median_ms'",
                         path, lineno);
                fclose(f);
                return NULL;
            }
            if (pass == 0) {
                bool larger_fits = bits >= want && (chosen_bits < want || bits < chosen_bits);
                bool largest_so_far = chosen_bits < want && bits > chosen_bits;
                if (larger_fits || largest_so_far)
                    chosen_bits = bits;
            } else if (bits == chosen_bits) {
                const struct mul_method *m = mul_method_find(method);
                if (m && mul_method_supports(m, words) && (!best || ms < best_ms)) {
                    best = m;
                    best_ms = ms;
                }
            }
        }
    }
    fclose(f);
    if (!best)
        snprintf(why, why_len, "tune table '%s' has no method for %u bits", path, want);
    return best;
}
