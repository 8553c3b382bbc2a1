#ifndef MPGPU_LAYOUT_TRANSPOSE_H
#define MPGPU_LAYOUT_TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out (cols x rows) = transpose of in (rows x cols), both row-major, on the GPU. */
cudaError_t layout_transpose(const uint32_t *in, uint32_t *out, size_t rows, size_t cols,
                             cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
