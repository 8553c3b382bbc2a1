#include "tune_table.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_replace.h"
#include "mpgpu.h"
#include "tune_table_installed.h"

const char *tune_table_installed_path(void)
{
    return TUNE_TABLE_INSTALLED;
}

const char *tune_table_path(void)
{
    const char *env = getenv("MPGPU_TUNE_TABLE");
    return env && *env ? env : TUNE_TABLE_DEFAULT_PATH;
}

static int by_bits_count_time(const void *x, const void *y)
{
    const struct tune_entry *a = x, *b = y;
    if (a->bits != b->bits)
        return a->bits < b->bits ? -1 : 1;
    if (a->count != b->count)
        return a->count < b->count ? -1 : 1;
    return (a->median_ms > b->median_ms) - (a->median_ms < b->median_ms);
}

int tune_table_write(const char *path, const struct run_env *env, struct tune_entry *e, size_t n)
{
    qsort(e, n, sizeof *e, by_bits_count_time);
    struct file_replace out;
    int err = file_replace_open(&out, path);
    if (err) {
        fprintf(stderr, "mpgpu: cannot open tune table '%s' for writing: %s\n", path, strerror(err));
        return -1;
    }
    FILE *f = out.f;
    fprintf(f, "# mpgpu tune: median kernel time per method, size and count, fastest first\n"
               "# gpu: %s, %d SMs, SM clock %d MHz\n# commit: %s\n# date: %s\n",
            env->gpu, env->sm_count, env->sm_clock_mhz, env->commit, env->timestamp);
    fprintf(f, "bits,count,method,median_ms\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%u,%llu,%s,%.6f\n", e[i].bits, (unsigned long long)e[i].count, e[i].method,
                e[i].median_ms);
    err = file_replace_commit(&out);
    if (err) {
        fprintf(stderr, "mpgpu: writing tune table '%s' failed: %s\n", path, strerror(err));
        return -1;
    }
    return 0;
}

/* Opens the table file --method auto reads: $MPGPU_TUNE_TABLE (which must exist when set),
 * else the installed copy. `name` gets how messages call it. NULL with *builtin set when there
 * is neither (libmpgpu's built-in table is then read), NULL with the reason in why when the file
 * cannot be read. */
static FILE *tune_table_open(char *name, size_t name_len, bool *builtin, char *why, size_t why_len)
{
    *builtin = false;
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
    *builtin = true;
    return NULL;
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

/* Reads the table's rows into *rows (*n of them, malloc'd) and the GPU its '# gpu:' line names
 * into table_gpu (empty without one). Returns false with the reason in why on a malformed row. */
static bool read_rows(FILE *f, const char *name, struct tune_entry **rows, size_t *n,
                      char *table_gpu, size_t gpu_len, char *why, size_t why_len)
{
    char line[512];
    unsigned lineno = 0;
    size_t cap = 0;
    *rows = NULL;
    *n = 0;
    table_gpu[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        lineno++;
        /* "# gpu: NVIDIA H200, 132 SMs, SM clock 1980 MHz", as tune_table_write puts it. */
        const char *sms = strstr(line, " SMs, ");
        if (!strncmp(line, "# gpu: ", 7) && sms) {
            const char *end = sms;
            while (end > line + 7 && end[-1] != ',')
                end--;
            if (end > line + 8)
                snprintf(table_gpu, gpu_len, "%.*s", (int)(end - 1 - (line + 7)), line + 7);
        }
        if (line[0] == '#' || !strncmp(line, "bits,", 5) || line[0] == '\n')
            continue;
        struct tune_entry e;
        unsigned long long count;
        if (sscanf(line, "%u,%llu,%63[^,],%lf", &e.bits, &count, e.method, &e.median_ms) != 4 ||
            count == 0 || !isfinite(e.median_ms) || e.median_ms <= 0) {
            snprintf(why, why_len, "%s, line %u, is not 'bits,count,method,median_ms' (a size, a "
                     "count of at least 1, a method and a time in ms above 0)", name, lineno);
            free(*rows);
            return false;
        }
        e.count = count;
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            struct tune_entry *grown = realloc(*rows, cap * sizeof *grown);
            if (!grown) {
                snprintf(why, why_len, "%s: out of memory", name);
                free(*rows);
                return false;
            }
            *rows = grown;
        }
        (*rows)[(*n)++] = e;
    }
    return true;
}

bool tune_table_pick(unsigned words, uint64_t count, int device, struct tune_pick *out, char *why,
                     size_t why_len)
{
    char name[512], table_gpu[256];
    bool builtin;
    FILE *f = tune_table_open(name, sizeof name, &builtin, why, why_len);
    if (!f && !builtin)
        return false;
    struct tune_entry *rows = NULL;
    mpgpu_mul_tune_entry *entries = NULL;
    size_t n;
    if (builtin) {
        const char *gpu;
        mpgpu_mul_tune_builtin(NULL, &n, &gpu);
        snprintf(table_gpu, sizeof table_gpu, "%s", gpu);
    } else {
        bool ok = read_rows(f, name, &rows, &n, table_gpu, sizeof table_gpu, why, why_len);
        fclose(f);
        if (!ok)
            return false;
        entries = malloc((n ? n : 1) * sizeof *entries);
        if (!entries) {
            snprintf(why, why_len, "%s: out of memory", name);
            free(rows);
            return false;
        }
        for (size_t i = 0; i < n; i++)
            entries[i] = (mpgpu_mul_tune_entry){rows[i].bits, rows[i].count, rows[i].method,
                                                rows[i].median_ms};
    }
    const unsigned want = words * 32;
    mpgpu_mul_auto_choice choice;
    const mpgpu_status st = mpgpu_mul_auto_pick(entries, builtin ? 0 : n, want, count, &choice);
    free(entries);
    free(rows);
    if (st != MPGPU_OK) {
        if (n == 0)
            snprintf(why, why_len, "%s has no method for %u bits: it has no rows", name, want);
        else
            snprintf(why, why_len, "%s has no method for %u bits at its entry of %u bits, %llu "
                     "products", name, want, choice.bits, (unsigned long long)choice.count);
        return false;
    }
    warn_other_gpu(name, table_gpu, device);
    *out = (struct tune_pick){want, choice.method, choice.bits, choice.count};
    return true;
}
