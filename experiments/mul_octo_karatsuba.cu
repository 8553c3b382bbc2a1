// One Karatsuba level inside octo-comba-reg at 2048 bits x 10240 products (issue 39): does a
// quarter fewer multiply-adds pay for the operand sums, three exchanges and signed carries? A
// probe outside the build, compiled and run on the GPU machine by
// experiments/mul_octo_karatsuba.sh. Measured slower (docs/000-mul.md, "Tried in the session after
// `bde64c0`"), so not in the library.
//
// Eight threads a product, as octo-comba-reg. With a = a0 + a1 X, b = b0 + b1 X (X = 2^1024),
// sa and sb the low 1024 bits of a0 + a1 and b0 + b1, and ca and cb their carries:
//   L = a0 b0, H = a1 b1, M = sa sb + (ca sb + cb sa) X + ca cb X^2 = (a0 + a1)(b0 + b1),
//   c = L + (M - L - H) X + H X^2.
// Each of L, H and sa sb is a 32 x 32-word product that mul_thread_comba_reg.cu's product_part
// computes as octo-comba-reg computes 1024-bit products (thread h: its four words of the one
// operand against all 32 of the other, the exchange, the carries), leaving lane h words 4h and
// 32 + 4h of each. Then lane h holds the four 4-word chunks 8m + h (m = 0..3) of c:
//   m = 0: L words 4h                 m = 1: L 32 + 4h, + (M - L - H) 4h
//   m = 2: (M - L - H) 32 + 4h, + H 4h    m = 3: H 32 + 4h (+ ca cb at word 96, lane 0)
// each with a signed spill (carry or borrow out) into the next chunk, resolved as
// mp::resolve_range_carries resolves its spills, in two lookaheads (carries, then borrows) that
// random operands all but never need. The products run one after the other, b's halves loaded
// for each and again for their sum, and the kernel is held to 96 registers: the one wave of
// 10240 products puts up to ten blocks of two warps on an SM (and once unbounded, to compare).
//
// Times, held (median of 50 after 5 warm-up runs), octo-comba-reg's committed kernel and this
// one, bounded and not, in ROUNDS rounds, the kernel that runs first rotating; checks every
// product of each against a schoolbook product on the host (random operands, and all-ones and
// other boundary operands in the first products). CSV on stdout: one row a kernel and round.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <vector>

#include "../kernels/stream_hold.cu"

#define PROBE_NAME "mul_octo_karatsuba"
#include "probe_check.cuh"
#include "probe_run.cuh"

#include "../kernels/mul_thread_comba_reg.cu"

namespace {

constexpr int N = 64, T = 8, NH = 32, K = NH / T; // words an operand, threads, a half, a share
constexpr uint32_t LANES = (1u << T) - 1;          // a product's bits of a warp vote
constexpr int REPS = 50, WARMUP = 5, ROUNDS = 9;
constexpr size_t COUNT = 10240;

// v += s (signed, sign-extended over K words); returns the carry out: -1, 0 or 1.
__device__ __forceinline__ int add_signed(uint32_t (&v)[K], int s)
{
    const uint32_t ext = s < 0 ? 0xffffffffu : 0u;
    v[0] = ptx::add_cc(v[0], (uint32_t)s);
#pragma unroll
    for (int j = 1; j < K; j++)
        v[j] = ptx::addc_cc(v[j], ext);
    return (int)ptx::addc(0u, 0u) - (s < 0 ? 1 : 0);
}

// x += y (returns the carry), x -= y (returns minus the borrow), over K words.
__device__ __forceinline__ int add_k(uint32_t (&x)[K], const uint32_t (&y)[K])
{
    return (int)mp::add_words<K>(x, y, 0u);
}
__device__ __forceinline__ int sub_k(uint32_t (&x)[K], const uint32_t (&y)[K])
{
    return -(int)mp::sub_words<K>(x, x, y, 0u);
}

// A 16-byte load the compiler neither merges with an earlier one of the same address nor
// hoists: the halves of b are loaded again for their sum rather than kept live.
__device__ __forceinline__ uint4 ld_volatile(const uint4 *v)
{
    uint4 r;
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                 : "l"(v));
    return r;
}

