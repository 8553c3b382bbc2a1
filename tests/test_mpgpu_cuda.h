/* What the library's gpu tests (test_mpgpu_*_gpu.c) share: they link libmpgpu and the CUDA
 * runtime alone, not the command line's gpu.c that test_gpu.h wraps. */
#ifndef MPGPU_TEST_MPGPU_CUDA_H
#define MPGPU_TEST_MPGPU_CUDA_H

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

/* Fails the program (exit 1) on a CUDA error of the test's own calls: not what is tested. */
static inline void test_cuda_ok(cudaError_t err, const char *call, const char *program)
{
    if (err != cudaSuccess) {
        printf("%s: %s: %s\n", program, call, cudaGetErrorString(err));
        exit(1);
    }
}
#define CUDA_OK(call) test_cuda_ok((call), #call, TEST_PROGRAM)

/* Returns 77 to pass on from main (meson's "skipped") when there is no usable CUDA device,
 * having said why; else 0. */
static inline int test_cuda_skip(void)
{
    int devices = 0;
    cudaError_t err = cudaGetDeviceCount(&devices);
    if (err == cudaSuccess && devices > 0)
        return 0;
    printf("skipped: %s\n", err != cudaSuccess ? cudaGetErrorString(err) : "no CUDA device");
    return 77;
}

#endif
