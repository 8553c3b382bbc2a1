/* A kernel that holds a stream until the host releases it, so that the kernels of a timed
 * region queue up behind it and the CUDA events around them time the GPU's work, not the host's
 * launch latency (nvbench's blocking kernel, STYLE.md). */
#ifndef MPGPU_STREAM_HOLD_H
#define MPGPU_STREAM_HOLD_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* flags: two ints in host memory mapped into the device (cudaHostAllocMapped), seen through
 * their device address. The kernel spins until flags[0] is nonzero; if timeout_ns passes
 * first it sets flags[1] and returns, so a region that blocks the host on the held stream
 * (a synchronous copy) cannot hang the run. */
cudaError_t stream_hold_launch(int *flags, unsigned long long timeout_ns, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
