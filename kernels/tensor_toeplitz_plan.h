/* warp-tensor-toeplitz (issue 13): the schedule of one product, shared by the kernel
 * (kernels/mul_tensor_toeplitz.cu, where it is evaluated at compile time) and its reference
 * twin (cpu_ref/tensor_toeplitz_ref.c). Plain C, constexpr under C++.
 *
 * A product of two NB-byte operands is the convolution of their byte limbs, c_f = sum_i
 * a_(f-i) b_i, f < 2 NB. Column f is placed in a 16x8 tile of mma.m16n8k32 accumulators:
 * f = 128 t + m + 16 n (tile t, row m, column n). Tile t receives the products
 *
 *     D_t += A_(4t-j) X_j,   A_d[m][k] = a_(32 d + m - k),   X_j[k][n] = b_(32 j + 16 n + k),
 *
 * one per block j of B, since a_(f-i) b_i with i = 32 j + 16 n + k has f - i = 32 (4t - j) + m - k:
 * the Toeplitz tile A depends on d = 4t - j alone and the Hankel-like tile X on j alone. So each
 * of the NB/32 + 1 Toeplitz tiles is built once and multiplies up to N/16 tiles of B, and the
 * B tiles stay in registers (two words per lane each). Bytes outside the operands are zero.
 */
#ifndef MPGPU_TENSOR_TOEPLITZ_PLAN_H
#define MPGPU_TENSOR_TOEPLITZ_PLAN_H

#ifdef __cplusplus
#define TT_FN static constexpr
#else
#include <stdbool.h>
#define TT_FN static inline
#endif

/* Operand words are padded with zeros to one of these sizes (words): the kernel is unrolled
 * for each, so its fragments and accumulators live in registers. */
#define TT_MAX_WORDS 256u

TT_FN unsigned tt_padded_words(unsigned words)
{
    return words <= 32 ? 32 : words <= 64 ? 64 : words <= 128 ? 128 : 256;
}

/* For N padded words (NB = 4 N bytes): tiles of output columns, the range of B blocks j and
 * of Toeplitz tiles d. A block j < -4 has 32 j + 16 * 7 + 31 < 0: all zero. */
TT_FN int tt_tiles(unsigned n) { return (int)n / 16; }
TT_FN int tt_j_first(void) { return -4; }
TT_FN int tt_j_last(unsigned n) { return (int)n / 8 - 1; }
TT_FN int tt_d_last(unsigned n) { return (int)n / 8; }

/* Whether D_t += A_(4t-j) X_j adds anything: some (m, n, k) with both byte indices inside the
 * operands. For column n, k must satisfy 0 <= 32 j + 16 n + k < NB and
 * 0 <= 32 d + m - k < NB for some m < 16. Products that add nothing are not issued. */
TT_FN bool tt_live(unsigned n_words, int t, int j)
{
    const int nb = 4 * (int)n_words, d = 4 * t - j;
    if (j < tt_j_first() || j > tt_j_last(n_words) || d < 0 || d > tt_d_last(n_words))
        return false;
    for (int n = 0; n < 8; n++) {
        int lo = 0, hi = 31;
        if (lo < -32 * j - 16 * n)
            lo = -32 * j - 16 * n;
        if (lo < 32 * d - nb + 1)
            lo = 32 * d - nb + 1;
        if (hi > nb - 1 - 32 * j - 16 * n)
            hi = nb - 1 - 32 * j - 16 * n;
        if (hi > 32 * d + 15)
            hi = 32 * d + 15;
        if (lo <= hi)
            return true;
    }
    return false;
}

/* The Toeplitz tiles are read from A's bytes reversed, in words: rev[q] holds bytes
 * a_(P-4q) .. a_(P-4q-3), P = NB + 15, i.e. rev[q] = byteswap(a word N + 3 - q), zero outside
 * the operand, for q < N + 13. Lane (g = lane / 4, s = lane % 4) holds A_d's elements
 * (row r, columns c0 .. c0 + 3) in one register: bytes a_(32 d + r - c0 - e) = rev bytes
 * 4 q + h + e for 4 q + h = P - 32 d - r + c0, where h = (3 - g) mod 4 does not depend on d.
 * So a register is one funnel shift of rev[q], rev[q + 1] by 8 h bits, and the lane's four
 * registers (r, c0) = (g, 4s), (g + 8, 4s), (g, 4s + 16), (g + 8, 4s + 16) read q0, q0 - 2,
 * q0 + 4, q0 + 2, q0 = tt_rev_q0(N, lane) - 8 d. */
TT_FN unsigned tt_rev_words(unsigned n) { return n + 13; }
TT_FN unsigned tt_rev_shift(unsigned lane) { return (3u - lane / 4) & 3u; }
TT_FN int tt_rev_q0(unsigned n, unsigned lane)
{
    return (int)n + (int)(lane % 4) + (15 - (int)(lane / 4) - (int)tt_rev_shift(lane)) / 4;
}

/* B tile j's two registers of lane l are the words 32 j/4 + 4 hh + 4 g + s of b = word
 * 4 u - 32 + l for u = 2 j + hh + 8: a warp reads 32 consecutive words per register. */
TT_FN int tt_b_regs(unsigned n) { return 2 * (tt_j_last(n) - tt_j_first() + 1); }
TT_FN int tt_b_word(int u, unsigned lane) { return 4 * u - 32 + (int)lane; }

/* Accumulator i (c0 .. c3 of mma.m16n8k32: rows g, g, g+8, g+8, columns 2s, 2s+1, 2s, 2s+1)
 * of tile t in lane l is column 128 t + 32 s + g + 8 (2 (i & 1) + i / 2). In shared memory
 * column f lies at f with bits 2..4 XORed by a rotation of r = (f >> 5) mod 8: the 32 lanes of
 * one accumulator store (r = 4 t + s) find 32 banks, and the carry pass, where lane L reads
 * columns [L N/4, (L+1) N/4) in 16-byte chunks, finds 8 chunks in 8 banks' quads per 8 lanes
 * at N = 128 (2 per quad at the other sizes; the rotation found best by search). */
TT_FN unsigned tt_column(int t, unsigned lane, unsigned i)
{
    return 128u * (unsigned)t + 32u * (lane % 4) + lane / 4 + 8u * (2u * (i & 1u) + i / 2u);
}
TT_FN unsigned tt_column_slot(unsigned f)
{
    const unsigned r = (f >> 5) & 7u;
    return f ^ ((((r & 3u) << 1) | (r >> 2)) << 2);
}

#endif
