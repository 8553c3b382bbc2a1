// thread-school: one thread per product, the School (operand-scanning) method of 000
// Algorithm 1, the single-thread School row of 000 Table 3.3 (the approach of the existing GPU
// libraries the dissertation compares with, 000 section 3.4 and 001 [13]).
//
// Row j adds a * b_j into the partial product held in device memory, so every c_{i+j} is read
// and written back once per row (Algorithm 1, lines 5-6). This memory traffic is what the
// method is measured for, so the partial product deliberately stays in the word-major product
// array and not in registers. Row 0 writes a * b_0 without reading c, which takes the place of
// line 1 (C <- 0) and gives exactly the counts of 000 Table 3.1: 2w^2 reads, w^2 + w writes.
#include "mul.h"
#include "ptx_carry.cuh"

namespace {

// {u, v} <- x * y + z + u: the step of 000 Algorithm 1, line 5. It cannot overflow 64 bits:
// (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1.
__device__ __forceinline__ uint32_t school_step(uint32_t x, uint32_t y, uint32_t z, uint32_t &u)
{
    uint32_t lo = ptx::mad_lo_cc(x, y, z);
    uint32_t hi = ptx::madc_hi(x, y, 0);
    lo = ptx::add_cc(lo, u);
    u = ptx::addc(hi, 0);
    return lo;
}

__global__ void __launch_bounds__(128) thread_school_kernel(const uint32_t *__restrict__ a,
                                                            const uint32_t *__restrict__ b,
                                                            uint32_t *__restrict__ c,
                                                            unsigned w, size_t count)
{
    size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count)
        return;
    a += p;
    b += p;
    c += p;
    uint32_t u = 0, b0 = b[0];
    for (unsigned i = 0; i < w; i++)
        c[i * count] = school_step(a[i * count], b0, 0, u);
    c[w * count] = u;
    for (unsigned j = 1; j < w; j++) {
        uint32_t bj = b[j * count];
        u = 0;
        for (unsigned i = 0; i < w; i++)
            c[(i + j) * count] = school_step(a[i * count], bj, c[(i + j) * count], u);
        c[(w + j) * count] = u;
    }
}

} // namespace

extern "C" cudaError_t mul_thread_school_launch(const uint32_t *a, const uint32_t *b, uint32_t *c,
                                                unsigned words, size_t count, void *scratch,
                                                cudaStream_t stream)
{
    (void)scratch;
    const unsigned threads = 128;
    thread_school_kernel<<<(unsigned)((count + threads - 1) / threads), threads, 0, stream>>>(
        a, b, c, words, count);
    return cudaGetLastError();
}
