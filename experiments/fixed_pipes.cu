// Montgomery multiplication on both pipes (issue 39). A probe outside the build, compiled and run
// on the GPU machine by experiments/fixed_pipes.sh.
//
// Kernels (2^20 elements, one random odd modulus for all, x <- x b R^-1 mod m in registers):
//   imad      one element a thread, the IMAD path (mpgpu fixed --impl ptx)
//   imad2     two elements a thread, both on the IMAD path (does ILP alone gain?)
//   columns   one element a thread on the FP64 pipe, column sums in doubles
//             (fixed_fp64_columns.cuh)
//   pipes     two elements a thread, one on the IMAD path and one on the FP64 columns: two
//             independent instruction streams
//   carries   one element a thread, each word product split between the pipes: its low word by
//             IMAD, the column sums by DFMA (fixed_fp64_carries.cuh)
//   carries2  two elements a thread on the carries path
//   imad-regm the IMAD path with the modulus moved into registers first, as mpgpu fixed holds it
//             (imad reads it from the kernel's parameters)
// Each is timed held (median of 10 after 2 warm-up runs) at chains of 100 and 200; the marginal
// rate is 100 x elements / (t(200) - t(100)). Every kernel's results at both chains are checked
// on a sample of elements (boundary operands among them) against the host's run of the IMAD
// path's code (Impl::c, which the cpu suite checks against GMP), and so are the host's runs of
// the columns and carries paths on the same sample, which must also keep their own invariants
// (tests/test_fixed_probe_paths.cc checks both paths against GMP in the cpu suite). CSV on
// stdout. Results and what they mean: docs/004-fixed.md, "An element on each pipe, a word
// product split between them".
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "../kernels/stream_hold.cu"

#define PROBE_NAME "fixed_pipes"
#include "probe_check.cuh"
#include "probe_run.cuh"

#include "fixed_fp64_carries.cuh"
#include "fixed_fp64_columns.cuh"
#include "../kernels/fixed_mont.cuh"

