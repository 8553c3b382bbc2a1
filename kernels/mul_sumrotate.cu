// sumrotate-shuffle, sumrotate-shared: sum-rotate multiplication (000 Algorithm 3, 001
// Algorithm 3), one warp per product, exchanging words by warp shuffles or through shared
// memory (000 Table 3.3, 001 Table II "one warp"). The algorithm itself lives in sumrotate.cuh;
// this file maps products to warps:
//  - w < 32 words: floor(32 / w) products share a warp, w lanes each (000 section 3.4: "four
//    256-bit multiplications are simultaneously computed by assigning 8 threads"); the lanes
//    past the last whole segment idle;
//  - w = 32: Algorithm 3 as printed;
//  - w > 32: the warp runs the Comba method over 1024-bit blocks (000 section 3.3.2).
// Operands and products are product-major, so lane i's loads and stores are coalesced.
#include "mul.h"
#include "sumrotate.cuh"

namespace {

// Four warps per block: the papers run one warp per block (000 section 3.4), which on Hopper
// caps a multiprocessor at 32 resident warps (32 blocks); four keep 64 warps resident.
constexpr unsigned WARPS_PER_BLOCK = 4;
constexpr unsigned THREADS = WARPS_PER_BLOCK * 32;

// Runs one product on the lanes of `seg`: Algorithm 3 for w <= 32, Comba over blocks above.
template <bool SHUFFLE>
__device__ __forceinline__ void product(const sumrotate::Segment &seg, uint32_t *exchange_buf,
                                        const uint32_t *a, const uint32_t *b, uint32_t *c,
                                        unsigned w)
{
    if constexpr (SHUFFLE) {
        sumrotate::ShuffleExchange x(seg);
        if (w <= 32)
            sumrotate::mul_segment(x, a, b, c, w);
        else // the entry point the Toom-k kernels call, so the gpu suite covers it
            sumrotate_mul_warp<true>(a, b, c, w);
    } else {
        sumrotate::SharedExchange x(seg, exchange_buf);
        if (w <= 32)
            sumrotate::mul_segment(x, a, b, c, w);
        else
            sumrotate::mul_blocks(x, a, b, c, w);
    }
}

template <bool SHUFFLE>
__global__ void __launch_bounds__(THREADS) sumrotate_kernel(const uint32_t *a, const uint32_t *b,
                                                            uint32_t *c, unsigned w,
                                                            size_t count)
{
    __shared__ uint32_t exchange_buf[WARPS_PER_BLOCK]
                                    [SHUFFLE ? 1 : sumrotate::SharedExchange::WORDS];
    const unsigned lane = threadIdx.x % 32, warp_in_block = threadIdx.x / 32;
    const size_t warp = (size_t)blockIdx.x * WARPS_PER_BLOCK + warp_in_block;
    uint32_t *buf = exchange_buf[warp_in_block];
    if (w >= 32) {
        // The whole warp as one segment, built from constants so that the broadcast source
        // lanes and the masks are immediates.
        if (warp >= count)
            return;
        product<SHUFFLE>(sumrotate::Segment(0, 32, lane), buf, a + warp * w, b + warp * w,
                         c + warp * 2 * w, w);
        return;
    }
    const unsigned segments = 32 / w, segment = lane / w;
    const size_t p = warp * segments + segment;
    if (segment >= segments || p >= count)
        return;
    product<SHUFFLE>(sumrotate::Segment(segment * w, w, lane % w), buf, a + p * w, b + p * w,
                     c + p * 2 * w, w);
}

template <bool SHUFFLE>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, cudaStream_t stream)
{
    const size_t per_warp = words < 32 ? 32 / words : 1;
    const size_t warps = (count + per_warp - 1) / per_warp;
    const size_t blocks = (warps + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    sumrotate_kernel<SHUFFLE><<<(unsigned)blocks, THREADS, 0, stream>>>(a, b, c, words, count);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t mul_sumrotate_shuffle_launch(const uint32_t *a, const uint32_t *b,
                                                    uint32_t *c, unsigned words, size_t count,
                                                    void *scratch, cudaStream_t stream)
{
    (void)scratch;
    return launch<true>(a, b, c, words, count, stream);
}

extern "C" cudaError_t mul_sumrotate_shared_launch(const uint32_t *a, const uint32_t *b,
                                                   uint32_t *c, unsigned words, size_t count,
                                                   void *scratch, cudaStream_t stream)
{
    (void)scratch;
    return launch<false>(a, b, c, words, count, stream);
}
