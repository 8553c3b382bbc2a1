#include "json_report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cuda_runtime_api.h>

#include "mpgpu_version.h"
#include "file_replace.h"

#ifndef MPGPU_HAVE_CJSON

bool json_supported(void)
{
    return false;
}

struct json_report *json_report_open(const char *path, const struct run_env *env,
                                     const struct cli_common *opt)
{
    (void)env;
    (void)opt;
    cli_bad_input("--json '%s': this mpgpu was built without cJSON (Debian's libcjson-dev); "
                  "accepted: --csv FILE or --markdown", path);
}

int json_report_add(struct json_report *j, const struct result_row *row, const double *samples_ms,
                    const bool *throttled, unsigned n)
{
    (void)j;
    (void)row;
    (void)samples_ms;
    (void)throttled;
    (void)n;
    return 0;
}

void json_report_close(struct json_report *j)
{
    (void)j;
}

int json_read_table(FILE *f, struct result_table *t, char *err, size_t err_len)
{
    (void)f;
    memset(t, 0, sizeof *t);
    snprintf(err, err_len, "is JSON, and this mpgpu was built without cJSON (Debian's libcjson-dev); "
                           "accepted: CSV files");
    return -1;
}

#else

#include <cjson/cJSON.h>

struct json_report {
    char *path;
    cJSON *doc, *rows;
};

bool json_supported(void)
{
    return true;
}

/* The document as it stands, to the temporary file, renamed over the target. */
static int json_write(struct json_report *j)
{
    char *text = cJSON_Print(j->doc);
    if (!text) {
        cli_error("--json '%s': out of memory", j->path);
        return -1;
    }
    struct file_replace r;
    int err = file_replace_open(&r, j->path);
    if (!err) {
        fprintf(r.f, "%s\n", text);
        err = file_replace_commit(&r);
    }
    cJSON_free(text);
    if (err) {
        cli_error("--json '%s': writing failed: %s", j->path, strerror(err));
        return -1;
    }
    return 0;
}

static cJSON *machine_of(const struct run_env *env)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "host", env->host);
    cJSON_AddStringToObject(m, "cpu", env->cpu);
    cJSON_AddStringToObject(m, "gpu", env->gpu);
    if (env->have_gpu) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", env->cc_major, env->cc_minor);
        cJSON_AddStringToObject(m, "compute_capability", cc);
        cJSON_AddNumberToObject(m, "sm_count", env->sm_count);
        cJSON_AddNumberToObject(m, "sm_clock_mhz", env->sm_clock_mhz);
        cJSON_AddNumberToObject(m, "mem_clock_mhz", env->mem_clock_mhz);
    }
    cJSON_AddNumberToObject(m, "driver_version", env->driver_version);
    cJSON_AddNumberToObject(m, "runtime_version", env->runtime_version);
    return m;
}

static cJSON *build_of(void)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "version", MPGPU_VERSION);
    cJSON_AddStringToObject(b, "commit", MPGPU_COMMIT);
    cJSON_AddStringToObject(b, "compiler", __VERSION__);
    cJSON_AddNumberToObject(b, "cuda_runtime_built", CUDART_VERSION);
    return b;
}

struct json_report *json_report_open(const char *path, const struct run_env *env,
                                     const struct cli_common *opt)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        cli_bad_input("--json '%s' is a directory; accepted: a file to write", path);
    /* The file is replaced after each row: stdout, a device or a FIFO cannot be (a rename would
     * put a plain file in its place); a symbolic link is followed (file_replace_open), so that its
     * target is. */
    if (!strcmp(path, "-"))
        cli_bad_input("--json - is not accepted; accepted: a file (rewritten after each row)");
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        cli_bad_input("--json '%s' is not a regular file; accepted: a file (rewritten after each "
                      "row)", path);
    /* Replaced whole: a file that is not JSON (a results CSV given by mistake) would be lost, as
     * --csv refuses to append to a file that is not an mpgpu CSV. */
    FILE *old = fopen(path, "r");
    if (old) {
        const int c = result_file_first_char(old);
        fclose(old);
        if (c != EOF && c != '{')
            cli_bad_input("--json '%s' holds something other than JSON; accepted: a new or empty file, or a "
                          "JSON document (which is replaced)", path);
    }
    struct json_report *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path)))
        cli_bad_input("--json '%s': out of memory", path);
    j->doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(j->doc, "schema_version", CSV_SCHEMA_VERSION);
    cJSON_AddStringToObject(j->doc, "started", env->timestamp);
    cJSON *args = cJSON_AddArrayToObject(j->doc, "command");
    cJSON_AddItemToArray(args, cJSON_CreateString("mpgpu"));
    for (int i = 0; i < opt->argc; i++)
        cJSON_AddItemToArray(args, cJSON_CreateString(opt->argv[i]));
    cJSON_AddItemToObject(j->doc, "build", build_of());
    cJSON_AddItemToObject(j->doc, "machine", machine_of(env));
    j->rows = cJSON_AddArrayToObject(j->doc, "rows");
    if (json_write(j) != 0)
        exit(EXIT_BAD_INPUT);
    return j;
}

static void add_sample_state(cJSON *o, const char *name, const struct nvml_sample *s)
{
    if (!s->valid)
        return;
    cJSON *x = cJSON_AddObjectToObject(o, name);
    cJSON_AddNumberToObject(x, "sm_clock_mhz", s->sm_mhz);
    cJSON_AddNumberToObject(x, "mem_clock_mhz", s->mem_mhz);
    cJSON_AddNumberToObject(x, "temp_c", s->temp_c);
    cJSON_AddNumberToObject(x, "power_w", s->power_w);
}

