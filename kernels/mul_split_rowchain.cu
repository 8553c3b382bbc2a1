// split-rowchain: T threads per product (issue 13: CGBN spreads a product over 4-32 threads, which
// fills the GPU when products are few). The 2N product columns are cut into 2T ranges of R = N/T
// columns; thread t sums range t (columns tR ..) and range T + t (columns N + tR ..). Column k < N
// has k + 1 word products and column N + k has N - 1 - k, so the two ranges of every thread hold
// N R word products together: the threads of a product are balanced.
//
// Within its ranges a thread scans rows, as the row chains of thread-rowchain-karatsuba's leaf did
// before product scanning replaced them (IMAD.WIDE chains without the carry flag, measured 21%
// faster than mad.lo.cc / madc.hi.cc Comba on an H200). Row m (0 <= m < N + R - 1) multiplies a_j,
// j = (tR + 1 + m) mod N, by the window W[q] = b_{N + q - 1 - m} of the thread's current range:
// rows with j > tR add into range T + t, and from row N - 1 - tR on (j wrapped to 0) into range t.
// Both give the same window, so every thread runs the same straight-line code; only its a is
// rotated by tR words and the row where it swaps accumulators differs. The words of W that fall
// outside b are known at compile time and skipped.
//
// A range's sum is R words plus a 64-bit spill into the next range. The spills move one lane up
// by shuffles; each range adds the spill it receives, which can carry out of it once more, and
// the carries between the 2T ranges are resolved at once by carry-lookahead over two ballots
// (mp::resolve_range_carries) instead of a walk over the ranges. cpu_ref/split_rowchain_ref.c is
// the step-by-step twin.
//
// Operands are product-major, zero-padded to N (a power of two) words; a warp stages its 32 / T
// products in shared memory with coalesced loads and writes its products through it the same way.
#include <type_traits>

#include "mul.h"
#include "mp_helpers.cuh"
#include "split_rowchain_shape.h"

