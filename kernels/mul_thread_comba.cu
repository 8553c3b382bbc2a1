// thread-comba: one thread per product, the Comba (product-scanning) method of 000 Algorithm 2
// as the single-thread rows of 000 Table 3.3 and 001 Table II run it. The operands stay in
// device memory in the word-major layout, so each a_j and b_{i-j} read is coalesced across the
// warp; the column sum {t, u, v} lives in registers and each product word is written once
// (000 Table 3.1: 2w^2 - 2 reads, 2w writes).
#include "mul.h"
#include "comba_thread.cuh"

namespace {

__global__ void __launch_bounds__(128) thread_comba_kernel(const uint32_t *__restrict__ a,
                                                           const uint32_t *__restrict__ b,
                                                           uint32_t *__restrict__ c,
                                                           unsigned w, size_t count)
{
    size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count)
        return;
    comba_thread_mul(a + p, b + p, c + p, w, count);
}

} // namespace

extern "C" cudaError_t mul_thread_comba_launch(const uint32_t *a, const uint32_t *b, uint32_t *c,
                                               unsigned words, size_t count, void *scratch,
                                               cudaStream_t stream)
{
    (void)scratch;
    const unsigned threads = 128;
    thread_comba_kernel<<<(unsigned)((count + threads - 1) / threads), threads, 0, stream>>>(
        a, b, c, words, count);
    return cudaGetLastError();
}
