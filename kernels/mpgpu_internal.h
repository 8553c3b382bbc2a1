/* What every part of libmpgpu's API (mpgpu.h) shares and no caller sees: CUDA failures turned
 * into an mpgpu_status and remembered for mpgpu_last_error. Its names begin with libmpgpu_,
 * which mpgpu.map keeps out of libmpgpu.so's exports (mpgpu_*). */
#ifndef MPGPU_INTERNAL_H
#define MPGPU_INTERNAL_H

#include <cuda_runtime_api.h>

#include "mpgpu.h"

/* Records `err` and the call's text as the calling thread's last failure (mpgpu_last_error)
 * and returns the status it maps to: MPGPU_ERR_NO_DEVICE, MPGPU_ERR_OUT_OF_DEVICE_MEMORY or
 * MPGPU_ERR_CUDA. `call` must be static storage (a string literal). */
mpgpu_status libmpgpu_cuda_failure(cudaError_t err, const char *call);

/* Returns from the enclosing function with the mpgpu_status of a failed CUDA call. */
#define LIBMPGPU_TRY(call)                                                                     \
    do {                                                                                    \
        cudaError_t libmpgpu_try_err_ = (call);                                                \
        if (libmpgpu_try_err_ != cudaSuccess)                                                  \
            return libmpgpu_cuda_failure(libmpgpu_try_err_, #call);                               \
    } while (0)

/* 1 if the byte ranges [p, p + p_bytes) and [q, q + q_bytes) share a byte. */
int libmpgpu_overlap(const void *p, size_t p_bytes, const void *q, size_t q_bytes);

#endif
