/* The modular integer GCD of 002 (Weber and Brew), Fig. 2, on one GPU: one persistent kernel
 * runs one attempt with N_Q moduli, step by step as the CPU twin (cpu_ref/gcd_modular_ref.c):
 * residues by the fast remainder (section 3.1), the reduction loop with the global minimum of
 * the key (section 4.2), inverses by the float-reciprocal Euclid (section 3.2), the mixed-radix
 * recovery with a global "choose any" (section 4.3). The grid-wide exchange is a template
 * parameter (gcd_exchange.cuh): cooperative groups, one cluster, or the paper's barrier.
 *
 * Every thread keeps the scalars of Fig. 2 (N_u, N_v, the proven bounds B_u, B_v, the moduli
 * left) and computes them identically, so every block leaves every loop at the same step and
 * the exchanges stay paired. */
#include "gcd_kernel.h"

#include "gcd_arith.cuh"
#include "gcd_exchange.cuh"
#include "gcd_modular_ref.h"

namespace gcd {

constexpr unsigned WARPS = GCD_BLOCK_THREADS / 32;
constexpr unsigned FULL = 0xffffffffu;

__device__ __forceinline__ unsigned long long umin(unsigned long long a, unsigned long long b)
{
    return a < b ? a : b;
}

__device__ __forceinline__ unsigned long long warp_min(unsigned long long x)
{
    for (int o = 16; o > 0; o >>= 1)
        x = umin(x, __shfl_xor_sync(FULL, x, o));
    return x;
}

/* The block's minimum, in every thread: warp shuffles, then the warps' minima through shared
 * memory (002 section 4.2). The first barrier keeps a previous call's readers from seeing this
 * call's writes. */
__device__ __forceinline__ unsigned long long block_min(unsigned long long x,
                                                        unsigned long long *warp_buf)
{
    x = warp_min(x);
    __syncthreads();
    if (threadIdx.x % 32 == 0)
        warp_buf[threadIdx.x / 32] = x;
    __syncthreads();
    return warp_min(threadIdx.x % 32 < WARPS ? warp_buf[threadIdx.x % 32] : KEY_INF);
}

/* Fig. 2 lines 9 and 19: the global minimum of the keys. The minimum is unique (each key holds
 * its modulus), so every block finds the same one. */
template <class X>
__device__ unsigned long long global_min(unsigned long long local, X &x,
                                         unsigned long long *warp_buf)
{
    x.post(block_min(local, warp_buf));
    unsigned long long g = KEY_INF;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)
        g = umin(g, x.read(i));
    g = block_min(g, warp_buf);
    x.next();
    return g;
}

/* Fig. 2 lines 22 and 27: the global "choose any" with priority to u != 0 (002 section 4.3).
 * Tie rule of the twin: the lowest index, i.e. the largest modulus. local is this thread's
 * lowest index with u != 0 (KEY_INF: none). The block posts (u << 32 | q) of its lowest such
 * index, or 1 (u = 0) when it has none. Blocks own consecutive moduli, so the lowest-numbered
 * block that posted u != 0 holds the global choice; a ballot over the posted words finds it,
 * B slots at a time, the same in every block. Returns the chosen word, 0 when every u is 0. */
template <class X>
__device__ unsigned long long global_any(const gcd_kernel_params &p, unsigned long long local,
                                         X &x, unsigned long long *warp_buf)
{
    const unsigned long long at = block_min(local, warp_buf);
    x.post(at == KEY_INF ? 1ull : (unsigned long long)p.u[at] << 32 | p.q[at]);
    unsigned long long chosen = 0;
    for (unsigned base = 0; base < gridDim.x; base += blockDim.x) {
        const unsigned i = base + threadIdx.x;
        const bool hit = i < gridDim.x && x.read(i) >> 32 != 0;
        const unsigned lanes = __ballot_sync(FULL, hit);
        const unsigned long long first =
            block_min(lanes ? base + threadIdx.x / 32 * 32 + __ffs(lanes) - 1 : KEY_INF, warp_buf);
        if (first != KEY_INF) {
            chosen = x.read((unsigned)first);
            break;
        }
    }
    x.next();
    return chosen;
}

