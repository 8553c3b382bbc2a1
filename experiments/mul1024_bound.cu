// What bounds 1024-bit products at 2^20 (issue 13's 6.5e9/s, 0.161 ms): memory, or the
// arithmetic? A probe outside the build, compiled and run on the GPU machine by
// experiments/mul1024_bound.sh:
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -o mul1024_bound \
//        experiments/mul1024_bound.cu && ./mul1024_bound COMMIT [RUN ...]
// (the RUNs named, after memcpy; all of them without a name)
// It times, on the same word-major batch that `mpgpu mul` multiplies (A[i * count + p]):
// - memcpy: cudaMemcpyDeviceToDevice of the same 512 bytes a product (operands in, product
//   out): the memory floor as the driver reaches it;
// - copy: a kernel reading both operands and writing 64 words a product in that layout;
// - school, kara: one thread a product, operands straight from device memory into registers,
//   32x32 schoolbook carry-chain rows, and the leaf of thread-rowchain-karatsuba's direct
//   kernel (one Karatsuba level over three 16x16-word products by product scanning,
//   comba_product in kernels/rowchain_leaf.cuh: one IMAD.WIDE with a carry out per word
//   product, the carries summed two at a time);
// - kara-rows (experiments/mul1024_comba.sh): the same leaf on carry-chain rows, every row an
//   IMAD.WIDE per word product and one carry chain: the kernel's leaf until product scanning,
//   and what the runs below, all measured before that change, call kara;
// - school-l2, kara-l2: the same kernels with every thread's addresses folded onto the first
//   8192 products, so operands and products stay in L2 and device memory is nearly idle.
// - kara-folded*, kara-fp64*: the same leaf (direct_leaf, with the rows policy `forms`) with
//   some of its three products M = |a0 - a1| |b0 - b1|, L = a0 b0 and H = a1 b1 in another form
//   than carry-chain rows: rows with folded carries (folded_carry_product: all three, M,
//   M and L, or H), or on the FP64 pipe (fp64col: M, or M and L), at 4 blocks an SM (128
//   registers) and, with the suffix -3, at 3 (168 registers); fp64-x3: the FP64 path alone,
//   three 16x16-word products a thread, for its own rate. Do fewer IMAD.MOV, or the idle FP64
//   pipe, take work off the IMAD pipe?
// - kara29, kara-lop3* (experiments/mul1024_split.sh): the same Karatsuba level on digits of 29
//   bits, every digit product a 64-bit multiply-accumulate into its column (radix29 below): no
//   zero high word, no carry chain, but 972 digit products for the leaf's 768 word products;
//   and the leaf on carry-chain rows with the zero high words of its addends made by LOP3 on the
//   ALU pipe (lop3_zero_high): in all three products, in M and L and every other word of H, or
//   every other word of all three. Does a split of the work closer to even between the IMAD
//   and ALU pipes pay?
// - kara-pf (experiments/mul1024_prefetch.sh): the same leaf, 16 products a thread, each
//   product's operands copied ahead into shared memory by cp.async (namespace prefetch). Does
//   hiding the operand loads pay? split3-bound-*: the leaf's three products on three warps, for
//   more warps a scheduler, with a cheaper stand-in for their combination (namespace split3).
// If the -l2 runs take as long as the others, the kernels are bound by their arithmetic, not
// by memory. The products of school, kara, kara29 and the kara-* runs are compared with a CPU
// schoolbook on a sample (the first 64 and every 97th, 10874 of them); a mismatch exits 1.
// Writes CSV to stdout.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "../kernels/rowchain_leaf.cuh"

#define PROBE_NAME "mul1024_bound"
#include "probe_check.cuh"

constexpr int WORDS = 32, REPS = 20, WARMUP = 3;
constexpr size_t L2_PRODUCTS = 8192; // 4 MiB of operands and products: L2-resident

// Carry-chain rows: the direct kernel's leaf products before product scanning (comba_product in
// kernels/rowchain_leaf.cuh), and the form the probe's other runs vary. Operand scanning with
// the row's products independent: t_j = a_j b_i + r_j (at most 2^64 - 2^32, so no carry leaves
// it), then one carry chain r_j = lo(t_(j+1)) + hi(t_j). Its last link cannot carry out: the
// window plus a * b_i is below X^(N+1) and its lowest word has left. Fewer dependent steps than
// the row chains (IMAD.WIDE into a window, no carry flag) that the block kernel's leaf had until
// issue 39, and slower there (5-7 % at 2048-8192 bits on an H200, docs/000-mul.md, "How we got
// here"). addend(j, r_j) forms the 64-bit addend of t_j: r_j zero-extended by default;
// lop3_zero_high below makes the zero high word on the ALU pipe.
struct zero_extended {
    __device__ __forceinline__ uint64_t operator()(int, uint32_t r) const { return r; }
};

