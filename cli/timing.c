#include "timing.h"

#include <stdlib.h>
#include <time.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void timing_stats_from(double *samples_ms, unsigned n, struct timing_stats *stats)
{
    qsort(samples_ms, n, sizeof *samples_ms, cmp_double);
    stats->min_ms = samples_ms[0];
    stats->max_ms = samples_ms[n - 1];
    stats->median_ms = n % 2 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
}

cudaError_t time_gpu_region(gpu_region_fn region, void *ctx, cudaStream_t stream,
                            unsigned warmup, unsigned reps, double *samples_ms,
                            const char **failed_call)
{
    cudaEvent_t start = NULL, stop = NULL;
    cudaError_t err;
    if ((err = cudaEventCreate(&start)) != cudaSuccess) {
        *failed_call = "cudaEventCreate";
        return err;
    }
    if ((err = cudaEventCreate(&stop)) != cudaSuccess) {
        *failed_call = "cudaEventCreate";
        goto out;
    }
    for (unsigned i = 0; i < warmup; i++)
        if ((err = region(ctx, failed_call)) != cudaSuccess)
            goto out;
    if ((err = cudaStreamSynchronize(stream)) != cudaSuccess) {
        *failed_call = "cudaStreamSynchronize (after warm-up)";
        goto out;
    }
    for (unsigned r = 0; r < reps; r++) {
        if ((err = cudaEventRecord(start, stream)) != cudaSuccess) {
            *failed_call = "cudaEventRecord";
            goto out;
        }
        if ((err = region(ctx, failed_call)) != cudaSuccess)
            goto out;
        if ((err = cudaEventRecord(stop, stream)) != cudaSuccess) {
            *failed_call = "cudaEventRecord";
            goto out;
        }
        if ((err = cudaEventSynchronize(stop)) != cudaSuccess) {
            *failed_call = "cudaEventSynchronize (kernel execution)";
            goto out;
        }
        float ms;
        if ((err = cudaEventElapsedTime(&ms, start, stop)) != cudaSuccess) {
            *failed_call = "cudaEventElapsedTime";
            goto out;
        }
        samples_ms[r] = ms;
    }
out:
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    return err;
}

double time_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
