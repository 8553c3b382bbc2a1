/* Lehmer's GCD in one thread block (cpu_ref/gcd_lehmer.h; beyond 002). Thread 0 is the
 * producer: it reads the tops of both numbers, decides the step (gcd_lehmer_plan: Euclid on the
 * top 63 bits, about 17 quotients) and posts it; then every thread combines its chunk of words
 * (phase 1), adds the carry of the chunk below (phase 2), and the rare one-unit carries ripple
 * on, one chunk a round, while __syncthreads_or finds any. Three barriers a step. The twin,
 * cpu_ref/gcd_lehmer_ref.c, runs the same phases chunk by chunk. */
#include "gcd_lehmer_kernel.h"

#include "gcd_lehmer.h"

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

template <bool Shared>
__global__ void __launch_bounds__(GCD_LEHMER_BLOCK) gcd_lehmer_kernel(const gcd_lehmer_params p)
{
    extern __shared__ uint32_t numbers[];
    __shared__ int64_t s_ca[GCD_LEHMER_BLOCK], s_cb[GCD_LEHMER_BLOCK];
    __shared__ int32_t s_ea[GCD_LEHMER_BLOCK], s_eb[GCD_LEHMER_BLOCK];
    __shared__ gcd_lehmer_step s_step;
    __shared__ uint32_t s_ia, s_na, s_w, s_nb, s_z, s_broken;
    __shared__ int64_t s_sign_a, s_sign_b;
    const uint32_t t = threadIdx.x, k = p.chunk;
    uint32_t *const x0 = Shared ? numbers : p.work, *const x1 = x0 + p.cap;
    for (uint32_t j = t; j < p.cap; j += blockDim.x) {
        x0[j] = j < p.nu ? p.u[j] : 0;
        x1[j] = j < p.nv ? p.v[j] : 0;
    }
    /* The producer's own state: the lengths in words (or 0 in w_prev, the words the last step
     * wrote, when they are to be read), and what the launch reports. */
    uint32_t n0 = p.nu, n1 = p.nv, w_prev = 0;
    gcd_lehmer_stats stats = {};
    if (t == 0)
        s_broken = 0;
    __syncthreads();
    for (;;) {
        if (t == 0) {
            gcd_lehmer_step st;
            bool swap;
            if (!w_prev || !plan_from_top(&st, x0, x1, w_prev, &n0, &n1, &swap)) {
                if (w_prev) {
                    n0 = n1 = w_prev;
                    while (n0 && !x0[n0 - 1])
                        n0--;
                    while (n1 && !x1[n1 - 1])
                        n1--;
                }
                gcd_lehmer_plan(&st, x0, n0, x1, n1, &swap);
            }
            if (s_broken)
                st.kind = GCD_LEHMER_DONE;
            const uint32_t ia = swap ? 1 : 0;
            s_step = st;
            s_ia = ia;
            s_na = swap ? n1 : n0;
            s_w = s_na + 1;
            s_nb = swap ? n0 : n1;
            s_z = s_w;
            if (st.kind != GCD_LEHMER_DONE) {
                stats.steps++;
                stats.pairs += st.kind == GCD_LEHMER_PAIR;
                stats.shifts += st.kind == GCD_LEHMER_SHIFT;
                stats.ones += st.kind == GCD_LEHMER_ONE;
                stats.quotients += st.quotients;
            }
        }
        __syncthreads();
        const gcd_lehmer_step st = s_step;
        const uint32_t ia = s_ia, w = s_w, chunks = (w + k - 1) / k;
        uint32_t *a = ia ? x1 : x0, *b = ia ? x0 : x1;
        if (st.kind == GCD_LEHMER_DONE) {
            const uint32_t na = s_na;
            const bool words = gcd_lehmer_bit_length(a, na) > 64;
            if (t == 0) {
                if (!words) {
                    p.out[0] = (uint32_t)st.small;
                    p.out[1] = (uint32_t)(st.small >> 32);
                    p.result->out_words = 2;
                } else {
                    p.result->out_words = na;
                }
                p.result->stats = stats;
                p.result->broken = s_broken;
            }
            if (words)
                for (uint32_t j = t; j < na; j += blockDim.x)
                    p.out[j] = a[j];
            return;
        }
        const uint32_t lo = t * k, hi = lo + k < w ? lo + k : w;
        const bool mine = t < chunks, pair = st.kind == GCD_LEHMER_PAIR;
        int64_t ca = 0, cb = 0;
        if (mine) {
            gcd_lehmer_chunk_combine(&st, a, b, s_nb, lo, hi, &ca, &cb);
            s_ca[t] = ca;
            s_cb[t] = cb;
        }
        __syncthreads();
        int32_t ea = 0, eb = 0;
        if (mine && t > 0) {
            ea = (int32_t)gcd_lehmer_chunk_carry(a, lo, hi, s_ca[t - 1]);
            if (pair)
                eb = (int32_t)gcd_lehmer_chunk_carry(b, lo, hi, s_cb[t - 1]);
        }
        if (t == chunks - 1) {
            s_sign_a = ca + ea;
            s_sign_b = cb + eb;
        }
        bool pending = t + 1 < chunks && (ea || eb);
        while (__syncthreads_or(pending)) {
            stats.ripple_rounds++;
            s_ea[t] = ea;
            s_eb[t] = eb;
            __syncthreads();
            ea = eb = 0;
            if (mine && t > 0) {
                ea = (int32_t)gcd_lehmer_chunk_carry(a, lo, hi, s_ea[t - 1]);
                eb = (int32_t)gcd_lehmer_chunk_carry(b, lo, hi, s_eb[t - 1]);
            }
            if (t == chunks - 1) {
                s_sign_a += ea;
                s_sign_b += eb;
            }
            pending = t + 1 < chunks && (ea || eb);
        }
        if (st.kind == GCD_LEHMER_ONE && s_sign_a < 0) {
            /* A - q B < 0: negate it, the lowest nonzero word first found. */
            if (mine) {
                const uint32_t z = gcd_lehmer_chunk_lowest(a, lo, hi, w);
                if (z < w)
                    atomicMin(&s_z, z);
            }
            __syncthreads();
            if (mine)
                gcd_lehmer_chunk_negate(a, lo, hi, s_z);
            stats.negations++;
            __syncthreads();
        }
        if (t == 0) {
            if (s_sign_b != 0 || s_sign_a > 0 || (s_sign_a < 0 && st.kind != GCD_LEHMER_ONE))
                s_broken = 1;
            w_prev = w;
        }
    }
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
    const size_t bytes = 2 * (size_t)p->cap * sizeof(uint32_t);
    *in_shared = bytes <= room;
    if (*in_shared) {
        err = cudaFuncSetAttribute(gcd_lehmer_kernel<true>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
        if (err != cudaSuccess)
            return err;
        gcd_lehmer_kernel<true><<<1, threads, bytes, stream>>>(*p);
    } else {
        gcd_lehmer_kernel<false><<<1, threads, 0, stream>>>(*p);
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
