/* The modular integer GCD of 002 (Weber and Brew), Fig. 2, on one GPU: one persistent kernel
 * runs one attempt with N_Q moduli, step by step as the CPU twin (cpu_ref/gcd_modular_ref.c):
 * residues by the fast remainder (section 3.1), the reduction loop with the global minimum of
 * the key (section 4.2), the mixed-radix recovery with a global "choose any" (section 4.3).
 * The grid-wide exchange is a template parameter (gcd_exchange.cuh): cooperative groups, one
 * cluster, or the paper's barrier. The inverse is the paper's Euclid (section 3.2) or, beyond
 * the paper, Fermat's power in Montgomery form (cpu_ref/gcd_fermat.h), chosen at launch.
 *
 * Where the per-modulus state lives. Each thread owns K moduli. With `resident`, they stay in
 * registers for the whole attempt (K = 1, 2, 4 or 8): a reduction step reads and writes no
 * memory but the exchange's words, and the K chains interleave, so that K moduli cost the
 * latency of about one. Without it (inputs whose N_Q outgrows the registers of the resident
 * grid, from about 3 Mibit), the state is in device memory and each step streams through it, K
 * moduli at a time. A profile of the first version, which streamed at every size, put 41 % of a
 * step in the Euclid inverse and 31 % in the block reductions and the grid barrier.
 *
 * Every thread keeps the scalars of Fig. 2 (N_u, N_v, the proven bounds B_u, B_v, the moduli
 * left) and computes them identically, so every block leaves every loop at the same step and
 * the exchanges stay paired. */
#include "gcd_kernel.h"

#include "gcd_arith.cuh"
#include "gcd_exchange.cuh"
#include "gcd_modular.h"
#include "gcd_moduli.h"

