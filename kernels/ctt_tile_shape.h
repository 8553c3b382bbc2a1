/* The shapes of the tiled product of auto's tile bin (ctt_tile_mul.cuh), beyond 003: a block
 * multiplies one long computation, each thread summing whole columns of the schoolbook in
 * registers, CTT_TILE_COLS (C) columns at a time (a tile), so that a word product costs the two
 * multiply-adds of a carry chain and nothing is written until the tile's sum is final.
 *
 * Columns near either end of a product hold fewer word products than those in the middle, so
 * one tile per thread would leave the threads of the short columns idle. The fold balances
 * them: with a the shorter operand (na <= nb) and F = nb rounded up to a multiple of C, thread
 * t sums tile t (columns C t .. C t + C - 1, the "low" tile) and then the tile F columns above
 * it (the "high" tile). Column k < na holds k + 1 word products and column F + k holds
 * na - 1 - k - (F - nb), na - (F - nb) together, as many as a column between na and nb: every
 * thread does about na rows of C words.
 * A row of a tile is a_i times a window of C words of b (zero outside b), taken from a copy of b
 * padded with C zero words below and F - nb + C above, so that the window never needs a bounds
 * check; rows come C at a time (a "row block"). A tile's sum is C + 2 words: its C column words,
 * and two overflow words that belong to the next tile's first two columns. The product is the
 * tiles' column words plus the overflow words, one block-wide addition.
 *
 * This file holds the shapes that the kernel, the host and the CPU model of the kernel's steps
 * (cpu_ref/ctt_tile_mul_model.h) share. */
#ifndef MPGPU_CTT_TILE_SHAPE_H
#define MPGPU_CTT_TILE_SHAPE_H

#include <stdint.h>

#include "ctt_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Columns a thread sums at once: 8 takes a window of 16 words of b and 8 of a in four and two
 * 128-bit loads for 64 word products, and keeps the tile loop at 72 registers (H200, sm_90),
 * no spills. */
#define CTT_TILE_COLS 8u

/* F: the longer operand's length rounded up to whole tiles; the high tiles start there. */
CTT_HD static inline uint32_t ctt_tile_fold(uint32_t longer)
{
    return (longer + CTT_TILE_COLS - 1) / CTT_TILE_COLS * CTT_TILE_COLS;
}

/* Row blocks of the shorter operand. */
CTT_HD static inline uint32_t ctt_tile_row_blocks(uint32_t shorter)
{
    return (shorter + CTT_TILE_COLS - 1) / CTT_TILE_COLS;
}

/* Shared words a product of operands up to `longest` words needs: the shorter operand padded
 * to whole row blocks, the padded copy of the longer one (F + 2 C), and the two overflow words
 * of each of the 2 F / C tiles. */
CTT_HD static inline uint32_t ctt_tile_shared_words(uint32_t longest)
{
    const uint32_t f = ctt_tile_fold(longest);
    return f + (f + 2 * CTT_TILE_COLS) + 4 * f / CTT_TILE_COLS;
}

/* Row blocks that thread t runs on its low tile: the rows that reach columns below C (t + 1). */
CTT_HD static inline uint32_t ctt_tile_low_steps(uint32_t t, uint32_t row_blocks)
{
    return t + 1 < row_blocks ? t + 1 : row_blocks;
}

/* All its row blocks, low then high: row blocks t .. row_blocks - 1 reach the high tile, so
 * every thread runs row_blocks + 1 of them, or row_blocks when its high tile is past the
 * product. */
CTT_HD static inline uint32_t ctt_tile_steps(uint32_t t, uint32_t row_blocks)
{
    return row_blocks + (t < row_blocks);
}

/* Step s of a thread is on its high tile from s = low_steps on, and runs row block s there, s - 1
 * on the high tile (row blocks t .. row_blocks - 1 after the low tile's 0 .. t). */
CTT_HD static inline uint32_t ctt_tile_row_block(uint32_t s, uint32_t low_steps)
{
    return s >= low_steps ? s - 1 : s;
}

/* Where in the padded copy of b (ys, ys[C + m] = b[m]) the window of tile t for row block rb
 * starts: row u of the block multiplies words C - u .. 2 C - u - 1 of the 2 C words from here.
 * Low: b[C (t - rb) + c - u]; high: b[F + C (t - rb) + c - u], F columns up. */
CTT_HD static inline uint32_t ctt_tile_window(uint32_t t, uint32_t rb, bool high, uint32_t f)
{
    return high ? f - CTT_TILE_COLS * (rb - t) : CTT_TILE_COLS * (t - rb);
}

/* A tile's sum is final: its C column words to r[C g ..] (those below the product's length n),
 * its two overflow words to ov[2 g ..], and acc (C + 2 words) back to zero. */
CTT_HD static inline void ctt_tile_flush(uint32_t *r, uint32_t *ov, uint32_t *acc, uint32_t g,
                                         uint32_t n)
{
    for (uint32_t c = 0; c < CTT_TILE_COLS; c++) {
        if (CTT_TILE_COLS * g + c < n)
            r[CTT_TILE_COLS * g + c] = acc[c];
        acc[c] = 0;
    }
    ov[2 * g] = acc[CTT_TILE_COLS];
    ov[2 * g + 1] = acc[CTT_TILE_COLS + 1];
    acc[CTT_TILE_COLS] = acc[CTT_TILE_COLS + 1] = 0;
}

/* Word i of the addend the overflow words make: overflow word i mod C of the tile below. */
CTT_HD static inline uint32_t ctt_tile_overflow(const uint32_t *ov, uint32_t i)
{
    return i >= CTT_TILE_COLS && i % CTT_TILE_COLS < 2
               ? ov[2 * (i / CTT_TILE_COLS - 1) + i % CTT_TILE_COLS]
               : 0u;
}

#ifdef __cplusplus
}
#endif

#endif
