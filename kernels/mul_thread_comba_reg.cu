// thread-comba-reg, pair-comba-reg and their -shared variants: one or two threads per product of
// 256 to 1024 bits, every word in registers (issue 39: ahead of CGBN on small products, where a
// product is 128 to 512 bytes of memory traffic and memory binds, not the IMAD pipe).
//
// All read the product-major layout the CLI times them in (no transpose), move each operand word
// into the GPU once and each product word out once, and launch one kernel and nothing else. The
// product is product scanning, rowchain::comba_rect (the leaf of thread-rowchain-karatsuba's
// direct kernel, kernels/rowchain_leaf.cuh: 96-bit column accumulators by ptx::mac96, measured a
// third fewer instructions than carry-chain rows at 1024 bits), unrolled for the word count N.
// With one thread a product its CPU twin is comba_product in cpu_ref/rowchain_karatsuba_ref.c,
// the same column order; with two, cpu_ref/comba_pair_ref.c.
//
// T threads per product (T = 1 or 2, a template argument; 32 / T products a warp): with two,
// thread h multiplies its half a_h of a (N / 2 words) by all of b, both threads by the same
// straight-line code, which halves the dependent chain of a product (what binds when the
// products are too few to fill the GPU). The partner threads then swap the N / 2 words of their
// partial products that overlap the other's half of c by shuffles, each adds them into its N
// words of c, and the low thread's carry out goes to the high one. The partners' loads of b are
// the same addresses in the same instruction, so memory still sees each word once.
//
// The variants differ only in how the words travel (the lead sweeps them on the GPU):
// - without -shared: each thread moves its own operand words and product words by 16-byte
//   vector loads and stores. A warp's load instruction then uses part of every 32-byte sector it
//   touches (half at 256 bits with one thread a product); the thread's next loads take the rest
//   of those sectors while they are still in L1, so device memory sees each sector once.
// - -shared: a warp's products are contiguous in memory, so the warp loads them as consecutive
//   16-byte vectors (every sector whole in one instruction), stages them in shared memory and
//   writes its products back the same way.
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

