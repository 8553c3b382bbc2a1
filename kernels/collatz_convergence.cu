// Convergence verification of a range of 64-bit starting values (000 Algorithm 5, section 4.4).
//
// Layout (Fig. 4.1): a starting value is m = 2^k * m_H + s with s an entry of S. One work item is
// one S entry and a run of up to 256 consecutive m_H; consecutive threads take consecutive runs
// of the same entry, so the threads of a block hold starting values that share their low bits
// and differ in the high ones, and read the same table entries while those low bits are being
// consumed. The operations over the k bits of s are the same for the whole run, so in the JUMP
// first step they are applied once per S entry when S is loaded (s_jump_kernel) and a thread
// starts each value at n = 3^j * m_H + c, stepping from one to the next with one 96-bit addition
// (cpu_ref/collatz_convergence.h).
//
// Each thread runs a flat loop over its starting values: a lane that finishes one value takes
// its next at once instead of waiting for the slowest lane of its warp, and with --interleave 2
// it keeps two values in flight, so two independent table loads hide each other's latency.
// Interim values are 96 bits in three registers; one that would pass 2^96 (or run past
// COLLATZ_MAX_TABLE_STEPS) is reported and settled on the host (000 section 4.4.1). B and C are
// read from shared memory or from global memory (000 Table 4.4).
#include "collatz.h"
#include "collatz_arith.cuh"
#include "cuda_try.h"

namespace {

constexpr unsigned kThreads = 256;
// An S entry holds its residue (at most 40 bits) and j above bit 58.
constexpr unsigned kJShift = 58;
constexpr uint64_t kResidueMask = ((uint64_t)1 << kJShift) - 1;

struct conv_args {
    const uint2 *bc;
    unsigned d;
    const ulonglong2 *s;
    uint64_t s_count;
    unsigned k;
    uint64_t first, last, h_first, h_last, runs;
    uint64_t stride_entries, stride_runs; // the grid stride in items, as (S entries, runs)
    uint64_t *list;
    unsigned long long *counts;
    unsigned long long list_cap;
    unsigned long long *partials;
};

// The starting values of one thread, in order: items a grid stride apart. The S entry of the
// next item is loaded when the current one starts, so its latency is hidden.
template <bool JUMP>
struct value_stream {
    uint64_t si, run; // the next item
    ulonglong2 next;  // its S entry
    uint32_t left;    // values left in the current item
    uint64_t m, inc;
    collatz::u96 start;

    __device__ void init(const conv_args &a, uint64_t item)
    {
        si = item / a.runs;
        run = item - si * a.runs;
        left = 0;
        if (si < a.s_count)
            next = a.s[si];
    }

