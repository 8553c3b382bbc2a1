// CHECK(call) for the probes outside the build (experiments/*.cu): a failed CUDA call prints the
// probe's name (PROBE_NAME, defined before this header), the call and CUDA's message, and exits 1.
#ifndef MPGPU_PROBE_CHECK_CUH
#define MPGPU_PROBE_CHECK_CUH

#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s: %s failed: %s\n", PROBE_NAME, #call, cudaGetErrorString(err_));   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