// Thread h's N words of c, words h N .. h N + N, from ah, its N / T words of a (words
// h N / T ..), and all of b. T = 1: the whole product, by the thread alone.
template <int N, int T>
__device__ __forceinline__ void product_part(uint32_t (&out)[2 * N / T], const uint32_t (&ah)[N / T],
                                             const uint32_t (&b)[N], unsigned h)
{
    constexpr int H = N / T;
    uint32_t part[H + N]; // ah b, to be added at word h H of c
    rowchain::comba_rect<H, N>(
        ah, [&](unsigned i) { return b[i]; }, [&](unsigned q, uint32_t v) { part[q] = v; });
    if constexpr (T == 1) {
#pragma unroll
        for (int k = 0; k < 2 * N; k++)
            out[k] = part[k];
    } else {
        static_assert(T == 2, "one or two threads a product");
        // c[0, N) = part0[0, N) + X^H part1[0, H) and c[N, 2N) = part0[N, N + H) + part1[H, N + H)
        // + the carry of the first (X = 2^32): each thread sends the H words the other adds.
        uint32_t received[H], u[N], v[N];
#pragma unroll
        for (int k = 0; k < H; k++)
            received[k] = __shfl_xor_sync(FULL, h ? part[k] : part[N + k], 1);
#pragma unroll
        for (int k = 0; k < N; k++) {
            u[k] = h ? part[H + k] : part[k];
            v[k] = k < H ? (h ? received[k] : 0) : (h ? 0 : received[k - H]);
        }
        out[0] = ptx::add_cc(u[0], v[0]);
#pragma unroll
        for (int k = 1; k < N; k++)
            out[k] = ptx::addc_cc(u[k], v[k]);
        const uint32_t carry_out = ptx::addc(0u, 0u); // the high thread's is 0: c fits
        const uint32_t carry_in = __shfl_xor_sync(FULL, carry_out, 1) & h;
        out[0] = ptx::add_cc(out[0], carry_in);
#pragma unroll
        for (int k = 1; k < N; k++)
            out[k] = ptx::addc_cc(out[k], 0u);
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
    uint32_t x[H], y[N], z[2 * N / T];
    mp::words_from_vectors<H>(x, a + at * (N / 4) + h * (H / 4));
    mp::words_from_vectors<N>(y, b + at * (N / 4));
    product_part<N, T>(z, x, y, h);
    if (p < count)
        mp::words_to_vectors<2 * N / T>(c + p * (N / 2) + h * (N / 2 / T), z);
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
    uint32_t x[H], y[N], z[2 * N / T];
    mp::words_from_vectors<H>(x, as + at * S::QA + h * (H / 4));
    mp::words_from_vectors<N>(y, bs + at * S::QA);
    product_part<N, T>(z, x, y, h);
    __syncwarp(); // every operand read before the products overwrite them
    uint4 *cs = as;
    if (p < n)
        mp::words_to_vectors<2 * N / T>(cs + p * S::QC + h * (N / 2 / T), z);
    __syncwarp();
    uint4 *cg = c + p0 * 2 * S::Q;
#pragma unroll 4
    for (unsigned i = lane; i < n * 2 * S::Q; i += 32)
        cg[i] = cs[i / (2 * S::Q) * S::QC + i % (2 * S::Q)];
}

template <int N, int T>
cudaError_t launch_sized(bool shared, const uint32_t *a, const uint32_t *b, uint32_t *c,
                         size_t count, cudaStream_t stream)
{
    if constexpr (N / T % 4 != 0) {
        return cudaErrorInvalidValue; // outside the registry's sizes for T
    } else {
        const uint4 *va = reinterpret_cast<const uint4 *>(a);
        const uint4 *vb = reinterpret_cast<const uint4 *>(b);
        uint4 *vc = reinterpret_cast<uint4 *>(c);
        const unsigned blocks = (unsigned)((count * T + THREADS - 1) / THREADS);
        if (shared)
            comba_reg_shared_kernel<N, T><<<blocks, THREADS, 0, stream>>>(va, vb, vc, count);
        else
            comba_reg_kernel<N, T><<<blocks, THREADS, 0, stream>>>(va, vb, vc, count);
        return cudaGetLastError();
    }
}

// N from 8 to 32 words, a multiple of 4 T: the sizes the registry gives these methods.
template <int T>
cudaError_t launch(bool shared, const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, cudaStream_t stream)
{
    switch (words) {
    case 8:
        return launch_sized<8, T>(shared, a, b, c, count, stream);
    case 12:
        return launch_sized<12, T>(shared, a, b, c, count, stream);
    case 16:
        return launch_sized<16, T>(shared, a, b, c, count, stream);
    case 20:
        return launch_sized<20, T>(shared, a, b, c, count, stream);
    case 24:
        return launch_sized<24, T>(shared, a, b, c, count, stream);
    case 28:
        return launch_sized<28, T>(shared, a, b, c, count, stream);
    case 32:
        return launch_sized<32, T>(shared, a, b, c, count, stream);
    default:
        return cudaErrorInvalidValue; // outside the registry's sizes
    }
}

} // namespace

#define COMBA_REG_LAUNCH(NAME, T, SHARED)                                                   \
    extern "C" cudaError_t NAME(const uint32_t *a, const uint32_t *b, uint32_t *c,           \
                                unsigned words, size_t count, void *scratch,                 \
                                cudaStream_t stream)                                         \
    {                                                                                        \
        (void)scratch;                                                                       \
        return launch<T>(SHARED, a, b, c, words, count, stream);                             \
    }
COMBA_REG_LAUNCH(mul_thread_comba_reg_launch, 1, false)
COMBA_REG_LAUNCH(mul_thread_comba_reg_shared_launch, 1, true)
COMBA_REG_LAUNCH(mul_pair_comba_reg_launch, 2, false)
COMBA_REG_LAUNCH(mul_pair_comba_reg_shared_launch, 2, true)
