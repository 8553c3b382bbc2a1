// tree-gpu's word steps beside its multiplications (scaled_tree_steps.h). A pass over a level's
// words, a small part of the level's time beside its two products: one thread a node, carrying
// through its words in order.
#include "scaled_tree_steps.h"

namespace {

constexpr unsigned BLOCK = 128;

__global__ void window_kernel(const uint32_t *__restrict__ lo_product,
                              const uint32_t *__restrict__ hi_product, uint32_t *__restrict__ y,
                              size_t count, size_t m)
{
    const size_t v = (size_t)blockIdx.x * BLOCK + threadIdx.x;
    if (v >= count)
        return;
    const uint32_t *lo = lo_product + v * 2 * m + m, *hi = hi_product + v * 2 * m;
    uint32_t *out = y + v * m;
    uint64_t carry = 0;
    for (size_t i = 0; i < m; i++) {
        const uint64_t s = (uint64_t)lo[i] + hi[i] + carry;
        out[i] = (uint32_t)s;
        carry = s >> 32;
    }
}

__global__ void leaf_ceiling_kernel(const uint32_t *__restrict__ x, uint32_t *__restrict__ z,
                                    size_t count, size_t m)
{
    const size_t v = (size_t)blockIdx.x * BLOCK + threadIdx.x;
    if (v >= count)
        return;
    const uint32_t *low = x + v * 2 * m, *high = low + m;
    uint32_t any = 0;
    for (size_t i = 0; i < m; i++)
        any |= low[i];
    uint32_t carry = any != 0;
    for (size_t i = 0; i < m; i++) {
        const uint32_t s = high[i] + carry;
        carry = carry && s == 0;
        z[v * m + i] = s;
    }
}

unsigned blocks(size_t count)
{
    return (unsigned)((count + BLOCK - 1) / BLOCK);
}

} // namespace

extern "C" cudaError_t scaled_tree_window(const uint32_t *lo_product, const uint32_t *hi_product,
                                          uint32_t *y, size_t count, size_t m,
                                          cudaStream_t stream)
{
    if (count == 0)
        return cudaSuccess;
    window_kernel<<<blocks(count), BLOCK, 0, stream>>>(lo_product, hi_product, y, count, m);
    return cudaGetLastError();
}

extern "C" cudaError_t scaled_tree_leaf_ceiling(const uint32_t *x, uint32_t *z, size_t count,
                                                size_t m, cudaStream_t stream)
{
    if (count == 0)
        return cudaSuccess;
    leaf_ceiling_kernel<<<blocks(count), BLOCK, 0, stream>>>(x, z, count, m);
    return cudaGetLastError();
}
