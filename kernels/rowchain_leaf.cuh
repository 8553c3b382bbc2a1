// thread-rowchain-karatsuba: the leaves. One thread multiplies two 32-word (1024-bit) leaf
// operands in registers, by one more Karatsuba level (001 section III) over three 16x16-word
// products: operand-scanning row chains (000 Algorithm 1) in the block kernel's leaf, product
// scanning (000 Algorithm 2, comba_product) in the direct kernel's at exactly 1024 bits.
//
// Why row chains (GPU.md gives the Hopper ceilings): a row-chain word product is one
// IMAD.WIDE.U32 t = a_j * b_i + (r + hi(t_prev)) plus one add of two words; the sum never
// exceeds (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1, so no carry flag crosses the rows and the
// unrolled rows overlap freely. Measured on an H200 at 1024 bits, this ran 21% faster than
// mad.lo.cc / madc.hi.cc chains (4.5e9 against 3.7e9).
#ifndef MPGPU_ROWCHAIN_LEAF_CUH
#define MPGPU_ROWCHAIN_LEAF_CUH

#include <stdint.h>

#include "mp_helpers.cuh"
#include "rowchain_block_layout.cuh"

namespace rowchain {

// c[0 .. 2N) = a * b by operand scanning: row i adds a * b_i into the window r of words
// i .. i + N; word i is final after row i and leaves at once.
template <int N, class LoadB, class StoreC>
__device__ __forceinline__ void rowchain_product(const uint32_t (&a)[N], LoadB load_b,
                                                 StoreC store_c)
{
    uint32_t r[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        r[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        uint32_t b = load_b(i);
        uint64_t t = (uint64_t)a[0] * b + r[0];
        store_c(i, (uint32_t)t);
#pragma unroll
        for (int j = 1; j < N; j++) {
            uint64_t x = (uint64_t)r[j] + (uint32_t)(t >> 32);
            t = (uint64_t)a[j] * b + x;
            r[j - 1] = (uint32_t)t;
        }
        r[N - 1] = (uint32_t)(t >> 32);
    }
#pragma unroll
    for (int j = 0; j < N; j++)
        store_c(N + j, r[j]);
}

// c[0 .. 2N) = a * b by product scanning (000 Algorithm 2) with every word in registers, for the
// direct kernel's leaf: column q sums a_i b_(q-i) into a 96-bit accumulator {c2, lo} by
// ptx::mac96, one IMAD.WIDE.U32 with a carry out a word product and one IADD3.X for two carries.
// Carry-chain rows (the leaf's products before, kept in experiments/mul1024_bound.cu) spend
// beside each IMAD.WIDE an IMAD.MOV for the zero high word of its addend and an IADD3.X in the
// row's carry chain. Why it pays (experiments/mul1024_comba.sh, docs/000-mul.md):
// the leaf's instructions fall by a third and its IMAD-pipe cycles by a fifth. The column runs
// from the highest i down: the sums are the same either way, and in trials on an H200 (not
// recorded) ptxas's schedule for this order was as fast or up to 1 % faster. comba_rect is the
// same for an NA-word a and an NB-word b (c has NA + NB words); comba_product is the square one.
template <int NA, int NB, class LoadB, class StoreC>
__device__ __forceinline__ void comba_rect(const uint32_t (&a)[NA], LoadB load_b, StoreC store_c)
{
    uint32_t b[NB];
#pragma unroll
    for (int i = 0; i < NB; i++)
        b[i] = load_b(i);
    uint64_t lo = 0; // the carry of the columns before, then the column's low 64 bits
#pragma unroll
    for (int q = 0; q < NA + NB - 1; q++) {
        uint32_t c2 = 0; // the column's bits 64 and up: at most min(NA, NB)
#pragma unroll
        for (int i = NA - 1; i >= 0; i--) {
            if (q - i < 0 || q - i >= NB)
                continue;
            ptx::mac96(lo, c2, a[i], b[q - i]);
        }
        store_c(q, (uint32_t)lo);
        lo = (lo >> 32) | ((uint64_t)c2 << 32);
    }
    store_c(NA + NB - 1, (uint32_t)lo);
}

template <int N, class LoadB, class StoreC>
__device__ __forceinline__ void comba_product(const uint32_t (&a)[N], LoadB load_b,
                                              StoreC store_c)
{
    comba_rect<N, N>(a, load_b, store_c);
}

// A leaf's 32x32-word product, in place, by one more Karatsuba level inside the thread: three
// 16x16-word row-chain products M = |a0 - a1| |b0 - b1|, L = a0 b0, H = a1 b1 take a quarter
// fewer IMAD.WIDE than the 32x32 row chain (GPU.md: IMAD issue limit). Measured on an H200,
// 2^20 products: 1024 bits 4.7e9/s against 4.3e9/s, 4096 bits 4.04e8/s against 3.94e8/s
// with the 32x32 row chain as the leaf. The leaf's own slots hold what does not fit in
// registers: M in the a slot once a is in registers, then P = L + X^16 (L -+ M) (X = 2^32)
// across both slots once b0 is used, and finally Z = P + X^16 H + X^32 H.
template <unsigned P>
__device__ __forceinline__ void karatsuba_leaf(uint32_t *sh, unsigned ra, unsigned rb, unsigned p)
{
    constexpr int N = LEAF / 2;
    // Slot positions: product word q lives at a slot word q (q < 2N), else b slot word q - 2N.
    auto at = [&](unsigned q) { return sidx<P>(q < 2 * N ? ra + q : rb + q - 2 * N, p); };
    uint32_t db[N], sb;
    {
        uint32_t b0[N], b1[N];
#pragma unroll
        for (int j = 0; j < N; j++) {
            b0[j] = sh[sidx<P>(rb + j, p)];
            b1[j] = sh[sidx<P>(rb + N + j, p)];
        }
        sb = mp::abs_diff_words<N>(db, b0, b1);
    }
    uint32_t a0[N], a1[N], da[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        a0[j] = sh[sidx<P>(ra + j, p)];
        a1[j] = sh[sidx<P>(ra + N + j, p)];
    }
    const bool subtract = mp::abs_diff_words<N>(da, a0, a1) == sb;
    rowchain_product<N>(
        da, [&](unsigned i) { return db[i]; },
        [&](unsigned q, uint32_t v) { sh[sidx<P>(ra + q, p)] = v; });

    int64_t carry = 0; // P's signed top, at column 3N
    {
        uint32_t l[2 * N], m[2 * N];
        rowchain_product<N>(
            a0, [&](unsigned i) { return sh[sidx<P>(rb + i, p)]; },
            [&](unsigned q, uint32_t v) { l[q] = v; });
#pragma unroll
        for (int q = 0; q < 2 * N; q++)
            m[q] = sh[sidx<P>(ra + q, p)];
#pragma unroll
        for (int q = 0; q < 3 * N; q++) {
            if (q >= N) {
                int64_t mq = m[q - N];
                carry += (int64_t)l[q - N] + (q < 2 * N ? l[q] : 0u) + (subtract ? -mq : mq);
            } else {
                carry = l[q];
            }
            sh[at(q)] = (uint32_t)carry;
            carry = q >= N ? carry >> 32 : 0;
        }
    }
    uint32_t h[2 * N];
    rowchain_product<N>(
        a1, [&](unsigned i) { return sh[sidx<P>(rb + N + i, p)]; },
        [&](unsigned q, uint32_t v) { h[q] = v; });
    int64_t z = 0;
#pragma unroll
    for (int q = N; q < 4 * N; q++) {
        z += q < 3 * N ? (int64_t)sh[at(q)] + h[q - N] : (q == 3 * N ? carry : 0);
        if (q >= 2 * N)
            z += h[q - 2 * N];
        sh[at(q)] = (uint32_t)z;
        z >>= 32;
    }
}

// da = |a0 - a1| and db = |b0 - b1| for operands of 2N words (load_a(j), load_b(j), j < 2N;
// a0 the low half): the factors of M. True when the differences have the same sign, so that M
// is subtracted (L + H - M is the middle product).
template <int N, class LoadA, class LoadB>
__device__ __forceinline__ bool operand_differences(uint32_t (&da)[N], uint32_t (&db)[N],
                                                    LoadA load_a, LoadB load_b)
{
    uint32_t x[N], y[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        x[j] = load_a(j);
        y[j] = load_a(N + j);
    }
    const uint32_t a_less = mp::abs_diff_words<N>(da, x, y);
#pragma unroll
    for (int j = 0; j < N; j++) {
        x[j] = load_b(j);
        y[j] = load_b(N + j);
    }
    return mp::abs_diff_words<N>(db, x, y) == a_less;
}

// The three products of the direct leaf below, in the order it forms them.
enum leaf_part { PART_M, PART_L, PART_H };

// How the direct leaf multiplies each of its three 16x16-word products: by product scanning.
// The probe experiments/mul1024_bound.cu passes other forms (carry-chain rows, folded carries,
// the FP64 pipe) to time them inside the same leaf, and one with state, which copies the next
// product's operands ahead as H begins.
struct comba_columns {
    template <leaf_part W, int N, class LoadB, class StoreC>
    static __device__ __forceinline__ void product(const uint32_t (&a)[N], LoadB load_b,
                                                   StoreC store_c)
    {
        comba_product<N>(a, load_b, store_c);
    }
};

// The same leaf product with every intermediate in registers, for the direct kernel
// (rowchain_direct.cu), which reads its operands from device memory and writes the product
// there: load_a(j), load_b(j) give operand word j < 2N; store_c(q, v) takes product word q,
// each once. With S = L -+ M, Z = L + X^N (S + H) + X^2N H column by column:
//   Z_q = L_q                                              q < N
//   Z_q = S_(q-N) + H_(q-N) + (q < 2N ? L_q : H_(q-2N))    N <= q < 3N
//   Z_q = H_(q-2N), plus S's signed top at 3N              3N <= q < 4N
// so M comes first, L's low words leave as they come (S forms beside them), and each word of
// H completes a column. 80 words stay live: M (then S, then H's high half), L's high half (then
// H's low half) and the two operand halves being multiplied. rows forms the three products, in
// the order M, L, H.
template <class Rows = comba_columns, class LoadA, class LoadB, class StoreC>
__device__ __forceinline__ void direct_leaf(LoadA load_a, LoadB load_b, StoreC store_c,
                                            Rows rows = {})
{
    constexpr int N = LEAF / 2;
    uint32_t da[N], db[N], s[2 * N];
    const bool subtract = operand_differences<N>(da, db, load_a, load_b);
    rows.template product<PART_M, N>(
        da, [&](int i) { return db[i]; }, [&](int q, uint32_t v) { s[q] = v; });
    uint32_t keep[N]; // L's high half, then H's low half
    int64_t s_top = 0;
    {
        uint32_t a0[N];
#pragma unroll
        for (int j = 0; j < N; j++)
            a0[j] = load_a(j);
        rows.template product<PART_L, N>(
            a0, [&](int i) { return load_b(i); },
            [&](int q, uint32_t v) {
                if (q < N)
                    store_c(q, v);
                else
                    keep[q - N] = v;
                s_top += (int64_t)v + (subtract ? -(int64_t)s[q] : (int64_t)s[q]);
                s[q] = (uint32_t)s_top;
                s_top >>= 32;
            });
    }
    int64_t z = 0;
    {
        uint32_t a1[N];
#pragma unroll
        for (int j = 0; j < N; j++)
            a1[j] = load_a(N + j);
        rows.template product<PART_H, N>(
            a1, [&](int i) { return load_b(N + i); },
            [&](int q, uint32_t v) {
                z += (int64_t)s[q] + v + keep[q % N];
                store_c(N + q, (uint32_t)z);
                z >>= 32;
                if (q < N)
                    keep[q] = v;
                else
                    s[q - N] = v; // S_(q-N) is used; H's high half waits there
            });
    }
    z += s_top;
#pragma unroll
    for (int k = 0; k < N; k++) {
        z += s[k];
        store_c(3 * N + k, (uint32_t)z);
        z >>= 32;
    }
}

// One thread per leaf product, in place.
template <unsigned K> __device__ __forceinline__ void leaf_products(uint32_t *sh)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned LEAVES = pow3(K), REGION = LEAVES * LEAF;
    for (unsigned task = threadIdx.x; task < LEAVES * P; task += T) {
        const unsigned p = task % P, slot = task / P;
        karatsuba_leaf<P>(sh, slot * LEAF, REGION + slot * LEAF, p);
    }
}

} // namespace rowchain

#endif
