/* The GPU as the command line sees it: is there one, and what to say when a CUDA call fails. */
#ifndef MPGPU_GPU_H
#define MPGPU_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <cuda_runtime_api.h>

/* Selects `device` (--device) and returns true; returns false with the reason in why when
 * there is no GPU ("no CUDA-capable GPU found (...)"), so that GPU methods can be skipped. A
 * device past the last GPU is bad input: gpu_require_index exits 2. */
bool gpu_open(int device, char *why, size_t why_len);

/* Refuses, before any work, a GPU index this host lacks (count GPUs, count >= 1): one line
 * "mpgpu: <option> <given>: there is no GPU <index>; accepted: 0..<count - 1>" and exit 2, as
 * --device and --devices both do. */
void gpu_require_index(const char *option, const char *given, int index, int count);

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
