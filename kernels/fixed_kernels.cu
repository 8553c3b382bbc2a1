// The kernels of `mpgpu fixed` at one precision, FIXED_P bits: kernels/meson.build compiles this
// file once per built precision, so every precision gets straight-line code of its own (004
// section 3.3) and the precisions compile in parallel. Exports fixed_launch_<FIXED_P>.
#include "fixed_chain.cuh"
#include "fixed_device.h"
#include "fixed_r2.cuh"

#ifndef FIXED_P
#error "FIXED_P (the precision in bits) is set by kernels/meson.build"
#endif

#define FIXED_CAT2(x, y) x##y
#define FIXED_CAT(x, y) FIXED_CAT2(x, y)

namespace {

using fixed::Impl;
constexpr int P = FIXED_P;
constexpr int N = fixed::words_of(P);

// Where the elements live on the device: word j of element p of an array of `words`-word
// numbers is at index(words, j, p), times two and plus one for b when the operands are
// interleaved (004 Fig. 3.7).
struct Layout {
    const uint32_t *a, *b;
    uint32_t *r;
    const uint32_t *m_each; // one modulus per element (N words, the result's order), or null
    size_t count;
    unsigned interleave; // 2: a and b interleaved word by word, 1: separate arrays
    bool coalesced;

    __device__ __forceinline__ size_t index(unsigned words, unsigned j, size_t p, unsigned step) const
    {
        return (coalesced ? (size_t)j * count + p : p * words + j) * step;
    }
};

// The modulus travels in the kernel's parameters: one copy that every thread reads through the
// constant cache, then holds in registers.
struct Modulus {
    uint32_t m[N], r2[N];
    uint32_t mp;
};

// A number of device memory seen word by word: the operands "used in place" of 004's _glo
// macros (section 3.6.3), every word access a load or store.
template <class T> struct DeviceNumber {
    T *base;
    const Layout *layout;
    unsigned words, step;
    size_t p;
    __device__ __forceinline__ T &operator[](int j) const
    {
        return base[layout->index(words, (unsigned)j, p, step)];
    }
};

// With one modulus per element, element p's replaces the launch's, with -m^-1 mod 2^32 for the
// Montgomery ops and R^2 mod m for powm derived here (the host computes them for a shared one).
template <int OP>
__device__ __forceinline__ void element_modulus(const Layout &L, size_t p, uint32_t (&m)[N],
                                                uint32_t &mp, uint32_t (&r2)[N])
{
#pragma unroll
    for (int j = 0; j < N; j++)
        m[j] = L.m_each[L.index(N, j, p, 1)];
    if constexpr (OP >= FIXED_MONTRED)
        mp = fixed::mont_neg_inv(m[0]);
    if constexpr (OP == FIXED_POWM)
        fixed::r2_mod<N>(r2, m);
}

template <int OP> constexpr int a_words() { return OP == FIXED_MONTRED ? 2 * N : N; }
template <int OP> constexpr int r_words() { return OP == FIXED_MUL || OP == FIXED_KARATSUBA ? 2 * N : N; }

// Operands copied to registers, the chain run there, the result stored (004's _loc). ONE: one
// element a thread, all with the launch's modulus, the default; else each thread loops over the
// elements (--grid with fewer threads than elements) and takes each element's own modulus where
// there is one. The default is a kernel of its own because ptxas keeps what the loop and the
// choice of modulus need live across the whole chain: the 256-bit montmul took 54 registers with
// them and takes 40 without, so more warps an SM run the chain. A one-a-thread kernel for moduli
// per element as well gained nowhere with --impl ptx and lost at 512 bits (docs/004-fixed.md).
template <int OP, Impl I, bool ONE>
__global__ void fixed_local(Layout L, Modulus M, uint64_t chain)
{
    constexpr int AW = a_words<OP>(), RW = r_words<OP>();
    constexpr bool has_b = OP != FIXED_MONTRED;
    uint32_t m[N], r2[N], mp = M.mp;
    fixed::copy<N>(m, M.m);
    fixed::copy<N>(r2, M.r2);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x; p < L.count; p += stride) {
        if (!ONE && L.m_each)
            element_modulus<OP>(L, p, m, mp, r2);
        uint32_t a[AW], b[N], r[RW];
#pragma unroll
        for (int j = 0; j < AW; j++)
            a[j] = L.a[L.index(AW, j, p, L.interleave)];
#pragma unroll
        for (int j = 0; j < N; j++)
            b[j] = has_b ? L.b[L.index(N, j, p, L.interleave)] : 0u;
        fixed::run_chain<P, OP, I>(r, a, b, m, mp, r2, chain);
#pragma unroll
        for (int j = 0; j < RW; j++)
            L.r[L.index(RW, j, p, 1)] = r[j];
        if constexpr (ONE)
            break;
    }
}

