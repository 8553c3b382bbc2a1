#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int gpu_count(char *why, size_t why_len)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        snprintf(why, why_len, "no CUDA-capable GPU found (%s)",
                 err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0");
        return 0;
    }
    return n;
}

bool gpu_open(int device, char *why, size_t why_len)
{
    const int n = gpu_count(why, why_len);
    if (n == 0)
        return false;
    char given[16];
    snprintf(given, sizeof given, "%d", device);
    gpu_require_index("--device", given, device, n);
    const cudaError_t err = cudaSetDevice(device);
    if (err != cudaSuccess) {
        snprintf(why, why_len, "CUDA call cudaSetDevice(%d) failed: %s", device,
                 cudaGetErrorString(err));
        return false;
    }
    return true;
}

void gpu_require_index(const char *option, const char *given, int index, int count)
{
    if (index >= count)
        cli_bad_input("%s %s: there is no GPU %d; accepted: 0..%d", option, given, index, count - 1);
}

_Noreturn void gpu_fail(const char *call, cudaError_t err)
{
    fprintf(stderr, "mpgpu: CUDA call %s failed: %s\n", call, cudaGetErrorString(err));
    exit(EXIT_GPU_ERROR);
}
