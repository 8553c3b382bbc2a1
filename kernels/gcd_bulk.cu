// The bulk GCD (issue 38): one pair a thread, Lehmer's GCD with 64-bit leading digits or
// Stein's binary GCD, with the word steps of gcd_bulk_steps.h (the cpu suite runs the same
// steps against GMP). The pair is loaded from the word-major batch into the thread's two local
// arrays (one coalesced load a word for a warp: word j of 32 consecutive pairs is 128 bytes),
// reduced there, and its GCD stored word-major. Up to GCD_BULK_SHARED_MAX_WORDS words the two
// arrays are in shared memory, word j of thread t at j * GCD_BULK_BLOCK + t (no bank conflict
// while the warp's threads touch the same word), since a block's local arrays (cached in L1,
// interleaved across the warp's threads) outgrow L1 when the SMs are full: 2^20 pairs of 1024
// bits take 256 bytes a thread, 512 KiB for an SM's 2048 threads. Larger pairs stay in local
// memory, where shared memory would hold too few threads. A kernel is a template on the
// arrays' capacity (2 .. 256 words), the smallest that fits being launched; the passes over
// the words run to each number's current length, which shrinks as the GCD proceeds.
#include "gcd_bulk.h"
#include "gcd_bulk_steps.h"

namespace {

// The words of a pair while it is reduced: x0 and x1, word j at x[j * xs].
struct pair_slots {
    uint32_t *x0, *x1;
    uint32_t xs;
};

__device__ __forceinline__ void load_pair(pair_slots x, const uint32_t *a, const uint32_t *b,
                                          size_t stride, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++) {
        x.x0[j * x.xs] = a[j * stride];
        x.x1[j * x.xs] = b[j * stride];
    }
}

// Shared memory up to this many words a number (32 KiB a block at 32 words); local above.
constexpr unsigned GCD_BULK_SHARED_MAX_WORDS = 32;

// The thread's pair_slots: in the block's shared array when CAP allows, else in `local`.
template <unsigned CAP>
__device__ __forceinline__ pair_slots thread_slots(uint32_t *local)
{
    constexpr bool in_shared = CAP <= GCD_BULK_SHARED_MAX_WORDS;
    __shared__ uint32_t slots[in_shared ? 2 * CAP * GCD_BULK_BLOCK : 1];
    if (in_shared)
        return {slots + threadIdx.x, slots + CAP * GCD_BULK_BLOCK + threadIdx.x, GCD_BULK_BLOCK};
    return {local, local + CAP, 1};
}

// gcd(x0, x1) into x0 by Lehmer's steps; should one break its bounds (the proof says never),
// the pair is reloaded and answered by the binary steps, so no pair goes without its GCD.
__device__ __forceinline__ void lehmer_or_binary(pair_slots x, const uint32_t *a,
                                                 const uint32_t *b, size_t stride, uint32_t n)
{
    if (!gcd_bulk_lehmer_pair(x.x0, x.x1, x.xs, n)) {
        load_pair(x, a, b, stride, n);
        gcd_bulk_binary_pair(x.x0, x.x1, x.xs, n);
    }
}

template <unsigned CAP, int METHOD>
__global__ void __launch_bounds__(GCD_BULK_BLOCK)
    gcd_bulk_kernel(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                    uint32_t *__restrict__ g, uint32_t n, size_t count)
{
    const size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count)
        return;
    uint32_t local[CAP <= GCD_BULK_SHARED_MAX_WORDS ? 1 : 2 * CAP];
    const pair_slots x = thread_slots<CAP>(local);
    load_pair(x, a + p, b + p, count, n);
    if (METHOD == GCD_BULK_LEHMER)
        lehmer_or_binary(x, a + p, b + p, count, n);
    else
        gcd_bulk_binary_pair(x.x0, x.x1, x.xs, n);
    for (uint32_t j = 0; j < n; j++)
        g[j * count + p] = x.x0[j * x.xs];
}

