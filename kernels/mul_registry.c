/* The GPU multiplication methods of `mpgpu mul`, in the order --help lists them. */
#include "mul.h"

#include <string.h>

#include "split_rowchain_shape.h"

#define LAUNCH(fn)                                                                          \
    cudaError_t fn(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,       \
                   size_t count, void *scratch, cudaStream_t stream)

LAUNCH(mul_thread_school_launch);
LAUNCH(mul_thread_comba_launch);
LAUNCH(mul_thread_comba_reg_launch);
LAUNCH(mul_thread_comba_reg_shared_launch);
LAUNCH(mul_pair_comba_reg_launch);
LAUNCH(mul_pair_comba_reg_shared_launch);
LAUNCH(mul_quad_comba_reg_launch);
LAUNCH(mul_quad_comba_reg_shared_launch);
LAUNCH(mul_octo_comba_reg_launch);
LAUNCH(mul_octo_comba_reg_shared_launch);
LAUNCH(mul_thread_karatsuba_launch);
LAUNCH(mul_thread_karatsuba2_launch);
LAUNCH(mul_sumrotate_shuffle_launch);
LAUNCH(mul_sumrotate_shared_launch);
LAUNCH(mul_sumrotate_shuffle_karatsuba_launch);
LAUNCH(mul_sumrotate_shared_karatsuba_launch);
LAUNCH(mul_sumrotate_shuffle_karatsuba2_launch);
LAUNCH(mul_sumrotate_shared_karatsuba2_launch);
size_t mul_sumrotate_karatsuba_scratch_bytes(unsigned words, size_t count);
size_t mul_sumrotate_karatsuba2_scratch_bytes(unsigned words, size_t count);
size_t mul_thread_karatsuba_scratch_bytes(unsigned words, size_t count);
size_t mul_thread_karatsuba2_scratch_bytes(unsigned words, size_t count);
LAUNCH(mul_warp_column_shared_launch);
LAUNCH(mul_warp_column_shuffle_launch);
LAUNCH(mul_rowchain_karatsuba_launch);
size_t mul_rowchain_karatsuba_scratch(unsigned words, size_t count);
LAUNCH(mul_tensor_toeplitz_launch);
LAUNCH(mul_tensor_karatsuba_launch);
size_t mul_tensor_karatsuba_scratch_bytes(unsigned words, size_t count);
LAUNCH(mul_split_rowchain_launch);

