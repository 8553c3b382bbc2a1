/* Timing: repetitions, warm-up, and median/min/max, for GPU (CUDA events) and CPU (monotonic
 * clock) regions. */
#ifndef MPGPU_TIMING_H
#define MPGPU_TIMING_H

#include <cuda_runtime_api.h>

struct timing_stats {
    double median_ms, min_ms, max_ms;
};

/* Sorts samples in place and fills stats. n >= 1. */
void timing_stats_from(double *samples_ms, unsigned n, struct timing_stats *stats);

/* The measured region: returns cudaSuccess or the error of the call that failed, naming that
 * call in *failed_call. */
typedef cudaError_t (*gpu_region_fn)(void *ctx, const char **failed_call);

/* Runs region `warmup` times, then `reps` times between two CUDA events recorded on `stream`,
 * one sample per repetition. */
cudaError_t time_gpu_region(gpu_region_fn region, void *ctx, cudaStream_t stream,
                            unsigned warmup, unsigned reps, double *samples_ms,
                            const char **failed_call);

/* Wall-clock time of a CPU region, in ms. */
double time_now_ms(void);

#endif