/* Fig. 2 lines 13-14 for modulus i (the update of gcd_modular_ref.h); returns its new key. */
__device__ __forceinline__ unsigned long long reduce(const gcd_kernel_params &p, uint32_t i,
                                                     const modulus &md, uint32_t pm, int64_t b)
{
    const uint32_t q = md.q, pq = modulus_mod(pm, q), v_old = p.v[i];
    const uint32_t w = submod(p.u[i], mulmod(symmetric_mod(b, q), v_old, md), q);
    p.u[i] = v_old;
    if (w == 0) {
        p.v[i] = 0;
        return KEY_INF;
    }
    const uint32_t x = modinv(mulmod(pq, w, md), q);
    p.v[i] = mulmod(mulmod(w, w, md), x, md);
    const uint32_t inv_w = mulmod(pq, x, md);
    return key(q, mulmod(mulmod(v_old, pq, md), inv_w, md));
}

__device__ __forceinline__ unsigned bit_length(uint64_t x)
{
    return x ? 64u - (unsigned)__clzll((long long)x) : 0u;
}

template <class X>
__global__ void __launch_bounds__(GCD_BLOCK_THREADS)
    modular_kernel(const gcd_kernel_params p)
{
    __shared__ unsigned long long warp_buf[WARPS];
    __shared__ unsigned long long cluster_words[2];
    X x(X::uses_shared ? cluster_words : p.slots);
    const uint32_t first = blockIdx.x * p.chunk;
    const uint32_t end = first + p.chunk < p.n ? first + p.chunk : p.n;
    const bool cheap = p.cheap != 0;
    const int64_t L = p.L;

    /* Lines 4-8: residues, multipliers and first keys. */
    unsigned long long local = KEY_INF;
    for (uint32_t i = first + threadIdx.x; i < end; i += blockDim.x) {
        const uint32_t q = p.q[i];
        const modulus md = {q, multiplier(q, p.L, cheap), p.L, cheap};
        const uint32_t u = residue_words(p.uw, p.uw_n, md), v = residue_words(p.vw, p.vw_n, md);
        p.m[i] = md.m;
        p.u[i] = u;
        p.v[i] = v;
        p.active[i] = 1;
        local = umin(local, v ? key(q, mulmod(u, modinv(v, q), md)) : KEY_INF);
    }

    /* Lines 9-20, with the scalars of gcd_modular_attempt. */
    int64_t n_u = p.n_u, n_v = p.n_v, b_u = p.n_u, b_v = p.n_v, left = p.n;
    uint64_t steps = 0;
    int32_t shortage = GCD_SHORT_NONE;
    unsigned long long k = global_min(local, x, warp_buf);
    while (k != KEY_INF) {
        const uint32_t pm = key_modulus(k);
        const int64_t b = key_b(k);
        local = KEY_INF;
        for (uint32_t i = first + threadIdx.x; i < end; i += blockDim.x) {
            if (!p.active[i])
                continue;
            const uint32_t q = p.q[i];
            if (q == pm) { /* line 11 */
                p.active[i] = 0;
                continue;
            }
            const modulus md = {q, p.m[i], p.L, cheap};
            local = umin(local, reduce(p, i, md, pm, b));
        }
        steps++;
        left--;
        /* Line 15 with |b|; b = 0 makes v' = u / p, of size N_u - L. */
        const int64_t b_bits = bit_length((uint64_t)(b < 0 ? -b : b));
        const int64_t n_v_next = b ? n_v - L + b_bits - 1 : n_u - L;
        n_u = n_v;
        n_v = n_v_next;
        const int64_t b_v_next = (b_u > b_v + b_bits ? b_u : b_v + b_bits) + 2 - L;
        b_u = b_v;
        b_v = b_v_next;
        if (left * (L - 2) <= n_u) { /* lines 16-17 */
            shortage = GCD_SHORT_PAPER_TEST;
            break;
        }
        k = global_min(local, x, warp_buf); /* line 19 */
    }
    const int64_t capacity = left * (L - 1);
    if (shortage == GCD_SHORT_NONE && (b_v > capacity || b_u > capacity - 1))
        shortage = GCD_SHORT_BOUND;

    /* Lines 21-28, with the k <- k + 1 the printed figure lost. */
    uint64_t digits = 0;
    while (shortage == GCD_SHORT_NONE) {
        local = KEY_INF;
        for (uint32_t i = first + threadIdx.x; i < end; i += blockDim.x)
            if (p.active[i] && p.u[i] != 0) {
                local = i;
                break;
            }
        const unsigned long long chosen = global_any(p, local, x, warp_buf);
        if (chosen == 0) /* line 28: g_k = 0 */
            break;
        const uint32_t pk = (uint32_t)chosen, up = (uint32_t)(chosen >> 32);
        const int32_t gk = up > pk / 2 ? (int32_t)((int64_t)up - pk) : (int32_t)up;
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            p.digit_p[digits] = pk;
            p.digit_g[digits] = gk;
        }
        digits++;
        for (uint32_t i = first + threadIdx.x; i < end; i += blockDim.x) {
            if (!p.active[i])
                continue;
            const uint32_t q = p.q[i];
            if (q == pk) { /* line 24 */
                p.active[i] = 0;
                continue;
            }
            /* Line 25: u <- (u - g_k) / p_k mod q. */
            const modulus md = {q, p.m[i], p.L, cheap};
            const uint32_t diff = submod(p.u[i], symmetric_mod(gk, q), q);
            p.u[i] = mulmod(diff, modinv(modulus_mod(pk, q), q), md);
        }
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *p.result = gcd_kernel_result{left, steps, digits, shortage, 0};
    x.finish();
}