namespace gcd {

/* One modulus of Q and its residues. Slots beyond N_Q (the last block's tail) carry a valid
 * modulus, so that their arithmetic is harmless, and live = false. */
struct slot {
    modulus md;
    uint32_t qinv, r_mod_q; /* Montgomery constants of the Fermat inverse */
    uint32_t u, v;
    bool live;              /* q still in Q (Fig. 2 lines 11 and 24 remove it) */
};

__device__ __forceinline__ void set_constants(slot &s, bool fermat)
{
    if (fermat) {
        s.qinv = mont_qinv(s.md.q);
        s.r_mod_q = rem(1ull << 32, s.md);
    }
}

/* The inverse of a in [1, q - 1] as a handle, and x a^-1 from it: the handle is a^-1 itself for
 * the Euclid of 002 section 3.2, a^-1 R^2 for Fermat (cpu_ref/gcd_fermat.h). One inverse then
 * serves the two quotients of a reduction step. The branch is uniform: one launch, one inverse. */
__device__ __forceinline__ uint32_t inverse_handle(uint32_t a, const slot &s, bool fermat)
{
    return fermat ? fermat_handle(a, s.md.q, s.qinv, s.r_mod_q) : modinv(a, s.md.q);
}
__device__ __forceinline__ uint32_t mul_inverse(uint32_t x, uint32_t h, const slot &s, bool fermat)
{
    if (!fermat)
        return mulmod(x, h, s.md);
    return montmul(montmul(x, 1, s.md.q, s.qinv), h, s.md.q, s.qinv);
}

/* Fig. 2 lines 4-8 for K slots: U and V mod q by Horner from the top word (gcd_residue_words;
 * 002 section 3.1, last paragraph), the K remainders of each word interleaved; all threads read
 * the same word at once, a broadcast. V has at most U's words. */
template <unsigned K>
__device__ __forceinline__ void residues(const gcd_kernel_params &p, slot (&s)[K])
{
    uint64_t ru[K], rv[K];
#pragma unroll
    for (unsigned j = 0; j < K; j++)
        ru[j] = rv[j] = 0;
    for (uint32_t w = p.uw_n; w-- > 0;) {
        const uint32_t uw = __ldg(p.uw + w), vw = w < p.vw_n ? __ldg(p.vw + w) : 0;
#pragma unroll
        for (unsigned j = 0; j < K; j++) {
            ru[j] = rem(ru[j] << 32 | uw, s[j].md);
            rv[j] = rem(rv[j] << 32 | vw, s[j].md);
        }
    }
#pragma unroll
    for (unsigned j = 0; j < K; j++) {
        s[j].u = (uint32_t)ru[j];
        s[j].v = (uint32_t)rv[j];
    }
}

/* Line 8's first key t = u / v of a slot (KEY_INF when v = 0 or the slot is not live). */
__device__ __forceinline__ unsigned long long first_key(const slot &s, bool fermat)
{
    const uint32_t h = inverse_handle(s.v ? s.v : 1, s, fermat);
    return s.live && s.v ? key(s.md.q, mul_inverse(s.u, h, s, fermat)) : KEY_INF;
}

/* Fig. 2 lines 11-14 for one slot with the pivot (p_m, b) (the update of gcd_modular_ref.h):
 * w = u - b v, u' = v, v' = w / p, and the new key t' = u' / v' = p v / w, both quotients from
 * the one inverse of p w. Straight-line: the removed pivot, a zero w and a dead slot are
 * masked, not branched around, so that the K slots of a thread interleave. */
__device__ __forceinline__ unsigned long long reduce(slot &s, uint32_t pm, int64_t b, bool fermat)
{
    const uint32_t q = s.md.q;
    const bool pivot = q == pm; /* line 11 */
    const uint32_t pq = modulus_mod(pm, q), v_old = s.v;
    const uint32_t w = submod(s.u, mulmod(symmetric_mod(b, q), v_old, s.md), q);
    const uint32_t a = mulmod(pq, w, s.md);
    const uint32_t h = inverse_handle(a ? a : 1, s, fermat);
    const uint32_t v_new = mul_inverse(mulmod(w, w, s.md), h, s, fermat);
    const uint32_t t = mul_inverse(mulmod(mulmod(pq, pq, s.md), v_old, s.md), h, s, fermat);
    const bool keep = s.live && !pivot;
    if (keep) {
        s.u = v_old;
        s.v = w ? v_new : 0;
    }
    s.live = keep;
    return keep && w ? key(q, t) : KEY_INF;
}

/* Line 25 for one slot: u <- (u - g_k) / p_k mod q; line 24 removes p_k itself. */
__device__ __forceinline__ void recover(slot &s, uint32_t pk, int32_t gk, bool fermat)
{
    const uint32_t q = s.md.q;
    const bool pivot = q == pk;
    const uint32_t a = modulus_mod(pk, q);
    const uint32_t h = inverse_handle(a ? a : 1, s, fermat);
    const uint32_t u_new = mul_inverse(submod(s.u, symmetric_mod(gk, q), q), h, s, fermat);
    const bool keep = s.live && !pivot;
    if (keep)
        s.u = u_new;
    s.live = keep;
}

/* Lines 22 and 27's candidate of a slot: the "choose any" with priority to u != 0 takes, like
 * the twin, the live modulus of lowest index with u != 0. Moduli are sorted largest first, so
 * that is the largest such q, and (~q << 32 | u) makes it the least word, across threads,
 * blocks and the grid exchange alike. Never KEY_INF (q != 0). */
__device__ __forceinline__ unsigned long long any_word(const slot &s)
{
    return s.live && s.u ? (unsigned long long)~s.md.q << 32 | s.u : KEY_INF;
}

/* The K slots of one thread for the moduli first + j * blockDim.x (j < K), from device memory
 * (streaming) or computed at the start (resident). */
template <unsigned K>
__device__ __forceinline__ void load(const gcd_kernel_params &p, uint32_t base, uint32_t end,
                                     uint32_t first, bool fermat, slot (&s)[K])
{
#pragma unroll
    for (unsigned j = 0; j < K; j++) {
        const uint32_t i = base + j * blockDim.x;
        const uint32_t at = i < end ? i : first;
        s[j].md = modulus{p.q[at], p.m[at], p.L, p.cheap != 0, p.percent != 0};
        s[j].u = p.u[at];
        s[j].v = p.v[at];
        s[j].live = i < end && p.active[at];
        set_constants(s[j], fermat);
    }
}
template <unsigned K>
__device__ __forceinline__ void store(const gcd_kernel_params &p, uint32_t base, uint32_t end,
                                      const slot (&s)[K])
{
#pragma unroll
    for (unsigned j = 0; j < K; j++) {
        const uint32_t i = base + j * blockDim.x;
        if (i < end) {
            p.u[i] = s[j].u;
            p.v[i] = s[j].v;
            p.active[i] = s[j].live;
        }
    }
}

/* Lines 4-7 for K slots: the moduli, their fast-remainder multipliers ("calculated when the GPU
 * kernel first starts executing", 002 section 3.1) and the residues. */
template <unsigned K>
__device__ __forceinline__ void init(const gcd_kernel_params &p, uint32_t base, uint32_t end,
                                     uint32_t first, bool fermat, slot (&s)[K])
{
    const bool cheap = p.cheap != 0;
#pragma unroll
    for (unsigned j = 0; j < K; j++) {
        const uint32_t i = base + j * blockDim.x;
        const uint32_t q = p.q[i < end ? i : first];
        s[j].md = modulus{q, multiplier(q, p.L, cheap), p.L, cheap, p.percent != 0};
        s[j].live = i < end;
        set_constants(s[j], fermat);
    }
    residues(p, s);
}

__device__ __forceinline__ unsigned bit_length(uint64_t x)
{
    return x ? 64u - (unsigned)__clzll((long long)x) : 0u;
}

/* The minimum over the grid of every thread's `local`, in every thread: the block's by warp
 * shuffles and shared memory, then the exchange (002 sections 4.1-4.2). */
template <class X>
__device__ __forceinline__ unsigned long long grid_min(unsigned long long local, X &x,
                                                       unsigned long long *warp_buf)
{
    return x.gather(block_min_thread0(local, warp_buf));
}

/* Blocks of up to 1024 threads for one modulus a thread, fewer for more (registers). */
constexpr unsigned max_block(unsigned k)
{
    return k == 1 ? 1024 : k == 2 ? 512 : 256;
}

template <class X, unsigned K, bool RESIDENT>
__global__ void __launch_bounds__(max_block(K))
    modular_kernel(const gcd_kernel_params p)
{
    __shared__ unsigned long long warp_buf[32];
    __shared__ unsigned long long exchange_words[2];
    X x(p.slots, exchange_words);
    const uint32_t first = blockIdx.x * p.chunk;
    const uint32_t end = first + p.chunk < p.n ? first + p.chunk : p.n;
    const bool fermat = p.inverse == GCD_INVERSE_FERMAT;
    const int64_t L = p.L;
    /* Streaming: the thread's moduli, K at a time. Resident: the one group, kept. */
    const uint32_t stride = K * blockDim.x;
    slot s[K];

    /* Lines 4-8: residues, multipliers and first keys. */
    unsigned long long local = KEY_INF;
    for (uint32_t base = first + threadIdx.x; base < end; base += stride) {
        init(p, base, end, first, fermat, s);
#pragma unroll
        for (unsigned j = 0; j < K; j++) {
            local = umin(local, first_key(s[j], fermat));
            if (!RESIDENT) {
                const uint32_t i = base + j * blockDim.x;
                if (i < end)
                    p.m[i] = s[j].md.m;
            }
        }
        if (!RESIDENT)
            store(p, base, end, s);
        if (RESIDENT)
            break;
    }
    const bool has_slots = first + threadIdx.x < end;

    /* Lines 9-20, with the scalars of gcd_modular_attempt. */
    int64_t n_u = p.n_u, n_v = p.n_v, b_u = p.n_u, b_v = p.n_v, left = p.n;
    uint64_t steps = 0;
    int32_t shortage = GCD_SHORT_NONE;
    unsigned long long k = grid_min(local, x, warp_buf);
    while (k != KEY_INF) {
        const uint32_t pm = key_modulus(k);
        const int64_t b = key_b(k);
        local = KEY_INF;
        if (RESIDENT) {
            if (has_slots) {
#pragma unroll
                for (unsigned j = 0; j < K; j++)
                    local = umin(local, reduce(s[j], pm, b, fermat));
            }
        } else {
            for (uint32_t base = first + threadIdx.x; base < end; base += stride) {
                load(p, base, end, first, fermat, s);
#pragma unroll
                for (unsigned j = 0; j < K; j++)
                    local = umin(local, reduce(s[j], pm, b, fermat));
                store(p, base, end, s);
            }
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
        k = grid_min(local, x, warp_buf); /* line 19 */
    }
    const int64_t capacity = left * (L - 1);
    if (shortage == GCD_SHORT_NONE && (b_v > capacity || b_u > capacity - 1))
        shortage = GCD_SHORT_BOUND;

    /* Lines 21-28, with the k <- k + 1 the printed figure lost. */
    uint64_t digits = 0;
    while (shortage == GCD_SHORT_NONE) {
        local = KEY_INF;
        if (RESIDENT) {
            if (has_slots) {
#pragma unroll
                for (unsigned j = 0; j < K; j++)
                    local = umin(local, any_word(s[j]));
            }
        } else {
            for (uint32_t base = first + threadIdx.x; base < end; base += stride) {
                load(p, base, end, first, fermat, s);
#pragma unroll
                for (unsigned j = 0; j < K; j++)
                    local = umin(local, any_word(s[j]));
            }
        }
        const unsigned long long chosen = grid_min(local, x, warp_buf);
        if (chosen == KEY_INF) /* line 28: g_k = 0 */
            break;
        const gcd_digit dk = record_digit(chosen, p.digit_p, p.digit_g, digits);
        const uint32_t pk = dk.p;
        const int32_t gk = dk.g;
        digits++;
        if (RESIDENT) {
            if (has_slots) {
#pragma unroll
                for (unsigned j = 0; j < K; j++)
                    recover(s[j], pk, gk, fermat);
            }
        } else {
            for (uint32_t base = first + threadIdx.x; base < end; base += stride) {
                load(p, base, end, first, fermat, s);
#pragma unroll
                for (unsigned j = 0; j < K; j++)
                    recover(s[j], pk, gk, fermat);
                store(p, base, end, s);
            }
        }
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *p.result = gcd_kernel_result{left, steps, digits, shortage, 0};
    x.finish();
}

/* The kernels of one barrier: resident with K = 1, 2, 4, 8, then streaming K = 4 (the order of
 * GCD_SHAPES in gcd_kernel.h). */
template <class X>
const void *kernel_of_shape(unsigned shape)
{
    switch (shape) {
    case 0:
        return (const void *)modular_kernel<X, 1, true>;
    case 1:
        return (const void *)modular_kernel<X, 2, true>;
    case 2:
        return (const void *)modular_kernel<X, 4, true>;
    case 3:
        return (const void *)modular_kernel<X, 8, true>;
    default:
        return (const void *)modular_kernel<X, 4, false>;
    }
}

const void *kernel_of(gcd_barrier b, unsigned shape)
{
    switch (b) {
    case GCD_BARRIER_COOP:
        return kernel_of_shape<coop_exchange>(shape);
    case GCD_BARRIER_CLUSTER:
        return kernel_of_shape<cluster_exchange>(shape);
    default:
        return kernel_of_shape<custom_exchange>(shape);
    }
}

} // namespace gcd

const struct gcd_shape gcd_shapes[GCD_SHAPES] = {
    {1, 1, gcd::max_block(1)}, {2, 1, gcd::max_block(2)}, {4, 1, gcd::max_block(4)},
    {8, 1, gcd::max_block(8)}, {4, 0, gcd::max_block(4)}};


extern "C" cudaError_t gcd_modular_max_grid(enum gcd_barrier b, unsigned shape, unsigned block,
                                            unsigned *max_grid, const char **why)
{
    *max_grid = 0;
    const void *kernel = gcd::kernel_of(b, shape);
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
        cfg.blockDim = dim3(block);
        int size = 0;
        if ((err = cudaOccupancyMaxPotentialClusterSize(&size, kernel, &cfg)) != cudaSuccess)
            return *why = "cudaOccupancyMaxPotentialClusterSize", err;
        *max_grid = (unsigned)size < GCD_MAX_CLUSTER ? (unsigned)size : GCD_MAX_CLUSTER;
        return *max_grid ? cudaSuccess
                         : (*why = "no cluster of the GCD kernel fits this GPU", cudaErrorNotSupported);
    }
    if ((err = cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, dev)) != cudaSuccess)
        return *why = "cudaDeviceGetAttribute(cudaDevAttrCooperativeLaunch)", err;
    if (!v)
        return *why = "this GPU cannot launch cooperative kernels", cudaErrorNotSupported;
    int per_sm = 0;
    if ((err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)block, 0)) !=
        cudaSuccess)
        return *why = "cudaOccupancyMaxActiveBlocksPerMultiprocessor", err;
    *max_grid = (unsigned)(per_sm * sms);
    return *max_grid ? cudaSuccess
                     : (*why = "no block of the GCD kernel fits an SM", cudaErrorNotSupported);
}

extern "C" cudaError_t gcd_modular_launch(enum gcd_barrier b, unsigned shape,
                                          const struct gcd_kernel_params *p, unsigned grid,
                                          unsigned block, cudaStream_t stream)
{
    const void *kernel = gcd::kernel_of(b, shape);
    void *args[] = {(void *)p};
    if (b != GCD_BARRIER_CLUSTER)
        /* Cooperative even for the custom barrier: the launch fails rather than leave a block
         * waiting for one that is not resident. */
        return cudaLaunchCooperativeKernel(kernel, dim3(grid), dim3(block), args, 0, stream);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
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