template <int N, class LoadB, class StoreC, class Addend = zero_extended>
__device__ __forceinline__ void carry_chain_product(const uint32_t (&a)[N], LoadB load_b,
                                                    StoreC store_c, Addend addend = {})
{
    uint32_t r[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        r[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        const uint32_t b = load_b(i);
        uint32_t lo[N], hi[N];
#pragma unroll
        for (int j = 0; j < N; j++) {
            const uint64_t t = (uint64_t)a[j] * b + addend(j, r[j]);
            lo[j] = (uint32_t)t;
            hi[j] = (uint32_t)(t >> 32);
        }
        store_c(i, lo[0]);
        r[0] = ptx::add_cc(lo[1], hi[0]);
#pragma unroll
        for (int j = 1; j < N - 1; j++)
            r[j] = ptx::addc_cc(lo[j + 1], hi[j]);
        r[N - 1] = ptx::addc(hi[N - 1], 0);
    }
#pragma unroll
    for (int j = 0; j < N; j++)
        store_c(N + j, r[j]);
}

// The direct leaf's rows policy for carry-chain rows (kara-rows, and the base of the runs that
// put some of the leaf's products in other forms).
struct carry_chain_rows {
    template <rowchain::leaf_part W, int N, class LoadB, class StoreC>
    static __device__ __forceinline__ void product(const uint32_t (&a)[N], LoadB load_b,
                                                   StoreC store_c)
    {
        carry_chain_product<N>(a, load_b, store_c);
    }
};

__device__ __forceinline__ size_t product_of_thread(bool l2)
{
    const size_t p = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    return l2 ? p % L2_PRODUCTS : p;
}

template <bool L2>
__global__ void __launch_bounds__(128) school(const uint32_t *__restrict__ A,
                                              const uint32_t *__restrict__ B,
                                              uint32_t *__restrict__ C, size_t count)
{
    if (blockIdx.x * (size_t)blockDim.x + threadIdx.x >= count)
        return;
    const size_t p = product_of_thread(L2);
    uint32_t a[WORDS];
#pragma unroll
    for (int j = 0; j < WORDS; j++)
        a[j] = __ldg(A + j * count + p);
    carry_chain_product<WORDS>(
        a, [&](int i) { return __ldg(B + i * count + p); },
        [&](int q, uint32_t v) { C[q * count + p] = v; });
}

// The leaf of thread-rowchain-karatsuba's direct kernel (rowchain_direct.cu), 64 threads a
// block and 8 blocks an SM as there (kara-128: 128 threads and 4 blocks), here also with its
// operands folded into L2; with Rows = carry_chain_rows, the same leaf on carry-chain rows
// (kara-rows).
template <bool L2, class Rows = rowchain::comba_columns, unsigned THREADS = 64>
__global__ void __launch_bounds__(THREADS, 512 / THREADS) kara(const uint32_t *__restrict__ A,
                                                               const uint32_t *__restrict__ B,
                                                               uint32_t *__restrict__ C,
                                                               size_t count)
{
    if (blockIdx.x * (size_t)blockDim.x + threadIdx.x >= count)
        return;
    const size_t p = product_of_thread(L2);
    rowchain::direct_leaf<Rows>([&](int j) { return __ldg(A + j * count + p); },
                                [&](int j) { return __ldg(B + j * count + p); },
                                [&](int q, uint32_t v) { C[q * count + p] = v; });
}

// The FP64 pipe (issue 13's second option beside the tensor cores): an N x N-word product with
// the operands cut into 24-bit limbs held as doubles, each product column a sum of limb
// products by DFMA, and a carry pass back to 32-bit words. Why try it: the IMAD pipe bounds the
// integer leaf, and on Hopper the FP64 pipe is as wide (64 DFMA a clock an SM) and idle there.
// Exactness: a limb is below 2^24, a limb product below 2^48. Each column is split over two
// accumulators (limbs of even and odd index of x), at most ceil(L/2) products each, so a sum
// stays below 2^52 for L <= 32 limbs (N <= 24). An accumulator starts at 2^52: it then stays in
// [2^52, 2^53), where doubles are the integers, every DFMA is exact, and the sum is the low 52
// bits of the double's encoding, with no conversion instruction.
namespace fp64col {

__host__ __device__ constexpr int limbs_of(int words) { return (32 * words + 23) / 24; }

// Limb k of x: bits 24k .. 24k + 23.
template <int N>
__device__ __forceinline__ uint32_t limb24(const uint32_t (&x)[N], int k)
{
    const int w = 24 * k / 32, s = 24 * k % 32;
    const uint32_t lo = x[w], hi = w + 1 < N ? x[w + 1] : 0u;
    return s <= 8 ? (lo >> s) & 0xffffffu : __funnelshift_r(lo, hi, s) & 0xffffffu;
}

// A value below 2^32 as a double: 2^52 + v has v as the low word of its encoding.
__device__ __forceinline__ double small_to_double(uint32_t v)
{
    return __hiloint2double(0x43300000, (int)v) - 0x1p52;
}

// The low 52 bits of an accumulator's encoding: its sum, once 2^52 is taken away.
__device__ __forceinline__ uint64_t column_sum(double acc)
{
    return (uint64_t)__double_as_longlong(acc) & ((1ull << 52) - 1);
}

// c[0 .. 2N) = x * y; store_c(q, v) takes product word q, each once, in increasing order.
template <int N, class StoreC>
__device__ __forceinline__ void product(const uint32_t (&x)[N], const uint32_t (&y)[N],
                                        StoreC store_c)
{
    constexpr int L = limbs_of(N), COLUMNS = 2 * L - 1, DIGITS = (64 * N + 23) / 24;
    static_assert(L <= 32, "a column of more than 32 limb products could reach 2^52");
    double xd[L], yd[L];
#pragma unroll
    for (int k = 0; k < L; k++) {
        xd[k] = small_to_double(limb24<N>(x, k));
        yd[k] = small_to_double(limb24<N>(y, k));
    }
    uint32_t digit[DIGITS > COLUMNS ? DIGITS : COLUMNS];
    uint64_t carry = 0;
    int stored = 0;
#pragma unroll
    for (int k = 0; k < (DIGITS > COLUMNS ? DIGITS : COLUMNS); k++) {
        if (k < COLUMNS) {
            double even = 0x1p52, odd = 0x1p52;
#pragma unroll
            for (int j = 0; j < L; j++) {
                if (k - j < 0 || k - j >= L)
                    continue;
                if (j % 2)
                    odd = __fma_rn(xd[j], yd[k - j], odd);
                else
                    even = __fma_rn(xd[j], yd[k - j], even);
            }
            carry += column_sum(even) + column_sum(odd);
        }
        digit[k] = (uint32_t)carry & 0xffffffu;
        carry >>= 24;
        // Word q is complete with digit (32q + 31) / 24, and a digit completes one word at most.
        if (stored < 2 * N && (32 * stored + 31) / 24 == k) {
            const int d = 32 * stored / 24, o = 32 * stored % 24;
            store_c(stored, digit[d] >> o | digit[d + 1] << (24 - o));
            stored++;
        }
    }
}

} // namespace fp64col

// Row products without the zero high word that carry_chain_product's addend r_j needs (the
// 644 IMAD.MOV a product of docs/000-mul.md, "How we got here"): each row's addend is the 64-bit
// x_j = hi(t_j) + lo(t_(j+1)) of the row before, made by one 64-bit add on the ALU pipe, and
// t_j = a_j b_i + x_j. No carry chain runs along a row: x_j < 2^33 - 1, and (2^32 - 1)^2 +
// 2^33 - 2 = 2^64 - 1, so t_j cannot overflow, and the x_j of the last row are summed once.
template <int N, class LoadB, class StoreC>
__device__ __forceinline__ void folded_carry_product(const uint32_t (&a)[N], LoadB load_b,
                                                     StoreC store_c)
{
    uint64_t x[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        x[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        const uint32_t b = load_b(i);
        uint32_t lo[N], hi[N];
#pragma unroll
        for (int j = 0; j < N; j++) {
            const uint64_t t = (uint64_t)a[j] * b + x[j];
            lo[j] = (uint32_t)t;
            hi[j] = (uint32_t)(t >> 32);
        }
        store_c(i, lo[0]);
#pragma unroll
        for (int j = 0; j + 1 < N; j++)
            x[j] = (uint64_t)hi[j] + lo[j + 1];
        x[N - 1] = hi[N - 1];
    }
    uint64_t c = 0;
#pragma unroll
    for (int j = 0; j < N; j++) {
        c += x[j];
        store_c(N + j, (uint32_t)c);
        c >>= 32;
    }
}

// carry_chain_product's addend r_j with its zero high word made on the ALU pipe, as z & r_j (a
// LOP3), where ptxas writes it by IMAD.MOV on the IMAD pipe: z is a zero that ptxas cannot see
// (the dynamic shared memory size; the probe launches without any). On the words j with
// j % EVERY == 0; the others are left to ptxas.
template <int EVERY> struct lop3_zero_high {
    uint32_t z;
    __device__ __forceinline__ uint64_t operator()(int j, uint32_t r) const
    {
        if (j % EVERY)
            return r;
        uint64_t x;
        asm("{ .reg .b32 h; and.b32 h, %1, %2; mov.b64 %0, {%1, h}; }" : "=l"(x) : "r"(r), "r"(z));
        return x;
    }
};

// How the probe's leaf multiplies each of its three 16x16-word products: the rows policy of
// rowchain::direct_leaf, so that the probe times the kernel's own leaf with some of its products
// in another form.
enum form { CHAIN, FOLDED, FP64, LOP3, LOP3_HALF };

template <form FM, form FL, form FH> struct forms {
    template <rowchain::leaf_part W, int N, class LoadB, class StoreC>
    static __device__ __forceinline__ void product(const uint32_t (&a)[N], LoadB load_b,
                                                   StoreC store_c)
    {
        constexpr form F = W == rowchain::PART_M ? FM : W == rowchain::PART_L ? FL : FH;
        if (F == CHAIN) {
            carry_chain_product<N>(a, load_b, store_c);
        } else if (F == FOLDED) {
            folded_carry_product<N>(a, load_b, store_c);
        } else if (F == LOP3 || F == LOP3_HALF) {
            uint32_t z;
            asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(z));
            carry_chain_product<N>(a, load_b, store_c,
                                             lop3_zero_high<F == LOP3 ? 1 : 2>{z});
        } else {
            uint32_t b[N];
#pragma unroll
            for (int i = 0; i < N; i++)
                b[i] = load_b(i);
            fp64col::product<N>(a, b, store_c);
        }
    }
};

template <form FM, form FL, form FH, int BLOCKS_PER_SM>
__global__ void __launch_bounds__(128, BLOCKS_PER_SM) kara_forms(const uint32_t *__restrict__ A,
                                                                 const uint32_t *__restrict__ B,
                                                                 uint32_t *__restrict__ C,
                                                                 size_t count)
{
    if (blockIdx.x * (size_t)blockDim.x + threadIdx.x >= count)
        return;
    const size_t p = product_of_thread(false);
    rowchain::direct_leaf<forms<FM, FL, FH>>([&](int j) { return __ldg(A + j * count + p); },
                                             [&](int j) { return __ldg(B + j * count + p); },
                                             [&](int q, uint32_t v) { C[q * count + p] = v; });
}

// The FP64 path's own rate: three 16x16-word products a thread on the FP64 pipe (words 0-15,
// 8-23 and 16-31 of both operands), folded into one 32-word output, with no Karatsuba sums.
template <int BLOCKS_PER_SM>
__global__ void __launch_bounds__(128, BLOCKS_PER_SM) fp64_x3(const uint32_t *__restrict__ A,
                                                              const uint32_t *__restrict__ B,
                                                              uint32_t *__restrict__ C,
                                                              size_t count)
{
    const size_t p = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (p >= count)
        return;
    uint32_t out[2 * 16] = {0};
#pragma unroll 1
    for (int h = 0; h < 3; h++) {
        uint32_t x[16], y[16];
#pragma unroll
        for (int j = 0; j < 16; j++) {
            x[j] = __ldg(A + (j + 8 * h) * count + p);
            y[j] = __ldg(B + (j + 8 * h) * count + p);
        }
        fp64col::product<16>(x, y, [&](int q, uint32_t v) { out[q] ^= v; });
    }
#pragma unroll
    for (int q = 0; q < 2 * 16; q++)
        C[q * count + p] = out[q];
}

// Radix 2^29 (docs/000-mul.md): every 64-bit multiply-accumulate without the zero
// high word of carry_chain_product's 32-bit addend (its IMAD.MOV) and without a carry chain
// along the rows. The operands are cut into 36 digits of 29 bits (1044 bits) and the leaf is
// the same Karatsuba level, M = (a0 - a1)(b1 - b0) digit by digit with signed digits, L = a0
// b0, H = a1 b1, each a product of 18 digits summed column by column in 64 bits: a column holds
// at most 18 digit products below 2^58, so |sum| < 2^63 and no carry leaves it. A column then
// passes its carry on in 29-bit digits, and the product's digits Z_q = L_q + L_(q-18) + S_(q-18)
// + H_(q-18) + H_(q-36) (S = M + L) are gathered into 32-bit words. It does 3 x 18^2 = 972
// digit products where the 32-bit leaf does 768 word products.
namespace radix29 {

constexpr int R = 29, N = 18;
constexpr uint32_t MASK = (1u << R) - 1;

// Digit k of a 32-word operand (bits 29k .. 29k + 28; the words past 31 are zero).
template <class LoadW> __device__ __forceinline__ uint32_t digit(LoadW w, int k)
{
    const int bit = R * k, j = bit / 32, s = bit % 32;
    const uint32_t lo = w(j), hi = j + 1 < WORDS && s + R > 32 ? w(j + 1) : 0u;
    return __funnelshift_r(lo, hi, s) & MASK;
}

// x y + z in one PTX mad.wide, signed for M's digit differences.
template <class T> __device__ __forceinline__ int64_t mad_wide(T x, T y, int64_t z)
{
    int64_t d;
    if ((T)-1 < 0)
        asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(d) : "r"((int32_t)x), "r"((int32_t)y), "l"(z));
    else
        asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(d) : "r"((uint32_t)x), "r"((uint32_t)y), "l"(z));
    return d;
}