/* The exchanges, told apart by where their words live. */
struct coop_x : coop_exchange {
    static constexpr bool uses_shared = false;
    using coop_exchange::coop_exchange;
};
struct custom_x : custom_exchange {
    static constexpr bool uses_shared = false;
    using custom_exchange::custom_exchange;
};
struct cluster_x : cluster_exchange {
    static constexpr bool uses_shared = true;
    using cluster_exchange::cluster_exchange;
};

const void *kernel_of(gcd_barrier b)
{
    switch (b) {
    case GCD_BARRIER_COOP:
        return (const void *)modular_kernel<coop_x>;
    case GCD_BARRIER_CLUSTER:
        return (const void *)modular_kernel<cluster_x>;
    default:
        return (const void *)modular_kernel<custom_x>;
    }
}

} // namespace gcd

/* Clusters beyond 8 blocks are "non-portable"; Hopper schedules 16. */
#define GCD_MAX_CLUSTER 16

extern "C" cudaError_t gcd_modular_max_grid(enum gcd_barrier b, unsigned *max_grid, const char **why)
{
    *max_grid = 0;
    const void *kernel = gcd::kernel_of(b);
    int dev, sms, v;
    cudaError_t err;
    if ((err = cudaGetDevice(&dev)) != cudaSuccess ||
        (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
        return *why = "cudaDeviceGetAttribute", err;
    if (b == GCD_BARRIER_CLUSTER) {
        if ((err = cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, dev)) != cudaSuccess)
            return *why = "cudaDeviceGetAttribute(cudaDevAttrClusterLaunch)", err;
        if (!v)
            return *why = "this GPU cannot launch thread-block clusters (compute capability 9.0 or "
                          "later is needed)", cudaErrorNotSupported;
        if ((err = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)) !=
            cudaSuccess)
            return *why = "cudaFuncSetAttribute(NonPortableClusterSizeAllowed)", err;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(GCD_MAX_CLUSTER);
        cfg.blockDim = dim3(GCD_BLOCK_THREADS);
        int size = 0;
        if ((err = cudaOccupancyMaxPotentialClusterSize(&size, kernel, &cfg)) != cudaSuccess)
            return *why = "cudaOccupancyMaxPotentialClusterSize", err;
        *max_grid = (unsigned)(size < GCD_MAX_CLUSTER ? size : GCD_MAX_CLUSTER);
        return *max_grid ? cudaSuccess
                         : (*why = "no cluster of the GCD kernel fits this GPU", cudaErrorNotSupported);
    }
    if ((err = cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, dev)) != cudaSuccess)
        return *why = "cudaDeviceGetAttribute(cudaDevAttrCooperativeLaunch)", err;
    if (!v)
        return *why = "this GPU cannot launch cooperative kernels", cudaErrorNotSupported;
    int per_sm = 0;
    if ((err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, GCD_BLOCK_THREADS, 0)) !=
        cudaSuccess)
        return *why = "cudaOccupancyMaxActiveBlocksPerMultiprocessor", err;
    *max_grid = (unsigned)(per_sm * sms);
    return *max_grid ? cudaSuccess
                     : (*why = "no block of the GCD kernel fits an SM", cudaErrorNotSupported);
}

extern "C" cudaError_t gcd_modular_launch(enum gcd_barrier b, const struct gcd_kernel_params *p,
                                          unsigned grid, cudaStream_t stream)
{
    const void *kernel = gcd::kernel_of(b);
    void *args[] = {(void *)p};
    if (b != GCD_BARRIER_CLUSTER)
        /* Cooperative even for the custom barrier: the launch fails rather than leave a block
         * waiting for one that is not resident. */
        return cudaLaunchCooperativeKernel(kernel, dim3(grid), dim3(GCD_BLOCK_THREADS), args, 0,
                                           stream);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(GCD_BLOCK_THREADS);
    cfg.stream = stream;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = grid;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelExC(&cfg, kernel, args);
}