    // The next starting value of the range into m (and its first value into start when JUMP);
    // false when the thread has none left.
    __device__ bool take(const conv_args &a, const uint64_t *pow3)
    {
        for (;;) {
            if (left == 0) {
                if (si >= a.s_count)
                    return false;
                const uint64_t mh = a.h_first + run * COLLATZ_RUN_LEN;
                left = (uint32_t)min((uint64_t)COLLATZ_RUN_LEN, a.h_last - mh + 1);
                m = mh << a.k | (next.x & kResidueMask);
                if (JUMP) {
                    inc = pow3[next.x >> kJShift];
                    start = collatz::mul_add_64(inc, mh, next.y);
                }
                run += a.stride_runs;
                si += a.stride_entries;
                if (run >= a.runs) {
                    run -= a.runs;
                    si++;
                }
                if (si < a.s_count)
                    next = a.s[si];
            } else {
                m += (uint64_t)1 << a.k;
                if (JUMP)
                    mp::add_shifted<0>(start, inc);
            }
            left--;
            if (m >= a.first && m <= a.last && m >= 3)
                return true;
        }
    }
};

template <bool SHARED, bool JUMP, int SLOTS>
__global__ void __launch_bounds__(kThreads) convergence_kernel(const conv_args a)
{
    extern __shared__ uint2 shared_bc[];
    __shared__ unsigned long long scratch[kThreads / 32];
    __shared__ uint64_t pow3[COLLATZ_PREFIX_MAX_BITS + 1];
    if (threadIdx.x <= COLLATZ_PREFIX_MAX_BITS) {
        uint64_t p = 1;
        for (unsigned i = 0; i < threadIdx.x; i++)
            p *= 3;
        pow3[threadIdx.x] = p;
    }
    const uint2 *bc = a.bc;
    if (SHARED) {
        for (unsigned i = threadIdx.x; i < (1u << a.d); i += blockDim.x)
            shared_bc[i] = a.bc[i];
        bc = shared_bc;
    }
    __syncthreads();
    const uint32_t mask = (1u << a.d) - 1;
    value_stream<JUMP> vs;
    vs.init(a, (uint64_t)blockIdx.x * blockDim.x + threadIdx.x);

    unsigned long long mandatory = 0, steps = 0;
    collatz::u96 n[SLOTS];
    uint64_t m[SLOTS];
    uint32_t used[SLOTS];
    bool live[SLOTS];
#pragma unroll
    for (int s = 0; s < SLOTS; s++) {
        n[s] = collatz::from_64(0);
        m[s] = 0;
        used[s] = 0;
        live[s] = false;
    }
    bool more = true;
    for (;;) {
        bool any = false;
#pragma unroll
        for (int s = 0; s < SLOTS; s++) {
            if (!live[s] && more) {
                more = vs.take(a, pow3);
                if (more) {
                    m[s] = vs.m;
                    n[s] = JUMP ? vs.start : collatz::from_64(vs.m);
                    used[s] = 0;
                    live[s] = true;
                    mandatory++;
                }
            }
            any |= live[s];
        }
        if (!any)
            break;
        // Every slot steps, a finished one on a value nobody reads, so the loads of all slots
        // are issued together.
        uint2 e[SLOTS];
#pragma unroll
        for (int s = 0; s < SLOTS; s++)
            e[s] = bc[n[s].w0 & mask];
#pragma unroll
        for (int s = 0; s < SLOTS; s++) {
            const uint32_t over = collatz::table_op(n[s], e[s], a.d);
            used[s]++;
            if (!live[s])
                continue;
            if (over != 0 || used[s] == COLLATZ_MAX_TABLE_STEPS) {
                const unsigned long long at = atomicAdd(&a.counts[0], 1ull);
                if (at < a.list_cap)
                    a.list[at] = m[s];
                steps += used[s];
                live[s] = false;
            } else if (collatz::below(n[s], m[s])) {
                steps += used[s];
                live[s] = false;
            }
        }
    }
    mandatory = collatz::block_sum(mandatory, scratch);
    steps = collatz::block_sum(steps, scratch);
    if (threadIdx.x == 0) {
        a.partials[2 * blockIdx.x] = mandatory;
        a.partials[2 * blockIdx.x + 1] = steps;
    }
}

// The jump state of each residue: the recurrence of kernels/collatz_tables.c (collatz_prefix_state)
// over its k bits, once per S entry.
__global__ void s_jump_kernel(ulonglong2 *jump, const uint64_t *s, uint64_t count, unsigned k)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t r = s[i];
        uint64_t p = 1, c = 0, j = 0;
        for (unsigned b = 0; b < k; b++) {
            const uint64_t e = (r >> b) & 1;
            if ((e ^ c) & 1) {
                const uint64_t p3 = 3 * p;
                c = e ? (p3 + 1) / 2 + 3 * (c / 2) : c + (c + 1) / 2;
                p = p3;
                j++;
            } else {
                c = e ? p / 2 + c / 2 + 1 : c / 2;
            }
        }
        jump[i] = make_ulonglong2(r | j << kJShift, c);
    }
}

template <bool SHARED, bool JUMP, int SLOTS>
cudaError_t launch(struct collatz_device *g, conv_args &a, size_t smem, unsigned *blocks_out)
{
    auto kernel = convergence_kernel<SHARED, JUMP, SLOTS>;
    unsigned blocks;
    cudaError_t err = collatz_device_grid(g, reinterpret_cast<const void *>(kernel), kThreads, smem, &blocks);
    if (err != cudaSuccess)
        return err;
    const uint64_t stride = (uint64_t)blocks * kThreads;
    a.stride_entries = stride / a.runs;
    a.stride_runs = stride % a.runs;
    kernel<<<blocks, kThreads, smem, g->stream>>>(a);
    g->launches++;
    if ((err = cudaGetLastError()) != cudaSuccess) {
        g->failed_call = "convergence_kernel launch";
        return err;
    }
    *blocks_out = blocks;
    return cudaSuccess;
}

#define TRY(call, name) CUDA_TRY(g, call, name)