// put(q, d): digits q = 0 .. 2N - 1 of a x b, the last one signed (M's sign).
template <class T, class Put>
__device__ __forceinline__ void product(const T (&a)[N], const T (&b)[N], Put put)
{
    int64_t carry = 0;
#pragma unroll
    for (int q = 0; q < 2 * N - 1; q++) {
        int64_t column = 0;
#pragma unroll
        for (int i = 0; i < N; i++)
            if (q - i >= 0 && q - i < N)
                column = mad_wide<T>(a[i], b[q - i], column);
        carry += column;
        put(q, (int32_t)((uint32_t)carry & MASK));
        carry >>= R;
    }
    put(2 * N - 1, (int32_t)carry);
}

// Gathers the product's digits Z_q (in increasing q, each below 2^33 in magnitude) into 32-bit
// words: word w leaves once no later digit reaches it.
template <class StoreC> struct word_gather {
    StoreC store;
    int64_t pending = 0; // the sum's bits from bit `low` up
    int low = 0, stored = 0;
    __device__ __forceinline__ void add(int q, int64_t z)
    {
        pending += z << (R * q - low);
#pragma unroll
        for (int e = 0; e < 2; e++)
            if (low + 32 <= R * (q + 1) && stored < 2 * WORDS) {
                store(stored++, (uint32_t)pending);
                pending >>= 32;
                low += 32;
            }
    }
    __device__ __forceinline__ void finish()
    {
#pragma unroll
        for (int e = 0; e < 3; e++)
            if (stored < 2 * WORDS) {
                store(stored++, (uint32_t)pending);
                pending >>= 32;
            }
    }
};

