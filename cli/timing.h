/* Timing: repetitions, warm-up, and median/min/max, for GPU (CUDA events) and CPU (monotonic
 * clock) regions. */
#ifndef MPGPU_TIMING_H
#define MPGPU_TIMING_H

#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "cli.h"

struct timing_stats {
    double median_ms, min_ms, max_ms;
};

/* Fills stats from samples_ms[0, n), n >= 1 (cli/stats.h has the noise too). */
void timing_stats_from(double *samples_ms, unsigned n, struct timing_stats *stats);

/* The measured region: returns cudaSuccess or the error of the call that failed, naming that
 * call in *failed_call. */
typedef cudaError_t (*gpu_region_fn)(void *ctx, const char **failed_call);

/* Whether a GPU region is timed held (the default for kernels only): the stream waits behind
 * a holding kernel (mpgpu_timing_hold_stream) until the region's work is queued, so the events
 * time the GPU from the first kernel's start. With --include-launch the host's launch latency
 * is timed too, as plain events around a launch do (the papers', and mpgpu's before held
 * timing); with --include-transfers the region is never held, since a copy from pageable
 * memory may block the host while the stream waits. Warm-up passes are not held either: the
 * first launch of a kernel loads its module (CUDA's lazy loading), which waits for the GPU,
 * and so for the hold. */
bool gpu_region_held(const struct cli_common *opt, bool warmup);

/* The CSV's timed_region for a GPU case: "kernels", "kernels+launch" or "kernels+transfers". */
const char *gpu_region_name(const struct cli_common *opt);

/* Runs region `warmup` times, then `reps` times between two CUDA events recorded on `stream`,
 * one sample per repetition; held as gpu_region_held says. A held repetition whose hold timed
 * out (the region blocked the host) is timed again unheld, with a note on stderr; after
 * HOLD_TIMEOUTS_MAX such repetitions the run is timed unheld. */
cudaError_t time_gpu_region(gpu_region_fn region, void *ctx, cudaStream_t stream, bool held,
                            unsigned warmup, unsigned reps, double *samples_ms,
                            const char **failed_call);

/* Wall-clock time of a CPU region, in ms. */
double time_now_ms(void);

#endif
