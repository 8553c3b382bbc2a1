/* The grid-wide exchange of the modular GCD kernel (002 section 4.1): each block posts one 64-bit
 * word (its minimum key, section 4.2, or its "choose any" pair, section 4.3) and then reads the
 * words of every block, so that every block makes the same choice. One exchange is one grid
 * barrier; the reduction loop costs one per step.
 *
 * Each exchange type offers, called by every thread of every block in the same order:
 *   post(w)  thread 0's w is this block's word; returns when every block's word can be read;
 *   read(i)  block i's word of this exchange;
 *   next()   after the last read of this exchange (the caller has passed a __syncthreads since);
 *   finish() before the kernel returns.
 * Words of consecutive exchanges go to alternating rows, so a fast block's next post never
 * overwrites a word a slow block has still to read: the fast block cannot post twice before the
 * slow one has posted once in between. */
#ifndef MPGPU_GCD_EXCHANGE_CUH
#define MPGPU_GCD_EXCHANGE_CUH

#include <cooperative_groups.h>
#include <cuda/atomic>

namespace gcd {

namespace cg = cooperative_groups;

/* Cooperative groups grid sync (CUDA 9, 002 section 4.1): 2 rows of gridDim.x words in device
 * memory. The reads bypass L1 (ld.global.cg), which is not coherent across SMs. */
struct coop_exchange {
    unsigned long long *slots;
    unsigned row = 0;
    __device__ explicit coop_exchange(unsigned long long *s) : slots(s) {}
    __device__ void post(unsigned long long w)
    {
        if (threadIdx.x == 0)
            __stcg(slots + row * gridDim.x + blockIdx.x, w);
        cg::this_grid().sync();
    }
    __device__ unsigned long long read(unsigned i) const
    {
        return __ldcg(slots + row * gridDim.x + i);
    }
    __device__ void next() { row ^= 1; }
    __device__ void finish() {}
};

/* The paper's barrier (002 section 4.1): a 4 x gridDim.x array of words, all zero at launch.
 * Each block posts a nonzero word to its slot of the row; one thread per slot waits until the
 * slot is nonzero; the row advances circularly. The words are never zero (a key holds its
 * modulus; a "choose any" word holds a modulus or 1).
 *
 * Who clears a slot: the paper has each waiting thread reset the slot it read, which works only
 * when each slot has one reader; here every block reads every slot, so a block clears its own
 * slot of the previous row once it has seen every word of the current one. Every block has then
 * posted the current row, so every block has finished reading the previous one; and the clear
 * precedes, in this thread, the block's next post (a release), so a reader of that row four
 * exchanges on, which must first have acquired that post, can only find the new word or zero.
 *
 * Fences (the paper names none; Hopper's memory model needs them): the post is a release store
 * and the wait an acquire load at device scope (PTX st.release.gpu / ld.acquire.gpu), and reads
 * are device-scope loads, never served from a stale L1 line. The kernel is launched
 * cooperatively, so every block is resident and the busy waits cannot deadlock (the paper sizes
 * the grid with the occupancy API for the same reason). */
struct custom_exchange {
    using word = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
    static constexpr unsigned ROWS = 4;
    unsigned long long *slots;
    unsigned row = 0;
    __device__ explicit custom_exchange(unsigned long long *s) : slots(s) {}
    __device__ void post(unsigned long long w)
    {
        const unsigned G = gridDim.x;
        if (threadIdx.x == 0)
            word(slots[row * G + blockIdx.x]).store(w, cuda::memory_order_release);
        for (unsigned i = threadIdx.x; i < G; i += blockDim.x)
            while (word(slots[row * G + i]).load(cuda::memory_order_acquire) == 0) {
            }
        __syncthreads();
        if (threadIdx.x == 0)
            word(slots[((row + ROWS - 1) % ROWS) * G + blockIdx.x]).store(0, cuda::memory_order_relaxed);
    }
    __device__ unsigned long long read(unsigned i) const
    {
        return word(slots[row * gridDim.x + i]).load(cuda::memory_order_relaxed);
    }
    __device__ void next() { row = (row + 1) % ROWS; }
    __device__ void finish() {}
};

/* Beyond the paper: the whole grid is one thread-block cluster (at most 16 blocks on Hopper),
 * whose barrier is in hardware; each block's word sits in its own shared memory and the others
 * read it through distributed shared memory. For inputs whose N_Q fits a few blocks. */
struct cluster_exchange {
    unsigned long long *smem; /* 2 words of this block's shared memory */
    unsigned row = 0;
    __device__ explicit cluster_exchange(unsigned long long *s) : smem(s) {}
    __device__ void post(unsigned long long w)
    {
#if __CUDA_ARCH__ >= 900
        if (threadIdx.x == 0)
            smem[row] = w;
        cg::this_cluster().sync();
#else
        (void)w;
        __trap();
#endif
    }
    __device__ unsigned long long read(unsigned i) const
    {
#if __CUDA_ARCH__ >= 900
        return *cg::this_cluster().map_shared_rank(smem + row, i);
#else
        (void)i;
        __trap();
        return 0;
#endif
    }
    __device__ void next() { row ^= 1; }
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