template <class LoadA, class LoadB, class StoreC>
__device__ __forceinline__ void leaf(LoadA load_a, LoadB load_b, StoreC store_c)
{
    word_gather<StoreC> out{store_c};
    int32_t s[2 * N]; // M's digits, then S = M + L, then H's high half
    {
        int32_t da[N], db[N];
        uint32_t w[WORDS];
#pragma unroll
        for (int j = 0; j < WORDS; j++)
            w[j] = load_a(j);
        auto word = [&](int j) { return w[j]; };
#pragma unroll
        for (int k = 0; k < N; k++)
            da[k] = (int32_t)digit(word, k) - (int32_t)digit(word, N + k);
#pragma unroll
        for (int j = 0; j < WORDS; j++)
            w[j] = load_b(j);
#pragma unroll
        for (int k = 0; k < N; k++)
            db[k] = (int32_t)digit(word, N + k) - (int32_t)digit(word, k);
        product<int32_t>(da, db, [&](int q, int32_t d) { s[q] = d; });
    }
    uint32_t keep[N]; // L's high half, then H's low half
    {
        uint32_t a0[N], b0[N];
#pragma unroll
        for (int k = 0; k < N; k++) {
            a0[k] = digit(load_a, k);
            b0[k] = digit(load_b, k);
        }
        product<uint32_t>(a0, b0, [&](int q, int32_t d) {
            if (q < N)
                out.add(q, d);
            else
                keep[q - N] = (uint32_t)d;
            s[q] += d;
        });
    }
    {
        uint32_t a1[N], b1[N];
#pragma unroll
        for (int k = 0; k < N; k++) {
            a1[k] = digit(load_a, N + k);
            b1[k] = digit(load_b, N + k);
        }
        // H_q completes Z_(N+q) = [q < N: L_(N+q)] + S_q + H_q + [q >= N: H_(q-N)].
        product<uint32_t>(a1, b1, [&](int q, int32_t d) {
            out.add(N + q, (int64_t)s[q] + (uint32_t)d + keep[q % N]);
            if (q < N)
                keep[q] = (uint32_t)d;
            else
                s[q - N] = d; // S_(q-N) is used
        });
    }
#pragma unroll
    for (int k = 0; k < N; k++)
        out.add(3 * N + k, s[k]);
    out.finish();
}

} // namespace radix29

