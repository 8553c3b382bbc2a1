// The peer harness's kernels: NVIDIA CGBN's cgbn_mul_wide, cgbn_mont_mul and cgbn_gcd, one
// instance per problem, for one operand size and the threads per instance (TPI) asked for. Our
// own code: CGBN is a header library that the user names (experiments/peers/cgbn.sh: CGBN_DIR);
// nothing of it is in this project. Built by that script, once per size:
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -I$CGBN_DIR \
//        -DCGBN_BENCH_BITS=256 -DCGBN_BENCH_TPIS=60 -DCGBN_BENCH_BLOCKS=992 -DCGBN_BENCH_OPS=7 \
//        -c cgbn_kernels.cu -o cgbn_256.o
// CGBN_BENCH_TPIS is the sum of the TPIs to build (powers of two: 60 is 4, 8, 16 and 32; nvcc
// splits a -D value at commas, so no list), CGBN_BENCH_BLOCKS the sum of the block sizes (992 is
// 32, 64, 128, 256 and 512 threads), CGBN_BENCH_OPS a mask of cgbn_bench.h's operations (1 mul,
// 2 montmul, 4 gcd). The object registers each (size, operation, TPI, block size) it holds with
// the host side before main runs.
#include <stdint.h>

#include <cuda_runtime.h>

#include "cgbn_bench.h"

// CGBN's host side is built on GMP (its cgbn_mpz.h); the kernels here use none of it.
#include <gmp.h>

#if !defined(CGBN_BENCH_BITS) || !defined(CGBN_BENCH_TPIS) || !defined(CGBN_BENCH_BLOCKS) || \
    !defined(CGBN_BENCH_OPS)
#error "define CGBN_BENCH_BITS, CGBN_BENCH_TPIS, CGBN_BENCH_BLOCKS and CGBN_BENCH_OPS (see the head of this file)"
#endif

// cgbn.h defines five host functions with external linkage; every object of this file (one per
// size) would define them again and the objects would not link into one program. Each object
// gives them its own names (this harness calls none of them).
#define CGBN_BENCH_PASTE2(a, b) a##b
#define CGBN_BENCH_PASTE(a, b) CGBN_BENCH_PASTE2(a, b)
#define CGBN_BENCH_OWN(name) CGBN_BENCH_PASTE(name##_bits_, CGBN_BENCH_BITS)
#define cgbn_error_report_alloc CGBN_BENCH_OWN(cgbn_error_report_alloc)
#define cgbn_error_report_free CGBN_BENCH_OWN(cgbn_error_report_free)
#define cgbn_error_report_check CGBN_BENCH_OWN(cgbn_error_report_check)
#define cgbn_error_report_reset CGBN_BENCH_OWN(cgbn_error_report_reset)
#define cgbn_error_string CGBN_BENCH_OWN(cgbn_error_string)
#include <cgbn/cgbn.h>

