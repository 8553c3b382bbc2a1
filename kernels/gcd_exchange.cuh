/* The grid-wide exchange of the modular GCD kernel (002 section 4.1): each block posts one 64-bit
 * word (its least key, section 4.2, or its "choose any" word, section 4.3) and every thread
 * learns the least word of the grid, so that every block makes the same choice. One exchange is
 * one grid barrier; the reduction loop costs one per step.
 *
 * Each exchange type X(slots, smem) offers, called by every thread of every block in the same
 * order:
 *   gather(w)  thread 0's w is this block's word; returns the least word of all blocks, in every
 *              thread;
 *   finish()   before the kernel returns.
 * Words of consecutive exchanges go to different rows, so a fast block's next post never
 * overwrites a word a slow block has still to read.
 *
 * Who reads. A barrier over the whole grid (coop, custom) is followed by one warp of each block
 * reading the posted words and sharing their minimum through shared memory: all warps polling
 * the words would multiply the L2 traffic by the warps of a block. A cluster has at most 16
 * words, in distributed shared memory, and every warp reads them itself. */
#ifndef MPGPU_GCD_EXCHANGE_CUH
#define MPGPU_GCD_EXCHANGE_CUH

#include <cooperative_groups.h>
#include <cuda/atomic>

namespace gcd {

namespace cg = cooperative_groups;

constexpr unsigned FULL_WARP = 0xffffffffu;

__device__ __forceinline__ unsigned long long umin(unsigned long long a, unsigned long long b)
{
    return a < b ? a : b;
}

__device__ __forceinline__ unsigned long long warp_min(unsigned long long x)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        x = umin(x, __shfl_xor_sync(FULL_WARP, x, o));
    return x;
}

/* The block's minimum, in thread 0 (other threads: unspecified): warp shuffles, then warp 0
 * over the warps' minima through shared memory (002 section 4.2). The caller's exchange holds a
 * block barrier between this call's read of warp_buf and the next call's writes. */
__device__ __forceinline__ unsigned long long block_min_thread0(unsigned long long x,
                                                                unsigned long long *warp_buf)
{
    x = warp_min(x);
    if (threadIdx.x % 32 == 0)
        warp_buf[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x >= 32)
        return x;
    return warp_min(threadIdx.x < blockDim.x / 32 ? warp_buf[threadIdx.x] : ~0ull);
}

/* Warp 0 has the grid's least word in `least` (from the words it read); every thread gets it
 * through shared memory. share[] has one entry per row parity, so that a thread still reading
 * the previous exchange's entry cannot see this one's. */
__device__ __forceinline__ unsigned long long share_from_warp0(unsigned long long least,
                                                               unsigned long long *share)
{
    if (threadIdx.x == 0)
        *share = least;
    __syncthreads();
    return *share;
}

/* Cooperative groups grid sync (CUDA 9, 002 section 4.1): 2 rows of gridDim.x words in device
 * memory. The reads bypass L1 (ld.global.cg), which is not coherent across SMs. */
struct coop_exchange {
    unsigned long long *slots, *share;
    unsigned row = 0;
    __device__ coop_exchange(unsigned long long *s, unsigned long long *smem) : slots(s), share(smem) {}
    __device__ unsigned long long gather(unsigned long long w)
    {
        const unsigned G = gridDim.x;
        unsigned long long *words = slots + row * G;
        if (threadIdx.x == 0)
            __stcg(words + blockIdx.x, w);
        cg::this_grid().sync();
        unsigned long long least = ~0ull;
        if (threadIdx.x < 32) {
#pragma unroll 8
            for (unsigned i = threadIdx.x; i < G; i += 32)
                least = umin(least, __ldcg(words + i));
            least = warp_min(least);
        }
        least = share_from_warp0(least, share + row);
        row ^= 1;
        return least;
    }
    __device__ void finish() {}
};

