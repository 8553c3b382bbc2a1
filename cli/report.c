#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>

#include "mpgpu_version.h"
#include "output_file.h"

static void read_cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p++;
                while (*p == ' ')
                    p++;
                p[strcspn(p, "\n")] = '\0';
                snprintf(out, len, "%s", p);
            }
            break;
        }
    }
    fclose(f);
}

static void utc_now(char *out, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void run_env_collect(struct run_env *env, bool have_gpu, int device)
{
    memset(env, 0, sizeof *env);
    utc_now(env->timestamp, sizeof env->timestamp);
    snprintf(env->commit, sizeof env->commit, "%s", MPGPU_COMMIT);
    if (gethostname(env->host, sizeof env->host) != 0)
        snprintf(env->host, sizeof env->host, "unknown");
    env->host[sizeof env->host - 1] = '\0';
    read_cpu_model(env->cpu, sizeof env->cpu);
    env->have_gpu = have_gpu;
    snprintf(env->gpu, sizeof env->gpu, "none");
    cudaDriverGetVersion(&env->driver_version);
    cudaRuntimeGetVersion(&env->runtime_version);
    if (!have_gpu)
        return;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
        snprintf(env->gpu, sizeof env->gpu, "%s", prop.name);
        env->cc_major = prop.major;
        env->cc_minor = prop.minor;
        env->sm_count = prop.multiProcessorCount;
    }
    int khz = 0;
    /* CUDA 13 dropped clockRate and memoryClockRate from cudaDeviceProp (shared/GPU.md). */
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess)
        env->sm_clock_mhz = khz / 1000;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess)
        env->mem_clock_mhz = khz / 1000;
}

