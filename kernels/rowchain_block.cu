// thread-rowchain-karatsuba: the in-block kernel. One thread block loads P products, forms the
// Karatsuba tree in shared memory (rowchain_levels.cuh), computes its 3^K leaves one per thread
// (rowchain_leaf.cuh), recombines and stores, so every level up to 8192 bits stays on chip.
#include "rowchain_launch.cuh"

#include <stddef.h>
#include <mutex>
#include <stdint.h>

#include "rowchain_block_layout.cuh"
#include "rowchain_leaf.cuh"
#include "rowchain_levels.cuh"
#include "rowchain_loader.cuh"

namespace rowchain {
namespace {

// The whole product of P problems of level `level` (count of them, up to LEAF << K words per
// operand) in one block, written word-major to c. SPLIT: level > 0, the operands are views
// into the device-memory levels, found once per block into shared memory; level 0 needs no walk
// up the levels, so it reads the caller's operands directly, without that table and its barrier.
// VEC: the level-0 count is a multiple of 4 and every buffer 16-byte aligned.
template <unsigned K, bool VEC, bool SPLIT>
__global__ void __maxnreg__(fused_shape<K>::REGS)
    karatsuba_block_kernel(const level_chain chain, unsigned level, size_t count, unsigned w,
                           uint32_t *c, unsigned resident)
{
    constexpr unsigned P = fused_shape<K>::P, LEAVES = pow3(K);
    extern __shared__ uint4 shared_words[];
    uint32_t *sh = (uint32_t *)shared_words;
    unsigned char *sign = (unsigned char *)(sh + 2 * LEAVES * LEAF * P); // [operand][slot][p]
    const size_t p0 = (size_t)blockIdx.x * P, next = p0 + (size_t)resident * P;
    auto top_view = [&](size_t q) {
        return q < count ? operand_view{chain.a + q, chain.b + q, count, w} : operand_view{};
    };
    if constexpr (SPLIT) {
        __shared__ operand_view views[2][P]; // this block's products, then the block `resident` on
        for (unsigned t = threadIdx.x; t < 2 * P; t += fused_shape<K>::THREADS) {
            const size_t q = (t < P ? p0 : next) + t % P;
            views[t / P][t % P] = q < count ? view_of(chain, level, q) : operand_view{};
        }
        __syncthreads();
        load_operands<K, VEC>(sh, [&](unsigned p) { return views[0][p]; });
        __syncthreads();
        prefetch_operands<K>([&](unsigned p) { return views[1][p]; }, w);
    } else if constexpr (K == FUSED_MAX_LEVELS) {
        load_operands<K, VEC>(sh, [&](unsigned p) { return top_view(p0 + p); });
        __syncthreads();
        prefetch_operands<K>([&](unsigned p) { return top_view(next + p); }, w);
    } else {
        load_operands_shared_sm<K, VEC>(sh, chain.a, chain.b, w, count, p0);
        __syncthreads();
    }
    form_levels<K, 0>(sh, sign);
    leaf_products<K>(sh);
    __syncthreads();
    recombine_levels<K, (int)K - 1>(sh, sign);
    store_product<K, VEC>(sh, c, w, count, p0);
}

// GPUs one process may drive at once, as cli/multi_device.h's MD_MAX_DEVICES.
constexpr int MAX_DEVICES = 64;

// Dynamic shared memory of one block: both operands' slots, then the sign bytes.
template <unsigned K> constexpr size_t fused_shared_bytes()
{
    return 2 * pow3(K) * LEAF * fused_shape<K>::P * sizeof(uint32_t) +
           2 * pow3(K) * fused_shape<K>::P;
}

template <unsigned K, bool VEC, bool SPLIT>
cudaError_t launch_block(const level_chain &chain, unsigned level, size_t count, unsigned w,
                         uint32_t *c, cudaStream_t stream)
{
    // The kernel's shared-memory limit is raised once per device, and the blocks that run at
    // once are counted per device: `mpgpu mul --devices` runs one host thread per GPU (issue
    // 14), so the first launch on each device sets them, under a lock.
    static std::mutex lock;
    static bool attribute_set[MAX_DEVICES];
    static unsigned resident[MAX_DEVICES];
    constexpr size_t shared = fused_shared_bytes<K>();
    int device = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err != cudaSuccess)
        return err;
    if (device >= MAX_DEVICES)
        return cudaErrorInvalidDevice;
    std::unique_lock<std::mutex> hold(lock);
    if (!attribute_set[device]) {
        // The largest carveout, or the driver may size shared memory for one block per SM.
        err = cudaFuncSetAttribute(karatsuba_block_kernel<K, VEC, SPLIT>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared);
        if (err == cudaSuccess)
            err = cudaFuncSetAttribute(karatsuba_block_kernel<K, VEC, SPLIT>,
                                       cudaFuncAttributePreferredSharedMemoryCarveout,
                                       cudaSharedmemCarveoutMaxShared);
        int sms = 0, per_sm = 0;
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (err == cudaSuccess)
            err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, karatsuba_block_kernel<K, VEC, SPLIT>, fused_shape<K>::THREADS, shared);
        if (err != cudaSuccess)
            return err;
        resident[device] = (unsigned)(sms * per_sm);
        attribute_set[device] = true;
    }
    const unsigned blocks_resident = resident[device];
    hold.unlock();
    constexpr unsigned P = fused_shape<K>::P;
    karatsuba_block_kernel<K, VEC, SPLIT><<<(unsigned)((count + P - 1) / P),
                                            fused_shape<K>::THREADS, shared, stream>>>(
        chain, level, count, w, c, blocks_resident);
    return cudaGetLastError();
}

template <unsigned K>
cudaError_t launch_block(const level_chain &chain, unsigned level, size_t count, unsigned w,
                         uint32_t *c, cudaStream_t stream)
{
    uintptr_t bits = (uintptr_t)chain.a | (uintptr_t)chain.b | (uintptr_t)c;
    for (unsigned j = 1; j <= level; j++)
        bits |= (uintptr_t)chain.diff[j];
    const bool vec = chain.count % 4 == 0 && bits % 16 == 0;
    // Only the largest in-block size sits under device-memory levels (plan_for).
    constexpr bool SPLIT = K == FUSED_MAX_LEVELS;
    if (SPLIT && level > 0)
        return vec ? launch_block<K, true, SPLIT>(chain, level, count, w, c, stream)
                   : launch_block<K, false, SPLIT>(chain, level, count, w, c, stream);
    return vec ? launch_block<K, true, false>(chain, level, count, w, c, stream)
               : launch_block<K, false, false>(chain, level, count, w, c, stream);
}

} // namespace

cudaError_t block_launch(const level_chain &chain, unsigned level, size_t count, unsigned w,
                         uint32_t *c, cudaStream_t stream)
{
    switch (levels_above_leaves(w)) {
    case 0:
        return launch_block<0>(chain, level, count, w, c, stream);
    case 1:
        return launch_block<1>(chain, level, count, w, c, stream);
    case 2:
        return launch_block<2>(chain, level, count, w, c, stream);
    default:
        return launch_block<3>(chain, level, count, w, c, stream);
    }
}

} // namespace rowchain
