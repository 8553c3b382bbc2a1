// Conversion between the product-major layout the host uses and the word-major layout of the
// one-thread-per-product methods, on the GPU so that neither the host nor the timed kernels pay
// for it. A tiled transpose through shared memory keeps both sides coalesced.
#include "layout_transpose.h"

namespace {

constexpr int TILE = 32;

// in: rows x cols (row-major), out: cols x rows. Rows (products, up to billions) run along
// gridDim.x, whose limit is 2^31 - 1; columns (words, at most 4096) along gridDim.y.
__global__ void transpose_kernel(const uint32_t *__restrict__ in, uint32_t *__restrict__ out,
                                 size_t rows, size_t cols)
{
    __shared__ uint32_t tile[TILE][TILE + 1]; // +1 avoids bank conflicts on the column read
    size_t r0 = (size_t)blockIdx.x * TILE, c0 = (size_t)blockIdx.y * TILE;
    for (int dy = threadIdx.y; dy < TILE; dy += blockDim.y) {
        size_t r = r0 + dy, c = c0 + threadIdx.x;
        if (r < rows && c < cols)
            tile[dy][threadIdx.x] = in[r * cols + c];
    }
    __syncthreads();
    for (int dy = threadIdx.y; dy < TILE; dy += blockDim.y) {
        size_t c = c0 + dy, r = r0 + threadIdx.x;
        if (c < cols && r < rows)
            out[c * rows + r] = tile[threadIdx.x][dy];
    }
}

} // namespace

extern "C" cudaError_t layout_transpose(const uint32_t *in, uint32_t *out, size_t rows,
                                        size_t cols, cudaStream_t stream)
{
    dim3 block(TILE, 8);
    dim3 grid((unsigned)((rows + TILE - 1) / TILE), (unsigned)((cols + TILE - 1) / TILE));
    transpose_kernel<<<grid, block, 0, stream>>>(in, out, rows, cols);
    return cudaGetLastError();
}