static void version_string(char *out, size_t len, int v)
{
    if (v <= 0)
        snprintf(out, len, "none");
    else
        snprintf(out, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

void run_env_print(FILE *f, const struct run_env *env)
{
    char drv[16], rt[16];
    version_string(drv, sizeof drv, env->driver_version);
    version_string(rt, sizeof rt, env->runtime_version);
    fprintf(f, "# mpgpu %s  %s  host %s (%s)\n", env->commit, env->timestamp, env->host, env->cpu);
    if (env->have_gpu)
        fprintf(f, "# GPU %s, cc %d.%d, %d SMs, SM clock %d MHz, memory clock %d MHz, "
                   "driver %s (CUDA API), runtime %s\n",
                env->gpu, env->cc_major, env->cc_minor, env->sm_count, env->sm_clock_mhz,
                env->mem_clock_mhz, drv, rt);
    else
        fprintf(f, "# GPU none\n");
}

#define CSV_COLUMNS_V1                                                                             \
    "timestamp,commit,host,cpu,gpu,compute_capability,sm_count,sm_clock_mhz,"                      \
    "mem_clock_mhz,driver_version,runtime_version,subcommand,method,bits,params,count,"            \
    "reps,warmup,seed,cpu_threads,timed_region,median_ms,min_ms,max_ms,throughput_per_s,"          \
    "throughput_unit,verify_mode,checked,mismatches"

const char *csv_header_v1(void)
{
    return CSV_COLUMNS_V1;
}

/* Appended only, never moved: the figures take columns by their numbers (plots/). */
const char *csv_header(void)
{
    return CSV_COLUMNS_V1 ",noise_rsd_pct,samples,sm_clock_start_mhz,sm_clock_end_mhz,"
                          "mem_clock_start_mhz,mem_clock_end_mhz,temp_start_c,temp_end_c,"
                          "power_start_w,power_end_w,throttled_samples,throttle_reasons,"
                          "schema_version";
}

/* Writes s as one CSV field, quoted when it holds a comma, quote or newline. */
static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* A file of rows whose last line lacks its newline (cut short, or edited) would have the
 * first new row glued to it: it gets the newline first. Returns 0, or the errno of a failure. */
static int end_last_line(FILE *f)
{
    if (fseek(f, -1, SEEK_END) != 0)
        return 0; /* not seekable (a FIFO), or empty */
    const int last = fgetc(f);
    /* A write after a read needs a seek between them (C11 7.21.5.3). */
    if (fseek(f, 0, SEEK_END) != 0)
        return errno;
    return last == EOF || last == '\n' || fputc('\n', f) != EOF ? 0 : errno;
}

/* The schema of the file's header (its first line): 1, CSV_SCHEMA_VERSION, or 0 when the first
 * line is no header of mpgpu's (another program's CSV, a --json file, a later schema's). */
static int file_schema(FILE *f)
{
    char *first = NULL;
    size_t cap = 0;
    int schema = 0;
    if (fseek(f, 0, SEEK_SET) == 0 && getline(&first, &cap, f) >= 0) {
        first[strcspn(first, "\r\n")] = '\0';
        schema = !strcmp(first, csv_header()) ? CSV_SCHEMA_VERSION : !strcmp(first, CSV_COLUMNS_V1) ? 1 : 0;
    }
    free(first);
    return schema;
}

FILE *csv_open(const char *path, int *schema)
{
    *schema = CSV_SCHEMA_VERSION;
    if (!strcmp(path, "-")) {
        fprintf(stdout, "%s\n", csv_header());
        const int err = output_flush_error(stdout);
        if (err) {
            cli_error("--csv -: writing to stdout failed: %s", strerror(err));
            clearerr(stdout); /* said: not again at exit */
            return NULL;
        }
        return stdout;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("--csv '%s' is a directory; accepted: a file to append rows to, or - for stdout", path);
        return NULL;
    }
    bool need_header = stat(path, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(path, "a+");
    if (!f) {
        cli_error("--csv '%s' cannot be opened for appending: %s", path, strerror(errno));
        return NULL;
    }
    if (!need_header && (*schema = file_schema(f)) == 0) {
        /* Rows appended under another header would make the file unreadable as a table, and
         * compare's input with it. */
        cli_error("--csv '%s' does not start with the header of an mpgpu CSV (schema 1 or %d); "
                  "accepted: an mpgpu CSV to append rows to, a new or empty file, or - for stdout",
                  path, CSV_SCHEMA_VERSION);
        fclose(f);
        return NULL;
    }
    if (!need_header && *schema != CSV_SCHEMA_VERSION)
        fprintf(stderr, "mpgpu: note: --csv '%s' has the header of CSV schema %d: its new rows keep "
                        "that schema, without the noise and GPU state columns (docs/csv.md)\n",
                path, *schema);
    int err = need_header ? 0 : end_last_line(f);
    if (need_header && fprintf(f, "%s\n", csv_header()) < 0)
        err = errno;
    if (!err)
        err = output_flush_error(f);
    if (err) {
        cli_error("--csv '%s': writing failed: %s", path, strerror(err));
        fclose(f);
        return NULL;
    }
    return f;
}

/* An unsigned number, or an empty field when it was not measured. */
static void csv_maybe(FILE *f, bool valid, unsigned v)
{
    if (valid)
        fprintf(f, "%u", v);
    fputc(',', f);
}

/* Schema 2's columns after mismatches, each with its leading comma. */
static void csv_write_v2(FILE *f, const struct result_row *row)
{
    fputc(',', f);
    if (!isnan(row->noise_pct))
        fprintf(f, "%.3f", row->noise_pct);
    fprintf(f, ",%u,", row->samples);
    const struct nvml_row *g = row->gpu_state;
    const struct nvml_sample none = {0};
    const struct nvml_sample *a = g ? &g->start : &none, *z = g ? &g->end : &none;
    csv_maybe(f, a->valid, a->sm_mhz);
    csv_maybe(f, z->valid, z->sm_mhz);
    csv_maybe(f, a->valid, a->mem_mhz);
    csv_maybe(f, z->valid, z->mem_mhz);
    csv_maybe(f, a->valid, a->temp_c);
    csv_maybe(f, z->valid, z->temp_c);
    if (a->valid)
        fprintf(f, "%.1f", a->power_w);
    fputc(',', f);
    if (z->valid)
        fprintf(f, "%.1f", z->power_w);
    fputc(',', f);
    const bool reasons = g && g->reasons_read;
    csv_maybe(f, reasons, reasons ? g->throttled_samples : 0);
    char names[96] = "";
    if (reasons)
        nvml_reason_names(g->reasons, names, sizeof names);
    fprintf(f, "%s,%d", names, CSV_SCHEMA_VERSION);
}

int csv_write_row(FILE *f, int schema, const struct run_env *env, const struct result_row *row)
{
    char drv[16], rt[16], cc[16], stamp[32];
    version_string(drv, sizeof drv, env->driver_version);
    version_string(rt, sizeof rt, env->runtime_version);
    snprintf(cc, sizeof cc, env->have_gpu ? "%d.%d" : "none", env->cc_major, env->cc_minor);
    utc_now(stamp, sizeof stamp);
    const char *fields[] = {stamp, env->commit, env->host, env->cpu, env->gpu, cc};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        csv_field(f, fields[i]);
        fputc(',', f);
    }
    fprintf(f, "%d,%d,%d,%s,%s,", env->sm_count, env->sm_clock_mhz, env->mem_clock_mhz, drv, rt);
    csv_field(f, row->subcommand);
    fputc(',', f);
    csv_field(f, row->method);
    fprintf(f, ",%u,", row->bits);
    csv_field(f, row->params);
    fprintf(f, ",%llu,%u,%u,%llu,%d,%s,%.6f,%.6f,%.6f,%.6e,", (unsigned long long)row->count,
            row->reps, row->warmup, (unsigned long long)row->seed, row->cpu_threads,
            row->timed_region, row->median_ms, row->min_ms, row->max_ms, row->throughput);
    csv_field(f, row->throughput_unit);
    fprintf(f, ",%s,%llu,%llu", row->verify_mode, (unsigned long long)row->checked,
            (unsigned long long)row->mismatches);
    if (schema >= 2)
        csv_write_v2(f, row);
    fputc('\n', f);
    const int err = output_flush_error(f);
    if (err) {
        cli_error("writing a --csv row failed: %s", strerror(err));
        clearerr(f); /* said, for stdout not again at exit */
        return -1;
    }
    return 0;
}

void format_ms(char *out, size_t len, double ms)
{
    const char *unit = "ms";
    double v = ms;
    if (ms < 1.0) {
        v = ms * 1e3;
        unit = "us";
    } else if (ms >= 1e4) {
        v = ms * 1e-3;
        unit = "s";
    }
    int decimals = v < 10 ? 3 : v < 100 ? 2 : v < 1000 ? 1 : 0;
    snprintf(out, len, "%.*f %s", decimals, v, unit);
}

/* The noise as the table shows it: "1.23%", or "-" for one sample. */
static void format_noise(char *out, size_t len, double noise_pct)
{
    if (isnan(noise_pct))
        snprintf(out, len, "-");
    else
        snprintf(out, len, "%.2f%%", noise_pct);
}

void table_begin(FILE *f, const char *unit, bool markdown)
{
    char rate[48];
    snprintf(rate, sizeof rate, "%s/s", unit);
    if (markdown) {
        fprintf(f, "| method | bits | count | median | min | max | noise | %s | verified | params |\n"
                   "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n", rate);
        return;
    }
    fprintf(f, "%-30s %6s %12s %11s %11s %11s %7s %14s %-14s %s\n", "method", "bits", "count",
            "median", "min", "max", "noise", rate, "verified", "params");
}

void table_row(FILE *f, const struct result_row *row, bool markdown)
{
    char verified[48], med[24], lo[24], hi[24], noise[16];
    if (!strcmp(row->verify_mode, "none"))
        snprintf(verified, sizeof verified, "not checked");
    else if (!strcmp(row->verify_mode, "reference"))
        snprintf(verified, sizeof verified, "reference");
    else if (row->mismatches)
        snprintf(verified, sizeof verified, "FAIL %llu/%llu", (unsigned long long)row->mismatches,
                 (unsigned long long)row->checked);
    else
        snprintf(verified, sizeof verified, "ok %llu", (unsigned long long)row->checked);
    format_ms(med, sizeof med, row->median_ms);
    format_ms(lo, sizeof lo, row->min_ms);
    format_ms(hi, sizeof hi, row->max_ms);
    format_noise(noise, sizeof noise, row->noise_pct);
    char bits[16] = "-";
    if (row->bits)
        snprintf(bits, sizeof bits, "%u", row->bits);
    if (markdown)
        fprintf(f, "| %s | %s | %llu | %s | %s | %s | %s | %.4g | %s | %s |\n", row->method, bits,
                (unsigned long long)row->count, med, lo, hi, noise, row->throughput, verified,
                row->params);
    else
        fprintf(f, "%-30s %6s %12llu %11s %11s %11s %7s %14.4g %-14s %s\n", row->method, bits,
                (unsigned long long)row->count, med, lo, hi, noise, row->throughput, verified,
                row->params);
}
