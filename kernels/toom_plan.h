/* The sizes of a Toom-k product, shared by the kernel (kernels/mul_toom.cu) and its reference
 * twin (cpu_ref/toom_ref.c): how the operands split into pieces and how long the point
 * products and coefficients are (the algorithm: cpu_ref/toom_ref.h). The k built and their
 * points are in toom_points.h (gen/toom_points_gen.c). */
#ifndef MPGPU_TOOM_PLAN_H
#define MPGPU_TOOM_PLAN_H

#ifdef __cplusplus
extern "C" {
#endif

/* The sub-product unit: the GPU multiplies point values with a sum-rotate warp product, whose
 * size is a multiple of 32 words (000 section 3.3.1: one word per lane). */
#define TOOM_SUBPRODUCT_UNIT 32u

/* Sizes, in 32-bit words, of one Toom-k product of two w-word operands. */
struct toom_layout {
    unsigned k, w;
    unsigned points;     /* 2k - 1 */
    unsigned piece;      /* s = ceil(w / k) */
    unsigned sub_words;  /* S = s rounded up to TOOM_SUBPRODUCT_UNIT */
    unsigned value_words;/* L = 2s + 2: a point product V_i, with its sign, fits mod 2^(32L) */
    unsigned coef_words; /* 2s + 1: a coefficient C_m (0 <= C_m < k 2^(64s)) */
};

static inline struct toom_layout toom_layout_of(unsigned w, unsigned k)
{
    struct toom_layout t;
    t.k = k;
    t.w = w;
    t.points = 2 * k - 1;
    t.piece = (w + k - 1) / k;
    t.sub_words = (t.piece + TOOM_SUBPRODUCT_UNIT - 1) / TOOM_SUBPRODUCT_UNIT * TOOM_SUBPRODUCT_UNIT;
    t.value_words = 2 * t.piece + 2;
    t.coef_words = 2 * t.piece + 1;
    return t;
}

/* Words of piece j (0 <= j < k): s, or fewer for the last pieces. */
static inline unsigned toom_piece_words(const struct toom_layout *t, unsigned j)
{
    unsigned start = j * t->piece;
    if (start >= t->w)
        return 0;
    return t->w - start < t->piece ? t->w - start : t->piece;
}

#ifdef __cplusplus
}
#endif
#endif