namespace {

constexpr uint32_t BITS = CGBN_BENCH_BITS;
static_assert(BITS % 32 == 0 && BITS >= 32, "CGBN takes sizes that are multiples of 32 bits");
// CGBN's own samples launch 128 threads a block (TPB 0: any block size), but the fastest block
// size depends on the size and the TPI (on an H200, 32-thread blocks beat 128 by 3.9 % at 2048
// bits x 10240, docs/peers.md): each kernel is built for every block size asked for, and the
// harness times them all, as mpgpu's own launch shapes were chosen by measuring them.

typedef cgbn_mem_t<BITS> words_t;

template <uint32_t TPI> struct sized {
    static_assert(TPI == 4 || TPI == 8 || TPI == 16 || TPI == 32, "CGBN's TPI is 4, 8, 16 or 32");
    typedef cgbn_context_t<TPI> context_t;
    typedef cgbn_env_t<context_t, BITS> env_t;
    typedef typename env_t::cgbn_t num_t;
};

// CGBN's load and store take non-const pointers; the operands are only read.
__device__ __forceinline__ words_t *at(const uint32_t *p, size_t i)
{
    return reinterpret_cast<words_t *>(const_cast<uint32_t *>(p)) + i;
}

// The instance this thread works on, TPI threads an instance; past count: none (a whole group
// leaves, and CGBN synchronises within an instance's group only).
template <uint32_t TPI, unsigned BLOCK> __device__ __forceinline__ size_t instance_of()
{
    return (blockIdx.x * (size_t)BLOCK + threadIdx.x) / TPI;
}

// One CGBN call per instance (cgbn_bench.h's operations): cgbn_mul_wide (r: the 2 w-word
// product, low half first), the cgbn_mont_mul chain (r = a b^chain mod m, through Montgomery form
// and back), or cgbn_gcd.
template <uint32_t TPI, unsigned BLOCK, cgbn_op OP>
__global__ void __launch_bounds__(BLOCK) op_kernel(const uint32_t *a, const uint32_t *b,
                                                   const uint32_t *m, uint32_t *r, size_t count,
                                                   uint64_t chain)
{
    typedef sized<TPI> S;
    const size_t i = instance_of<TPI, BLOCK>();
    if (i >= count)
        return;
    typename S::context_t context(cgbn_no_checks);
    typename S::env_t env(context);
    typename S::num_t x, y, z;
    cgbn_load(env, x, at(a, i));
    cgbn_load(env, y, at(b, i));
    if constexpr (OP == CGBN_MUL) {
        typename S::env_t::cgbn_wide_t product;
        cgbn_mul_wide(env, product, x, y);
        cgbn_store(env, at(r, 2 * i), product._low);
        cgbn_store(env, at(r, 2 * i + 1), product._high);
        return;
    } else if constexpr (OP == CGBN_MONTMUL) {
        typename S::num_t n, ym;
        cgbn_load(env, n, at(m, i));
        const uint32_t np0 = cgbn_bn2mont(env, z, x, n);
        cgbn_bn2mont(env, ym, y, n);
        for (uint64_t k = 0; k < chain; k++)
            cgbn_mont_mul(env, z, z, ym, n, np0);
        cgbn_mont2bn(env, z, z, n, np0);
    } else {
        cgbn_gcd(env, z, x, y);
    }
    cgbn_store(env, at(r, i), z);
}

template <uint32_t TPI, unsigned BLOCK, cgbn_op OP>
cudaError_t launch(const uint32_t *a, const uint32_t *b, const uint32_t *m, uint32_t *r,
                   size_t count, uint64_t chain, cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((count * TPI + BLOCK - 1) / BLOCK);
    op_kernel<TPI, BLOCK, OP><<<blocks, BLOCK, 0, stream>>>(a, b, m, r, count, chain);
    return cudaGetLastError();
}

template <uint32_t TPI, unsigned BLOCK, cgbn_op OP> void register_block()
{
    static_assert(BLOCK % 32 == 0 && BLOCK >= TPI, "whole warps, whole instances a block");
    static const cgbn_kernel k = {BITS, TPI, OP, BLOCK, launch<TPI, BLOCK, OP>};
    cgbn_register(&k);
}

template <uint32_t TPI, cgbn_op OP> void register_op()
{
    static_assert(CGBN_BENCH_BLOCKS != 0 && (CGBN_BENCH_BLOCKS & ~992u) == 0,
                  "CGBN_BENCH_BLOCKS sums some of 32, 64, 128, 256 and 512");
    if constexpr ((CGBN_BENCH_BLOCKS & 32u) != 0)
        register_block<TPI, 32, OP>();
    if constexpr ((CGBN_BENCH_BLOCKS & 64u) != 0)
        register_block<TPI, 64, OP>();
    if constexpr ((CGBN_BENCH_BLOCKS & 128u) != 0)
        register_block<TPI, 128, OP>();
    if constexpr ((CGBN_BENCH_BLOCKS & 256u) != 0)
        register_block<TPI, 256, OP>();
    if constexpr ((CGBN_BENCH_BLOCKS & 512u) != 0)
        register_block<TPI, 512, OP>();
}

template <uint32_t TPI> void register_tpi()
{
    constexpr unsigned ops = CGBN_BENCH_OPS;
    if constexpr (ops & (1u << CGBN_MUL))
        register_op<TPI, CGBN_MUL>();
    // cgbn_bn2mont divides, and CGBN's division takes at most TPI words a thread: no montmul
    // for larger sizes at this TPI.
    if constexpr ((ops & (1u << CGBN_MONTMUL)) != 0 && BITS / 32 <= TPI * TPI)
        register_op<TPI, CGBN_MONTMUL>();
    if constexpr (ops & (1u << CGBN_GCD))
        register_op<TPI, CGBN_GCD>();
}
template <uint32_t TPI> void register_if_built()
{
    if constexpr ((CGBN_BENCH_TPIS & TPI) != 0)
        register_tpi<TPI>();
}

int register_all()
{
    static_assert(CGBN_BENCH_TPIS != 0 && (CGBN_BENCH_TPIS & ~60u) == 0,
                  "CGBN_BENCH_TPIS sums some of 4, 8, 16 and 32");
    register_if_built<4>();
    register_if_built<8>();
    register_if_built<16>();
    register_if_built<32>();
    return 0;
}

[[maybe_unused]] const int registered = register_all();

} // namespace
