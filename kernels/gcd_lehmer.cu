/* Lehmer's GCD in one thread block (gcd_lehmer.h; beyond 002). Thread 0 is the
 * producer, alone on its scheduler (gcd_lehmer_block_threads): while the worker warps apply
 * step k, it plans step k + 1 (Euclid on the top 62 bits, about 16 quotients) from the top
 * words before step k and step k's matrix (gcd_lehmer_plan_ahead), so that its Euclid, the
 * longest chain of a step, overlaps the workers' work. The workers read one copy of the numbers
 * and write the other: every worker combines its chunk of words (phase 1), adds the carry of
 * the chunk below (phase 2), and the rare one-unit carries ripple on, one chunk a round, while
 * a barrier's OR finds any; those barriers leave the producer out. The producer posts each plan
 * and the workers report each step finished through mbarriers (handoff_post), with no barrier
 * of the whole block a step; a step that could not be planned ahead is planned from the
 * numbers after step k, once the workers report it. The twin, cpu_ref/gcd_lehmer_ref.c, takes
 * the same steps and runs the same phases chunk by chunk. */
#include "gcd_lehmer_kernel.h"

#include "gcd_lehmer.h"
#include "mbarrier_handoff.cuh"

#define GCD_LEHMER_BLOCK 1024

namespace {

/* Words w - 1 .. w - 6 of x as three 64-bit limbs, most significant first. */
struct top_words {
    uint64_t hi, mid, lo;
};

__device__ __forceinline__ top_words read_top(const uint32_t *x, uint32_t w)
{
    const uint32_t *t = x + w - 6;
    return {(uint64_t)t[5] << 32 | t[4], (uint64_t)t[3] << 32 | t[2], (uint64_t)t[1] << 32 | t[0]};
}

/* Bits of the top words as a 192-bit number (0 when all are 0). */
__device__ __forceinline__ uint32_t top_bits(top_words v)
{
    return v.hi ? 192 - __clzll((long long)v.hi)
                : v.mid ? 128 - __clzll((long long)v.mid) : v.lo ? 64 - __clzll((long long)v.lo) : 0;
}

/* Bits [s, s + 64) of the top words (s < 192), as gcd_lehmer_window gives them. */
__device__ __forceinline__ uint64_t top_window(top_words v, uint32_t s)
{
    const uint32_t i = s / 64, r = s % 64;
    const uint64_t lo = i == 0 ? v.lo : i == 1 ? v.mid : v.hi, hi = i == 0 ? v.mid : i == 1 ? v.hi : 0;
    return r ? lo >> r | hi << (64 - r) : lo;
}

/* The producer's read after a step whose words lay below w: the six top words of both numbers
 * at once, one round of shared-memory latency where a scan for the lengths and
 * gcd_lehmer_plan's reads take several dependent rounds (about 1400 cycles a step in an
 * instrumented run). From them the lengths and gcd_lehmer_plan's inputs, so the same step;
 * false, for the array path, when the six words do not hold them (a number fell by more than
 * five words from the top of the range, or B is 0 or far below A). The gpu suite checks the
 * kernel's steps against the twin's, which plans from the arrays. */
__device__ __forceinline__ bool plan_from_top(gcd_lehmer_step *st, const uint32_t *x0,
                                              const uint32_t *x1, uint32_t w, uint32_t *n0,
                                              uint32_t *n1, bool *swap)
{
    if (w < 7)
        return false;
    const top_words x = read_top(x0, w), y = read_top(x1, w);
    const uint32_t bx = top_bits(x), by = top_bits(y);
    const uint32_t top = bx > by ? bx : by;
    if (!bx || !by || top < 63)
        return false;
    const uint32_t h = top - 63;
    const uint64_t xt = top_window(x, h), yt = top_window(y, h);
    *swap = by > bx || (by == bx && yt > xt);
    const uint32_t ba = *swap ? by : bx, bb = *swap ? bx : by;
    uint32_t b_lead = 0;
    if (ba - bb >= 32) {
        if (bb < 32)
            return false;
        const uint32_t lead_x = (uint32_t)top_window(x, bb - 32),
                       lead_y = (uint32_t)top_window(y, bb - 32);
        b_lead = *swap ? lead_x : lead_y;
    }
    const uint64_t base = 32 * (uint64_t)(w - 6);
    *n0 = w - 6 + (bx + 31) / 32;
    *n1 = w - 6 + (by + 31) / 32;
    gcd_lehmer_decide(st, base + ba, base + bb, *swap ? yt : xt, *swap ? xt : yt, b_lead);
    return true;
}

/* A step as the producer posts it: the step, which array holds A (ia), A's and B's words where
 * it was planned from the numbers (na, nb), and the words it covers (w). */
struct planned {
    gcd_lehmer_step st;
    uint32_t ia, na, nb, w;
};

/* The step planned from the numbers x0, x1 after a step that covered w words: from the top
 * words when they hold it, else from the arrays. */
__device__ __forceinline__ planned plan_exact(const uint32_t *x0, const uint32_t *x1, uint32_t w)
{
    planned p;
    bool swap;
    uint32_t n0, n1;
    if (!plan_from_top(&p.st, x0, x1, w, &n0, &n1, &swap)) {
        n0 = n1 = w;
        while (n0 && !x0[n0 - 1])
            n0--;
        while (n1 && !x1[n1 - 1])
            n1--;
        gcd_lehmer_plan(&p.st, x0, n0, x1, n1, &swap);
    }
    p.ia = swap ? 1 : 0;
    p.na = swap ? n1 : n0;
    p.nb = swap ? n0 : n1;
    p.w = p.na + 1;
    return p;
}

/* The handoff between the producer and the workers (kernels/mbarrier_handoff.cuh): two
 * mbarriers a direction, used alternately. Event j of a direction (plan j posted, j >= 1; step
 * j - 1 finished) completes phase (j - 1) / 2 of barrier j % 2: the producer's arrival once
 * plan j is written, or the arrivals of all the workers once step j - 1 is finished. Every
 * worker arrives, after its last access of the step, though the thread of the top chunk alone,
 * after the workers' last barrier, orders every worker's accesses before the producer's (the
 * barrier synchronises the workers and ordering is transitive, PTX ISA 8.9.5): racecheck
 * credits an arrival with the arriving thread's own accesses only, and reported the workers'
 * reads of the plan before the producer overwrote it, and their writes of the top words before
 * the producer read them, as 11 hazards at 16 Kibit (docs/sanitizers.md;
 * experiments/racecheck_mbarrier.cu shows it on the handoff alone). The arrivals of every
 * worker cost 0.2 to 0.5 % at 128 Kibit, up to 0.2 % at 352 Kibit and nothing beyond the noise
 * at 16 Kibit (docs/sanitizers.md). A wait names its phase by parity, so it must never fall two
 * phases behind its barrier, four events of its direction: the producer posts plan j + 2 only
 * after step j finished, so after every worker waited for plan j, and the workers finish step
 * j + 1 only after plan j + 1, which the producer posts after it waited for the end of step
 * j - 1. Where the handoff was two counters in shared memory, read in loops with sleeps of
 * 8 and 16 ns, 10 pairs took 12.03, 13.30 and 34.66 ms at 160, 176 and 352 Kibit, against
 * 11.93, 13.19 and 34.07 with one mbarrier a direction (an H100, one run; at 16 and 128 Kibit
 * within 1 % of each other). */

/* The copy of both numbers (A and B, or B and A, cap words each) that step i reads: step i
 * writes the other, which step i + 1 reads. */
__device__ __forceinline__ uint32_t *copy_before(uint32_t *base, uint32_t cap, uint32_t i)
{
    return base + 2 * (i % 2) * cap;
}

template <bool Shared>
__global__ void __launch_bounds__(GCD_LEHMER_BLOCK) gcd_lehmer_kernel(const gcd_lehmer_params p)
{
    extern __shared__ uint32_t numbers[];
    __shared__ int64_t s_ca[GCD_LEHMER_BLOCK], s_cb[GCD_LEHMER_BLOCK];
    __shared__ int32_t s_ea[GCD_LEHMER_BLOCK], s_eb[GCD_LEHMER_BLOCK];
    __shared__ planned s_plan[2];
    __shared__ uint32_t s_posted, s_z, s_broken;
    __shared__ uint64_t s_posted_mb[2], s_done_mb[2];
    __shared__ uint64_t s_ripple_rounds, s_negations;
    __shared__ int64_t s_sign_a;
    const uint32_t t = threadIdx.x, k = p.chunk, warp = t / 32, warps = blockDim.x / 32;
    const uint32_t workers = 32 * (warps - 1 - (warps - 1) / 4);
    /* A worker's rank: the warps before it that work, and its lane (gcd_lehmer_block_threads). */
    const bool worker = warp % 4 != 0;
    const uint32_t tw = 32 * (warp - 1 - warp / 4) + t % 32, lo = tw * k;
    /* Two copies of both numbers: step i reads copy i % 2 and writes the other, so that the
     * producer can read the numbers before step i while the workers write them after it. */
    uint32_t *const base = Shared ? numbers : p.work;
    for (uint32_t j = t; j < p.cap; j += blockDim.x) {
        base[j] = j < p.nu ? p.u[j] : 0;
        base[p.cap + j] = j < p.nv ? p.v[j] : 0;
        base[2 * p.cap + j] = base[3 * p.cap + j] = 0;
    }
    gcd_lehmer_stats stats = {};
    if (t == 0) {
        s_broken = 0;
        s_ripple_rounds = s_negations = 0;
        s_posted = 1;
        for (int j = 0; j < 2; j++) {
            mbarrier_init(&s_posted_mb[j], 1);
            mbarrier_init(&s_done_mb[j], workers);
        }
    }
    __syncthreads();
    if (t == 0)
        s_plan[0] = plan_exact(base, base + p.cap, p.nu + 1);
    __syncthreads();
    /* Steps i = 0, 1, ...: plan i is in s_plan[i % 2] (plan 0 from here, plan i >= 1 once event
     * i of s_posted_mb), and the workers have finished step i at event i + 1 of s_done_mb. The
     * producer overwrites plan i - 1 only after step i - 1 is finished, and the workers overwrite
     * the numbers before step i only after plan i + 1, which the producer planned from them, is
     * posted. No barrier of the whole block a step. */
    if (t == 0) {
        planned pl = s_plan[0];
        uint32_t done = 0; /* steps the producer saw finished */
        for (uint32_t i = 0;; i++) {
            const gcd_lehmer_step &st = pl.st;
            if (st.kind == GCD_LEHMER_DONE)
                break;
            stats.steps++;
            stats.pairs += st.kind == GCD_LEHMER_PAIR;
            stats.shifts += st.kind == GCD_LEHMER_SHIFT;
            stats.ones += st.kind == GCD_LEHMER_ONE;
            stats.quotients += st.quotients;
            uint32_t *const src = copy_before(base, p.cap, i);
            uint32_t *const dst = copy_before(base, p.cap, i + 1);
            /* The numbers before step i, whole once step i - 1 is finished. */
            for (; done < i; done++)
                handoff_wait(s_done_mb, done + 1);
            /* Step i + 1 from the top words before step i and step i's matrix. */
            planned next = {};
            gcd_lehmer_plan_next(&next.st, &next.ia, &next.w, &st, pl.ia == 1,
                                 src + pl.ia * p.cap, src + (pl.ia ^ 1) * p.cap, pl.w);
            if (next.st.kind == GCD_LEHMER_EXACT) {
                /* Not planned ahead: from the numbers after step i. */
                for (; done < i + 1; done++)
                    handoff_wait(s_done_mb, done + 1);
                next = plan_exact(dst, dst + p.cap, pl.w);
            } else {
                stats.ahead++;
            }
            /* A step that broke the bounds ends the reduction: the workers stop at a DONE. Read
             * here, off the chain that waits for the workers and reads the numbers: a step i
             * that broke them is seen in iteration i + 1 at the latest. */
            if (s_broken)
                next.st.kind = GCD_LEHMER_DONE;
            s_plan[(i + 1) % 2] = next;
            s_posted = i + 2;
            handoff_post(s_posted_mb, i + 1);
            pl = next;
        }
    } else if (worker) {
        for (uint32_t i = 0;; i++) {
            if (i > 0)
                handoff_wait(s_posted_mb, i);
            const planned pl = s_plan[i % 2];
            const gcd_lehmer_step &st = pl.st;
            if (st.kind == GCD_LEHMER_DONE)
                break;
            /* Step i on the words [0, w), from src into dst. The chunk [lo, hi) is this
             * thread's when lo < w; `top`, when it holds word w - 1. */
            uint32_t *const src = copy_before(base, p.cap, i);
            uint32_t *const dst = copy_before(base, p.cap, i + 1);
            const uint32_t *const a = src + pl.ia * p.cap, *const b = src + (pl.ia ^ 1) * p.cap;
            uint32_t *const da = dst + pl.ia * p.cap, *const db = dst + (pl.ia ^ 1) * p.cap;
            const uint32_t w = pl.w, hi = lo + k < w ? lo + k : w;
            const bool mine = lo < w, top = mine && hi == w;
            int64_t ca = 0, cb = 0;
            if (mine) {
                gcd_lehmer_chunk_combine(&st, a, b, da, db, pl.nb, lo, hi, &ca, &cb);
                s_ca[tw] = ca;
                s_cb[tw] = cb;
            }
            workers_sync(workers);
            int64_t ea = 0, eb = 0;
            if (mine && tw > 0) {
                ea = s_ca[tw - 1];
                eb = s_cb[tw - 1];
                gcd_lehmer_chunk_carry_both(da, db, lo, hi, &ea, &eb);
            }
            /* The signs of the new numbers, what is left past word w - 1: the top chunk's
             * thread keeps them in registers. */
            int64_t sign_a = ca + ea, sign_b = cb + eb;
            bool pending = mine && !top && (ea || eb);
            while (workers_or(workers, pending)) {
                if (tw == 0)
                    s_ripple_rounds++;
                s_ea[tw] = (int32_t)ea;
                s_eb[tw] = (int32_t)eb;
                workers_sync(workers);
                ea = eb = 0;
                if (mine && tw > 0) {
                    ea = s_ea[tw - 1];
                    eb = s_eb[tw - 1];
                    gcd_lehmer_chunk_carry_both(da, db, lo, hi, &ea, &eb);
                }
                sign_a += ea;
                sign_b += eb;
                pending = mine && !top && (ea || eb);
            }
            if (top) {
                s_sign_a = sign_a;
                if (sign_b != 0 || sign_a > 0 || (sign_a < 0 && st.kind != GCD_LEHMER_ONE))
                    s_broken = 1;
            }
            if (st.kind == GCD_LEHMER_ONE) {
                workers_sync(workers);
                if (s_sign_a < 0) {
                    /* A - q B < 0: negate it, the lowest nonzero word first found. */
                    if (tw == 0)
                        s_z = w;
                    workers_sync(workers);
                    if (mine) {
                        const uint32_t z = gcd_lehmer_chunk_lowest(da, lo, hi, w);
                        if (z < w)
                            atomicMin(&s_z, z);
                    }
                    workers_sync(workers);
                    if (mine)
                        gcd_lehmer_chunk_negate(da, lo, hi, s_z);
                    if (tw == 0)
                        s_negations++;
                    workers_sync(workers);
                }
            }
            /* This thread's accesses of step i are over (the handoff's comment says why every
             * worker reports them). */
            handoff_post(s_done_mb, i + 1);
        }
    }
    __syncthreads();
    /* The last plan posted is DONE (or follows a broken step): the numbers before it are whole. */
    const uint32_t last = s_posted - 1;
    const planned pl = s_plan[last % 2];
    const uint32_t *const a = copy_before(base, p.cap, last) + pl.ia * p.cap;
    const bool words = !s_broken && gcd_lehmer_bit_length(a, pl.na) > 64;
    if (t == 0) {
        if (s_broken) {
            p.result->out_words = 0;
        } else if (!words) {
            p.out[0] = (uint32_t)pl.st.small;
            p.out[1] = (uint32_t)(pl.st.small >> 32);
            p.result->out_words = 2;
        } else {
            p.result->out_words = pl.na;
        }
        stats.ripple_rounds = s_ripple_rounds;
        stats.negations = s_negations;
        p.result->stats = stats;
        p.result->broken = s_broken;
    }
    if (words)
        for (uint32_t j = t; j < pl.na; j += blockDim.x)
            p.out[j] = a[j];
}

__global__ void gcd_lehmer_divide_kernel(const uint64_t *a, const uint64_t *b, uint64_t *q,
                                         uint64_t *r, size_t n)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        q[i] = gcd_lehmer_divide(a[i], b[i], &r[i]);
}

} // namespace

