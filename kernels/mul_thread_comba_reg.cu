// thread-comba-reg and thread-comba-reg-shared: one thread per product of 256 to 1024 bits, every
// word in registers (issue 39: ahead of CGBN on small products, where a product is 128 to 512
// bytes of memory traffic and memory binds, not the IMAD pipe).
//
// Both read the product-major layout the CLI times them in (no transpose), move each operand word
// into the GPU once and each product word out once, and launch one kernel and nothing else. The
// product is rowchain::comba_product, the product-scanning leaf of thread-rowchain-karatsuba's
// direct kernel (kernels/rowchain_leaf.cuh: 96-bit column accumulators by ptx::mac96, measured a
// third fewer instructions than carry-chain rows at 1024 bits), unrolled for the word count N.
// Its CPU twin is comba_product in cpu_ref/rowchain_karatsuba_ref.c, the same column order.
//
// The two differ only in how the words travel (the lead sweeps both on the GPU):
// - thread-comba-reg: each thread moves its own operands and product by 16-byte vector loads
//   and stores. A warp's load instruction then uses half of every 32-byte sector it touches at
//   256 bits (a quarter at 512, an eighth at 1024); the thread's next loads take the rest of
//   those sectors while they are still in L1, so device memory sees each sector once.
// - thread-comba-reg-shared: a warp's 32 products are contiguous in memory, so the warp loads
//   them as consecutive 16-byte vectors (every sector whole in one instruction), stages them in
//   shared memory and writes its products back the same way.
//
// Operands must be a whole number of 16-byte vectors (words a multiple of 4) so that every
// product starts on a vector; libmpgpu checks that the buffers are 16-byte aligned.
#include "mp_helpers.cuh"
#include "mul.h"
#include "rowchain_leaf.cuh"

