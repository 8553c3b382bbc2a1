// Delays of a range of 64-bit numbers (000 Algorithm 6, section 4.4.4).
//
// Layout (Fig. 4.1): n = 2^Y * q + r. One work item is one residue r of the low Y bits and a run
// of up to 256 consecutive q, so a thread's numbers share their low bits; their first Y/d table
// operations read the same entries and are applied once per run (collatz::table_prefix, with
// the J they stand for), after which consecutive numbers differ by 3^j: one 96-bit addition per
// number (cpu_ref/collatz_delay.h explains why this is exact). Then table operations, adding
// J[n_L], until the value is below t = 2^a, and A[value] (000 section 4.3.2).
//
// Each thread runs a flat loop over its numbers, so a lane never waits for the slowest lane of
// its warp to finish a number, and with --interleave 2 it keeps two numbers in flight, whose
// table loads hide each other's latency. B, C and J are read from shared or global memory (000
// Table 4.5); A from global memory through the read-only cache (its size is the trade-off of 000 Figs. 4.4
// and 4.5). A number whose value would pass 2^96 is reported and settled on the host.
#include "collatz.h"
#include "collatz_arith.cuh"
#include "cuda_try.h"

namespace {

constexpr unsigned kThreads = 256;

struct delay_args {
    const uint2 *bc;
    const uint8_t *ops;
    unsigned d;
    const uint16_t *a;
    uint32_t t_high_mask; // the bits of the low word at or above 2^a
    unsigned prefix_ops, y;
    uint64_t first, last, q_first, q_last, runs;
    bool want_candidates;
    uint32_t threshold; // candidates have D(n) >= threshold
    uint64_t *list;
    unsigned long long *counts;
    unsigned long long list_cap;
    uint64_t *cand_n;
    uint32_t *cand_delay;
    unsigned long long cand_cap;
    unsigned long long *partials;
};

// The largest delay and the smallest n that has it, over the block; thread 0 gets them.
__device__ void block_max(uint32_t &mx, uint64_t &arg, uint32_t *smx, uint64_t *sarg)
{
    for (int o = 16; o > 0; o >>= 1) {
        const uint32_t om = __shfl_down_sync(0xffffffffu, mx, o);
        const uint64_t oa = __shfl_down_sync(0xffffffffu, arg, o);
        if (om > mx || (om == mx && oa < arg)) {
            mx = om;
            arg = oa;
        }
    }
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    __syncthreads();
    if (lane == 0) {
        smx[warp] = mx;
        sarg[warp] = arg;
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (unsigned w = 1; w < blockDim.x / 32; w++)
            if (smx[w] > mx || (smx[w] == mx && sarg[w] < arg)) {
                mx = smx[w];
                arg = sarg[w];
            }
}

// The numbers of one thread, in order: items (a residue r of the low Y bits and a run of up to
// 256 consecutive q) a grid stride apart, each started with its shared prefix.
struct number_stream {
    uint64_t item;
    uint32_t left;
    uint64_t n, inc;
    uint32_t base;
    collatz::u96 start;

    // The next number of the range into n, with its value after the prefix in start and the
    // operations that took in base; false when the thread has none left.
    __device__ bool take(const delay_args &a, const uint2 *bc, const uint8_t *ops, uint64_t items)
    {
        for (;;) {
            if (left == 0) {
                if (item >= items)
                    return false;
                const uint64_t r = item / a.runs, run = item - r * a.runs;
                const uint64_t q = a.q_first + run * COLLATZ_RUN_LEN;
                left = (uint32_t)min((uint64_t)COLLATZ_RUN_LEN, a.q_last - q + 1);
                n = q << a.y | r;
                uint64_t c;
                collatz::table_prefix(bc, ops, a.d, r, a.prefix_ops, inc, c, base);
                start = collatz::mul_add_64(inc, q, c);
                item += (uint64_t)gridDim.x * blockDim.x;
            } else {
                n += (uint64_t)1 << a.y;
                mp::add_shifted<0>(start, inc);
            }
            left--;
            if (n >= a.first && n <= a.last)
                return true;
        }
    }
};

template <bool SHARED, int SLOTS>
__global__ void __launch_bounds__(kThreads) delay_kernel(const delay_args a)
{
    extern __shared__ uint2 shared_tables[];
    __shared__ unsigned long long scratch[kThreads / 32];
    __shared__ uint32_t smx[kThreads / 32];
    __shared__ uint64_t sarg[kThreads / 32];
    const uint2 *bc = a.bc;
    const uint8_t *ops = a.ops;
    if (SHARED) {
        uint8_t *shared_ops = reinterpret_cast<uint8_t *>(shared_tables + (1u << a.d));
        for (unsigned i = threadIdx.x; i < (1u << a.d); i += blockDim.x) {
            shared_tables[i] = a.bc[i];
            shared_ops[i] = a.ops[i];
        }
        __syncthreads();
        bc = shared_tables;
        ops = shared_ops;
    }
    const uint32_t mask = (1u << a.d) - 1;
    const uint64_t items = a.runs << a.y;
    number_stream ns;
    ns.item = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    ns.left = 0;

    unsigned long long sum = 0;
    uint32_t mx = 0;
    uint64_t arg = UINT64_MAX;
    collatz::u96 v[SLOTS];
    uint64_t n[SLOTS];
    uint32_t delay[SLOTS];
    bool live[SLOTS];
#pragma unroll
    for (int s = 0; s < SLOTS; s++) {
        v[s] = collatz::from_64(0);
        n[s] = 0;
        delay[s] = 0;
        live[s] = false;
    }
    bool more = true;
    for (;;) {
        bool any = false;
#pragma unroll
        for (int s = 0; s < SLOTS; s++) {
            if (!live[s] && more) {
                more = ns.take(a, bc, ops, items);
                if (more) {
                    n[s] = ns.n;
                    v[s] = ns.start;
                    delay[s] = ns.base;
                    live[s] = true;
                }
            }
            any |= live[s];
        }
        if (!any)
            break;
#pragma unroll
        for (int s = 0; s < SLOTS; s++) {
            if (!live[s] || (v[s].w2 | v[s].w1 | (v[s].w0 & a.t_high_mask)) != 0)
                continue;
            // Below t: A holds the rest (000 Algorithm 6, line 9).
            const uint32_t dn = delay[s] + __ldg(&a.a[v[s].w0]);
            sum += dn;
            if (dn > mx || (dn == mx && n[s] < arg)) {
                mx = dn;
                arg = n[s];
            }
            if (a.want_candidates && dn >= a.threshold) {
                const unsigned long long at = atomicAdd(&a.counts[1], 1ull);
                if (at < a.cand_cap) {
                    a.cand_n[at] = n[s];
                    a.cand_delay[at] = dn;
                }
            }
            live[s] = false;
        }
        // Every slot steps, a finished one on a value nobody reads, so the loads of all slots
        // are issued together.
        uint2 e[SLOTS];
        uint32_t j[SLOTS];
#pragma unroll
        for (int s = 0; s < SLOTS; s++) {
            const uint32_t l = v[s].w0 & mask;
            e[s] = bc[l];
            j[s] = ops[l];
        }
#pragma unroll
        for (int s = 0; s < SLOTS; s++) {
            const uint32_t over = collatz::table_op(v[s], e[s], a.d);
            delay[s] += j[s];
            if (live[s] && (over != 0 || delay[s] > COLLATZ_MAX_DELAY)) {
                const unsigned long long at = atomicAdd(&a.counts[0], 1ull);
                if (at < a.list_cap)
                    a.list[at] = n[s];
                live[s] = false;
            }
        }
    }
    sum = collatz::block_sum(sum, scratch);
    block_max(mx, arg, smx, sarg);
    if (threadIdx.x == 0) {
        a.partials[3 * blockIdx.x] = sum;
        a.partials[3 * blockIdx.x + 1] = mx;
        a.partials[3 * blockIdx.x + 2] = arg;
    }
}

template <bool SHARED, int SLOTS>
cudaError_t launch(struct collatz_device *g, const delay_args &a, size_t smem, unsigned *blocks_out)
{
    auto kernel = delay_kernel<SHARED, SLOTS>;
    unsigned blocks;
    cudaError_t err = collatz_device_grid(g, reinterpret_cast<const void *>(kernel), kThreads, smem, &blocks);
    if (err != cudaSuccess)
        return err;
    kernel<<<blocks, kThreads, smem, g->stream>>>(a);
    g->launches++;
    if ((err = cudaGetLastError()) != cudaSuccess) {
        g->failed_call = "delay_kernel launch";
        return err;
    }
    *blocks_out = blocks;
    return cudaSuccess;
}

} // namespace

#define TRY(call, name) CUDA_TRY(g, call, name)

extern "C" cudaError_t collatz_device_delay(struct collatz_device *g, enum collatz_table_memory mem,
                                            unsigned interleave, uint64_t first, uint64_t last, int64_t floor,
                                            struct mpgpu_collatz_delay_totals *totals,
                                            struct mpgpu_collatz_pairs *candidates, struct mpgpu_collatz_list *overflows)
{
    delay_args a;
    a.bc = reinterpret_cast<const uint2 *>(g->d_bc);
    a.ops = g->d_ops;
    a.d = g->bc_bits;
    a.a = g->d_a;
    a.t_high_mask = g->a_bits >= 32 ? 0u : ~((1u << g->a_bits) - 1);
    a.prefix_ops = collatz_delay_prefix_ops(a.d, first, last - first + 1);
    a.y = a.prefix_ops * a.d;
    a.first = first;
    a.last = last;
    a.q_first = first >> a.y;
    a.q_last = last >> a.y;
    a.runs = (a.q_last - a.q_first) / COLLATZ_RUN_LEN + 1;
    a.want_candidates = candidates != nullptr;
    a.threshold = (uint32_t)(floor + 1);
    a.list = g->d_list;
    a.counts = g->d_counts;
    a.list_cap = g->list_cap;
    a.cand_n = g->d_cand_n;
    a.cand_delay = g->d_cand_delay;
    a.cand_cap = g->cand_cap;
    a.partials = g->d_partials;
    TRY(cudaMemsetAsync(g->d_counts, 0, 2 * sizeof(unsigned long long), g->stream), "cudaMemsetAsync(counts)");
    const bool shared = mem == COLLATZ_TABLES_SHARED;
    const size_t smem = shared ? collatz_bcj_bytes(a.d) : 0;
    unsigned blocks = 0;
    cudaError_t err = interleave == 2 ? (shared ? launch<true, 2>(g, a, smem, &blocks) : launch<false, 2>(g, a, smem, &blocks))
                                      : (shared ? launch<true, 1>(g, a, smem, &blocks) : launch<false, 1>(g, a, smem, &blocks));
    if (err != cudaSuccess)
        return err;
    unsigned long long counts[2];
    TRY(cudaMemcpyAsync(counts, g->d_counts, sizeof counts, cudaMemcpyDeviceToHost, g->stream), "cudaMemcpyAsync(counts)");
    TRY(cudaMemcpyAsync(g->h_partials, g->d_partials, 3 * blocks * sizeof(unsigned long long),
                        cudaMemcpyDeviceToHost, g->stream), "cudaMemcpyAsync(partials)");
    TRY(cudaStreamSynchronize(g->stream), "cudaStreamSynchronize(delay_kernel)");
    if (counts[0] > g->list_cap || counts[1] > g->cand_cap) {
        // Redo on the halves; a record of the upper half must exceed every delay of the lower
        // one, so its candidates start above the lower half's largest delay. The lists hold at
        // least one entry each, so the range holds at least two numbers here.
        const uint64_t mid = first + (last - first) / 2;
        struct mpgpu_collatz_delay_totals lower = {0, 0, 0, 0, 0};
        err = collatz_device_delay(g, mem, interleave, first, mid, floor, &lower, candidates, overflows);
        if (err != cudaSuccess)
            return err;
        collatz_delay_add(totals, &lower);
        const int64_t upper_floor = lower.numbers && (int64_t)lower.max > floor ? (int64_t)lower.max : floor;
        return collatz_device_delay(g, mem, interleave, mid + 1, last, upper_floor, totals, candidates, overflows);
    }
    struct mpgpu_collatz_delay_totals t = {last - first + 1 - counts[0], 0, 0, 0, counts[0]};
    for (unsigned b = 0; b < blocks; b++) {
        const uint32_t mx = (uint32_t)g->h_partials[3 * b + 1];
        const uint64_t arg = g->h_partials[3 * b + 2];
        t.sum += g->h_partials[3 * b];
        if (arg != UINT64_MAX && (t.argmax == 0 || mx > t.max || (mx == t.max && arg < t.argmax))) {
            t.max = mx;
            t.argmax = arg;
        }
    }
    if ((err = collatz_device_fetch_overflows(g, overflows, counts[0])) != cudaSuccess)
        return err;
    if (candidates && counts[1]) {
        uint64_t *ns = (uint64_t *)malloc(counts[1] * sizeof *ns);
        uint32_t *ds = (uint32_t *)malloc(counts[1] * sizeof *ds);
        if (!ns || !ds) {
            free(ns);
            free(ds);
            return cudaErrorMemoryAllocation;
        }
        cudaError_t e1 = cudaMemcpy(ns, g->d_cand_n, counts[1] * sizeof *ns, cudaMemcpyDeviceToHost);
        cudaError_t e2 = e1 == cudaSuccess ? cudaMemcpy(ds, g->d_cand_delay, counts[1] * sizeof *ds, cudaMemcpyDeviceToHost) : e1;
        int push_err = 0;
        for (unsigned long long i = 0; e2 == cudaSuccess && i < counts[1]; i++)
            push_err |= collatz_pairs_push(candidates, ns[i], ds[i]);
        free(ns);
        free(ds);
        if (e2 != cudaSuccess) {
            g->failed_call = "cudaMemcpy(candidates)";
            return e2;
        }
        if (push_err)
            return cudaErrorMemoryAllocation;
    }
    collatz_delay_add(totals, &t);
    return cudaSuccess;
}