namespace {

constexpr size_t COUNT = size_t(1) << 20;
constexpr int REPS = 10, WARMUP = 2, BLOCK = 128;

template <int N> struct Mod {
    uint32_t m[N];
    uint32_t mp;
};

// Word j of element p at j * COUNT + p (coalesced, mpgpu fixed's default).
template <int N> __device__ __forceinline__ void load(uint32_t (&x)[N], const uint32_t *v, size_t p)
{
#pragma unroll
    for (int j = 0; j < N; j++)
        x[j] = v[j * COUNT + p];
}
template <int N>
__device__ __forceinline__ void store(uint32_t *v, size_t p, const uint32_t (&x)[N])
{
#pragma unroll
    for (int j = 0; j < N; j++)
        v[j * COUNT + p] = x[j];
}

enum Kind { IMAD, IMAD2, COLUMNS, PIPES, CARRIES, CARRIES2, IMAD_REGM, KINDS };
constexpr bool two_a_thread(int k) { return k == IMAD2 || k == PIPES || k == CARRIES2; }

template <int N, int K>
__global__ void __launch_bounds__(BLOCK)
    chain_kernel(const uint32_t *a, const uint32_t *b, uint32_t *r, Mod<N> mod, uint64_t chain)
{
    constexpr bool two = two_a_thread(K);
    const size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x, q = p + COUNT / 2;
    if (p >= (two ? COUNT / 2 : COUNT))
        return;
    uint32_t x0[N], b0[N], x1[N], b1[N];
    load<N>(x0, a, p);
    load<N>(b0, b, p);
    if constexpr (two) {
        load<N>(x1, a, q);
        load<N>(b1, b, q);
    }
    if constexpr (K == IMAD_REGM) {
        // The modulus moved into registers first (as mpgpu fixed holds it, for a modulus per
        // element too), where imad reads it from the kernel's parameters.
        uint32_t m[N];
#pragma unroll
        for (int j = 0; j < N; j++)
            m[j] = __shfl_sync(0xffffffffu, mod.m[j], 0); // a register ptxas cannot fold
#pragma unroll 1
        for (uint64_t k = 0; k < chain; k++)
            fixed::montmul<N, fixed::Impl::ptx>(x0, x0, b0, m, mod.mp);
        store<N>(r, p, x0);
    } else if constexpr (K == IMAD || K == IMAD2) {
#pragma unroll 1
        for (uint64_t k = 0; k < chain; k++) {
            fixed::montmul<N, fixed::Impl::ptx>(x0, x0, b0, mod.m, mod.mp);
            if constexpr (K == IMAD2)
                fixed::montmul<N, fixed::Impl::ptx>(x1, x1, b1, mod.m, mod.mp);
        }
        store<N>(r, p, x0);
        if constexpr (K == IMAD2)
            store<N>(r, q, x1);
    } else if constexpr (K == CARRIES || K == CARRIES2) {
        fixed::carries::Chain<N> c0(x0, b0, mod.m, mod.mp);
        if constexpr (K == CARRIES) {
#pragma unroll 1
            for (uint64_t k = 0; k < chain; k++)
                c0.step();
        } else {
            fixed::carries::Chain<N> c1(x1, b1, mod.m, mod.mp);
#pragma unroll 1
            for (uint64_t k = 0; k < chain; k++) {
                c0.step();
                c1.step();
            }
            c1.result(x1);
            store<N>(r, q, x1);
        }
        c0.result(x0);
        store<N>(r, p, x0);
    } else if constexpr (K == COLUMNS) {
        fixed::columns::Chain<N> cc(x0, b0, mod.m, mod.mp);
#pragma unroll 1
        for (uint64_t k = 0; k < chain; k++)
            cc.step();
        cc.result(x0);
        store<N>(r, p, x0);
    } else {
        fixed::columns::Chain<N> cc(x1, b1, mod.m, mod.mp);
#pragma unroll 1
        for (uint64_t k = 0; k < chain; k++) {
            fixed::montmul<N, fixed::Impl::ptx>(x0, x0, b0, mod.m, mod.mp);
            cc.step();
        }
        cc.result(x1);
        store<N>(r, p, x0);
        store<N>(r, q, x1);
    }
}

// A random odd modulus with its top bit set; operands below it, the first elements on the
// boundary (0, 1, m - 1).
template <int N> void operands(Mod<N> &mod, std::vector<uint32_t> &a, std::vector<uint32_t> &b)
{
    uint64_t s = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        return (uint32_t)(s >> 16);
    };
    for (int j = 0; j < N; j++)
        mod.m[j] = next();
    mod.m[0] |= 1u;
    mod.m[N - 1] |= 0x80000000u;
    mod.mp = fixed::mont_neg_inv(mod.m[0]);
    for (size_t p = 0; p < COUNT; p++) {
        uint32_t x[N], y[N];
        for (int j = 0; j < N; j++)
            x[j] = next(), y[j] = next();
        x[N - 1] &= 0x7fffffffu; // below 2^(32N-1) < m
        y[N - 1] &= 0x7fffffffu;
        const size_t e = p % (COUNT / 2); // the same boundary cases in both halves
        if (e < 9) { // a, b in {0, 1, m - 1}
            const int ka = (int)e % 3, kb = (int)e / 3;
            for (int j = 0; j < N; j++) {
                const uint32_t m1 = j ? mod.m[j] : mod.m[0] - 1;
                x[j] = ka == 2 ? m1 : (j == 0 ? (uint32_t)ka : 0u);
                y[j] = kb == 2 ? m1 : (j == 0 ? (uint32_t)kb : 0u);
            }
        }
        for (int j = 0; j < N; j++)
            a[j * COUNT + p] = x[j], b[j * COUNT + p] = y[j];
    }
}

// The sample checked: the first 16 elements of each half (the boundary cases), then every 997th.
size_t next_sampled(size_t p) { return p + (p % (COUNT / 2) < 16 ? 1 : 997); }

// The IMAD path's chain on the host, Impl::c.
template <int N> void host_chain(uint32_t (&x)[N], const std::vector<uint32_t> &a,
                                 const std::vector<uint32_t> &b, size_t p, const Mod<N> &mod,
                                 uint64_t chain)
{
    uint32_t y[N];
    for (int j = 0; j < N; j++)
        x[j] = a[j * COUNT + p], y[j] = b[j * COUNT + p];
    for (uint64_t k = 0; k < chain; k++)
        fixed::montmul<N, fixed::Impl::c>(x, x, y, mod.m, mod.mp);
}

// A path's chain on the host (columns::Chain or carries::Chain) against host_chain, on the
// sample; returns mismatches.
template <int N, class Chain>
size_t check_on_host(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b,
                     const Mod<N> &mod, uint64_t chain, const char *path, size_t &checked)
{
    size_t bad = 0;
    for (size_t p = 0; p < COUNT; p = next_sampled(p)) {
        uint32_t x[N], y[N], want[N];
        for (int j = 0; j < N; j++)
            x[j] = a[j * COUNT + p], y[j] = b[j * COUNT + p];
        Chain cc(x, y, mod.m, mod.mp);
        uint32_t broken = 0; // the path's own invariant, step by step
        for (uint64_t k = 0; k < chain; k++)
            broken |= cc.step();
        cc.result(x);
        host_chain<N>(want, a, b, p, mod, chain);
        checked++;
        bool differs = broken != 0;
        for (int j = 0; j < N; j++)
            differs |= x[j] != want[j];
        if (differs && !bad++)
            fprintf(stderr,
                    "fixed_pipes: the %s path on the host, %d bits, chain %llu: element %zu "
                    "differs%s\n",
                    path, 32 * N, (unsigned long long)chain, p,
                    broken ? " (its invariant broke)" : "");
    }
    return bad;
}

