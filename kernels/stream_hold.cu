#include "stream_hold.h"

static __device__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __global__ void stream_hold_kernel(volatile int *flags, unsigned long long timeout_ns)
{
    const unsigned long long t0 = global_ns();
    while (flags[0] == 0) {
        if (global_ns() - t0 > timeout_ns) {
            flags[1] = 1;
            return;
        }
        __nanosleep(1000);
    }
}

extern "C" cudaError_t stream_hold_launch(int *flags, unsigned long long timeout_ns, cudaStream_t stream)
{
    stream_hold_kernel<<<1, 1, 0, stream>>>(flags, timeout_ns);
    return cudaGetLastError();
}
