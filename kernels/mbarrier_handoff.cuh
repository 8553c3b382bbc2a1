/* A handoff between the threads of one block through mbarriers in shared memory (PTX mbarrier,
 * sm_80 and later), and barriers among part of the block: what the Lehmer kernel
 * (kernels/gcd_lehmer.cu) synchronises its producer and its workers with, in one place so that
 * the probe experiments/racecheck_mbarrier.cu runs the very same instructions under
 * compute-sanitizer (docs/sanitizers.md).
 *
 * A direction of the handoff is two mbarriers, used alternately. Event j of a direction (j >= 1)
 * completes phase (j - 1) / 2 of barrier j % 2 (its last arrival). An arrival releases and a
 * completed wait acquires, at CTA scope (PTX ISA, "Memory Consistency Model": the arrive is a
 * release pattern, the try_wait that returns true an acquire pattern on the same barrier), so
 * what the arriving thread wrote or read before it is ordered before what the waiting thread
 * does after the wait; and since causality order is transitive through bar.sync and bar.red,
 * which synchronise their participants, so is what every thread did before a barrier that the
 * arriving thread passed before arriving (racecheck does not carry this on: it credits an
 * arrival with the arriving thread's own accesses only, docs/sanitizers.md). A wait names its
 * phase by parity, so the user must never let it fall two phases behind its barrier (four events
 * of its direction). */
#ifndef MPGPU_MBARRIER_HANDOFF_CUH
#define MPGPU_MBARRIER_HANDOFF_CUH

#include <stdint.h>

__device__ __forceinline__ uint32_t handoff_shared_address(const void *x)
{
    return (uint32_t)__cvta_generic_to_shared(x);
}

/* A barrier whose phases complete after `arrivals` arrivals each. */
__device__ __forceinline__ void mbarrier_init(uint64_t *mb, uint32_t arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(handoff_shared_address(mb)),
                 "r"(arrivals)
                 : "memory");
}

/* Arrives for event j (j >= 1) of the direction whose two barriers are mb[0] and mb[1]. */
__device__ __forceinline__ void handoff_post(uint64_t *mb, uint32_t j)
{
    asm volatile("{\n\t.reg .b64 state;\n\t"
                 "mbarrier.arrive.release.cta.shared::cta.b64 state, [%0];\n\t}" ::"r"(
                     handoff_shared_address(&mb[j % 2]))
                 : "memory");
}

/* Waits for event j (j >= 1) of that direction. From sm_90 a waiting thread is suspended by the
 * hardware until its phase completes (or a time limit of the hardware's passes, hence the loop);
 * sm_80 has no try_wait, only test_wait, which tests without suspending (PTX ISA, mbarrier), so
 * there the loop polls. Both acquire at CTA scope. */
__device__ __forceinline__ void handoff_wait(uint64_t *mb, uint32_t j)
{
    const uint32_t at = handoff_shared_address(&mb[j % 2]), parity = (j - 1) / 2 % 2;
    uint32_t complete;
    do {
#if __CUDA_ARCH__ >= 900
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(complete)
                     : "r"(at), "r"(parity)
                     : "memory");
#else
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(complete)
                     : "r"(at), "r"(parity)
                     : "memory");
#endif
    } while (!complete);
}

/* Barrier 1 among `workers` threads (whole warps): the threads left out do not wait. */
__device__ __forceinline__ void workers_sync(uint32_t workers)
{
    asm volatile("bar.sync 1, %0;" ::"r"(workers) : "memory");
}

/* The same barrier, returning whether x was true in any of them. */
__device__ __forceinline__ bool workers_or(uint32_t workers, bool x)
{
    uint32_t r;
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 q, %1, 0;\n\t"
                 "bar.red.or.pred p, 1, %2, q;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(r)
                 : "r"((uint32_t)x), "r"(workers)
                 : "memory");
    return r != 0;
}

#endif
