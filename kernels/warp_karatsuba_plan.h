/* Subtractive Karatsuba over one warp's products (001 section III-A): the split of a size into
 * halves and the scratch each level needs, shared by the kernels that recurse in a warp
 * (kernels/warp_karatsuba.cuh: sumrotate-*-karatsuba*, warp-tensor-karatsuba) and by the
 * twin cpu_ref/tensor_karatsuba_ref.c. Plain C, constexpr under C++.
 *
 * A = A0 + A1 beta^h with h = ceil(n / 2) rounded up to whole 32-word chunks, the unit of the
 * warp's passes (lane i on word i of a chunk), so A0 has h words and A1 the remaining
 * m = n - h <= h (001 runs Karatsuba on powers of two, where m = h). */
#ifndef MPGPU_WARP_KARATSUBA_PLAN_H
#define MPGPU_WARP_KARATSUBA_PLAN_H

#include <stddef.h>

#ifdef __cplusplus
#define WK_FN static constexpr
#else
#define WK_FN static inline
#endif

#define WK_CHUNK_WORDS 32u

/* The low half's words; n > WK_CHUNK_WORDS leaves the high half m = n - h >= 1 words. */
WK_FN unsigned wk_split_words(unsigned n)
{
    return ((n + 1) / 2 + WK_CHUNK_WORDS - 1) / WK_CHUNK_WORDS * WK_CHUNK_WORDS;
}

/* Scratch words of one level on n words: |A0 - A1| (h), |B1 - B0| (h), the middle product (2h),
 * T = A0 B0 + A1 B1 +- middle (2h + 1, padded to keep every array on whole chunks). */
WK_FN unsigned wk_level_words(unsigned n) { return 6 * wk_split_words(n) + WK_CHUNK_WORDS; }

/* Scratch words per product for `depth` levels: the three sub-products of a level run one after
 * another and share the next level's scratch; the largest of them has h words. */
WK_FN size_t wk_scratch_words(unsigned n, unsigned depth)
{
    size_t words = 0;
    for (; depth > 0; depth--, n = wk_split_words(n))
        words += wk_level_words(n);
    return words;
}

/* The fewest levels that bring n words down to leaves of at most leaf_max words
 * (leaf_max >= WK_CHUNK_WORDS). */
WK_FN unsigned wk_depth(unsigned n, unsigned leaf_max)
{
    unsigned depth = 0;
    for (; n > leaf_max; n = wk_split_words(n))
        depth++;
    return depth;
}

#endif