int json_report_add(struct json_report *j, const struct result_row *row, const double *samples_ms,
                    const bool *throttled, unsigned n)
{
    cJSON *r = cJSON_CreateObject();
    /* The CSV's names, so that one reader takes rows of either (mpgpu compare). */
    cJSON_AddStringToObject(r, "subcommand", row->subcommand);
    cJSON_AddStringToObject(r, "method", row->method);
    cJSON_AddNumberToObject(r, "bits", row->bits);
    cJSON_AddStringToObject(r, "params", row->params);
    cJSON_AddNumberToObject(r, "count", (double)row->count);
    cJSON_AddNumberToObject(r, "reps", row->reps);
    cJSON_AddNumberToObject(r, "warmup", row->warmup);
    /* A seed past 2^53 would lose digits as a JSON number. */
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)row->seed);
    cJSON_AddStringToObject(r, "seed", seed);
    cJSON_AddNumberToObject(r, "cpu_threads", row->cpu_threads);
    cJSON_AddStringToObject(r, "timed_region", row->timed_region);
    cJSON_AddNumberToObject(r, "median_ms", row->median_ms);
    cJSON_AddNumberToObject(r, "min_ms", row->min_ms);
    cJSON_AddNumberToObject(r, "max_ms", row->max_ms);
    if (!isnan(row->noise_pct))
        cJSON_AddNumberToObject(r, "noise_rsd_pct", row->noise_pct);
    cJSON_AddNumberToObject(r, "samples", row->samples);
    cJSON_AddNumberToObject(r, "throughput_per_s", row->throughput);
    cJSON_AddStringToObject(r, "throughput_unit", row->throughput_unit);
    cJSON_AddStringToObject(r, "verify_mode", row->verify_mode);
    cJSON_AddNumberToObject(r, "checked", (double)row->checked);
    cJSON_AddNumberToObject(r, "mismatches", (double)row->mismatches);
    cJSON *s = cJSON_AddArrayToObject(r, "samples_ms");
    for (unsigned i = 0; i < n; i++)
        cJSON_AddItemToArray(s, cJSON_CreateNumber(samples_ms[i]));
    const struct nvml_row *g = row->gpu_state;
    if (g) {
        add_sample_state(r, "gpu_start", &g->start);
        add_sample_state(r, "gpu_end", &g->end);
    }
    if (g && g->reasons_read && throttled) {
        cJSON *t = cJSON_AddArrayToObject(r, "throttled");
        for (unsigned i = 0; i < n; i++)
            cJSON_AddItemToArray(t, cJSON_CreateBool(throttled[i]));
        char names[96];
        cJSON_AddStringToObject(r, "throttle_reasons", nvml_reason_names(g->reasons, names, sizeof names));
    }
    cJSON_AddItemToArray(j->rows, r);
    return json_write(j);
}

void json_report_close(struct json_report *j)
{
    if (!j)
        return;
    cJSON_Delete(j->doc);
    free(j->path);
    free(j);
}

/* One row object of the file into a record: strings and numbers as the CSV writes them (whole
 * numbers without a fraction), samples_ms as its samples. */
static int read_row(struct result_table *t, const cJSON *row, unsigned index)
{
    struct result_record *r = result_table_add_row(t, index);
    if (!r)
        return -1;
    for (const cJSON *x = row->child; x; x = x->next) {
        char num[40];
        const char *value = NULL;
        if (cJSON_IsString(x))
            value = x->valuestring;
        else if (cJSON_IsNumber(x)) {
            const double v = x->valuedouble;
            snprintf(num, sizeof num, fabs(v) < 9e15 && v == (double)(long long)v ? "%.0f" : "%.17g", v);
            value = num;
        } else if (cJSON_IsArray(x) && !strcmp(x->string, "samples_ms")) {
            const int n = cJSON_GetArraySize(x);
            r->samples_ms = malloc((n ? n : 1) * sizeof *r->samples_ms);
            if (!r->samples_ms)
                return -1;
            for (const cJSON *s = x->child; s; s = s->next)
                if (cJSON_IsNumber(s))
                    r->samples_ms[r->n_samples++] = s->valuedouble;
        }
        const char *name = value ? result_table_keep(t, x->string, strlen(x->string)) : NULL;
        if (value && (!name || result_record_add(t, r, name, value) != 0))
            return -1;
    }
    return 0;
}

int json_read_table(FILE *f, struct result_table *t, char *err, size_t err_len)
{
    memset(t, 0, sizeof *t);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    char buf[65536];
    size_t got;
    while (mem && (got = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, got, mem);
    const bool read_ok = mem && !ferror(f);
    if (mem)
        fclose(mem);
    cJSON *doc = read_ok ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    int rc = 0;
    if (!read_ok) {
        snprintf(err, err_len, "reading failed");
        rc = -1;
    } else if (!doc) {
        snprintf(err, err_len, "is not valid JSON");
        rc = -1;
    } else if (!cJSON_IsArray(rows)) {
        snprintf(err, err_len, "has no \"rows\" array: not an mpgpu --json file");
        rc = -1;
    }
    unsigned index = 0;
    for (const cJSON *row = rc == 0 ? rows->child : NULL; row && rc == 0; row = row->next) {
        index++;
        if (!cJSON_IsObject(row) || read_row(t, row, index) != 0) {
            snprintf(err, err_len, "row %u is not an object of fields (or out of memory)", index);
            rc = -1;
        }
    }
    cJSON_Delete(doc);
    return rc;
}

#endif
