/* The k-ary modular GCD on one GPU (beyond 002; kernels/gcd_kary.h says what a step computes,
 * cpu_ref/gcd_kary_ref.c is its sequential twin): one persistent kernel per attempt, with no
 * grid barrier in the reduction loop.
 *
 * Who does what. Warp w holds the 32 K moduli w 32 K .. (w + 1) 32 K - 1, K a lane (modulus i
 * on lane i mod 32), with S A, S B and S mod q in registers. The pivots are taken in index
 * order, so the warp that holds the next pivot is the producer: it finds the step from its
 * pivots' residues (an inverse by Fermat's power and a half-extended Euclid, in the pivots' two
 * lanes at once), posts it to a log in device memory and applies it itself. Every other warp is
 * a consumer: it waits for the posted steps and applies them in order, and becomes the
 * producer when the next pivot is its own and it has caught up. A step's latency is therefore
 * the producer's chain alone (apply, inverse, Euclid, post), not a grid barrier; the consumers'
 * updates (twelve Montgomery products a modulus for a two-pivot step, no inverse) overlap it.
 *
 * A zero check (gcd_kary.h) is the one place where the producer waits for every warp: each
 * answers with one atomic add that carries its count and its flags. After the last entry the
 * grid reads the result back by Fig. 2's mixed-radix recovery (002 section 4.3), with the
 * cooperative grid exchange of kernels/gcd_exchange.cuh. */
#include "gcd_kary_kernel.h"

#include "gcd_arith.cuh"
#include "gcd_exchange.cuh"