__global__ void __launch_bounds__(128, 4) kara29(const uint32_t *__restrict__ A,
                                                 const uint32_t *__restrict__ B,
                                                 uint32_t *__restrict__ C, size_t count)
{
    const size_t p = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (p >= count)
        return;
    radix29::leaf([&](int j) { return __ldg(A + j * count + p); },
                  [&](int j) { return __ldg(B + j * count + p); },
                  [&](int q, uint32_t v) { C[q * count + p] = v; });
}

// kara-pf (experiments/mul1024_prefetch.sh): the same leaf in a persistent loop, 16 products
// a thread, each product's operands copied ahead into shared memory by cp.async while the
// product before it is formed. Why: Nsight Compute puts about a sixth of kara's warp cycles at
// the long scoreboard, most of them at the operand loads, where a scheduler then has three
// warps and not four to keep the IMAD pipe busy. A block holds three half-slots (16 words of a
// and 16 of b, for 128 threads: 16 KiB each, 48 KiB a block, 4 blocks an SM): the low halves
// of the next product go to slot 0 once L, the last reader of slot 0, is formed; its high
// halves to the spare slot at the start of the product (H reads the current high halves until
// the product ends). A warp copies its 32 products' rows of 128 bytes, 16 bytes a lane.
namespace prefetch {

constexpr unsigned THREADS = 128, HALF = 16, PER_THREAD = 16;

using slot = uint32_t (*)[THREADS]; // slot[row][thread]: rows 0..15 a's half, 16..31 b's

// The warp's 32 products from p0: words 16 h .. 16 h + 15 of a and of b into s.
__device__ __forceinline__ void copy_half(slot s, const uint32_t *A, const uint32_t *B,
                                          size_t count, size_t p0, int h)
{
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, chunk = lane % 8;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        const unsigned row = 4 * k + lane / 8;
        const uint32_t *src = (row < HALF ? A + (HALF * h + row) * count
                                          : B + (HALF * h + row - HALF) * count) + p0 + 4 * chunk;
        const unsigned dst = (unsigned)__cvta_generic_to_shared(&s[row][32 * warp + 4 * chunk]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
}

// carry-chain rows, and the next product's low halves into slot 0 as H begins.
struct prefetching_rows {
    slot low;
    const uint32_t *A, *B;
    size_t count, next;
    bool more;
    template <rowchain::leaf_part W, int N, class LoadB, class StoreC>
    __device__ __forceinline__ void product(const uint32_t (&a)[N], LoadB load_b,
                                            StoreC store_c) const
    {
        if (W == rowchain::PART_H && more) {
            __syncwarp(); // every lane has read slot 0
            copy_half(low, A, B, count, next, 0);
        }
        carry_chain_product<N>(a, load_b, store_c);
    }
};

// Whole warps of products only: count a multiple of 32 (the probe's is 2^20).
__global__ void __launch_bounds__(THREADS, 4) kara_pf(const uint32_t *__restrict__ A,
                                                      const uint32_t *__restrict__ B,
                                                      uint32_t *__restrict__ C, size_t count)
{
    __shared__ __align__(16) uint32_t buf[3][2 * HALF][THREADS];
    const unsigned t = threadIdx.x;
    const size_t stride = (size_t)gridDim.x * THREADS;
    size_t p0 = blockIdx.x * (size_t)THREADS + t - t % 32; // the warp's first product
    if (p0 >= count)
        return;
    unsigned high = 1, spare = 2;
    copy_half(buf[0], A, B, count, p0, 0);
    copy_half(buf[1], A, B, count, p0, 1);
    for (; p0 < count; p0 += stride) {
        asm volatile("cp.async.wait_all;" ::: "memory");
        __syncwarp(); // every lane's copies have landed, and every lane is done with spare
        const size_t next = p0 + stride, p = p0 + t % 32;
        const bool more = next < count;
        if (more)
            copy_half(buf[spare], A, B, count, next, 1);
        const slot low = buf[0], hi = buf[high];
        rowchain::direct_leaf([&](int j) { return j < (int)HALF ? low[j][t] : hi[j - HALF][t]; },
                              [&](int j) { return j < (int)HALF ? low[HALF + j][t] : hi[j][t]; },
                              [&](int q, uint32_t v) { C[q * count + p] = v; },
                              prefetching_rows{low, A, B, count, next, more});
        const unsigned was = high;
        high = spare;
        spare = was;
    }
}

// kara-smem48: kara with 48 KiB of shared memory reserved a block and not used, as kara-pf
// reserves: does the shared-memory carve-out alone slow the leaf?
__global__ void __launch_bounds__(THREADS, 4) kara_smem48(const uint32_t *__restrict__ A,
                                                          const uint32_t *__restrict__ B,
                                                          uint32_t *__restrict__ C, size_t count)
{
    __shared__ uint32_t reserved[3 * 2 * HALF * THREADS];
    const size_t p = blockIdx.x * (size_t)THREADS + threadIdx.x;
    if (p >= count) {
        // never runs; an opaque store keeps the reservation
        asm volatile("st.shared.u32 [%0], 0;" ::"r"(
            (unsigned)__cvta_generic_to_shared(&reserved[threadIdx.x])));
        return;
    }
    rowchain::direct_leaf<carry_chain_rows>([&](int j) { return __ldg(A + j * count + p); },
                                            [&](int j) { return __ldg(B + j * count + p); },
                                            [&](int q, uint32_t v) { C[q * count + p] = v; });
}

} // namespace prefetch

// split3-bound-9, split3-bound-7 (experiments/mul1024_prefetch.sh): would more warps a
// scheduler let the IMAD pipe run fuller? The leaf's three 16x16-word products of 32 products
// on three warps, M, L and H, a block of 96 threads, each at most 72 (9 blocks an SM, 6.75 warps
// a scheduler) or 80 registers (7 blocks), where the leaf in one thread takes 128 (4 warps a
// scheduler). Each warp writes its part to shared memory, and after a barrier stores a third of
// 64 words a product, each the sum of three part words: a stand-in for the Karatsuba
// combination, which would cost more. So its time bounds the split from below; its output is
// not the product and is not checked.
namespace split3 {

constexpr int N = 16;

template <int BLOCKS>
__global__ void __launch_bounds__(96, BLOCKS) bound(const uint32_t *__restrict__ A,
                                                    const uint32_t *__restrict__ B,
                                                    uint32_t *__restrict__ C, size_t count)
{
    __shared__ uint32_t part[3][2 * N][32], sign[32];
    const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const size_t p = blockIdx.x * (size_t)32 + lane;
    auto load_a = [&](int j) { return __ldg(A + j * count + p); };
    auto load_b = [&](int j) { return __ldg(B + j * count + p); };
    auto keep = [&](int q, uint32_t v) { part[w][q][lane] = v; };
    if (w == 0) {
        uint32_t da[N], db[N];
        sign[lane] = rowchain::operand_differences<N>(da, db, load_a, load_b);
        carry_chain_product<N>(da, [&](int i) { return db[i]; }, keep);
    } else {
        const int half = N * (w - 1); // L = a0 b0, H = a1 b1
        uint32_t a[N];
#pragma unroll
        for (int j = 0; j < N; j++)
            a[j] = load_a(half + j);
        carry_chain_product<N>(a, [&](int i) { return load_b(half + i); }, keep);
    }
    __syncthreads();
    for (int q = 22 * w; q < (w == 2 ? 64 : 22 * w + 22); q++)
        C[q * count + p] = part[0][q % 32][lane] + part[1][q % 32][lane] +
                           part[2][q % 32][lane] + sign[lane];
}

} // namespace split3

// Reads both operands and writes 64 words a product, 4 products a thread (16-byte accesses).
__global__ void __launch_bounds__(128) copy(const uint32_t *__restrict__ A,
                                            const uint32_t *__restrict__ B,
                                            uint32_t *__restrict__ C, size_t count)
{
    const size_t p = 4 * (blockIdx.x * (size_t)blockDim.x + threadIdx.x);
    if (p >= count)
        return;
#pragma unroll 8
    for (int j = 0; j < WORDS; j++) {
        const uint4 x = *(const uint4 *)(A + j * count + p), y = *(const uint4 *)(B + j * count + p);
        *(uint4 *)(C + j * count + p) = make_uint4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
        *(uint4 *)(C + (WORDS + j) * count + p) =
            make_uint4(x.x ^ y.x, x.y ^ y.y, x.z ^ y.z, x.w ^ y.w);
    }
}

static uint64_t rng_state = 0x243F6A8885A308D3ull; // seed, printed in the header
static uint32_t next_word()
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

typedef void (*probe_kernel)(const uint32_t *, const uint32_t *, uint32_t *, size_t);

struct timing {
    float median, min, max;
};

template <class Launch> static timing time_it(Launch launch)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<float> t;
    for (int r = 0; r < WARMUP + REPS; r++) {
        CHECK(cudaEventRecord(e0));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= WARMUP)
            t.push_back(ms);
    }
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    return {t[REPS / 2], t.front(), t.back()};
}

