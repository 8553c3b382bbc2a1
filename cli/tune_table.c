#include "tune_table.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_table_builtin.h"

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

/* Opens the table --method auto reads: $MPGPU_TUNE_TABLE (which must exist when set), else the
 * installed copy, else the one built into the binary, so that auto works from any folder.
 * `name` gets how messages call it. NULL with the reason in why when none can be read. */
static FILE *tune_table_open(char *name, size_t name_len, char *why, size_t why_len)
{
    const char *env = getenv("MPGPU_TUNE_TABLE");
    if (env && *env) {
        snprintf(name, name_len, "tune table '%s'", env);
        FILE *f = fopen(env, "r");
        if (!f)
            snprintf(why, why_len, "no tune table at '%s' (from $MPGPU_TUNE_TABLE): %s", env,
                     strerror(errno));
        return f;
    }
    snprintf(name, name_len, "tune table '%s'", TUNE_TABLE_INSTALLED);
    FILE *f = fopen(TUNE_TABLE_INSTALLED, "r");
    if (f || errno != ENOENT) {
        if (!f)
            snprintf(why, why_len, "tune table '%s' cannot be read: %s (set MPGPU_TUNE_TABLE to "
                     "use another)", TUNE_TABLE_INSTALLED, strerror(errno));
        return f;
    }
    snprintf(name, name_len, "the tune table built into mpgpu");
    f = fmemopen((void *)TUNE_TABLE_BUILTIN, sizeof TUNE_TABLE_BUILTIN - 1, "r");
    if (!f)
        snprintf(why, why_len, "the built-in tune table cannot be read: %s", strerror(errno));
    return f;
}

/* Says once per run when the table was measured on another GPU than `device`: its choices may
 * not be the fastest there. Without a usable device (auto's GPU methods are then skipped) it
 * says nothing. */
static void warn_other_gpu(const char *name, const char *table_gpu, int device)
{
    static bool warned;
    struct cudaDeviceProp prop;
    if (warned || !table_gpu[0])
        return;
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        cudaGetLastError(); /* leave no error for the GPU's own opening to trip over */
        return;
    }
    if (strcmp(prop.name, table_gpu) != 0)
        fprintf(stderr, "mpgpu: note: --method auto: %s was measured on %s, not on this %s; "
                        "`mpgpu tune` measures this GPU\n", name, table_gpu, prop.name);
    warned = true;
}

const struct mul_method *tune_table_pick(unsigned words, int device, char *why, size_t why_len)
{
    char name[512];
    FILE *f = tune_table_open(name, sizeof name, why, why_len);
    if (!f)
        return NULL;
    const unsigned want = words * 32;
    unsigned chosen_bits = 0; /* the measured size that decides */
    const struct mul_method *best = NULL;
    double best_ms = 0;
    char line[512], table_gpu[256] = "";
    unsigned lineno = 0;
    /* Two passes: pick the size, then the fastest supported method at that size. */
    for (int pass = 0; pass < 2; pass++) {
        rewind(f);
        lineno = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            /* "# gpu: NVIDIA H200, 132 SMs, SM clock 1980 MHz", as tune_table_write puts it. */
            const char *sms = strstr(line, " SMs, ");
            if (pass == 0 && !strncmp(line, "# gpu: ", 7) && sms) {
                const char *end = sms;
                while (end > line + 7 && end[-1] != ',')
                    end--;
                if (end > line + 8)
                    snprintf(table_gpu, sizeof table_gpu, "%.*s", (int)(end - 1 - (line + 7)), line + 7);
            }
            if (line[0] == '#' || !strncmp(line, "bits,", 5) || line[0] == '\n')
                continue;
            unsigned bits;
            unsigned long long count;
            char method[64];
            double ms;
            if (sscanf(line, "%u,%llu,%63[^,],%lf", &bits, &count, method, &ms) != 4) {
                snprintf(why, why_len, "%s, line %u, is not 'bits,count,method,median_ms'", name,
                         lineno);
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
        snprintf(why, why_len, "%s has no method for %u bits", name, want);
    else
        warn_other_gpu(name, table_gpu, device);
    return best;
}