template <int N> size_t check(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b,
                              const std::vector<uint32_t> &r, const Mod<N> &mod, uint64_t chain,
                              const char *kind, size_t &checked)
{
    size_t bad = 0;
    for (size_t p = 0; p < COUNT; p = next_sampled(p)) {
        uint32_t x[N];
        host_chain<N>(x, a, b, p, mod, chain);
        checked++;
        for (int j = 0; j < N; j++)
            if (r[j * COUNT + p] != x[j]) {
                if (!bad)
                    fprintf(stderr, "fixed_pipes: %s, %d bits, chain %llu: element %zu differs\n",
                            kind, 32 * N, (unsigned long long)chain, p);
                bad++;
                break;
            }
    }
    return bad;
}

template <int N> int run(held_timer &t, const char *commit)
{
    Mod<N> mod;
    std::vector<uint32_t> a(N * COUNT), b(N * COUNT), r(N * COUNT);
    operands<N>(mod, a, b);
    size_t bad = 0;
    for (int path = 0; path < 2; path++) {
        size_t host_checked = 0, host_bad = 0;
        const char *name = path ? "carries" : "columns";
        for (uint64_t chain : {100, 200})
            host_bad += path ? check_on_host<N, fixed::carries::Chain<N>>(a, b, mod, chain, name,
                                                                           host_checked)
                             : check_on_host<N, fixed::columns::Chain<N>>(a, b, mod, chain, name,
                                                                           host_checked);
        fprintf(stderr,
                "fixed_pipes: %d bits: the %s path on the host: %zu chains checked, %zu differ\n",
                32 * N, name, host_checked, host_bad);
        bad += host_bad;
    }
    uint32_t *da, *db, *dr;
    CHECK(cudaMalloc(&da, N * COUNT * 4));
    CHECK(cudaMalloc(&db, N * COUNT * 4));
    CHECK(cudaMalloc(&dr, N * COUNT * 4));
    CHECK(cudaMemcpy(da, a.data(), N * COUNT * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), N * COUNT * 4, cudaMemcpyHostToDevice));
    const char *names[KINDS] = {"imad",    "imad2",    "columns",  "pipes",
                                "carries", "carries2", "imad-regm"};
    void (*kernels[KINDS])(const uint32_t *, const uint32_t *, uint32_t *, Mod<N>, uint64_t) = {
        chain_kernel<N, IMAD>,  chain_kernel<N, IMAD2>,   chain_kernel<N, COLUMNS>,
        chain_kernel<N, PIPES>, chain_kernel<N, CARRIES>, chain_kernel<N, CARRIES2>,
        chain_kernel<N, IMAD_REGM>};
    for (int k = 0; k < KINDS; k++) {
        cudaFuncAttributes fa;
        CHECK(cudaFuncGetAttributes(&fa, kernels[k]));
        const size_t threads = two_a_thread(k) ? COUNT / 2 : COUNT;
        const unsigned grid = (unsigned)((threads + BLOCK - 1) / BLOCK);
        float ms[2][3];
        size_t checked = 0, kbad = 0;
        for (int c = 0; c < 2; c++) {
            const uint64_t chain = 100 * (c + 1);
            CHECK(cudaMemset(dr, 0, N * COUNT * 4));
            time_held(t, REPS, WARMUP, [&](cudaStream_t s) {
                kernels[k]<<<grid, BLOCK, 0, s>>>(da, db, dr, mod, chain);
            }, ms[c]);
            CHECK(cudaMemcpy(r.data(), dr, N * COUNT * 4, cudaMemcpyDeviceToHost));
            kbad += check<N>(a, b, r, mod, chain, names[k], checked);
        }
        bad += kbad;
        const double rate = 100.0 * COUNT / ((ms[1][0] - ms[0][0]) / 1000.0);
        char row[256];
        probe_row_start(row, commit, COUNT);
        printf("%s,%d,%s,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,%.4g,%zu,%zu\n", row, 32 * N, names[k],
               fa.numRegs, ms[0][0], ms[0][1], ms[0][2], ms[1][0], ms[1][1], ms[1][2], rate,
               checked, kbad);
        fflush(stdout);
    }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dr));
    return bad != 0;
}

} // namespace

int main(int argc, char **argv)
{
    const char *commit = argc > 1 ? argv[1] : "unknown";
    held_timer t;
    held_timer_init(t);
    printf("commit,date,device,count,bits,kernel,registers,median_ms_100,min_ms_100,max_ms_100,"
           "median_ms_200,min_ms_200,max_ms_200,montmul_per_s,checked,mismatches\n");
    int bad = run<8>(t, commit);
    bad |= run<12>(t, commit);
    return bad;
}
