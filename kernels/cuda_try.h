/* The one way host code in kernels/ checks a CUDA call: on failure, name the call in
 * holder->failed_call (the CLI's error message says which call failed) and return its error. */
#ifndef MPGPU_CUDA_TRY_H
#define MPGPU_CUDA_TRY_H

#include <cuda_runtime_api.h>

#define CUDA_TRY(holder, call, name)                                                        \
    do {                                                                                    \
        cudaError_t cuda_try_err_ = (call);                                                 \
        if (cuda_try_err_ != cudaSuccess) {                                                 \
            (holder)->failed_call = (name);                                                 \
            return cuda_try_err_;                                                           \
        }                                                                                   \
    } while (0)

#endif
