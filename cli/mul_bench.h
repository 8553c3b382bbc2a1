/* Bulk products in the run loop (bench.h), shared by `mpgpu mul`, `mpgpu toom` and `mpgpu tune`:
 * the operands of each size, one case per (size, method) with device batches and CUDA-event
 * timing, every product checked against GMP, and the GMP baseline as a case of its own. */
#ifndef MPGPU_MUL_BENCH_H
#define MPGPU_MUL_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "bench.h"
#include "cli.h"
#include "mpgpu.h"
#include "mul_gmp.h"
#include "multi_device.h"
#include "output_file.h"
#include "tune_table.h"

/* One worker's device buffers for one method at one size, holding up to `batch` products in
 * the method's native layout, and the workspace libmpgpu asks for, allocated before the timed
 * region so that it holds the method's kernels alone (mpgpu_mul_device_workspace). */
struct mul_buffers {
    const mpgpu_mul_method_info *method;
    unsigned words;
    size_t batch;
    uint32_t *d_a, *d_b, *d_c;
    void *d_workspace;
    size_t workspace_bytes;
    uint32_t *d_stage; /* product-major staging for word-major methods */
    cudaStream_t stream;
    const char *failed_call; /* name of the call that failed, for the error message */
};

struct mul_bench {
    struct cli_common opt;
    size_t count;            /* products per pass */
    size_t max_batch;        /* products per device batch at most (0: all that fit) */
    bool from_input;         /* operands came from --input: one size, rows carry seed 0 */
    struct output_file output; /* --output, opened up front: the products of the first case
                              * that matches GMP are written there */
    bool output_written;
    int output_status; /* EXIT_BAD_INPUT when writing --output failed, for the run's status */
    unsigned words;          /* size of the operands held now */
    uint32_t *a, *b, *c;     /* product-major operands and products */
    /* --devices of `mpgpu mul` (issue 14), resolved; n == 0 (toom, tune): the GPU selected
     * now, one worker. Each worker has its own device state and takes whole batches. */
    struct md_devices devices;
    /* The case in hand. */
    struct mul_buffers devs[MD_MAX_DEVICES];
    size_t batch, n_batches;
    /* Each worker's products and timed region in the last pass, for its rate. */
    struct md_stats workers[MD_MAX_DEVICES];
    /* Of a case in device batches: each timed pass's wall time, from handing out the first
     * batch to the last one's products back, transfers and host threads included. A pass is
     * timed as the busiest worker's kernels; scaling is judged on both. */
    double *pass_wall_ms;
    unsigned n_pass_wall;
    bool held; /* the pass in hand is timed held (gpu_region_held) */
    struct gmp_batch gmp;
    /* `mpgpu mul --method auto`'s choices (none elsewhere): the rows of each say in params
     * which tune-table entry it came from. */
    struct tune_pick auto_picks[CLI_MAX_SIZES];
    size_t n_auto_picks;
};

/* libmpgpu's product methods, in its order (static storage): the cases' data points into it.
 * *n gets their number. */
const mpgpu_mul_method_info *mul_bench_methods(size_t *n);
/* The method called `name`, or NULL. */
const mpgpu_mul_method_info *mul_bench_method_find(const char *name);
/* Whether the method takes operands of `bits` bits. */
bool mul_bench_supports(const mpgpu_mul_method_info *m, unsigned bits);

/* What the `gmp` method is, for the methods of --help. */
#define MUL_BENCH_GMP_SUMMARY \
    "GMP mpn_mul_n per product on the CPU, on --threads threads (the papers' baseline)"

/* The cases of one size: each GPU method that supports it, then `gmp` when asked. Returns the
 * number of cases written to out (at most max). */
size_t mul_bench_cases(const struct mul_bench *m, unsigned bits,
                       const mpgpu_mul_method_info *const *methods, size_t n_methods, bool gmp,
                       struct bench_case *out, size_t max);

/* Refuses (exit 2) before any work when the largest case's operands, products and GMP limbs do
 * not fit in host memory. */
void mul_bench_check_host(const struct mul_bench *m, const struct bench_case *cases, size_t n);

/* The callbacks of the run loop for these cases (ctx: struct mul_bench). */
extern const struct bench_ops mul_bench_ops;

/* Frees the operand arrays and closes --output. */
void mul_bench_free(struct mul_bench *m);

/* The number of host cores, what --threads 0 means. */
int mul_bench_all_threads(void);

#endif