// One launch over [first, last] with S table (s, s_count, k); a launch whose overflows do not
// fit the list is redone on the two halves of its range.
cudaError_t convergence_range(struct collatz_device *g, enum collatz_table_memory mem,
                              enum collatz_first_step first_step, unsigned interleave, const uint64_t *s,
                              uint64_t s_count, unsigned k, uint64_t first, uint64_t last,
                              struct mpgpu_collatz_conv_totals *totals, struct mpgpu_collatz_list *overflows)
{
    conv_args a;
    a.bc = reinterpret_cast<const uint2 *>(g->d_bc);
    a.d = g->bc_bits;
    a.s = reinterpret_cast<const ulonglong2 *>(s);
    a.s_count = s_count;
    a.k = k;
    a.first = first;
    a.last = last;
    a.h_first = first >> k;
    a.h_last = last >> k;
    a.runs = (a.h_last - a.h_first) / COLLATZ_RUN_LEN + 1;
    a.list = g->d_list;
    a.counts = g->d_counts;
    a.list_cap = g->list_cap;
    a.partials = g->d_partials;
    TRY(cudaMemsetAsync(g->d_counts, 0, 2 * sizeof(unsigned long long), g->stream), "cudaMemsetAsync(counts)");
    const bool shared = mem == COLLATZ_TABLES_SHARED;
    const size_t smem = shared ? collatz_bc_bytes(a.d) : 0;
    const bool jump = first_step == COLLATZ_FIRST_JUMP;
    unsigned blocks = 0;
    cudaError_t err;
    if (interleave == 2)
        err = shared ? (jump ? launch<true, true, 2>(g, a, smem, &blocks) : launch<true, false, 2>(g, a, smem, &blocks))
                     : (jump ? launch<false, true, 2>(g, a, smem, &blocks) : launch<false, false, 2>(g, a, smem, &blocks));
    else
        err = shared ? (jump ? launch<true, true, 1>(g, a, smem, &blocks) : launch<true, false, 1>(g, a, smem, &blocks))
                     : (jump ? launch<false, true, 1>(g, a, smem, &blocks) : launch<false, false, 1>(g, a, smem, &blocks));
    if (err != cudaSuccess)
        return err;
    unsigned long long n_over;
    TRY(cudaMemcpyAsync(&n_over, g->d_counts, sizeof n_over, cudaMemcpyDeviceToHost, g->stream), "cudaMemcpyAsync(overflow count)");
    TRY(cudaMemcpyAsync(g->h_partials, g->d_partials, 2 * blocks * sizeof(unsigned long long),
                        cudaMemcpyDeviceToHost, g->stream), "cudaMemcpyAsync(partials)");
    TRY(cudaStreamSynchronize(g->stream), "cudaStreamSynchronize(convergence_kernel)");
    if (n_over > g->list_cap) { // then [first, last] holds at least two values (list_cap >= 1)
        const uint64_t mid = first + (last - first) / 2;
        err = convergence_range(g, mem, first_step, interleave, s, s_count, k, first, mid, totals, overflows);
        if (err == cudaSuccess)
            err = convergence_range(g, mem, first_step, interleave, s, s_count, k, mid + 1, last, totals, overflows);
        return err;
    }
    struct mpgpu_collatz_conv_totals t = {0, 0, n_over};
    for (unsigned b = 0; b < blocks; b++) {
        t.mandatory += g->h_partials[2 * b];
        t.steps += g->h_partials[2 * b + 1];
    }
    if ((err = collatz_device_fetch_overflows(g, overflows, n_over)) != cudaSuccess)
        return err;
    collatz_conv_add(totals, &t);
    return cudaSuccess;
}

} // namespace

extern "C" cudaError_t collatz_s_jump_build(uint64_t *jump, const uint64_t *s, uint64_t count, unsigned k,
                                            cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((count + kThreads - 1) / kThreads < 65536 ? (count + kThreads - 1) / kThreads : 65536);
    s_jump_kernel<<<blocks > 0 ? blocks : 1, kThreads, 0, stream>>>(reinterpret_cast<ulonglong2 *>(jump), s, count, k);
    return cudaGetLastError();
}

extern "C" cudaError_t collatz_device_convergence(struct collatz_device *g, enum collatz_table_memory mem,
                                                  enum collatz_first_step first_step, unsigned interleave,
                                                  uint64_t first, uint64_t last, struct mpgpu_collatz_conv_totals *totals,
                                                  struct mpgpu_collatz_list *overflows)
{
    const unsigned k = g->s_bits;
    if (k > 0 && first < (uint64_t)1 << k) {
        // Below 2^k, m_H = 0 and the skip of 000 section 4.3.1 does not hold: every value runs.
        const uint64_t low_last = last < ((uint64_t)1 << k) - 1 ? last : ((uint64_t)1 << k) - 1;
        cudaError_t err = convergence_range(g, mem, first_step, interleave, g->d_s_all, 1, 0, first, low_last,
                                            totals, overflows);
        if (err != cudaSuccess || last == low_last)
            return err;
        first = (uint64_t)1 << k;
    }
    return convergence_range(g, mem, first_step, interleave, g->d_s, g->s_count, k, first, last, totals, overflows);
}
