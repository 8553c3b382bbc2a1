#include "timing.h"

#include "mpgpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "stats.h"

void timing_stats_from(double *samples_ms, unsigned n, struct timing_stats *stats)
{
    struct sample_stats st;
    stats_of(samples_ms, n, &st);
    stats->min_ms = st.min_ms;
    stats->max_ms = st.max_ms;
    stats->median_ms = st.median_ms;
}

bool gpu_region_held(const struct cli_common *opt, bool warmup)
{
    return !warmup && !opt->include_transfers && !opt->include_launch;
}

const char *gpu_region_name(const struct cli_common *opt)
{
    return opt->include_transfers ? "kernels+transfers" : opt->include_launch ? "kernels+launch" : "kernels";
}

/* How long the holding kernel waits for its release: queueing a region takes microseconds, so
 * a hold this long means the region blocked the host behind the held stream. */
#define HOLD_TIMEOUT_NS 1000000000ull

/* Holds that timed out so far: past HOLD_TIMEOUTS_MAX the region blocks the host every time, and
 * the rest of the run is timed unheld rather than waiting out a timeout at every repetition.
 * Atomic, as --devices times regions from several host threads. */
#define HOLD_TIMEOUTS_MAX 3
static atomic_int hold_timeouts;

/* The hold's two flags in mapped host memory, one pair per host thread (the workers of
 * --devices time their GPUs at once), allocated at the thread's first held region and kept for
 * its life. Why not one pair per region: mapping new host memory before each timed region slowed
 * the kernel timed next, and held timing measured that too. On an H200, 2^20 products of 1024
 * bits: 0.1585 against 0.1571 ms in experiments/timing_hold.sh, and mpgpu's own 0.1625 against
 * 0.1583 ms (docs/timing.md). */
static pthread_key_t hold_flags_key;
static pthread_once_t hold_flags_once = PTHREAD_ONCE_INIT;

static void free_hold_flags(void *flags)
{
    cudaFreeHost(flags);
}

static void make_hold_flags_key(void)
{
    if (pthread_key_create(&hold_flags_key, free_hold_flags) != 0)
        abort(); /* only when the process is out of thread keys */
}

static cudaError_t thread_hold_flags(int **flags, const char **failed_call)
{
    pthread_once(&hold_flags_once, make_hold_flags_key);
    *flags = pthread_getspecific(hold_flags_key);
    if (*flags)
        return cudaSuccess;
    cudaError_t err = cudaHostAlloc((void **)flags, 2 * sizeof **flags,
                                    cudaHostAllocMapped | cudaHostAllocPortable);
    if (err != cudaSuccess) {
        *failed_call = "cudaHostAlloc (stream hold flags)";
        *flags = NULL;
        return err;
    }
    pthread_setspecific(hold_flags_key, *flags);
    return cudaSuccess;
}

/* One repetition: the start event, the region, the stop event, and the elapsed time. With
 * flags (host memory mapped into the device) the stream is held until all of it is queued. */
static cudaError_t time_once(gpu_region_fn region, void *ctx, cudaStream_t stream, int *flags,
                             cudaEvent_t start, cudaEvent_t stop, float *ms, const char **failed_call)
{
    cudaError_t err;
    if (flags) {
        flags[0] = flags[1] = 0;
        int *dev_flags;
        if ((err = cudaHostGetDevicePointer((void **)&dev_flags, flags, 0)) != cudaSuccess) {
            *failed_call = "cudaHostGetDevicePointer (stream hold)";
            return err;
        }
        if (mpgpu_timing_hold_stream(dev_flags, HOLD_TIMEOUT_NS, stream) != MPGPU_OK) {
            mpgpu_error_info e;
            mpgpu_last_error(&e);
            *failed_call = "stream_hold_kernel";
            return (cudaError_t)e.cuda_error;
        }
    }
    if ((err = cudaEventRecord(start, stream)) != cudaSuccess) {
        *failed_call = "cudaEventRecord";
        return err;
    }
    const cudaError_t region_err = region(ctx, failed_call);
    if (region_err == cudaSuccess && (err = cudaEventRecord(stop, stream)) != cudaSuccess)
        *failed_call = "cudaEventRecord";
    if (flags) /* released even after an error, so the stream drains */
        __atomic_store_n(&flags[0], 1, __ATOMIC_RELEASE);
    if (region_err != cudaSuccess)
        return region_err;
    if (err != cudaSuccess)
        return err;
    if ((err = cudaEventSynchronize(stop)) != cudaSuccess) {
        *failed_call = "cudaEventSynchronize (kernel execution)";
        return err;
    }
    if ((err = cudaEventElapsedTime(ms, start, stop)) != cudaSuccess)
        *failed_call = "cudaEventElapsedTime";
    return err;
}

cudaError_t time_gpu_region(gpu_region_fn region, void *ctx, cudaStream_t stream, bool held,
                            unsigned warmup, unsigned reps, double *samples_ms,
                            const char **failed_call)
{
    cudaEvent_t start = NULL, stop = NULL;
    int *flags = NULL;
    cudaError_t err;
    if ((err = cudaEventCreate(&start)) != cudaSuccess) {
        *failed_call = "cudaEventCreate";
        return err;
    }
    if ((err = cudaEventCreate(&stop)) != cudaSuccess) {
        *failed_call = "cudaEventCreate";
        goto out;
    }
    if (held && atomic_load(&hold_timeouts) < HOLD_TIMEOUTS_MAX &&
        (err = thread_hold_flags(&flags, failed_call)) != cudaSuccess)
        goto out;
    for (unsigned i = 0; i < warmup; i++)
        if ((err = region(ctx, failed_call)) != cudaSuccess)
            goto out;
    if ((err = cudaStreamSynchronize(stream)) != cudaSuccess) {
        *failed_call = "cudaStreamSynchronize (after warm-up)";
        goto out;
    }
    for (unsigned r = 0; r < reps; r++) {
        float ms;
        if ((err = time_once(region, ctx, stream, flags, start, stop, &ms, failed_call)) != cudaSuccess)
            goto out;
        if (flags && __atomic_load_n(&flags[1], __ATOMIC_ACQUIRE)) {
            /* The hold ran out before the region was queued: the sample holds the wait. */
            const int n = atomic_fetch_add(&hold_timeouts, 1) + 1;
            fprintf(stderr, "mpgpu: note: the timed region blocked the host while its stream was "
                            "held; this repetition is timed again with the launch latency%s\n",
                    n == HOLD_TIMEOUTS_MAX ? ", and so is the rest of the run" : "");
            if (n >= HOLD_TIMEOUTS_MAX)
                flags = NULL;
            if ((err = time_once(region, ctx, stream, NULL, start, stop, &ms, failed_call)) != cudaSuccess)
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