namespace {

constexpr unsigned WARPS_PER_BLOCK = MUL_THREAD_COMBA_REG_WARPS_PER_BLOCK;
constexpr unsigned THREADS = WARPS_PER_BLOCK * 32;

template <int N>
__device__ __forceinline__ void product_in_registers(uint32_t (&c)[2 * N], const uint32_t (&a)[N],
                                                     const uint32_t (&b)[N])
{
    rowchain::comba_product<N>(
        a, [&](unsigned i) { return b[i]; }, [&](unsigned q, uint32_t v) { c[q] = v; });
}

template <int N>
__global__ void __launch_bounds__(THREADS)
    thread_comba_reg_kernel(const uint4 *__restrict__ a, const uint4 *__restrict__ b,
                            uint4 *__restrict__ c, size_t count)
{
    const size_t p = (size_t)blockIdx.x * THREADS + threadIdx.x;
    if (p >= count)
        return;
    uint32_t x[N], y[N], z[2 * N];
    mp::words_from_vectors<N>(x, a + p * (N / 4));
    mp::words_from_vectors<N>(y, b + p * (N / 4));
    product_in_registers<N>(z, x, y);
    mp::words_to_vectors<2 * N>(c + p * (N / 2), z);
}

// A warp's staging area in 16-byte vectors. Thread t's operand starts at vector t QA, its
// product at t QC: both strides are odd, so the eight threads of a quarter warp (which share one
// shared-memory wavefront of 16-byte accesses) fall on eight different groups of four banks.
template <int N> struct Staging {
    static constexpr int Q = N / 4;                // vectors per operand
    static constexpr int QA = Q | 1;               // operand stride
    static constexpr int QC = 2 * Q + 1;           // product stride
    static constexpr int OPERANDS = 2 * 32 * QA;   // a, then b
    static constexpr int PRODUCTS = 32 * QC;       // over the operands once they are read
    static constexpr int VECTORS = OPERANDS > PRODUCTS ? OPERANDS : PRODUCTS;
};

template <int N>
__global__ void __launch_bounds__(THREADS)
    thread_comba_reg_shared_kernel(const uint4 *__restrict__ a, const uint4 *__restrict__ b,
                                   uint4 *__restrict__ c, size_t count)
{
    using S = Staging<N>;
    __shared__ uint4 smem[WARPS_PER_BLOCK][S::VECTORS];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t p0 = ((size_t)blockIdx.x * WARPS_PER_BLOCK + warp) * 32;
    if (p0 >= count)
        return;
    const unsigned n = count - p0 < 32 ? (unsigned)(count - p0) : 32; // products of this warp
    uint4 *as = smem[warp], *bs = as + 32 * S::QA;
    const uint4 *ag = a + p0 * S::Q, *bg = b + p0 * S::Q;
#pragma unroll 4
    for (unsigned i = lane; i < n * S::Q; i += 32) {
        const unsigned at = i / S::Q * S::QA + i % S::Q;
        as[at] = ag[i];
        bs[at] = bg[i];
    }
    __syncwarp();
    uint32_t z[2 * N];
    if (lane < n) {
        uint32_t x[N], y[N];
        mp::words_from_vectors<N>(x, as + lane * S::QA);
        mp::words_from_vectors<N>(y, bs + lane * S::QA);
        product_in_registers<N>(z, x, y);
    }
    __syncwarp(); // every operand read before the products overwrite them
    uint4 *cs = as;
    if (lane < n)
        mp::words_to_vectors<2 * N>(cs + lane * S::QC, z);
    __syncwarp();
    uint4 *cg = c + p0 * 2 * S::Q;
#pragma unroll 4
    for (unsigned i = lane; i < n * 2 * S::Q; i += 32)
        cg[i] = cs[i / (2 * S::Q) * S::QC + i % (2 * S::Q)];
}

template <int N>
cudaError_t launch_sized(bool shared, const uint32_t *a, const uint32_t *b, uint32_t *c,
                         size_t count, cudaStream_t stream)
{
    const uint4 *va = reinterpret_cast<const uint4 *>(a), *vb = reinterpret_cast<const uint4 *>(b);
    uint4 *vc = reinterpret_cast<uint4 *>(c);
    const unsigned blocks = (unsigned)((count + THREADS - 1) / THREADS);
    if (shared)
        thread_comba_reg_shared_kernel<N><<<blocks, THREADS, 0, stream>>>(va, vb, vc, count);
    else
        thread_comba_reg_kernel<N><<<blocks, THREADS, 0, stream>>>(va, vb, vc, count);
    return cudaGetLastError();
}

// N from 8 to 32 words, a multiple of 4: the sizes the registry gives these methods.
cudaError_t launch(bool shared, const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, cudaStream_t stream)
{
    switch (words) {
    case 8:
        return launch_sized<8>(shared, a, b, c, count, stream);
    case 12:
        return launch_sized<12>(shared, a, b, c, count, stream);
    case 16:
        return launch_sized<16>(shared, a, b, c, count, stream);
    case 20:
        return launch_sized<20>(shared, a, b, c, count, stream);
    case 24:
        return launch_sized<24>(shared, a, b, c, count, stream);
    case 28:
        return launch_sized<28>(shared, a, b, c, count, stream);
    case 32:
        return launch_sized<32>(shared, a, b, c, count, stream);
    default:
        return cudaErrorInvalidValue; // outside the registry's sizes
    }
}

} // namespace

extern "C" cudaError_t mul_thread_comba_reg_launch(const uint32_t *a, const uint32_t *b,
                                                   uint32_t *c, unsigned words, size_t count,
                                                   void *scratch, cudaStream_t stream)
{
    (void)scratch;
    return launch(false, a, b, c, words, count, stream);
}

extern "C" cudaError_t mul_thread_comba_reg_shared_launch(const uint32_t *a, const uint32_t *b,
                                                          uint32_t *c, unsigned words,
                                                          size_t count, void *scratch,
                                                          cudaStream_t stream)
{
    (void)scratch;
    return launch(true, a, b, c, words, count, stream);
}