extern "C" cudaError_t gcd_lehmer_shared_room(size_t *bytes)
{
    int dev = 0, optin = 0;
    cudaFuncAttributes attr;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (err == cudaSuccess)
        err = cudaFuncGetAttributes(&attr, gcd_lehmer_kernel<true>);
    if (err == cudaSuccess)
        *bytes = (size_t)optin > attr.sharedSizeBytes ? (size_t)optin - attr.sharedSizeBytes : 0;
    return err;
}

extern "C" cudaError_t gcd_lehmer_launch(const gcd_lehmer_params *p, uint32_t threads,
                                         cudaStream_t stream, int *in_shared)
{
    size_t room = 0;
    cudaError_t err = gcd_lehmer_shared_room(&room);
    if (err != cudaSuccess)
        return err;
    const size_t bytes = 4 * (size_t)p->cap * sizeof(uint32_t);
    const uint32_t block = gcd_lehmer_block_threads(threads);
    *in_shared = bytes <= room;
    if (*in_shared) {
        err = cudaFuncSetAttribute(gcd_lehmer_kernel<true>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
        if (err != cudaSuccess)
            return err;
        gcd_lehmer_kernel<true><<<1, block, bytes, stream>>>(*p);
    } else {
        gcd_lehmer_kernel<false><<<1, block, 0, stream>>>(*p);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t gcd_lehmer_divisions(const uint64_t *a, const uint64_t *b, uint64_t *q,
                                            uint64_t *r, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    gcd_lehmer_divide_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, q, r, n);
    return cudaGetLastError();
}