// The chain run on device memory (004's _glo, section 3.6.3): every word of a, b and of the
// result is read or written in place each time a link uses it, and the additive chains keep
// their running value there too. The multiplicative operations keep their own temporaries in
// registers (the 2N-word product of mul, montred's T, powm's Montgomery-form values) and write
// the result in place; the study measured _glo only for addition.
template <int OP, Impl I>
__global__ void fixed_global(Layout L, Modulus M, uint64_t chain)
{
    constexpr int AW = a_words<OP>(), RW = r_words<OP>();
    uint32_t m[N], r2[N], mp = M.mp;
    fixed::copy<N>(m, M.m);
    fixed::copy<N>(r2, M.r2);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x; p < L.count; p += stride) {
        if (L.m_each)
            element_modulus<OP>(L, p, m, mp, r2);
        const DeviceNumber<const uint32_t> a{L.a, &L, AW, L.interleave, p};
        const DeviceNumber<const uint32_t> b{L.b, &L, N, L.interleave, p};
        DeviceNumber<uint32_t> r{L.r, &L, RW, 1, p};
        fixed::run_chain<P, OP, I>(r, a, b, m, mp, r2, chain);
    }
}

template <int OP, Impl I>
cudaError_t launch(const fixed_launch *x, const Layout &L, const Modulus &M)
{
    const fixed_config *c = x->cfg;
    const size_t blocks = c->grid ? c->grid : (x->count + c->block - 1) / c->block;
    const unsigned grid = blocks > 0x7fffffffu ? 0x7fffffffu : (unsigned)blocks;
    if (c->global_mem)
        fixed_global<OP, I><<<grid, c->block, 0, x->stream>>>(L, M, c->chain);
    else if ((size_t)grid * c->block >= x->count && !L.m_each)
        fixed_local<OP, I, true><<<grid, c->block, 0, x->stream>>>(L, M, c->chain);
    else
        fixed_local<OP, I, false><<<grid, c->block, 0, x->stream>>>(L, M, c->chain);
    return cudaGetLastError();
}

template <Impl I> cudaError_t launch_op(const fixed_launch *x, const Layout &L, const Modulus &M)
{
    switch (x->cfg->op) {
    case FIXED_ADD: return launch<FIXED_ADD, I>(x, L, M);
    case FIXED_SUB: return launch<FIXED_SUB, I>(x, L, M);
    case FIXED_ADDM: return launch<FIXED_ADDM, I>(x, L, M);
    case FIXED_SUBM: return launch<FIXED_SUBM, I>(x, L, M);
    case FIXED_MUL: return launch<FIXED_MUL, I>(x, L, M);
    case FIXED_KARATSUBA: return launch<FIXED_KARATSUBA, I>(x, L, M);
    case FIXED_MONTRED: return launch<FIXED_MONTRED, I>(x, L, M);
    case FIXED_MONTMUL: return launch<FIXED_MONTMUL, I>(x, L, M);
    case FIXED_POWM: return launch<FIXED_POWM, I>(x, L, M);
    default: return cudaErrorInvalidValue;
    }
}

// --impl fp64 (fixed_fp64_chain.cuh) and --impl hybrid (fixed_mont.cuh) have montmul and powm
// alone; the library refuses the rest before it launches.
template <Impl I> cudaError_t launch_montgomery(const fixed_launch *x, const Layout &L, const Modulus &M)
{
    switch (x->cfg->op) {
    case FIXED_MONTMUL: return launch<FIXED_MONTMUL, I>(x, L, M);
    case FIXED_POWM: return launch<FIXED_POWM, I>(x, L, M);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace

extern "C" cudaError_t FIXED_CAT(fixed_launch_, FIXED_P)(const struct fixed_launch *x)
{
    const fixed_config *c = x->cfg;
    // montred has one operand: nothing to interleave it with.
    const bool interleaved = c->interleaved && c->op != FIXED_MONTRED;
    Layout L{x->a, x->b, x->r, x->m_each, x->count, interleaved ? 2u : 1u, c->coalesced};
    Modulus M;
    for (int j = 0; j < N; j++) {
        M.m[j] = c->m[j];
        M.r2[j] = x->r2[j];
    }
    M.mp = x->mp;
    switch (c->impl) {
    case FIXED_IMPL_PTX: return launch_op<Impl::ptx>(x, L, M);
    case FIXED_IMPL_C: return launch_op<Impl::c>(x, L, M);
    case FIXED_IMPL_FP64: return launch_montgomery<Impl::fp64>(x, L, M);
    case FIXED_IMPL_HYBRID: return launch_montgomery<Impl::hybrid>(x, L, M);
    default: return cudaErrorInvalidValue;
    }
}