__device__ __forceinline__ bool all_zeros(const uint32_t (&x)[K])
{
    uint32_t v = x[0];
#pragma unroll
    for (int j = 1; j < K; j++)
        v |= x[j];
    return v == 0;
}

// Bit k (k = 8m + t) of the product's 4T chunks from pred, slot m, lane t of this product.
__device__ __forceinline__ uint32_t chunk_bits(const bool (&pred)[4], unsigned shift)
{
    uint32_t bits = 0;
#pragma unroll
    for (int m = 0; m < 4; m++)
        bits |= (__ballot_sync(0xffffffffu, pred[m]) >> shift & LANES) << (T * m);
    return bits;
}

// MIN_BLOCKS 10, ten blocks of two warps an SM: the one wave of 10240 products (up to 20 warps
// an SM) fits only in 96 registers a thread. MIN_BLOCKS 1 leaves ptxas free (172 registers).
template <int MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    octo_karatsuba_kernel(const uint4 *__restrict__ a, const uint4 *__restrict__ b,
                          uint4 *__restrict__ c, size_t count)
{
    const size_t thread = (size_t)blockIdx.x * THREADS + threadIdx.x;
    const size_t p = thread / T, at = p < count ? p : count - 1;
    const unsigned h = (unsigned)(thread % T);
    const unsigned shift = threadIdx.x % 32 / T * T;

    uint32_t a0h[K], a1h[K];
    mp::words_from_vectors<K>(a0h, a + at * (N / 4) + h * (K / 4));
    mp::words_from_vectors<K>(a1h, a + at * (N / 4) + NH / 4 + h * (K / 4));
    const uint4 *b0v = b + at * (N / 4), *b1v = b0v + NH / 4;

    // sah = words 4h of a0 + a1: the lanes' chunk sums, the carries between them by lookahead;
    // ca the carry out of the top.
    uint32_t sah[K];
#pragma unroll
    for (int j = 0; j < K; j++)
        sah[j] = a0h[j];
    const uint32_t g = mp::add_words<K>(sah, a1h, 0u);
    const uint64_t gen = __ballot_sync(0xffffffffu, g) >> shift & LANES;
    const uint64_t prop = __ballot_sync(0xffffffffu, mp::all_ones<K>(sah)) >> shift & LANES;
    const uint64_t carries = mp::lookahead_carries(gen, gen | prop, 0);
    mp::add_bit<K>(sah, (uint32_t)(carries >> h) & 1);
    const uint32_t ca = (uint32_t)(carries >> T) & 1;

    // The three products one after the other, each half of b loaded for its own, so that no
    // more than one 32-word operand is live at a time.
    uint32_t l_lo[K], l_hi[K], h_lo[K], h_hi[K], m_lo[K], m_hi[K];
    {
        uint32_t b0[NH];
        mp::words_from_vectors<NH>(b0, b0v);
        product_part<NH, T, 2>(l_lo, l_hi, a0h, b0, h);
    }
    {
        uint32_t b1[NH];
        mp::words_from_vectors<NH>(b1, b1v);
        product_part<NH, T, 2>(h_lo, h_hi, a1h, b1, h);
    }
    // sb = b0 + b1 mod 2^1024 and its carry cb, in every thread; sbh its words 4h.
    uint32_t sb[NH], cb = 0;
#pragma unroll
    for (int v = 0; v < NH / 4; v++) {
        const uint4 x = ld_volatile(b0v + v), y = ld_volatile(b1v + v);
        const uint32_t xs[4] = {x.x, x.y, x.z, x.w}, ys[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const uint64_t t = (uint64_t)xs[j] + ys[j] + cb;
            sb[4 * v + j] = (uint32_t)t;
            cb = (uint32_t)(t >> 32);
        }
    }
    uint32_t sbh[K];
#pragma unroll
    for (int j = 0; j < K; j++) {
        uint32_t v = sb[j];
#pragma unroll
        for (int t = 1; t < T; t++)
            v = h == (unsigned)t ? sb[K * t + j] : v;
        sbh[j] = v;
    }
    product_part<NH, T, 2>(m_lo, m_hi, sah, sb, h);

    // The four chunks 8m + h of c and what each carries (+) or borrows (-) out.
    uint32_t s[4][K];
    int spill[4];
#pragma unroll
    for (int j = 0; j < K; j++) {
        s[0][j] = l_lo[j];
        s[1][j] = l_hi[j];
        s[2][j] = m_hi[j];
        s[3][j] = h_hi[j];
    }
    spill[0] = 0;
    spill[1] = add_k(s[1], m_lo) + sub_k(s[1], l_lo) + sub_k(s[1], h_lo);
    uint32_t corr[K];
#pragma unroll
    for (int j = 0; j < K; j++)
        corr[j] = ca ? sbh[j] : 0u;
    spill[2] = add_k(s[2], corr);
#pragma unroll
    for (int j = 0; j < K; j++)
        corr[j] = cb ? sah[j] : 0u;
    spill[2] += add_k(s[2], corr) + sub_k(s[2], l_hi) + sub_k(s[2], h_hi) + add_k(s[2], h_lo);
    spill[3] = h == 0 ? add_signed(s[3], (int)(ca & cb)) : 0;

    // Each spill into the next chunk: lane t + 1's same slot, or lane 0's next slot.
    const unsigned from = (h + T - 1) % T;
    int in[4], out[4];
#pragma unroll
    for (int m = 0; m < 4; m++)
        in[m] = __shfl_sync(0xffffffffu, spill[m], from, T);
#pragma unroll
    for (int m = 0; m < 4; m++)
        out[m] = add_signed(s[m], h ? in[m] : (m ? in[m - 1] : 0));
    // Chunk 31's carry out is zero: the product fits.
    if (__any_sync(0xffffffffu, out[0] | out[1] | out[2] | out[3])) {
        bool pg[4], pp[4];
#pragma unroll
        for (int m = 0; m < 4; m++) {
            pg[m] = out[m] > 0;
            pp[m] = mp::all_ones<K>(s[m]);
        }
        uint64_t gp = chunk_bits(pg, shift), pr = chunk_bits(pp, shift);
        const uint64_t up = mp::lookahead_carries(gp, gp | pr, 0);
#pragma unroll
        for (int m = 0; m < 4; m++)
            mp::add_bit<K>(s[m], (uint32_t)(up >> (T * m + h)) & 1);
#pragma unroll
        for (int m = 0; m < 4; m++) {
            pg[m] = out[m] < 0;
            pp[m] = all_zeros(s[m]);
        }
        gp = chunk_bits(pg, shift), pr = chunk_bits(pp, shift);
        const uint64_t down = mp::lookahead_carries(gp, gp | pr, 0);
#pragma unroll
        for (int m = 0; m < 4; m++)
            add_signed(s[m], -(int)((down >> (T * m + h)) & 1));
    }
    if (p < count) {
        uint4 *cp = c + p * (N / 2) + h;
#pragma unroll
        for (int m = 0; m < 4; m++)
            mp::words_to_vectors<K>(cp + 8 * m, s[m]);
    }
}

