/* Run metadata, the readable table on stdout, and the one CSV schema all subcommands share. */
#ifndef MPGPU_REPORT_H
#define MPGPU_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "nvml_probe.h"

struct run_env {
    char timestamp[32]; /* UTC, ISO 8601: when the run started (each CSV row has its own) */
    char commit[64];
    char host[64];
    char cpu[96];
    bool have_gpu;
    char gpu[256];      /* "none" without a GPU */
    int cc_major, cc_minor;
    int sm_count;
    int sm_clock_mhz, mem_clock_mhz;
    int driver_version, runtime_version; /* as CUDA encodes them: 1000 * major + 10 * minor */
};

/* Fills env; the GPU fields come from `device` when have_gpu. */
void run_env_collect(struct run_env *env, bool have_gpu, int device);
/* The header every report starts with (device, clocks, driver, commit), as nvbench does. */
void run_env_print(FILE *f, const struct run_env *env);

struct result_row {
    const char *subcommand;
    const char *method;
    unsigned bits;          /* 0 when the subcommand has no operand size */
    char params[640];       /* subcommand parameters, "key=value;key=value" */
    uint64_t count;         /* problem size: products, starting values, ... */
    unsigned reps, warmup;
    uint64_t seed;
    int cpu_threads;        /* 0 for GPU rows */
    const char *timed_region; /* "kernels", "kernels+transfers", "cpu" or "pass" */
    double median_ms, min_ms, max_ms;
    double throughput;      /* per second, of throughput_unit */
    const char *throughput_unit; /* e.g. "products", "numbers" */
    const char *verify_mode;     /* "all", "sample", "none" */
    uint64_t checked, mismatches;
    /* Schema 2 (docs/csv.md): the samples behind median, min and max, and the GPU's state. */
    unsigned samples;       /* timed repetitions taken: reps, or more with --min-time/--max-noise */
    double noise_pct;       /* relative standard deviation of the samples, %; NaN for one sample */
    const struct nvml_row *gpu_state; /* NULL for CPU rows */
};

/* The CSV schema's version: 1 had the columns up to mismatches; 2 appended the noise, the
 * samples and the GPU's state, and schema_version itself last. */
#define CSV_SCHEMA_VERSION 2
/* The CSV header line of the current schema, and of schema 1 (its first columns), without
 * newline; tests compare against them. */
const char *csv_header(void);
const char *csv_header_v1(void);
/* Opens path for appending ("-": stdout) and writes the header when the file is new or empty.
 * A file that starts with schema 1's header gets its rows in schema 1 (so that every row of a
 * file has its header's columns), saying so on stderr; *schema is the schema its rows take.
 * Returns the stream, or NULL with a message naming the path and the reason on stderr. */
FILE *csv_open(const char *path, int *schema);
/* Writes one row in the given schema, stamped with the current UTC time, and flushes it, so
 * that rows written before a crash or Ctrl-C are complete. Returns 0, or -1 with a message on
 * stderr. */
int csv_write_row(FILE *f, int schema, const struct run_env *env, const struct result_row *row);

/* The readable table: table_begin prints the column names (the rate in unit/s), table_row one
 * line per result with each time in the unit that keeps 4 significant digits; as a Markdown
 * table with markdown (--markdown). */
void table_begin(FILE *f, const char *unit, bool markdown);
void table_row(FILE *f, const struct result_row *row, bool markdown);
/* "41.10 us", "1.854 ms", "17.21 s": ms in a unit that keeps 4 significant digits. */
void format_ms(char *out, size_t len, double ms);

#endif
