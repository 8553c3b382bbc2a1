// thread-rowchain-karatsuba: a block's operands in and product out, between the word-major
// layout of device memory (A[i * count + p]: lanes are products, so loads and stores move
// whole 128-byte rows) and the block's shared memory (rowchain_block_layout.cuh).
#ifndef MPGPU_ROWCHAIN_LOADER_CUH
#define MPGPU_ROWCHAIN_LOADER_CUH

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "ptx_carry.cuh"
#include "rowchain_block_layout.cuh"
#include "rowchain_operand_view.cuh"

namespace rowchain {

// Operands in and product out, word-major: a warp moves whole 128-byte rows, 16 bytes per
// lane when the layout allows (VEC), else 4.
template <unsigned K, bool VEC, class View>
__device__ __forceinline__ void load_operands(uint32_t *sh, View view_of_product)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned REGION = pow3(K) * LEAF, WPAD = LEAF << K, V = VEC ? 4 : 1;
    constexpr unsigned LANES = P / V, STEP = T / LANES, ROUNDS = (WPAD + STEP - 1) / STEP;
    static_assert(T % LANES == 0, "a thread keeps its product (and view) in every round");
    using word = typename std::conditional<VEC, uint4, uint32_t>::type;
    // All loads first, then all stores: a loop that stored each pair before loading the next
    // waited a memory latency per pair. With VEC, products p .. p + 3 share p's view.
    const unsigned p = threadIdx.x % LANES * V, i0 = threadIdx.x / LANES;
    const operand_view v = view_of_product(p);
    word x[ROUNDS], y[ROUNDS];
#pragma unroll
    for (unsigned r = 0; r < ROUNDS; r++) {
        const unsigned i = i0 + r * STEP;
        const bool ok = i < WPAD && i < v.valid;
        x[r] = ok ? *(const word *)(v.a + i * v.stride) : word{};
        y[r] = ok ? *(const word *)(v.b + i * v.stride) : word{};
    }
#pragma unroll
    for (unsigned r = 0; r < ROUNDS; r++) {
        const unsigned i = i0 + r * STEP;
        if (i < WPAD) {
            *(word *)&sh[sidx<P>(i, p)] = x[r];
            *(word *)&sh[sidx<P>(REGION + i, p)] = y[r];
        }
    }
}

// The loader of the smaller sizes (K < FUSED_MAX_LEVELS), where several blocks share an SM
// and hide each other's loads: on an H200 the loader above (and the prefetch) took 1024 bits x
// 2^20 products from 4.7e9 to 3.8e9 products/s and 4096 bits from 4.0e8 to 3.8e8.
template <unsigned K, bool VEC>
__device__ __forceinline__ void load_operands_shared_sm(uint32_t *sh, const uint32_t *a,
                                                        const uint32_t *b, unsigned w,
                                                        size_t count, size_t p0)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned REGION = pow3(K) * LEAF, WPAD = LEAF << K, V = VEC ? 4 : 1;
    using word = typename std::conditional<VEC, uint4, uint32_t>::type;
    for (unsigned idx = threadIdx.x; idx < WPAD * P / V; idx += T) {
        const unsigned i = idx / (P / V), p = idx % (P / V) * V;
        const bool live = i < w && p0 + p < count;
        const size_t g = i * count + p0 + p;
        *(word *)&sh[sidx<P>(i, p)] = live ? *(const word *)(a + g) : word{};
        *(word *)&sh[sidx<P>(REGION + i, p)] = live ? *(const word *)(b + g) : word{};
    }
}

// Asks L2 for the operands of block `block` while this block computes: with one block per SM
// (K = 3) nothing else hides the load phase. The blocks `resident` further on are the ones
// that start next. On an H200 at 8192 bits x 196608 products the load phase took 0.22 of
// 1.83 ms; loading all before storing and this prefetch brought the kernel to 1.70 ms.
template <unsigned K, class View>
__device__ __forceinline__ void prefetch_operands(View view_of_product, unsigned w)
{
    constexpr unsigned P = fused_shape<K>::P, WARPS = fused_shape<K>::THREADS / 32;
    const unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned g = 0; g < P / 32; g++) {
        const operand_view v = view_of_product(g * 32 + lane);
        for (unsigned i = threadIdx.x / 32; i < w; i += WARPS) {
            if (i < v.valid) {
                ptx::prefetch_l2(v.a + i * v.stride);
                ptx::prefetch_l2(v.b + i * v.stride);
            }
        }
    }
}

template <unsigned K, bool VEC>
__device__ __forceinline__ void store_product(const uint32_t *sh, uint32_t *c, unsigned w,
                                              size_t count, size_t p0)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned REGION = pow3(K) * LEAF, WPAD = LEAF << K, V = VEC ? 4 : 1;
    for (unsigned idx = threadIdx.x; idx < 2 * w * P / V; idx += T) {
        const unsigned q = idx / (P / V), p = idx % (P / V) * V;
        if (p0 + p >= count)
            continue;
        const unsigned s = sidx<P>(q < WPAD ? q : REGION + q - WPAD, p);
        if (VEC)
            *(uint4 *)(c + q * count + p0 + p) = *(const uint4 *)&sh[s];
        else
            c[q * count + p0 + p] = sh[s];
    }
}

} // namespace rowchain

#endif