/* Toom-k over sum-rotate warp products, k = 2..9 (kernels/mul_toom.cu). */
#define TOOM_DECLARE(K)                                                                     \
    LAUNCH(mul_toom##K##_launch);                                                           \
    size_t mul_toom##K##_scratch_bytes(unsigned words, size_t count);
TOOM_DECLARE(2)
TOOM_DECLARE(3)
TOOM_DECLARE(4)
TOOM_DECLARE(5)
TOOM_DECLARE(6)
TOOM_DECLARE(7)
TOOM_DECLARE(8)
TOOM_DECLARE(9)
/* k pieces need at least k words; trailing pieces are shorter or empty when k does not divide
 * the size (kernels/toom_plan.h). */
#define TOOM_METHOD(K, POINTS)                                                              \
    {"toom-" #K,                                                                            \
     "Toom-" #K ": " #POINTS " point products by sum-rotate warps, one thread interpolates "  \
     "(000 section 3.3.2, Fig. 3.5)",                                                       \
     K, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_toom##K##_launch,                   \
     mul_toom##K##_scratch_bytes}

static const struct mul_method methods[] = {
    {"thread-school",
     "one thread per product, School row order, partial products in memory (000 Table 3.3)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 1, MUL_LAYOUT_WORD_MAJOR, mul_thread_school_launch, NULL},
    {"thread-comba", "one thread per product, Comba column order (000 Table 3.3, 001 Table II)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 1, MUL_LAYOUT_WORD_MAJOR, mul_thread_comba_launch, NULL},
    /* Unrolled for 8..32 words in steps of 4, so that each product is whole 16-byte vectors. */
    {"thread-comba-reg",
     "one thread per product, Comba in registers, its own 16-byte loads and stores (issue 39)",
     8, 32, 4, MUL_LAYOUT_PRODUCT_MAJOR, mul_thread_comba_reg_launch, NULL},
    {"thread-comba-reg-shared",
     "one thread per product, Comba in registers, a warp's 32 products staged through shared "
     "memory by coalesced 16-byte loads and stores (issue 39)",
     8, 32, 4, MUL_LAYOUT_PRODUCT_MAJOR, mul_thread_comba_reg_shared_launch, NULL},
    /* Each thread takes half of a: 8..32 words in steps of 8. */
    {"pair-comba-reg",
     "two threads per product, each Comba of half of a by b in registers, joined by shuffles; "
     "their own 16-byte loads and stores (issue 39)",
     8, 32, 8, MUL_LAYOUT_PRODUCT_MAJOR, mul_pair_comba_reg_launch, NULL},
    {"pair-comba-reg-shared",
     "two threads per product, each Comba of half of a by b in registers, joined by shuffles; "
     "a warp's 16 products staged through shared memory (issue 39)",
     8, 32, 8, MUL_LAYOUT_PRODUCT_MAJOR, mul_pair_comba_reg_shared_launch, NULL},
    /* Each of four (eight) threads takes a quarter (an eighth) of a in whole 16-byte vectors:
     * 16..64 words in steps of 16 (32..64 in steps of 32). */
    {"quad-comba-reg",
     "four threads per product, each Comba of a quarter of a by b in registers, joined by "
     "shuffles; their own 16-byte loads and stores (issue 39)",
     16, 64, 16, MUL_LAYOUT_PRODUCT_MAJOR, mul_quad_comba_reg_launch, NULL},
    {"octo-comba-reg",
     "eight threads per product, each Comba of an eighth of a by b in registers, joined by "
     "shuffles; their own 16-byte loads and stores (issue 39)",
     32, 64, 32, MUL_LAYOUT_PRODUCT_MAJOR, mul_octo_comba_reg_launch, NULL},
    {"quad-comba-reg-shared",
     "four threads per product, each Comba of a quarter of a by b in registers, joined by "
     "shuffles; a warp's 8 products staged through shared memory (issue 39)",
     16, 64, 16, MUL_LAYOUT_PRODUCT_MAJOR, mul_quad_comba_reg_shared_launch, NULL},
    {"octo-comba-reg-shared",
     "eight threads per product, each Comba of an eighth of a by b in registers, joined by "
     "shuffles; a warp's 4 products staged through shared memory (issue 39)",
     32, 64, 32, MUL_LAYOUT_PRODUCT_MAJOR, mul_octo_comba_reg_shared_launch, NULL},
    /* Karatsuba halves the operands once (twice), so words is a multiple of 2 (4); the
     * smallest size is the one with one-word Comba leaves. */
    {"thread-karatsuba", "one thread per product, Karatsuba once, then Comba (001 Table II)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 2, MUL_LAYOUT_WORD_MAJOR, mul_thread_karatsuba_launch,
     mul_thread_karatsuba_scratch_bytes},
    {"thread-karatsuba2", "one thread per product, Karatsuba twice, then Comba (001 Table II)",
     4, MUL_MAX_WORDS, 4, MUL_LAYOUT_WORD_MAJOR, mul_thread_karatsuba2_launch,
     mul_thread_karatsuba2_scratch_bytes},
    {"sumrotate-shuffle",
     "one warp per product, sum-rotate, exchange by warp shuffles (000 Algorithm 3, Table 3.3)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_sumrotate_shuffle_launch, NULL},
    {"sumrotate-shared",
     "one warp per product, sum-rotate, exchange through shared memory (000 Table 3.3)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_sumrotate_shared_launch, NULL},
    /* Karatsuba from 2048 bits, Karatsuba^2 from 4096 (001 Table II); halves are whole
     * 1024-bit blocks, other sizes pad the high half with zero words. */
    {"sumrotate-shuffle-karatsuba",
     "one warp per product, Karatsuba once over sum-rotate Comba, shuffles (001 Table II)",
     64, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_sumrotate_shuffle_karatsuba_launch,
     mul_sumrotate_karatsuba_scratch_bytes},
    {"sumrotate-shared-karatsuba",
     "one warp per product, Karatsuba once over sum-rotate Comba, shared memory (001 Table II)",
     64, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_sumrotate_shared_karatsuba_launch,
     mul_sumrotate_karatsuba_scratch_bytes},
    {"sumrotate-shuffle-karatsuba2",
     "one warp per product, Karatsuba twice over sum-rotate Comba, shuffles (001 Table II)",
     128, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_sumrotate_shuffle_karatsuba2_launch,
     mul_sumrotate_karatsuba2_scratch_bytes},
    {"sumrotate-shared-karatsuba2",
     "one warp per product, Karatsuba twice over sum-rotate Comba, shared memory (001 Table II)",
     128, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_sumrotate_shared_karatsuba2_launch,
     mul_sumrotate_karatsuba2_scratch_bytes},
    {"warp-column-shared",
     "one warp per product, lane k sums columns k and k+w, operands in shared memory "
     "(000 Fig. 3.3, Table 3.3)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_warp_column_shared_launch, NULL},
    {"warp-column-shuffle",
     "one warp per product, lane k sums columns k and k+w, operands by warp shuffles "
     "(000 Fig. 3.3, Table 3.3)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_warp_column_shuffle_launch, NULL},
    {"thread-rowchain-karatsuba",
     "subtractive Karatsuba in shared memory down to 1024-bit one-thread products, each three "
     "IMAD.WIDE row chains (001 section III, Table I)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 1, MUL_LAYOUT_WORD_MAJOR, mul_rowchain_karatsuba_launch,
     mul_rowchain_karatsuba_scratch},
    /* Operands are padded to 32, 64, 128 or 256 words, the sizes its kernel is unrolled for
     * (kernels/tensor_toeplitz_plan.h). */
    {"warp-tensor-toeplitz",
     "one warp per product, Toeplitz tiles of byte limbs on the tensor cores (mma.sync u8 x u8 "
     "-> s32), then a carry pass (issue 13)",
     MUL_MIN_WORDS, 256, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_tensor_toeplitz_launch, NULL},
    /* Above warp-tensor-toeplitz's 256 words: Karatsuba down to its products
     * (kernels/mul_tensor_karatsuba.cu). */
    {"warp-tensor-karatsuba",
     "one warp per product, subtractive Karatsuba down to warp-tensor-toeplitz products of at "
     "most 8192 bits; 8224..65536 bits (issue 39)",
     257, MUL_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_tensor_karatsuba_launch,
     mul_tensor_karatsuba_scratch_bytes},
    /* Operands are padded to 8, 16, 32, 64 or 128 words, the sizes its kernel is unrolled for,
     * with 4 threads per product up to 16 words, 8 at 32 and 64, 16 at 128
     * (kernels/split_rowchain_shape.h). */
    {"split-rowchain",
     "4-16 threads per product, each sums two of the 2T column ranges by IMAD.WIDE row "
     "chains, carries between ranges by lookahead over ballots; 64..4096 bits (issue 13)",
     MUL_MIN_WORDS, SPLIT_ROWCHAIN_MAX_WORDS, 1, MUL_LAYOUT_PRODUCT_MAJOR, mul_split_rowchain_launch, NULL},
    TOOM_METHOD(2, 3), TOOM_METHOD(3, 5), TOOM_METHOD(4, 7), TOOM_METHOD(5, 9),
    TOOM_METHOD(6, 11), TOOM_METHOD(7, 13), TOOM_METHOD(8, 15), TOOM_METHOD(9, 17),
};

const struct mul_method *mul_methods(size_t *n)
{
    *n = sizeof methods / sizeof methods[0];
    return methods;
}

const struct mul_method *mul_method_find(const char *name)
{
    size_t n;
    const struct mul_method *all = mul_methods(&n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(all[i].name, name))
            return &all[i];
    return NULL;
}

int mul_method_supports(const struct mul_method *m, unsigned words)
{
    return words >= m->min_words && words <= m->max_words && words % m->words_multiple == 0;
}

/* The launch shapes of the kernels, read off their files; tests size their batches by this. */
unsigned mul_method_block_products(const struct mul_method *m, unsigned words)
{
    const mul_launch_fn f = m->launch;
    /* mul_sumrotate.cu: 4 warps per block, floor(32 / w) products per warp below 32 words. */
    if (f == mul_sumrotate_shuffle_launch || f == mul_sumrotate_shared_launch)
        return 4 * (words < 32 ? 32 / words : 1);
    /* mul_sumrotate_karatsuba.cu: 4 warps per block, a product each. */
    if (f == mul_sumrotate_shuffle_karatsuba_launch || f == mul_sumrotate_shared_karatsuba_launch ||
        f == mul_sumrotate_shuffle_karatsuba2_launch || f == mul_sumrotate_shared_karatsuba2_launch)
        return 4;
    /* mul_warp_column.cu: up to 4 warps per block, 32 / G products per warp, G = w rounded up
     * to a power of two, at most 32. */
    if (f == mul_warp_column_shared_launch || f == mul_warp_column_shuffle_launch) {
        unsigned g = 2;
        while (g < words && g < 32)
            g *= 2;
        return 4 * (32 / g);
    }
    /* thread-rowchain-karatsuba: fused_shape's P, 128 products per block up to 32 words, else
     * 32; its device-memory split and join kernels take 32 problems per block. */
    if (f == mul_rowchain_karatsuba_launch)
        return words <= 32 ? 128 : 32;
    /* mul_tensor_toeplitz.cu, mul_tensor_karatsuba.cu: 4 warps per block, a product each. */
    if (f == mul_tensor_toeplitz_launch || f == mul_tensor_karatsuba_launch)
        return 4;
    /* mul_split_rowchain.cu: 4 warps per block, 32 / T products per warp. */
    if (f == mul_split_rowchain_launch)
        return SPLIT_ROWCHAIN_WARPS_PER_BLOCK * 32 /
               SPLIT_ROWCHAIN_THREADS(SPLIT_ROWCHAIN_PADDED_WORDS(words));
    /* mul_thread_comba_reg.cu: 32 / T products a warp, T threads a product. */
    if (f == mul_thread_comba_reg_launch || f == mul_thread_comba_reg_shared_launch)
        return MUL_THREAD_COMBA_REG_WARPS_PER_BLOCK * 32;
    if (f == mul_pair_comba_reg_launch || f == mul_pair_comba_reg_shared_launch)
        return MUL_THREAD_COMBA_REG_WARPS_PER_BLOCK * 16;
    if (f == mul_quad_comba_reg_launch || f == mul_quad_comba_reg_shared_launch)
        return MUL_THREAD_COMBA_REG_WARPS_PER_BLOCK * 8;
    if (f == mul_octo_comba_reg_launch || f == mul_octo_comba_reg_shared_launch)
        return MUL_THREAD_COMBA_REG_WARPS_PER_BLOCK * 4;
    /* thread-school, thread-comba, thread-karatsuba[2]: 128 threads per block, a product each;
     * Toom-k: its interpolation kernel, the same. */
    return 128;
}
