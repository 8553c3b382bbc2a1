/* The gpu suite's programs start the same way: without a usable GPU they say why and exit 77,
 * which meson reports as skipped (GPU.md: exit code 77 from a test means skipped). */
#ifndef MPGPU_TEST_GPU_H
#define MPGPU_TEST_GPU_H

#include <stdio.h>

#include "gpu.h"

/* Opens device 0; returns 77 to pass on from main when there is none, else 0. */
static inline int test_gpu_open(void)
{
    char why[256];
    if (gpu_open(0, why, sizeof why))
        return 0;
    printf("skipped: %s\n", why);
    return 77;
}

#endif