/* The paper's barrier (002 section 4.1): a 4 x gridDim.x array of words, all zero at launch.
 * Each block posts a nonzero word to its slot of the row; the row advances circularly. Words are
 * never zero (a key holds its modulus; a "choose any" word holds ~q or is all ones).
 *
 * Who clears a slot: the paper has each waiting thread reset the slot it read, which works only
 * when each slot has one reader; here every block reads every slot, so a block clears its own
 * slot of the previous row once it has seen every word of the current one. Every block has then
 * posted the current row, after a block barrier that each of its warps reached only when done
 * with the previous row; and the clear precedes, in this thread, the block's next post (a
 * release), so a reader of that row four exchanges on, which must first have acquired that post,
 * can only find the new word or zero.
 *
 * Fences (the paper names none; Hopper's memory model needs them): the post is a release store
 * and the wait an acquire load at device scope (PTX st.release.gpu / ld.acquire.gpu), never
 * served from a stale L1 line. The kernel is launched cooperatively, so every block is resident
 * and the busy waits cannot deadlock (the paper sizes the grid with the occupancy API for the
 * same reason). */
struct custom_exchange {
    using word = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
    static constexpr unsigned ROWS = 4, POLL = 8;
    unsigned long long *slots, *share;
    unsigned row = 0;
    __device__ custom_exchange(unsigned long long *s, unsigned long long *smem) : slots(s), share(smem) {}
    __device__ unsigned long long gather(unsigned long long w)
    {
        const unsigned G = gridDim.x;
        unsigned long long *words = slots + row * G;
        unsigned long long least = ~0ull;
        if (threadIdx.x < 32) {
            if (threadIdx.x == 0)
                word(words[blockIdx.x]).store(w, cuda::memory_order_release);
            /* A lane's words, POLL at a time: their loads are in flight together, so a round
             * costs one trip to L2, not one per word. */
            for (unsigned base = threadIdx.x; base < G; base += 32 * POLL) {
                unsigned long long x[POLL];
#pragma unroll
                for (unsigned j = 0; j < POLL; j++)
                    x[j] = base + 32 * j < G ? word(words[base + 32 * j]).load(cuda::memory_order_acquire)
                                             : ~0ull;
#pragma unroll
                for (unsigned j = 0; j < POLL; j++) {
                    while (x[j] == 0)
                        x[j] = word(words[base + 32 * j]).load(cuda::memory_order_acquire);
                    least = umin(least, x[j]);
                }
            }
            least = warp_min(least);
            __syncwarp();
            if (threadIdx.x == 0)
                word(slots[((row + ROWS - 1) % ROWS) * G + blockIdx.x]).store(0, cuda::memory_order_relaxed);
        }
        least = share_from_warp0(least, share + (row & 1));
        row = (row + 1) % ROWS;
        return least;
    }
    __device__ void finish() {}
};

/* Beyond the paper: the whole grid is one thread-block cluster (at most 16 blocks on Hopper),
 * whose barrier is in hardware; each block's word sits in its own shared memory and the others
 * read it through distributed shared memory. For inputs whose N_Q fits a few blocks. */
struct cluster_exchange {
    unsigned long long *own; /* 2 words of this block's shared memory */
    unsigned row = 0;
    __device__ cluster_exchange(unsigned long long *, unsigned long long *smem) : own(smem) {}
    __device__ unsigned long long gather(unsigned long long w)
    {
#if __CUDA_ARCH__ >= 900
        cg::cluster_group cluster = cg::this_cluster();
        if (threadIdx.x == 0)
            own[row] = w;
        cluster.sync();
        unsigned long long least = ~0ull;
        for (unsigned i = threadIdx.x % 32; i < gridDim.x; i += 32)
            least = umin(least, *cluster.map_shared_rank(own + row, i));
        row ^= 1;
        return warp_min(least);
#else
        (void)w;
        __trap();
        return 0;
#endif
    }
    /* No block may leave while another can still read its shared memory. */
    __device__ void finish()
    {
#if __CUDA_ARCH__ >= 900
        cg::this_cluster().sync();
#endif
    }
};

} // namespace gcd

#endif