// The schoolbook product of product p, checked word by word against c.
static void check(const char *kernel, const std::vector<uint32_t> &ha,
                  const std::vector<uint32_t> &hb, const std::vector<uint32_t> &hc)
{
    std::vector<uint32_t> want(2 * N);
    for (size_t p = 0; p < COUNT; p++) {
        std::fill(want.begin(), want.end(), 0u);
        for (int i = 0; i < N; i++) {
            uint64_t carry = 0;
            for (int j = 0; j < N; j++) {
                const uint64_t t = (uint64_t)ha[p * N + i] * hb[p * N + j] + want[i + j] + carry;
                want[i + j] = (uint32_t)t;
                carry = t >> 32;
            }
            want[i + N] = (uint32_t)carry;
        }
        for (int w = 0; w < 2 * N; w++)
            if (hc[p * 2 * N + w] != want[w]) {
                fprintf(stderr, "mul_octo_karatsuba: %s: product %zu word %d is %08x, not %08x\n",
                        kernel, p, w, hc[p * 2 * N + w], want[w]);
                exit(1);
            }
    }
}

} // namespace

int main(int argc, char **argv)
{
    const char *commit = argc > 1 ? argv[1] : "unknown";
    std::vector<uint32_t> ha(COUNT * N), hb(COUNT * N);
    probe_operands(ha, hb, 0u);
    // Boundary operands in the first products: all ones (both, and against one and zero), one
    // half all ones and the other zero, the top bit alone.
    for (int w = 0; w < N; w++) {
        ha[0 * N + w] = hb[0 * N + w] = 0xffffffffu;
        ha[1 * N + w] = 0xffffffffu, hb[1 * N + w] = w == 0;
        ha[2 * N + w] = 0xffffffffu, hb[2 * N + w] = 0;
        ha[3 * N + w] = w < NH ? 0xffffffffu : 0, hb[3 * N + w] = w < NH ? 0 : 0xffffffffu;
        ha[4 * N + w] = w < NH ? 0 : 0xffffffffu, hb[4 * N + w] = 0xffffffffu;
        ha[5 * N + w] = hb[5 * N + w] = w == N - 1 ? 0x80000000u : 0;
        ha[6 * N + w] = 0xffffffffu, hb[6 * N + w] = w == NH ? 1 : 0;
    }
    uint4 *a, *b, *c;
    CHECK(cudaMalloc(&a, ha.size() * 4));
    CHECK(cudaMalloc(&b, hb.size() * 4));
    CHECK(cudaMalloc(&c, 2 * ha.size() * 4));
    CHECK(cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    held_timer t;
    held_timer_init(t);
    const unsigned blocks = (unsigned)((COUNT * T + THREADS - 1) / THREADS);
    constexpr int KERNELS = 3;
    const char *names[KERNELS] = {"octo-comba-reg", "octo-karatsuba", "octo-karatsuba-unbounded"};
    auto launch = [&](int k, cudaStream_t s) {
        if (k == 0)
            comba_reg_kernel<N, T><<<blocks, THREADS, 0, s>>>(a, b, c, COUNT);
        else if (k == 1)
            octo_karatsuba_kernel<10><<<blocks, THREADS, 0, s>>>(a, b, c, COUNT);
        else
            octo_karatsuba_kernel<1><<<blocks, THREADS, 0, s>>>(a, b, c, COUNT);
    };
    std::vector<uint32_t> hc(2 * ha.size());
    for (int k = 0; k < KERNELS; k++) {
        CHECK(cudaMemset(c, 0, hc.size() * 4));
        launch(k, t.s);
        CHECK(cudaGetLastError());
        CHECK(cudaStreamSynchronize(t.s));
        CHECK(cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost));
        check(names[k], ha, hb, hc);
    }
    printf("commit,date,device,count,bits,kernel,round,median_ms,min_ms,max_ms\n");
    char row[256];
    probe_row_start(row, commit, COUNT);
    int last = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < KERNELS; i++) {
            const int k = last = (r + i) % KERNELS; // the kernel that runs first rotates
            float e[3];
            time_held(t, REPS, WARMUP, [&](cudaStream_t s) { launch(k, s); }, e);
            printf("%s,%d,%s,%d,%.6f,%.6f,%.6f\n", row, 32 * N, names[k], r, e[0], e[1], e[2]);
        }
    CHECK(cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost));
    check(names[last], ha, hb, hc);
    return 0;
}
