// What no product kernel at 10240 products can go below, timed as mpgpu times (issue 39). A probe
// outside the build, compiled and run on the GPU machine by experiments/mul_floor.sh:
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -o mul_floor \
//        experiments/mul_floor.cu && ./mul_floor COMMIT
// At 256 to 2048 bits and 10240 products mpgpu's fastest methods and CGBN both take a few
// microseconds, most of it what every kernel pays (docs/peers.md). This probe times, held as
// cli/timing.c holds (the stream waits behind kernels/stream_hold.cu while the events and the
// kernel are queued; the flags allocated once), median of 50 after 5 warm-up runs, at each size:
// - empty: a kernel that does nothing, on the grid of T threads a product in 64-thread blocks
//   (the same at every size), and on one block (kernel empty-one-block, T given as 0): what the
//   launch and the events cost any kernel, whatever its grid;
// - copy: a kernel that moves what a product kernel must move and nothing more: it reads both
//   operands of each product and writes them as the product's 2N words (c = a, then b), by
//   16-byte vectors in the product-major layout, T threads a product (thread h takes vectors
//   h, h + T, ... of the product), with T = 1, 2, 4 and 8 as the comba-reg methods.
// The copies are checked word by word after the timing, so the floor moved the real bytes.
// Writes CSV to stdout: one row a kernel and T (the empty kernel's rows say 0 bits).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "../kernels/stream_hold.cu"

#define PROBE_NAME "mul_floor"
#include "probe_check.cuh"
#include "probe_run.cuh"

constexpr int REPS = 50, WARMUP = 5, THREADS = 64;
constexpr size_t COUNT = 10240;

__global__ void __launch_bounds__(THREADS) empty_kernel() {}

// c's product p = a's p, then b's p: Q vectors each.
template <int Q, int T>
__global__ void __launch_bounds__(THREADS) copy_kernel(const uint4 *__restrict__ a,
                                                       const uint4 *__restrict__ b,
                                                       uint4 *__restrict__ c, size_t count)
{
    const size_t thread = (size_t)blockIdx.x * THREADS + threadIdx.x;
    const size_t p = thread / T;
    const unsigned h = (unsigned)(thread % T);
    if (p >= count)
        return;
#pragma unroll
    for (int v = h; v < 2 * Q; v += T)
        c[p * 2 * Q + v] = v < Q ? a[p * Q + v] : b[p * Q + v - Q];
}

static unsigned blocks_for(int t) { return (unsigned)((COUNT * t + THREADS - 1) / THREADS); }

template <int N, int T>
void copy_case(held_timer &t, const char *row, const uint4 *a, const uint4 *b, uint4 *c,
               const std::vector<uint32_t> &ha, const std::vector<uint32_t> &hb)
{
    constexpr int Q = N / 4;
    CHECK(cudaMemset(c, 0, COUNT * 2 * N * 4));
    float r[3];
    const unsigned blocks = blocks_for(T);
    auto launch = [&](cudaStream_t s) {
        copy_kernel<Q, T><<<blocks, THREADS, 0, s>>>(a, b, c, COUNT);
    };
    time_held(t, REPS, WARMUP, launch, r);
    std::vector<uint32_t> hc(COUNT * 2 * N);
    CHECK(cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t p = 0; p < COUNT; p++)
        for (int j = 0; j < 2 * N; j++) {
            const uint32_t want = j < N ? ha[p * N + j] : hb[p * N + j - N];
            if (hc[p * 2 * N + j] != want) {
                fprintf(stderr, "mul_floor: copy of %d bits, T = %d: product %zu word %d is %08x, "
                                "not %08x\n", 32 * N, T, p, j, hc[p * 2 * N + j], want);
                exit(1);
            }
        }
    printf("%s,%d,copy,%d,%.5f,%.5f,%.5f\n", row, 32 * N, T, r[0], r[1], r[2]);
}

template <int N>
void size_cases(held_timer &t, const char *row, const uint4 *a, const uint4 *b, uint4 *c,
                const std::vector<uint32_t> &ha, const std::vector<uint32_t> &hb)
{
    copy_case<N, 1>(t, row, a, b, c, ha, hb);
    copy_case<N, 2>(t, row, a, b, c, ha, hb);
    copy_case<N, 4>(t, row, a, b, c, ha, hb);
    copy_case<N, 8>(t, row, a, b, c, ha, hb);
}

int main(int argc, char **argv)
{
    const char *commit = argc > 1 ? argv[1] : "unknown";
    constexpr int MOST = 64; // words an operand, 2048 bits
    std::vector<uint32_t> ha(COUNT * MOST), hb(COUNT * MOST);
    probe_operands(ha, hb, 1u); // b never zero
    uint4 *a, *b, *c;
    CHECK(cudaMalloc(&a, ha.size() * 4));
    CHECK(cudaMalloc(&b, hb.size() * 4));
    CHECK(cudaMalloc(&c, 2 * ha.size() * 4));
    held_timer t;
    held_timer_init(t);
    printf("commit,date,device,count,bits,kernel,threads_per_product,median_ms,min_ms,max_ms\n");
    char row[256];
    probe_row_start(row, commit, COUNT);
    for (int threads : {0, 1, 2, 4, 8}) {
        float e[3];
        const unsigned blocks = threads ? blocks_for(threads) : 1;
        auto launch = [&](cudaStream_t s) { empty_kernel<<<blocks, THREADS, 0, s>>>(); };
        time_held(t, REPS, WARMUP, launch, e);
        printf("%s,0,%s,%d,%.5f,%.5f,%.5f\n", row, threads ? "empty" : "empty-one-block", threads,
               e[0], e[1], e[2]);
    }
    // Each size's operands: the first COUNT * N words of ha and hb, product-major.
    for (int n : {8, 16, 32, 64}) {
        CHECK(cudaMemcpy(a, ha.data(), COUNT * n * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(b, hb.data(), COUNT * n * 4, cudaMemcpyHostToDevice));
        std::vector<uint32_t> sa(ha.begin(), ha.begin() + COUNT * n);
        std::vector<uint32_t> sb(hb.begin(), hb.begin() + COUNT * n);
        switch (n) {
        case 8: size_cases<8>(t, row, a, b, c, sa, sb); break;
        case 16: size_cases<16>(t, row, a, b, c, sa, sb); break;
        case 32: size_cases<32>(t, row, a, b, c, sa, sb); break;
        default: size_cases<64>(t, row, a, b, c, sa, sb); break;
        }
    }
    return 0;
}
