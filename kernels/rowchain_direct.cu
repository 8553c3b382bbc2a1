// thread-rowchain-karatsuba at 1024 bits: one thread a product, operands read from device
// memory straight into registers and product words written there as they are final, with no
// thread block staging them in shared memory as the block kernel (rowchain_block.cu) does at
// every other size. Why (experiments/mul1024_bound.sh; H200, 2^20 products): the block kernel
// at 1024 bits is bound by its arithmetic, not by memory (results/mul1024_pipes_2b70fab30530.txt:
// its IMAD pipe 70 % busy, device memory 49 %), and without the shared-memory round trips and
// barriers, on carry-chain rows, the product took 0.2109-0.2123 ms against the block kernel's
// 0.2224-0.2275 ms (results/mul_tensor.csv, mul_targets.csv of 584c77a); with its operands
// folded into L2 the same leaf took as long (results/mul1024_bound.txt), so memory did not bind
// it. Its leaf is now product scanning (rowchain_leaf.cuh, comba_product). Below 1024
// bits the block kernel stays: padded to 32 words there, it took 220 us at 512 bits where this
// kernel with rows past w read as zeros took 277 us (H200, 2^20 products; loads under a
// condition, 359 us).
#include "rowchain_launch.cuh"

#include "rowchain_block_layout.cuh"
#include "rowchain_leaf.cuh"

namespace rowchain {
namespace {

// Blocks of 64 threads, 8 an SM: 128 registers a thread (16 warps an SM). On carry-chain rows
// the leaf with 2, 3 and 5 blocks of 128 an SM (234, 168 and 96 registers) took 0.2882, 0.2436
// and 0.3050 ms against 0.2060 ms at 4 (probe experiments/mul1024_bound.cu, H200, 2^20
// products); on product scanning, blocks of 64 against 128 are compared by
// experiments/mul1024_comba.sh.
constexpr unsigned DIRECT_THREADS = 64;

__global__ void __launch_bounds__(DIRECT_THREADS, 512 / DIRECT_THREADS)
    direct_kernel(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                  uint32_t *__restrict__ c, size_t count)
{
    const size_t p = blockIdx.x * (size_t)DIRECT_THREADS + threadIdx.x;
    if (p >= count)
        return;
    // Word-major (A[i * count + p]): a warp's 32 lanes read and write whole 128-byte rows.
    direct_leaf([&](int j) { return __ldg(a + j * count + p); },
                [&](int j) { return __ldg(b + j * count + p); },
                [&](int q, uint32_t v) { c[q * count + p] = v; });
}

} // namespace

cudaError_t direct_launch(const uint32_t *a, const uint32_t *b, uint32_t *c, size_t count,
                          cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((count + DIRECT_THREADS - 1) / DIRECT_THREADS);
    direct_kernel<<<blocks, DIRECT_THREADS, 0, stream>>>(a, b, c, count);
    return cudaGetLastError();
}

} // namespace rowchain
