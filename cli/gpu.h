/* The GPU as the command line sees it: is there one, and what to say when a CUDA call fails. */
#ifndef MPGPU_GPU_H
#define MPGPU_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <cuda_runtime_api.h>

/* Selects `device` and returns true; otherwise returns false with the reason in why
 * ("no CUDA-capable GPU found", "--device 3 is out of range; accepted: 0..0"). */
bool gpu_open(int device, char *why, size_t why_len);

/* The number of GPUs; 0 with the reason in why ("no CUDA-capable GPU found (...)"). */
int gpu_count(char *why, size_t why_len);

/* "mpgpu: CUDA call <call> failed: <error string>" on stderr, then exit(EXIT_GPU_ERROR). */
_Noreturn void gpu_fail(const char *call, cudaError_t err);

/* Calls gpu_fail when err is not cudaSuccess. */
#define GPU_CHECK(call)                                                                     \
    do {                                                                                    \
        cudaError_t gpu_check_err_ = (call);                                                \
        if (gpu_check_err_ != cudaSuccess)                                                  \
            gpu_fail(#call, gpu_check_err_);                                                \
    } while (0)

#endif
