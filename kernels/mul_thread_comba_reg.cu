// thread-comba-reg, pair-comba-reg, quad-comba-reg, octo-comba-reg and their -shared variants:
// one, two, four or eight threads per product of 256 to 2048 bits, every word in registers
// (issue 39: ahead of CGBN on small products, where a product is 128 to 1024 bytes of memory
// traffic and memory binds, not the IMAD pipe).
//
// All read the product-major layout the CLI times them in (no transpose), move each operand word
// into the GPU once and each product word out once, and launch one kernel and nothing else. The
// product is product scanning, rowchain::comba_rect (the leaf of thread-rowchain-karatsuba's
// direct kernel, kernels/rowchain_leaf.cuh: 96-bit column accumulators by ptx::mac96, measured a
// third fewer instructions than carry-chain rows at 1024 bits), unrolled for the word count N.
// Their CPU twin is cpu_ref/comba_threads_ref.c: the same column order, column groups, exchange
// and carries.
//
// T threads per product (a template argument; 32 / T products a warp): thread h multiplies its
// H = N / T words a_h of a by all of b, all threads by the same straight-line code, which cuts
// the dependent chain of a product T-fold (what binds when the products are too few to fill the
// GPU) and, at 2048 bits, the registers a thread holds. The threads then exchange the chunks of
// their partial products that the others own by shuffles and resolve the carries between chunks
// (product_part below). The threads' loads of b are the same addresses in the same instruction,
// so memory still sees each word once.
//
// The variants differ only in how the words travel (the lead sweeps them on the GPU):
// - without -shared: each thread moves its own operand words and product words by 16-byte
//   vector loads and stores. A warp's load instruction then uses part of every 32-byte sector it
//   touches (half at 256 bits with one thread a product); the thread's next loads take the rest
//   of those sectors while they are still in L1, so device memory sees each sector once. With
//   10240 products they lead from 256 to 2048 bits; with 2^20 the L1 no longer keeps the
//   sectors, and at 512 and 1024 bits a -shared kernel is the faster (docs/000-mul.md).
// - -shared: a warp's products are contiguous in memory, so the warp loads them as consecutive
//   16-byte vectors (every sector whole in one instruction), stages them in shared memory and
//   writes its products back the same way.
//
// Column groups (COLUMN_GROUP): every kernel with two or more threads a product sums two
// columns of comba_rect at a time, two independent chains of multiply-adds in flight, the second
// column's carry in added when its sum is done; thread-comba-reg keeps one, thread-comba-reg-shared
// takes two. On an H200 with 2^20 products two took thread-comba-reg-shared from 72.5 to 68.1 us
// at 512 bits and from 206 to 171 us at 1024, and quad-comba-reg-shared from 723 to 681 us at
// 2048 (one run of both builds, docs/000-mul.md). The plain kernels gained nothing from two
// while their exchange followed the whole product (octo-comba-reg at 1024 bits x 10240: 6.24 us
// with one, 6.30-6.43 with two); with the exchange in line (below) two columns took it from
// 6.05-6.18 to 5.89-5.95 us (one H200 probe run, three rounds). With two, pair-comba-reg at 512
// bits x 2^20 takes 79.2 us against 76.1 with one, where quad-comba-reg (67.6 us) is faster.
//
// A thread's words are whole 16-byte vectors (N / T a multiple of 4) so that each starts on a
// vector; libmpgpu checks that the buffers are 16-byte aligned.
#include "mp_helpers.cuh"
#include "mul.h"
#include "rowchain_leaf.cuh"

