// thread-rowchain-karatsuba: the leaves. One thread multiplies two 32-word (1024-bit) leaf
// operands in registers, by one more Karatsuba level (001 section III) over three 16x16-word
// products by product scanning (000 Algorithm 2, comba_product): direct_leaf, the same in the
// direct kernel at exactly 1024 bits (operands from device memory) and in the block kernel's
// leaves (operands and product in the leaf's shared-memory slots, leaf_products).
//
// Why product scanning in both: experiments/mul1024_comba.sh and docs/000-mul.md measured it
// against carry-chain rows in the direct kernel. The block kernel kept operand-scanning row
// chains (IMAD.WIDE into a window of words kept in registers, no carry flag between rows) until
// issue 39; on an H200 at 2^20 products direct_leaf there took 2048 bits from 0.7785 to 0.5782
// ms, 4096 from 2.448 to 2.046 ms and 8192 from 7.963 to 6.660 ms (one run, both builds,
// docs/000-mul.md).
#ifndef MPGPU_ROWCHAIN_LEAF_CUH
#define MPGPU_ROWCHAIN_LEAF_CUH

#include <stdint.h>

#include "mp_helpers.cuh"
#include "rowchain_block_layout.cuh"

namespace rowchain {

// c[0 .. 2N) = a * b by product scanning (000 Algorithm 2) with every word in registers, for
// direct_leaf: column q sums a_i b_(q-i) into a 96-bit accumulator {c2, lo} by ptx::mac96, one
// IMAD.WIDE.U32 with a carry out a word product and one IADD3.X for two carries. Carry-chain rows
// (the direct kernel's products before, kept in experiments/mul1024_bound.cu) spend beside each
// IMAD.WIDE an IMAD.MOV for the zero high word of its addend and an IADD3.X in the row's carry
// chain. Why it pays (experiments/mul1024_comba.sh, docs/000-mul.md): the leaf's instructions fall
// by a third and its IMAD-pipe cycles by a fifth. The column runs from the highest i down: the sums
// are the same either way, and in trials on an H200 (not recorded) ptxas's schedule for this order
// was as fast or up to 1 % faster. comba_rect is the same for an NA-word a and an NB-word b (c has
// NA + NB words); comba_product is the square one. comba_rect sums G columns at a time: the
// first starts from the carry of the columns before, the others from zero, and each takes the
// carry of the one before it when all are summed, so G chains of multiply-adds are in flight
// (mul_thread_comba_reg.cu's kernels take G = 2, but thread-comba-reg G = 1, where each was
// measured faster). store_c(q, v) is called for q = 0, 1, .. in order, once a column is final.
template <int NA, int NB, int G = 1, class LoadB, class StoreC>
__device__ __forceinline__ void comba_rect(const uint32_t (&a)[NA], LoadB load_b, StoreC store_c)
{
    uint32_t b[NB];
#pragma unroll
    for (int i = 0; i < NB; i++)
        b[i] = load_b(i);
    constexpr int Q = NA + NB - 1; // columns with terms
    uint64_t lo = 0; // the carry of the columns before
#pragma unroll
    for (int q0 = 0; q0 < Q; q0 += G) {
        uint64_t acc[G]; // column q0 + g's low 64 bits
        uint32_t top[G]; // its bits 64 and up: at most min(NA, NB) + 1
#pragma unroll
        for (int g = 0; g < G; g++) {
            acc[g] = g == 0 ? lo : 0;
            top[g] = 0;
        }
#pragma unroll
        for (int i = NA - 1; i >= 0; i--) {
#pragma unroll
            for (int g = 0; g < G; g++) {
                const int q = q0 + g;
                if (q >= Q || q - i < 0 || q - i >= NB)
                    continue;
                ptx::mac96(acc[g], top[g], a[i], b[q - i]);
            }
        }
#pragma unroll
        for (int g = 0; g < G; g++) {
            if (q0 + g >= Q)
                break;
            if (g > 0)
                ptx::add96(acc[g], top[g], lo);
            store_c(q0 + g, (uint32_t)acc[g]);
            lo = (acc[g] >> 32) | ((uint64_t)top[g] << 32);
        }
    }
    store_c(Q, (uint32_t)lo);
}

template <int N, class LoadB, class StoreC>
__device__ __forceinline__ void comba_product(const uint32_t (&a)[N], LoadB load_b,
                                              StoreC store_c)
{
    comba_rect<N, N>(a, load_b, store_c);
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

// One thread per leaf product, in place: product word q goes to the a slot's word q, or the b
// slot's word q - LEAF. direct_leaf reads every word of a and b for the differences, then a's
// low half into registers before L stores Z's low words there, a's high half before H stores
// above, and comba_rect reads all of b's half before its first column, so nothing it still
// needs is overwritten.
template <unsigned K> __device__ __forceinline__ void leaf_products(uint32_t *sh)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned LEAVES = pow3(K), REGION = LEAVES * LEAF;
    for (unsigned task = threadIdx.x; task < LEAVES * P; task += T) {
        const unsigned p = task % P, ra = task / P * LEAF, rb = REGION + ra;
        direct_leaf([&](int j) { return sh[sidx<P>(ra + j, p)]; },
                    [&](int j) { return sh[sidx<P>(rb + j, p)]; },
                    [&](int q, uint32_t v) {
                        sh[sidx<P>(q < (int)LEAF ? ra + q : rb + q - LEAF, p)] = v;
                    });
    }
}

} // namespace rowchain

#endif