// The runs named after the commit on the command line, or all of them.
static bool selected(int argc, char **argv, const char *name)
{
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], name))
            return true;
    return argc <= 2;
}

int main(int argc, char **argv)
{
    const char *commit = argc > 1 ? argv[1] : "unknown";
    const size_t count = 1u << 20;
    const size_t op_words = WORDS * count;
    std::vector<uint32_t> ha(op_words), hb(op_words), hc(2 * op_words);
    // Random words, with every 16th product all ones in both operands, every 16th a0 < a1
    // (a's high half all ones) and every 16th b's high half zero: both signs of both differences.
    for (size_t p = 0; p < count; p++) {
        for (int i = 0; i < WORDS; i++) {
            uint32_t x = next_word(), y = next_word();
            if (p % 16 == 1)
                x = y = 0xffffffffu;
            if (p % 16 == 2 && i >= WORDS / 2)
                x = 0xffffffffu;
            if (p % 16 == 3 && i >= WORDS / 2)
                y = 0;
            ha[i * count + p] = x;
            hb[i * count + p] = y;
        }
    }
    uint32_t *da, *db, *dc;
    CHECK(cudaMalloc(&da, op_words * 4));
    CHECK(cudaMalloc(&db, op_words * 4));
    CHECK(cudaMalloc(&dc, 2 * op_words * 4));
    CHECK(cudaMemcpy(da, ha.data(), op_words * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb.data(), op_words * 4, cudaMemcpyHostToDevice));

    int dev = 0, sm_khz = 0, mem_khz = 0, sms = 0, driver = 0, runtime = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    char date[32];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("# mul1024_bound %s  %s  %s, %d SMs, SM clock %d MHz, memory clock %d MHz, driver "
           "%d, runtime %d; 2^20 products of 1024 bits, word-major; median of %d after %d "
           "warm-up; seed 0x243F6A8885A308D3\n",
           commit, date, prop.name, sms, sm_khz / 1000, mem_khz / 1000, driver, runtime, REPS,
           WARMUP);
    printf("what,registers,median_ms,min_ms,max_ms,products_per_s,bytes_per_s,checked,mismatches\n");

    const size_t bytes = 512 * count;
    timing t = time_it([&] {
        CHECK(cudaMemcpyAsync(dc, da, op_words * 4, cudaMemcpyDeviceToDevice));
        CHECK(cudaMemcpyAsync(dc + op_words, db, op_words * 4, cudaMemcpyDeviceToDevice));
    });
    printf("memcpy,0,%.4f,%.4f,%.4f,%.4e,%.4e,0,0\n", t.median, t.min, t.max,
           count / (t.median * 1e-3), bytes / (t.median * 1e-3));

    struct {
        const char *name;
        probe_kernel k;
        unsigned per_thread;
        bool check;
        unsigned threads = 128, products_per_block = 128; // products a block at one a thread
    } runs[] = {
        {"copy", copy, 4, false},
        {"school", school<false>, 1, true},
        {"kara", kara<false>, 1, true, 64, 64},
        {"kara-128", kara<false, rowchain::comba_columns, 128>, 1, true},
        {"kara-rows", kara<false, carry_chain_rows>, 1, true, 64, 64},
        {"school-l2", school<true>, 1, false},
        {"kara-l2", kara<true>, 1, false, 64, 64},
        {"kara-folded", kara_forms<FOLDED, FOLDED, FOLDED, 4>, 1, true},
        {"kara-folded-m", kara_forms<FOLDED, CHAIN, CHAIN, 4>, 1, true},
        {"kara-folded-ml", kara_forms<FOLDED, FOLDED, CHAIN, 4>, 1, true},
        {"kara-folded-h", kara_forms<CHAIN, CHAIN, FOLDED, 4>, 1, true},
        {"kara-fp64m", kara_forms<FP64, CHAIN, CHAIN, 4>, 1, true},
        {"kara-fp64m-3", kara_forms<FP64, CHAIN, CHAIN, 3>, 1, true},
        {"kara-fp64ml", kara_forms<FP64, FP64, CHAIN, 4>, 1, true},
        {"kara-fp64ml-3", kara_forms<FP64, FP64, CHAIN, 3>, 1, true},
        {"fp64-x3", fp64_x3<4>, 1, false},
        {"fp64-x3-3", fp64_x3<3>, 1, false},
        {"kara29", kara29, 1, true},
        {"kara-lop3", kara_forms<LOP3, LOP3, LOP3, 4>, 1, true},
        {"kara-lop3-h2", kara_forms<LOP3, LOP3, LOP3_HALF, 4>, 1, true},
        {"kara-lop3-half", kara_forms<LOP3_HALF, LOP3_HALF, LOP3_HALF, 4>, 1, true},
        {"kara-pf", prefetch::kara_pf, prefetch::PER_THREAD, true},
        {"kara-smem48", prefetch::kara_smem48, 1, true},
        {"split3-bound-9", split3::bound<9>, 1, false, 96, 32},
        {"split3-bound-7", split3::bound<7>, 1, false, 96, 32},
    };
    int failed = 0;
    for (const auto &run : runs) {
        if (!selected(argc, argv, run.name))
            continue;
        cudaFuncAttributes fa;
        CHECK(cudaFuncGetAttributes(&fa, run.k));
        const size_t per_block = (size_t)run.per_thread * run.products_per_block;
        const unsigned blocks = (unsigned)((count + per_block - 1) / per_block);
        CHECK(cudaMemset(dc, 0, 2 * op_words * 4));
        t = time_it([&] { run.k<<<blocks, run.threads>>>(da, db, dc, count); });
        size_t checked = 0, mismatches = 0;
        if (run.check) {
            CHECK(cudaMemcpy(hc.data(), dc, 2 * op_words * 4, cudaMemcpyDeviceToHost));
            for (size_t p = 0; p < count; p += p < 64 ? 1 : 97) {
                uint32_t ref[2 * WORDS] = {0};
                for (int i = 0; i < WORDS; i++) {
                    uint64_t carry = 0;
                    for (int j = 0; j < WORDS; j++) {
                        const uint64_t s = (uint64_t)ha[j * count + p] * hb[i * count + p] +
                                           ref[i + j] + carry;
                        ref[i + j] = (uint32_t)s;
                        carry = s >> 32;
                    }
                    ref[i + WORDS] = (uint32_t)carry;
                }
                checked++;
                for (int q = 0; q < 2 * WORDS; q++) {
                    if (ref[q] != hc[q * count + p]) {
                        if (!mismatches)
                            fprintf(stderr, "mul1024_bound: %s: product %zu differs at word %d\n",
                                    run.name, p, q);
                        mismatches++;
                        break;
                    }
                }
            }
            failed |= mismatches != 0 || checked == 0;
        }
        printf("%s,%d,%.4f,%.4f,%.4f,%.4e,%.4e,%zu,%zu\n", run.name, fa.numRegs, t.median, t.min,
               t.max, count / (t.median * 1e-3), bytes / (t.median * 1e-3), checked, mismatches);
    }
    return failed;
}