namespace {

constexpr unsigned WARPS_PER_BLOCK = SPLIT_ROWCHAIN_WARPS_PER_BLOCK;

template <int N, int T> struct Shape {
    static constexpr int R = N / T;  // columns per range
    static constexpr int P = 32 / T; // products per warp
    // a is stored twice (word k at k and k + N) so a thread's rotated words never wrap, with a
    // word skipped after every R: word tR + k of lane (p, t) is then at p SA + t (R + 1) + k +
    // k / R. SA = T (R + 1) (mod 32) puts the 32 lanes' reads on banks (p T + t)(R + 1) + const,
    // all different since R + 1 is odd.
    static constexpr int SA_MIN = 2 * N + 2 * T;
    static constexpr int SA = SA_MIN + ((T * (R + 1) - SA_MIN) % 32 + 32) % 32;
    static constexpr int SB = N + 1; // the P products' b reads (broadcast to T lanes) on P banks
    static constexpr int SC = 2 * N + 1;
    static constexpr int WORDS = P * (SA + SB);
    static_assert(R >= 2 && R % 2 == 0, "ranges of an even number of columns, at least 2");
    static_assert(P * SC <= WORDS, "the products fit where the operands were");
};

// f(integral_constant<int, M>) for M = BEGIN .. END - 1: the row index as a constant, so each
// row's first and last window word are template arguments.
template <int BEGIN, int END, class F> __device__ __forceinline__ void static_for(F &&f)
{
    if constexpr (BEGIN < END) {
        f(std::integral_constant<int, BEGIN>{});
        static_for<BEGIN + 1, END>(f);
    }
}

// Range value += a_j * W[QLO .. QHI], one row of IMAD.WIDE: (2^32 - 1)^2 + 2 (2^32 - 1) fits in
// 64 bits, so no carry flag links the rows; words above QHI take the carry.
template <int R, int QLO, int QHI>
__device__ __forceinline__ void row(uint32_t (&acc)[R], uint64_t &top, uint32_t aj,
                                    const uint32_t (&win)[R])
{
    uint64_t t = 0;
#pragma unroll
    for (int q = QLO; q <= QHI; q++) {
        t = (uint64_t)aj * win[q] + acc[q] + (t >> 32);
        acc[q] = (uint32_t)t;
    }
#pragma unroll
    for (int q = QHI + 1; q < R; q++) {
        t = (uint64_t)acc[q] + (t >> 32);
        acc[q] = (uint32_t)t;
    }
    top += t >> 32;
}

template <int N, int T>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
    split_rowchain_kernel(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                          uint32_t *__restrict__ c, unsigned w, size_t count)
{
    using S = Shape<N, T>;
    constexpr int R = S::R, P = S::P;
    __shared__ uint32_t smem[WARPS_PER_BLOCK][S::WORDS];
    const unsigned lane = threadIdx.x % 32, warp_in_block = threadIdx.x / 32;
    const size_t p0 = ((size_t)blockIdx.x * WARPS_PER_BLOCK + warp_in_block) * P;
    if (p0 >= count)
        return;
    uint32_t *abuf = smem[warp_in_block], *bbuf = abuf + P * S::SA;

    // Coalesced loads of the warp's P products, zero past w words and past count.
#pragma unroll 4
    for (int i = lane; i < P * N; i += 32) {
        const int p = i / N, j = i % N;
        const bool in = j < (int)w && p0 + p < count;
        const size_t g = (p0 + p) * w + j;
        const uint32_t x = in ? a[g] : 0, y = in ? b[g] : 0;
        abuf[p * S::SA + j + j / R] = x;
        abuf[p * S::SA + N + j + (N + j) / R] = x;
        bbuf[p * S::SB + j] = y;
    }
    __syncwarp();

    const int p = lane / T, t = lane % T;
    const uint32_t *ar = abuf + p * S::SA + t * (R + 1), *br = bbuf + p * S::SB;
    uint32_t acc[R], hacc[R], win[R];
    uint64_t top = 0, htop = 0;
#pragma unroll
    for (int q = 0; q < R; q++)
        acc[q] = hacc[q] = win[q] = 0;
    static_for<0, N + R - 1>([&](auto mi) {
        constexpr int m = decltype(mi)::value;
        // Row N - 1 - tR is the first of range t: the high range's sum is done.
        if constexpr (m <= N - 1 && (N - 1 - m) % R == 0 && (N - 1 - m) / R < T) {
            const bool swap = t == (N - 1 - m) / R;
#pragma unroll
            for (int q = 0; q < R; q++) {
                hacc[q] = swap ? acc[q] : hacc[q];
                acc[q] = swap ? 0 : acc[q];
            }
            htop = swap ? top : htop;
            top = swap ? 0 : top;
        }
#pragma unroll
        for (int q = R - 1; q > 0; q--)
            win[q] = win[q - 1];
        if constexpr (m < N)
            win[0] = br[N - 1 - m];
        else
            win[0] = 0;
        const uint32_t aj = ar[1 + m + (1 + m) / R];
        row<R, (m + 1 - N > 0 ? m + 1 - N : 0), (m < R - 1 ? m : R - 1)>(acc, top, aj, win);
    });

    mp::resolve_range_carries<R, T>(acc, hacc, top, htop);

    // Through shared memory to coalesced stores.
    __syncwarp();
    uint32_t *cbuf = abuf;
#pragma unroll
    for (int q = 0; q < R; q++) {
        cbuf[p * S::SC + t * R + q] = acc[q];
        cbuf[p * S::SC + N + t * R + q] = hacc[q];
    }
    __syncwarp();
#pragma unroll 4
    for (int i = lane; i < P * 2 * N; i += 32) {
        const int pp = i / (2 * N), k = i % (2 * N);
        if (k < 2 * (int)w && p0 + pp < count)
            c[(p0 + pp) * 2 * w + k] = cbuf[pp * S::SC + k];
    }
}

template <int N, int T>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, cudaStream_t stream)
{
    const size_t per_block = WARPS_PER_BLOCK * Shape<N, T>::P;
    split_rowchain_kernel<N, T><<<(unsigned)((count + per_block - 1) / per_block),
                                  WARPS_PER_BLOCK * 32, 0, stream>>>(a, b, c, words, count);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t mul_split_rowchain_launch(const uint32_t *a, const uint32_t *b,
                                                 uint32_t *c, unsigned words, size_t count,
                                                 void *scratch, cudaStream_t stream)
{
    (void)scratch;
    switch (SPLIT_ROWCHAIN_PADDED_WORDS(words)) {
    case 8:
        return launch<8, SPLIT_ROWCHAIN_THREADS(8)>(a, b, c, words, count, stream);
    case 16:
        return launch<16, SPLIT_ROWCHAIN_THREADS(16)>(a, b, c, words, count, stream);
    case 32:
        return launch<32, SPLIT_ROWCHAIN_THREADS(32)>(a, b, c, words, count, stream);
    case 64:
        return launch<64, SPLIT_ROWCHAIN_THREADS(64)>(a, b, c, words, count, stream);
    default:
        return launch<128, SPLIT_ROWCHAIN_THREADS(128)>(a, b, c, words, count, stream);
    }
}