namespace gcd {
namespace kary {

using ack_word = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

/* A zero check's answer: one warp, and whether it holds a live a != 0, b != 0. */
constexpr unsigned ACK_SHIFT_A = 20, ACK_SHIFT_B = 40;
constexpr unsigned long long ACK_COUNT = (1ull << ACK_SHIFT_A) - 1;

/* a b R^-1 mod q for a, b < q (R = 2^32) with qinv = q^-1 mod R: m = t qinv makes the low words of
 * t and m q equal, so t - m q = (t_hi - (m q)_hi) R exactly, in (-q R, q R). All 32-bit after the
 * first product: one dependent chain of five instructions, where gcd_arith.cuh's montmul (the
 * Fig. 2 kernel's, -q^-1) adds and compares in 64 bits; the Fermat chain below is 32 of them on
 * the critical path of every step. The same value as montmul. */
__device__ __forceinline__ uint32_t mont(uint32_t a, uint32_t b, uint32_t q, uint32_t qinv)
{
    const uint64_t t = (uint64_t)a * b;
    const uint32_t hi = (uint32_t)(t >> 32), mh = __umulhi((uint32_t)t * qinv, q);
    return hi - mh + (hi < mh ? q : 0);
}

/* a^-1 R^2 mod q for a in [1, q - 1] by a^(q-2) (cpu_ref/gcd_fermat.h's chain, with mont). */
__device__ __forceinline__ uint32_t fermat(uint32_t a, uint32_t q, uint32_t qinv, uint32_t rq)
{
    return fermat_power(a, q, rq, [=](uint32_t x, uint32_t y) { return mont(x, y, q, qinv); });
}

/* One modulus: q, q^-1 mod R, R, R^2 and R^3 mod q, and the residues of S A, S B and S, all in
 * [0, q). */
struct slot {
    uint32_t q, qinv, rq, r2, r3, a, b, s;
};

/* x mod q for |x| < 2q (the vectors: |x| <= max(p/2, 2^tb) <= 2^L, |y| <= p, p < 2q). */
__device__ __forceinline__ uint32_t mod_small(int64_t x, uint32_t q)
{
    x += x < 0 ? (int64_t)q : 0;
    x += x < 0 ? (int64_t)q : 0;
    x -= x >= (int64_t)q ? (int64_t)q : 0;
    return (uint32_t)x;
}

/* (y a - x b) R^-1 mod q. */
__device__ __forceinline__ uint32_t combine(int64_t x, int64_t y, const slot &s)
{
    return submod(mont(mod_small(y, s.q), s.a, s.q, s.qinv),
                  mont(mod_small(x, s.q), s.b, s.q, s.qinv), s.q);
}

/* A step on one modulus (gcd_kary_ref.h's table) in Montgomery products: with P = p mod q,
 * mont(P, R^2) = P R and mont(P, R^3) = P R^2, so mont(c R^-1, P R^2) = c P and
 * mont(x, P R) = x P. Slots that are dead (consumed pivots, the tail past n) compute
 * harmless values that nothing reads. */
__device__ __forceinline__ void apply(const gcd_kary_step &st, uint32_t p1, uint32_t p2, slot &s)
{
    const uint32_t q = s.q, qi = s.qinv;
    const uint32_t P1 = modulus_mod(p1, q), P1R = mont(P1, s.r2, q, qi);
    switch (st.kind) {
    case GCD_KARY_PAIR: {
        const uint32_t P2 = modulus_mod(p2, q);
        const uint32_t c1 = combine(st.x1, st.y1, s), c2 = combine(st.x2, st.y2, s);
        s.a = mont(c1, mont(P2, s.r3, q, qi), q, qi);
        s.b = mont(c2, mont(P1, s.r3, q, qi), q, qi);
        s.s = mont(mont(s.s, P1R, q, qi), mont(P2, s.r2, q, qi), q, qi);
        break;
    }
    case GCD_KARY_REPLACE_A: {
        const uint32_t c = combine(st.x1, st.y1, s);
        s.a = mont(c, s.r2, q, qi);
        s.b = mont(s.b, P1R, q, qi);
        s.s = mont(s.s, P1R, q, qi);
        break;
    }
    case GCD_KARY_REPLACE_B: {
        const uint32_t c = combine(st.x1, st.y1, s);
        s.b = mont(c, s.r2, q, qi);
        s.a = mont(s.a, P1R, q, qi);
        s.s = mont(s.s, P1R, q, qi);
        break;
    }
    case GCD_KARY_COMMON:
        s.s = mont(s.s, P1R, q, qi);
        break;
    default:
        break;
    }
}

__device__ __forceinline__ bool final_kind(int32_t k)
{
    return k == GCD_KARY_DONE_A || k == GCD_KARY_DONE_B || k == GCD_KARY_SHORT;
}

/* The pivot of `lane` (x, y and the bound fit 32 bits). */
__device__ __forceinline__ gcd_kary_pivot shfl_pivot(const gcd_kary_pivot &pv, unsigned lane)
{
    return gcd_kary_pivot{__shfl_sync(FULL_WARP, pv.p, (int)lane),
                          __shfl_sync(FULL_WARP, pv.a, (int)lane),
                          __shfl_sync(FULL_WARP, pv.b, (int)lane),
                          __shfl_sync(FULL_WARP, (int32_t)pv.x, (int)lane),
                          __shfl_sync(FULL_WARP, (int32_t)pv.y, (int)lane),
                          __shfl_sync(FULL_WARP, (int32_t)pv.bound, (int)lane)};
}

/* A log entry in 16 bytes, (x1, y1, x2, w): w is y2 for PAIR, else INT32_MIN + kind. Every
 * field fits: |x| <= p/2 or x < 2^tb <= 2^(L-1), |y| <= p/2, and a PAIR's |y2| < 2^30 (its stop
 * bits are at least 2), below every INT32_MIN + kind. An entry not yet written holds EMPTY in
 * all four words, a value no field takes. The producer writes the four words with one vector
 * store, a consumer reads them with one vector load and takes the entry only when no word is
 * EMPTY: each word is written once, so four written words are the entry, whatever order they
 * became visible in. No fence, no head counter: a step costs the producer one store. */
constexpr int32_t EMPTY = INT32_MIN;

__device__ __forceinline__ void post(int32_t *log, uint32_t e, const gcd_kary_step &st)
{
    if (threadIdx.x % 32 == 0) {
        const int32_t w = st.kind == GCD_KARY_PAIR ? (int32_t)st.y2 : EMPTY + st.kind;
        asm volatile("st.relaxed.gpu.global.v4.s32 [%0], {%1, %2, %3, %4};" ::"l"(log + 4 * (size_t)e),
                     "r"((int32_t)st.x1), "r"((int32_t)st.y1), "r"((int32_t)st.x2), "r"(w)
                     : "memory");
    }
}

/* Entry e, waited for by lane 0 and shared with the warp; the bounds after it are the caller's
 * (gcd_kary_advance). */
__device__ __forceinline__ gcd_kary_step read_entry(const int32_t *log, uint32_t e)
{
    int32_t x1 = 0, y1 = 0, x2 = 0, w = 0;
    if (threadIdx.x % 32 == 0) {
        for (;;) {
            asm volatile("ld.relaxed.gpu.global.v4.s32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(x1), "=r"(y1), "=r"(x2), "=r"(w)
                         : "l"(log + 4 * (size_t)e)
                         : "memory");
            if (x1 != EMPTY && y1 != EMPTY && x2 != EMPTY && w != EMPTY)
                break;
            __nanosleep(32);
        }
    }
    x1 = __shfl_sync(FULL_WARP, x1, 0);
    y1 = __shfl_sync(FULL_WARP, y1, 0);
    x2 = __shfl_sync(FULL_WARP, x2, 0);
    w = __shfl_sync(FULL_WARP, w, 0);
    gcd_kary_step st;
    st.kind = w < -(1 << 30) ? w - EMPTY : GCD_KARY_PAIR;
    st.pivots = st.kind == GCD_KARY_PAIR ? 2
                : st.kind == GCD_KARY_REPLACE_A || st.kind == GCD_KARY_REPLACE_B ||
                          st.kind == GCD_KARY_COMMON
                    ? 1
                    : 0;
    st.x1 = x1;
    st.y1 = y1;
    st.x2 = x2;
    st.y2 = st.kind == GCD_KARY_PAIR ? w : 0;
    return st;
}

/* A zero check's answer of this warp: whether any live modulus has a != 0, b != 0. */
template <unsigned K>
__device__ __forceinline__ void answer_check(const gcd_kary_params &p, uint32_t e,
                                             const slot (&s)[K], uint32_t first, uint32_t next)
{
    bool any_a = false, any_b = false;
#pragma unroll
    for (unsigned j = 0; j < K; j++) {
        const uint32_t i = first + 32 * j;
        const bool live = i >= next && i < p.n;
        any_a |= live && s[j].a != 0;
        any_b |= live && s[j].b != 0;
    }
    any_a = __any_sync(FULL_WARP, any_a);
    any_b = __any_sync(FULL_WARP, any_b);
    if (threadIdx.x % 32 == 0)
        ack_word(p.acks[e]).fetch_add(1ull | (unsigned long long)any_a << ACK_SHIFT_A |
                                          (unsigned long long)any_b << ACK_SHIFT_B,
                                      cuda::memory_order_relaxed);
}

/* Blocks of up to 512 threads for one or two moduli a thread, fewer for more (registers). */
constexpr unsigned max_block(unsigned k)
{
    return k <= 2 ? 512 : k == 4 ? 256 : 128;
}

template <unsigned K>
__global__ void __launch_bounds__(max_block(K)) kary_kernel(const gcd_kary_params p)
{
    __shared__ unsigned long long warp_buf[32];
    __shared__ unsigned long long exchange_words[2];
    constexpr uint32_t G = 32 * K;
    const uint32_t lane = threadIdx.x % 32;
    const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const uint32_t warps = gridDim.x * blockDim.x / 32;
    const uint32_t base = warp * G, first = base + lane;
    const bool cheap = p.cheap != 0;

    /* The moduli, their constants and the residues of U and V (002 section 3.1's fast
     * remainder, by Horner from the top word as gcd_residue_words). */
    slot s[K];
    uint64_t ru[K], rv[K];
#pragma unroll
    for (unsigned j = 0; j < K; j++) {
        const uint32_t i = first + 32 * j;
        const uint32_t q = __ldg(p.q + (i < p.n ? i : p.n - 1));
        s[j].q = q;
        s[j].qinv = 0u - mont_qinv(q);
        ru[j] = rv[j] = 0;
    }
    for (uint32_t w = p.uw_n; w-- > 0;) {
        const uint32_t uw = __ldg(p.uw + w), vw = w < p.vw_n ? __ldg(p.vw + w) : 0;
#pragma unroll
        for (unsigned j = 0; j < K; j++) {
            const modulus md{s[j].q, multiplier(s[j].q, p.L, cheap), p.L, cheap, false};
            ru[j] = rem(ru[j] << 32 | uw, md);
            rv[j] = rem(rv[j] << 32 | vw, md);
        }
    }
#pragma unroll
    for (unsigned j = 0; j < K; j++) {
        const modulus md{s[j].q, multiplier(s[j].q, p.L, cheap), p.L, cheap, false};
        s[j].a = (uint32_t)ru[j];
        s[j].b = (uint32_t)rv[j];
        s[j].s = 1;
        s[j].rq = rem(1ull << 32, md);
        s[j].r2 = rem((uint64_t)s[j].rq * s[j].rq, md);
        s[j].r3 = mont(s[j].r2, s[j].r2, s[j].q, s[j].qinv);
    }

    /* The reduction loop: apply the log in order; produce when the next pivot is ours. */
    uint32_t next = 0, e = 0, commons = 0;
    uint64_t steps = 0;
    int64_t alpha = p.alpha, beta = p.beta;
    gcd_kary_step st;
    for (;;) {
        uint32_t p1, p2; /* the step's pivots (p2 read only by a PAIR) */
        if (next >= base && next < base + G && next < p.n) {
            const uint32_t i1 = next, i2 = next + 1;
            const bool two = i2 < p.n && i2 % G != 0;
            const uint32_t lane1 = i1 % 32, lane2 = i2 % 32;
            const uint32_t j = (lane == lane2 && two ? i2 - base : i1 - base) / 32;
            /* t = a/b by Fermat's power (in every lane: no divergent branch around the chain),
             * then in both pivots' lanes at once the vector and its bound (x and y fit 32 bits,
             * see post). */
            slot v = s[0];
#pragma unroll
            for (unsigned k = 1; k < K; k++)
                if (k == j)
                    v = s[k];
            gcd_kary_pivot pv{v.q, v.a, v.b, 0, 0, 0};
            const uint32_t h = fermat(v.b ? v.b : 1, v.q, v.qinv, v.rq);
            const uint32_t t = mont(mont(v.a, 1, v.q, v.qinv), h, v.q, v.qinv);
            if (lane == lane1 || (two && lane == lane2))
                gcd_kary_pivot_vector(&pv, t, alpha, beta, p.L);
            const gcd_kary_pivot pv1 = shfl_pivot(pv, lane1), pv2 = shfl_pivot(pv, lane2);
            p1 = pv1.p;
            p2 = pv2.p;
            const int64_t left = (int64_t)(p.n - next);
            gcd_kary_decide(&st, &pv1, &pv2, two, alpha, beta, p.L, left, false);
            if (st.kind == GCD_KARY_CHECK) {
                post(p.log, e, st);
                answer_check(p, e, s, first, next);
                unsigned long long got = 0;
                if (lane == 0)
                    while (((got = ack_word(p.acks[e]).load(cuda::memory_order_acquire)) &
                            ACK_COUNT) < warps)
                        ;
                got = __shfl_sync(FULL_WARP, got, 0);
                const bool any_a = (got >> ACK_SHIFT_A & ACK_COUNT) != 0,
                           any_b = (got >> ACK_SHIFT_B) != 0;
                e++;
                if (any_a && any_b)
                    gcd_kary_decide(&st, &pv1, &pv2, two, alpha, beta, p.L, left, true);
                else
                    gcd_kary_finish(&st, any_a, alpha, beta, p.L, left);
            }
            post(p.log, e, st);
            if (st.kind == GCD_KARY_COMMON && lane == 0)
                p.common[commons] = __ldg(p.q + next);
            if (final_kind(st.kind)) {
                if (lane == 0)
                    *p.result = gcd_kary_result{e + 1ull, steps, next, 0, st.kind, commons};
                break;
            }
        } else {
            /* issued before the wait, which hides their latency */
            p1 = __ldg(p.q + next);
            p2 = __ldg(p.q + (next + 1 < p.n ? next + 1 : next));
            st = read_entry(p.log, e);
            if (st.kind == GCD_KARY_CHECK) {
                answer_check(p, e, s, first, next);
                e++;
                continue;
            }
            if (final_kind(st.kind))
                break;
            st.alpha = alpha;
            st.beta = beta;
            gcd_kary_advance(&st, &st.alpha, &st.beta, p.L);
        }
#pragma unroll
        for (unsigned j = 0; j < K; j++)
            apply(st, p1, p2, s[j]);
        commons += st.kind == GCD_KARY_COMMON;
        next += (uint32_t)st.pivots;
        alpha = st.alpha;
        beta = st.beta;
        steps++;
        e++;
    }
    if (st.kind == GCD_KARY_SHORT)
        return; /* every thread leaves here: no exchange is left waiting */

    /* The result's residues, S divided out, then Fig. 2 lines 21-28 (002 section 4.3): the
     * "choose any" of priority u != 0 is the least word (~q << 32 | u) over the grid. */
    uint32_t r[K];
    unsigned live = 0;
#pragma unroll
    for (unsigned j = 0; j < K; j++) {
        const uint32_t i = first + 32 * j;
        const uint32_t h = fermat(s[j].s, s[j].q, s[j].qinv, s[j].rq);
        const uint32_t x = st.kind == GCD_KARY_DONE_A ? s[j].a : s[j].b;
        r[j] = mont(mont(x, 1, s[j].q, s[j].qinv), h, s[j].q, s[j].qinv);
        live |= (i >= next && i < p.n ? 1u : 0u) << j;
    }
    coop_exchange x(p.slots, exchange_words);
    uint64_t digits = 0;
    for (;;) {
        unsigned long long local = KEY_INF;
#pragma unroll
        for (unsigned j = 0; j < K; j++)
            if (live >> j & 1 && r[j] != 0)
                local = umin(local, (unsigned long long)~s[j].q << 32 | r[j]);
        const unsigned long long chosen = x.gather(block_min_thread0(local, warp_buf));
        if (chosen == KEY_INF)
            break;
        const gcd_digit dk = record_digit(chosen, p.digit_p, p.digit_g, digits);
        const uint32_t pk = dk.p;
        const int32_t gk = dk.g;
        digits++;
#pragma unroll
        for (unsigned j = 0; j < K; j++) {
            const uint32_t q = s[j].q, a = modulus_mod(pk, q);
            const uint32_t h = fermat(a ? a : 1, q, s[j].qinv, s[j].rq);
            const uint32_t u = submod(r[j], symmetric_mod(gk, q), q);
            r[j] = mont(mont(u, 1, q, s[j].qinv), h, q, s[j].qinv);
            if (q == pk)
                live &= ~(1u << j);
        }
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        p.result->digits = digits;
}

const void *kernel_of(unsigned shape)
{
    switch (shape) {
    case 0:
        return (const void *)kary_kernel<1>;
    case 1:
        return (const void *)kary_kernel<2>;
    case 2:
        return (const void *)kary_kernel<4>;
    default:
        return (const void *)kary_kernel<8>;
    }
}

} // namespace kary
} // namespace gcd

const struct gcd_kary_shape gcd_kary_shapes[GCD_KARY_SHAPES] = {
    {1, gcd::kary::max_block(1)}, {2, gcd::kary::max_block(2)}, {4, gcd::kary::max_block(4)},
    {8, gcd::kary::max_block(8)}};

extern "C" cudaError_t gcd_kary_max_grid(unsigned shape, unsigned block, unsigned *max_grid)
{
    *max_grid = 0;
    int dev, sms, per_sm = 0;
    cudaError_t err;
    if ((err = cudaGetDevice(&dev)) != cudaSuccess ||
        (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
        (err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gcd::kary::kernel_of(shape),
                                                             (int)block, 0)) != cudaSuccess)
        return err;
    *max_grid = (unsigned)(per_sm * sms);
    return cudaSuccess;
}

/* Every word of the log EMPTY (read_entry). */
__global__ void clear_log(int32_t *log, size_t words)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
         i += (size_t)gridDim.x * blockDim.x)
        log[i] = gcd::kary::EMPTY;
}

extern "C" cudaError_t gcd_kary_clear_log(int32_t *log, size_t entries, cudaStream_t stream)
{
    clear_log<<<64, 256, 0, stream>>>(log, 4 * entries);
    return cudaGetLastError();
}

__global__ void vectors(const uint32_t *p, const uint32_t *t, const int32_t *tb, int64_t *x,
                        int64_t *y, size_t n)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        gcd_kary_vector(p[i], t[i], tb[i], x + i, y + i);
}

extern "C" cudaError_t gcd_kary_vectors(const uint32_t *p, const uint32_t *t, const int32_t *tb,
                                        int64_t *x, int64_t *y, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    vectors<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(p, t, tb, x, y, n);
    return cudaGetLastError();
}

extern "C" cudaError_t gcd_kary_launch(unsigned shape, const struct gcd_kary_params *p,
                                       unsigned grid, unsigned block, cudaStream_t stream)
{
    void *args[] = {(void *)p};
    return cudaLaunchCooperativeKernel(gcd::kary::kernel_of(shape), dim3(grid), dim3(block), args,
                                       0, stream);
}
