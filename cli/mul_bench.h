/* The measured run of bulk products, shared by `mpgpu mul`, `mpgpu toom` and `mpgpu tune`:
 * operands, the per-method GPU run (device batches, CUDA-event timing, every product checked
 * against GMP), the GMP baseline, and one table/CSV row per method. */
#ifndef MPGPU_MUL_BENCH_H
#define MPGPU_MUL_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "mul.h"
#include "report.h"

struct mul_bench {
    const char *subcommand; /* written into each row: "mul", "toom", "tune" */
    struct cli_common opt;
    struct run_env env;
    unsigned words;
    size_t count;
    size_t max_batch;        /* products per device batch at most (0: all that fit) */
    bool from_input;         /* operands came from a file: rows carry seed 0 */
    const char *output_path; /* products of the first method that passes go here (or NULL) */
    bool output_written;
    uint32_t *a, *b, *c;     /* product-major operands and products */
    int exit_status;         /* EXIT_MISMATCH or EXIT_BAD_INPUT once a run failed, else 0 */
};

/* Allocates the operand and product arrays (a and b only when not from_input) and fills the
 * operands from the seeded generator; exits with status 2 when host memory is short. */
void mul_bench_prepare(struct mul_bench *r);
void mul_bench_free(struct mul_bench *r);

/* Times method m on the GPU, checks its products, prints and records the row. Returns the
 * median kernel time in ms, or a negative value when interrupted. */
double mul_bench_run_gpu(struct mul_bench *r, const struct mul_method *m);

/* Times GMP on --threads threads (0: all cores) and records the row; returns the median in ms,
 * or a negative value when interrupted. */
double mul_bench_run_gmp(struct mul_bench *r);

/* The whole measured run: the report header, each GPU method, then GMP when `gmp`, stopping
 * at Ctrl-C. Frees the arrays and returns the exit status (EXIT_INTERRUPTED on Ctrl-C). */
int mul_bench_run_all(struct mul_bench *r, const struct mul_method *const *methods, size_t n,
                      bool gmp);

/* The number of host cores, what --threads 0 means. */
int mul_bench_all_threads(void);

#endif