// Consecutive threads take consecutive j of one row i: N_j's words are coalesced loads, N_i's
// one broadcast a warp.
template <unsigned CAP>
__global__ void __launch_bounds__(GCD_BULK_BLOCK)
    gcd_bulk_tile_kernel(const uint32_t *__restrict__ moduli, size_t count, uint32_t n,
                         size_t row0, size_t col0, uint32_t tile, gcd_bulk_hit *hits,
                         uint32_t hit_cap, unsigned long long *n_hits)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)tile * tile)
        return;
    const size_t i = row0 + t / tile, j = col0 + t % tile;
    if (i >= j || j >= count)
        return;
    uint32_t local[CAP <= GCD_BULK_SHARED_MAX_WORDS ? 1 : 2 * CAP];
    const pair_slots x = thread_slots<CAP>(local);
    load_pair(x, moduli + i, moduli + j, count, n);
    lehmer_or_binary(x, moduli + i, moduli + j, count, n);
    bool one = x.x0[0] == 1;
    for (uint32_t w = 1; w < n; w++)
        one &= x.x0[w * x.xs] == 0;
    if (one)
        return;
    const unsigned long long k = atomicAdd(n_hits, 1ull);
    if (k < hit_cap)
        hits[k] = gcd_bulk_hit{(uint32_t)i, (uint32_t)j};
}

// The launch of kernel K<CAP> for the smallest instantiated CAP >= words.
#define GCD_BULK_DISPATCH(words, LAUNCH)                                                     \
    do {                                                                                    \
        if ((words) <= 2) LAUNCH(2);                                                        \
        else if ((words) <= 4) LAUNCH(4);                                                   \
        else if ((words) <= 8) LAUNCH(8);                                                   \
        else if ((words) <= 16) LAUNCH(16);                                                 \
        else if ((words) <= 32) LAUNCH(32);                                                 \
        else if ((words) <= 64) LAUNCH(64);                                                 \
        else if ((words) <= 128) LAUNCH(128);                                               \
        else LAUNCH(256);                                                                   \
    } while (0)

unsigned blocks_for(size_t threads)
{
    return (unsigned)((threads + GCD_BULK_BLOCK - 1) / GCD_BULK_BLOCK);
}

} // namespace

extern "C" cudaError_t gcd_bulk_launch(enum gcd_bulk_method method, const uint32_t *a,
                                       const uint32_t *b, uint32_t *g, uint32_t words,
                                       size_t count, cudaStream_t stream)
{
    if (count == 0)
        return cudaSuccess;
    if (words == 0 || words > GCD_BULK_KERNEL_MAX_WORDS)
        return cudaErrorInvalidValue;
    const unsigned grid = blocks_for(count);
#define GCD_BULK_LAUNCH(CAP)                                                                 \
    (method == GCD_BULK_LEHMER                                                              \
         ? gcd_bulk_kernel<CAP, GCD_BULK_LEHMER><<<grid, GCD_BULK_BLOCK, 0, stream>>>(        \
               a, b, g, words, count)                                                        \
         : gcd_bulk_kernel<CAP, GCD_BULK_BINARY><<<grid, GCD_BULK_BLOCK, 0, stream>>>(        \
               a, b, g, words, count))
    GCD_BULK_DISPATCH(words, GCD_BULK_LAUNCH);
#undef GCD_BULK_LAUNCH
    return cudaGetLastError();
}

extern "C" cudaError_t gcd_bulk_tile_launch(const uint32_t *moduli, size_t count, uint32_t words,
                                            size_t row0, size_t col0, uint32_t tile,
                                            gcd_bulk_hit *hits, uint32_t hit_cap,
                                            unsigned long long *n_hits, cudaStream_t stream)
{
    if (words == 0 || words > GCD_BULK_KERNEL_MAX_WORDS || tile == 0)
        return cudaErrorInvalidValue;
    const unsigned grid = blocks_for((size_t)tile * tile);
#define GCD_BULK_TILE_LAUNCH(CAP)                                                            \
    gcd_bulk_tile_kernel<CAP><<<grid, GCD_BULK_BLOCK, 0, stream>>>(                          \
        moduli, count, words, row0, col0, tile, hits, hit_cap, n_hits)
    GCD_BULK_DISPATCH(words, GCD_BULK_TILE_LAUNCH);
#undef GCD_BULK_TILE_LAUNCH
    return cudaGetLastError();
}