namespace {

constexpr unsigned WARPS_PER_BLOCK = MUL_THREAD_COMBA_REG_WARPS_PER_BLOCK;
constexpr unsigned THREADS = WARPS_PER_BLOCK * 32;

constexpr unsigned FULL = 0xffffffffu;

// Columns of comba_rect summed together (above).
template <bool SHARED, int T> constexpr int COLUMN_GROUP = SHARED || T > 1 ? 2 : 1;

// The T threads of a product split c into 2T chunks of H = N / T words, chunk k = words k H ..
// k H + H: thread h owns chunks h (its low chunk) and T + h (its high chunk). Thread h's partial
// product part = a_h b (N + H words, a_h its H words of a) covers chunks h .. h + T: its chunk d
// belongs to chunk h + d of c, which lane h + d mod T owns. So in exchange step d (1 <= d < T)
// every thread sends its chunk d and receives a chunk from lane h - d mod T: a rotation, one
// useful word a shuffle (chunks 0 and T are the thread's own). The received chunk is c's chunk
// h (the low one) if d <= h, else T + h.
//
// Step d runs as soon as comba_rect has stored chunk d of part (its column (d + 1) H - 1), so
// the exchange's shuffles and additions (ALU pipe) fill the gaps between the multiply-adds (FMA
// pipe) of the columns still to come instead of following them all, when every warp of the SM
// does the same. The received chunks are summed in one chain of H + 1 words, in step order; the
// chain as it stands after step h is the low chunk's share (kept by a select a word), the rest
// of the final chain the high chunk's. That is H + 1 additions and H + 1 selects a step, where
// adding each chunk masked into both sums took 2 H of each. On an H200 that took octo-comba-reg
// at 1024 bits x 10240 from 6.27-6.37 to 5.92-5.95 us (with two columns at a time; Nsight
// Compute's counts and the other sizes in docs/000-mul.md).
//
// Each chunk's sum carries out at most T - 1, into the next chunk (the low chunk of T - 1 feeds
// the high chunk of 0): the same 2T ranges, two a lane, as split-rowchain's, whose carries
// mp::resolve_range_carries resolves by one shuffle and lookahead over ballots. T = 1: chunks
// 0 and 1 are the whole product.

// Exchange step d (1 <= d < T) of thread h: chunk d of its partial product to lane h + d mod T,
// the chunk of lane h - d mod T added to the chain, which is the low chunk's share once d = h.
template <int H, int T, int P>
__device__ __forceinline__ void exchange_step(uint32_t (&chain)[H + 1],
                                              uint32_t (&low_share)[H + 1],
                                              const uint32_t (&part)[P], int d, unsigned h)
{
    uint32_t received[H];
#pragma unroll
    for (int k = 0; k < H; k++)
        received[k] = __shfl_sync(FULL, part[d * H + k], h + T - d, T);
    if (d == 1) { // the chain starts here
#pragma unroll
        for (int k = 0; k < H; k++)
            chain[k] = received[k];
    } else {
        chain[H] = mp::add_words<H>(chain, received, chain[H]);
    }
    const bool to_low = d == (int)h;
#pragma unroll
    for (int k = 0; k <= H; k++)
        low_share[k] = to_low ? chain[k] : low_share[k];
}

// Thread h's chunks of c, low = words h H .., high = words N + h H .., from ah, its H words of a
// (words h H ..), and all of b; G columns of its partial product at a time.
template <int N, int T, int G>
__device__ __forceinline__ void product_part(uint32_t (&low)[N / T], uint32_t (&high)[N / T],
                                             const uint32_t (&ah)[N / T], const uint32_t (&b)[N],
                                             unsigned h)
{
    constexpr int H = N / T;
    uint32_t part[H + N]; // ah b, at word h H of c
    uint32_t chain[H + 1], low_share[H + 1]; // received chunks: all so far, and steps 1 .. h
#pragma unroll
    for (int k = 0; k <= H; k++)
        chain[k] = low_share[k] = 0;
    rowchain::comba_rect<H, N, G>(
        ah, [&](unsigned i) { return b[i]; },
        [&](unsigned q, uint32_t v) {
            part[q] = v;
            // q is a constant once comba_rect is unrolled: this is exchange step d, in line.
            const int d = (int)q / H;
            if constexpr (T > 1)
                if (q % H == H - 1 && d >= 1 && d < T)
                    exchange_step<H, T>(chain, low_share, part, d, h);
        });
#pragma unroll
    for (int k = 0; k < H; k++) {
        low[k] = part[k];
        high[k] = part[T * H + k];
    }
    if constexpr (T > 1) {
        uint32_t high_share[H + 1]; // chain - low_share: cannot borrow out
        mp::sub_words<H + 1>(high_share, chain, low_share, 0u);
        const uint32_t low_carry = mp::add_words<H>(low, low_share, low_share[H]);
        const uint32_t high_carry = mp::add_words<H>(high, high_share, high_share[H]);
        mp::resolve_range_carries<H, T>(low, high, low_carry, high_carry);
    }
}

// Every thread of a warp reaches the shuffles of product_part: threads past count work on the
// last product and store nothing.
template <int N, int T>
__global__ void __launch_bounds__(THREADS)
    comba_reg_kernel(const uint4 *__restrict__ a, const uint4 *__restrict__ b,
                     uint4 *__restrict__ c, size_t count)
{
    constexpr int H = N / T;
    const size_t thread = (size_t)blockIdx.x * THREADS + threadIdx.x;
    const size_t p = thread / T, at = p < count ? p : count - 1;
    const unsigned h = (unsigned)(thread % T);
    uint32_t x[H], y[N], low[H], high[H];
    mp::words_from_vectors<H>(x, a + at * (N / 4) + h * (H / 4));
    mp::words_from_vectors<N>(y, b + at * (N / 4));
    product_part<N, T, COLUMN_GROUP<false, T>>(low, high, x, y, h);
    if (p < count) {
        uint4 *cp = c + p * (N / 2) + h * (H / 4);
        mp::words_to_vectors<H>(cp, low);
        mp::words_to_vectors<H>(cp + N / 4, high);
    }
}

// A warp's staging area in 16-byte vectors, for its P = 32 / T products. Product p's operands
// start at vector p QA, its product at p QC: both strides are odd, so the eight threads of a
// quarter warp (which share one shared-memory wavefront of 16-byte accesses) fall on eight
// different groups of four banks when each takes a product.
template <int N, int T> struct Staging {
    static constexpr int P = 32 / T;             // products
    static constexpr int Q = N / 4;              // vectors per operand
    static constexpr int QA = Q | 1;             // operand stride
    static constexpr int QC = 2 * Q + 1;         // product stride
    static constexpr int OPERANDS = 2 * P * QA;  // a, then b
    static constexpr int PRODUCTS = P * QC;      // over the operands once they are read
    static constexpr int VECTORS = OPERANDS > PRODUCTS ? OPERANDS : PRODUCTS;
};

// Every thread of a warp reaches the shuffles of product_part: threads past count work on the
// warp's first product and store nothing.
template <int N, int T>
__global__ void __launch_bounds__(THREADS)
    comba_reg_shared_kernel(const uint4 *__restrict__ a, const uint4 *__restrict__ b,
                            uint4 *__restrict__ c, size_t count)
{
    using S = Staging<N, T>;
    constexpr int H = N / T;
    __shared__ uint4 smem[WARPS_PER_BLOCK][S::VECTORS];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t p0 = ((size_t)blockIdx.x * WARPS_PER_BLOCK + warp) * S::P;
    if (p0 >= count)
        return;
    const unsigned n = count - p0 < S::P ? (unsigned)(count - p0) : S::P; // products here
    uint4 *as = smem[warp], *bs = as + S::P * S::QA;
    const uint4 *ag = a + p0 * S::Q, *bg = b + p0 * S::Q;
#pragma unroll 4
    for (unsigned i = lane; i < n * S::Q; i += 32) {
        const unsigned at = i / S::Q * S::QA + i % S::Q;
        as[at] = ag[i];
        bs[at] = bg[i];
    }
    __syncwarp();
    const unsigned p = lane / T, h = lane % T, at = p < n ? p : 0;
    uint32_t x[H], y[N], low[H], high[H];
    mp::words_from_vectors<H>(x, as + at * S::QA + h * (H / 4));
    mp::words_from_vectors<N>(y, bs + at * S::QA);
    product_part<N, T, COLUMN_GROUP<true, T>>(low, high, x, y, h);
    __syncwarp(); // every operand read before the products overwrite them
    uint4 *cs = as;
    if (p < n) {
        mp::words_to_vectors<H>(cs + p * S::QC + h * (H / 4), low);
        mp::words_to_vectors<H>(cs + p * S::QC + N / 4 + h * (H / 4), high);
    }
    __syncwarp();
    uint4 *cg = c + p0 * 2 * S::Q;
#pragma unroll 4
    for (unsigned i = lane; i < n * 2 * S::Q; i += 32)
        cg[i] = cs[i / (2 * S::Q) * S::QC + i % (2 * S::Q)];
}

template <int N, int T, bool SHARED>
cudaError_t launch_sized(const uint32_t *a, const uint32_t *b, uint32_t *c, size_t count,
                         cudaStream_t stream)
{
    const uint4 *va = reinterpret_cast<const uint4 *>(a);
    const uint4 *vb = reinterpret_cast<const uint4 *>(b);
    uint4 *vc = reinterpret_cast<uint4 *>(c);
    const unsigned blocks = (unsigned)((count * T + THREADS - 1) / THREADS);
    if constexpr (SHARED)
        comba_reg_shared_kernel<N, T><<<blocks, THREADS, 0, stream>>>(va, vb, vc, count);
    else
        comba_reg_kernel<N, T><<<blocks, THREADS, 0, stream>>>(va, vb, vc, count);
    return cudaGetLastError();
}

// The sizes the registry gives these methods: N a multiple of 4 T (each thread's H words whole
// vectors), from 8 words (T = 1) or 4 T, up to 32 words for one or two threads a product and 64
// for four or eight.
template <int T, bool SHARED, int N = (T == 1 ? 8 : 4 * T)>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, cudaStream_t stream)
{
    if (words == N)
        return launch_sized<N, T, SHARED>(a, b, c, count, stream);
    if constexpr (N + 4 * T <= (T <= 2 ? 32 : 64))
        return launch<T, SHARED, N + 4 * T>(a, b, c, words, count, stream);
    else
        return cudaErrorInvalidValue; // outside the registry's sizes
}

} // namespace

#define COMBA_REG_LAUNCH(NAME, T, SHARED)                                                   \
    extern "C" cudaError_t NAME(const uint32_t *a, const uint32_t *b, uint32_t *c,           \
                                unsigned words, size_t count, void *scratch,                 \
                                cudaStream_t stream)                                         \
    {                                                                                        \
        (void)scratch;                                                                       \
        return launch<T, SHARED>(a, b, c, words, count, stream);                             \
    }
COMBA_REG_LAUNCH(mul_thread_comba_reg_launch, 1, false)
COMBA_REG_LAUNCH(mul_thread_comba_reg_shared_launch, 1, true)
COMBA_REG_LAUNCH(mul_pair_comba_reg_launch, 2, false)
COMBA_REG_LAUNCH(mul_pair_comba_reg_shared_launch, 2, true)
COMBA_REG_LAUNCH(mul_quad_comba_reg_launch, 4, false)
COMBA_REG_LAUNCH(mul_quad_comba_reg_shared_launch, 4, true)
COMBA_REG_LAUNCH(mul_octo_comba_reg_launch, 8, false)
COMBA_REG_LAUNCH(mul_octo_comba_reg_shared_launch, 8, true)
