// sumrotate-{shuffle,shared}-karatsuba{,2}: one warp per product, Karatsuba applied once
// (twice) on top of the warp's Comba over 1024-bit blocks (001 section III-A and Table II, rows
// "one warp ... Karatsuba" and "Karatsuba^2"; the sub-products are sumrotate::mul_blocks).
// The levels are kernels/warp_karatsuba.cuh's: the halves are whole 32-word chunks, which are
// also sum-rotate's 1024-bit blocks (001 runs Karatsuba on powers of two; other sizes pad A1
// with zero words that are never read). The registered minimum sizes, 64 words for one level
// and 128 for two (where m >= 33), keep every level's n above one block, so A1 is not empty.
#include "mul.h"
#include "sumrotate.cuh"
#include "warp_karatsuba.cuh"

namespace {

constexpr unsigned WARPS_PER_BLOCK = 4;
constexpr unsigned THREADS = WARPS_PER_BLOCK * 32;

static_assert(sumrotate::BLOCK_WORDS == WK_CHUNK_WORDS, "Karatsuba halves are whole blocks");

// A Karatsuba leaf: the warp's Comba over 1024-bit blocks.
template <class Exchange> struct SumrotateLeaf {
    Exchange &x;
    __device__ void operator()(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned n)
    {
        sumrotate::mul_blocks(x, a, b, c, n);
        __syncwarp();
    }
};

template <bool SHUFFLE, unsigned DEPTH>
__global__ void __launch_bounds__(THREADS)
    sumrotate_karatsuba_kernel(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned w,
                               size_t count, uint32_t *scratch)
{
    const unsigned lane = threadIdx.x % 32, warp_in_block = threadIdx.x / 32;
    const size_t p = (size_t)blockIdx.x * WARPS_PER_BLOCK + warp_in_block;
    if (p >= count)
        return;
    const sumrotate::Segment seg(0, 32, lane);
    uint32_t *sp = scratch + p * wk_scratch_words(w, DEPTH);
    if constexpr (SHUFFLE) {
        sumrotate::ShuffleExchange x(seg);
        SumrotateLeaf<sumrotate::ShuffleExchange> leaf{x};
        warp_karatsuba::mul<DEPTH>(leaf, a + p * w, b + p * w, c + p * 2 * w, w, sp);
    } else {
        __shared__ uint32_t exchange_buf[WARPS_PER_BLOCK][sumrotate::SharedExchange::WORDS];
        sumrotate::SharedExchange x(seg, exchange_buf[warp_in_block]);
        SumrotateLeaf<sumrotate::SharedExchange> leaf{x};
        warp_karatsuba::mul<DEPTH>(leaf, a + p * w, b + p * w, c + p * 2 * w, w, sp);
    }
}

template <bool SHUFFLE, unsigned DEPTH>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, void *scratch, cudaStream_t stream)
{
    const size_t blocks = (count + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    sumrotate_karatsuba_kernel<SHUFFLE, DEPTH><<<(unsigned)blocks, THREADS, 0, stream>>>(
        a, b, c, words, count, (uint32_t *)scratch);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t mul_sumrotate_karatsuba_scratch_bytes(unsigned words, size_t count)
{
    return wk_scratch_words(words, 1) * count * sizeof(uint32_t);
}

extern "C" size_t mul_sumrotate_karatsuba2_scratch_bytes(unsigned words, size_t count)
{
    return wk_scratch_words(words, 2) * count * sizeof(uint32_t);
}

#define SUMROTATE_KARATSUBA_LAUNCH(name, shuffle, depth)                                    \
    extern "C" cudaError_t name(const uint32_t *a, const uint32_t *b, uint32_t *c,          \
                                unsigned words, size_t count, void *scratch,                \
                                cudaStream_t stream)                                        \
    {                                                                                       \
        return launch<shuffle, depth>(a, b, c, words, count, scratch, stream);              \
    }

SUMROTATE_KARATSUBA_LAUNCH(mul_sumrotate_shuffle_karatsuba_launch, true, 1)
SUMROTATE_KARATSUBA_LAUNCH(mul_sumrotate_shared_karatsuba_launch, false, 1)
SUMROTATE_KARATSUBA_LAUNCH(mul_sumrotate_shuffle_karatsuba2_launch, true, 2)
SUMROTATE_KARATSUBA_LAUNCH(mul_sumrotate_shared_karatsuba2_launch, false, 2)
