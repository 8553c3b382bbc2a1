/* The shared-factor search's tree-gpu method (issue 38): Bernstein's batch GCD with the bottom
 * of both trees on the GPU, in mpgpu's own multiplications (scaled_tree_shape.h says what the
 * tree is and why its precision suffices; cpu_ref/scaled_remainder_tree.c is its CPU model).
 *
 * The GPU takes levels 0 .. G - 1, those whose operands fit mpgpu mul (65536 bits): each level
 * of the product tree and each node's square is one batched mpgpu_mul_device call, and each
 * step of the scaled remainder tree two (the parent's Y in halves, times the sibling's square)
 * and a window pass, so the GPU does no division. The levels above G, few nodes of millions of
 * bits, stay with GMP on the host's cores (shared_factors_tree_remainders, as tree-cpu), which
 * hands down Y_G = floor(2^P_G (P mod S_v) / S_v) of each node of level G. At the leaves the
 * GPU forms z_i = ceil(S_i Y_i / 2^P_0), and the host g_i = gcd(N_i, z_i / N_i). */
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu_internal.h"
#include "scaled_tree_shape.h"
#include "scaled_tree_steps.h"
#include "shared_factors_tree.h"

/* Every device buffer of a run, so that one place frees them on every path. */
enum { BUF_T, BUF_T_UP, BUF_A, BUF_B, BUF_A_HI, BUF_P_LO, BUF_P_HI, BUF_Y, BUF_Y_UP, BUF_COUNT };

struct tree_gpu {
    struct scaled_tree_shape s;
    size_t n, words;
    cudaStream_t stream;
    uint32_t *buf[BUF_COUNT];
    uint32_t *squares[SCALED_TREE_MAX_LEVELS]; /* S_k, padded[k] x 2 w_k words, k < G */
    struct call_progress *progress;
};

#define TRY_MPGPU(call)                                                                     \
    do {                                                                                    \
        const mpgpu_status tree_gpu_st_ = (call);                                           \
        if (tree_gpu_st_ != MPGPU_OK)                                                       \
            return tree_gpu_st_;                                                            \
    } while (0)

static size_t words_at(const struct tree_gpu *t, unsigned k)
{
    return (size_t)t->s.leaf_words << k;
}

static cudaError_t alloc(struct tree_gpu *t, uint32_t **p, size_t words)
{
    return cudaMallocAsync((void **)p, (words ? words : 1) * sizeof **p, t->stream);
}

static void release(struct tree_gpu *t, uint32_t **p)
{
    if (*p)
        cudaFreeAsync(*p, t->stream);
    *p = NULL;
}

/* Device bytes at the peak, from above: every level's nodes and squares up to G, then a step's
 * parent, three operands of 2 w_k words, two products of 4 w_k and the child, with the largest
 * scratch any of its multiplications asks for. */
static mpgpu_status device_bytes(const struct scaled_tree_shape *s, uint64_t *bytes)
{
    uint64_t words = 0, step = 0, scratch = 0;
    for (unsigned k = 0; k <= s->gpu_levels; k++) {
        const uint64_t w = (uint64_t)s->leaf_words << k, level = s->padded[k] * w;
        words += level + (k < s->gpu_levels ? 2 * level : 0);
        step = 26 * level > step ? 26 * level : step;
        if (k < s->gpu_levels) {
            /* The products of level k, its squares and its steps' (auto picks by count). */
            const unsigned bits[3] = {(unsigned)(32 * w), (unsigned)(32 * w),
                                      (unsigned)(64 * w)};
            const size_t counts[3] = {s->nodes[k + 1], s->padded[k], s->padded[k]};
            for (int b = 0; b < 3; b++) {
                size_t ws = 0;
                TRY_MPGPU(mpgpu_mul_workspace_bytes("auto", bits[b], counts[b],
                                                    MPGPU_MUL_PRODUCT_MAJOR, &ws));
                scratch = ws > scratch ? ws : scratch;
            }
        }
    }
    *bytes = 4 * (words + step) + scratch;
    return MPGPU_OK;
}

mpgpu_status shared_factors_tree_gpu_device_bytes(uint64_t n, uint64_t bits, uint64_t *bytes)
{
    struct scaled_tree_shape s;
    if (n < 2 || n > SIZE_MAX / 2 || !scaled_tree_shape_of((size_t)n, bits, &s))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    return device_bytes(&s, bytes);
}

/* count products of bits-bit operands, product-major, with the tune table's method. */
static mpgpu_status multiply(struct tree_gpu *t, size_t bits, size_t count, const uint32_t *a,
                             const uint32_t *b, uint32_t *c)
{
    return mpgpu_mul_device("auto", (unsigned)bits, count, a, b, c, t->stream);
}

/* rows numbers of `width` words from src (one every src_pitch words) to dst (one every
 * dst_pitch words). */
static cudaError_t copy_rows(struct tree_gpu *t, uint32_t *dst, size_t dst_pitch,
                             const uint32_t *src, size_t src_pitch, size_t width, size_t rows)
{
    if (rows == 0)
        return cudaSuccess;
    return cudaMemcpy2DAsync(dst, dst_pitch * 4, src, src_pitch * 4, width * 4, rows,
                             cudaMemcpyDeviceToDevice, t->stream);
}

/* Node `index` of a level of `width`-word nodes set to 1: the pad node of an odd level. */
static cudaError_t set_one(struct tree_gpu *t, uint32_t *nodes, size_t index, size_t width)
{
    static const uint32_t one = 1;
    cudaError_t err = cudaMemsetAsync(nodes + index * width, 0, width * 4, t->stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(nodes + index * width, &one, 4, cudaMemcpyHostToDevice, t->stream);
    return err;
}

static mpgpu_status level_done(struct tree_gpu *t)
{
    call_progress_step(t->progress, t->n);
    return call_progress_cancelled(t->progress) ? MPGPU_ERR_CANCELLED : MPGPU_OK;
}

/* The moduli into level 0 (w_0 words each, zero-padded, the pad node 1), then up the product
 * tree to level G, with each node's square below G. Leaves T_G in buf[BUF_T]. */
static mpgpu_status up(struct tree_gpu *t, const uint32_t *moduli)
{
    const struct scaled_tree_shape *s = &t->s;
    const size_t w0 = s->leaf_words, copied = t->words < w0 ? t->words : w0;
    uint32_t **T = &t->buf[BUF_T], **T_up = &t->buf[BUF_T_UP], **A = &t->buf[BUF_A],
             **B = &t->buf[BUF_B];
    LIBMPGPU_TRY(alloc(t, T, s->padded[0] * w0));
    LIBMPGPU_TRY(cudaMemsetAsync(*T, 0, s->padded[0] * w0 * 4, t->stream));
    LIBMPGPU_TRY(cudaMemcpy2DAsync(*T, w0 * 4, moduli, t->words * 4, copied * 4, t->n,
                          cudaMemcpyHostToDevice, t->stream));
    if (s->padded[0] > t->n)
        LIBMPGPU_TRY(set_one(t, *T, t->n, w0));
    for (unsigned k = 0; k < s->gpu_levels; k++) {
        const size_t w = words_at(t, k), pairs = s->nodes[k + 1];
        LIBMPGPU_TRY(alloc(t, &t->squares[k], s->padded[k] * 2 * w));
        TRY_MPGPU(multiply(t, 32 * w, s->padded[k], *T, *T, t->squares[k]));
        LIBMPGPU_TRY(alloc(t, A, pairs * w));
        LIBMPGPU_TRY(alloc(t, B, pairs * w));
        LIBMPGPU_TRY(copy_rows(t, *A, w, *T, 2 * w, w, pairs));
        LIBMPGPU_TRY(copy_rows(t, *B, w, *T + w, 2 * w, w, pairs));
        LIBMPGPU_TRY(alloc(t, T_up, s->padded[k + 1] * 2 * w));
        TRY_MPGPU(multiply(t, 32 * w, pairs, *A, *B, *T_up));
        if (s->padded[k + 1] > pairs)
            LIBMPGPU_TRY(set_one(t, *T_up, pairs, 2 * w));
        release(t, A);
        release(t, B);
        release(t, T);
        *T = *T_up;
        *T_up = NULL;
        TRY_MPGPU(level_done(t));
    }
    return MPGPU_OK;
}

/* The host's part: T_G down, the trees above G with GMP, and Y_G = floor(2^P_G (P mod S_v) /
 * S_v) of each node of level G up into buf[BUF_Y] (padded[G] x 2 w_G words, the pad node's 0). */
static mpgpu_status host_levels(struct tree_gpu *t, int threads)
{
    const unsigned G = t->s.gpu_levels;
    const size_t w = words_at(t, G), count = t->s.nodes[G];
    uint32_t *words = malloc(t->s.padded[G] * 2 * w * sizeof *words);
    mpz_t *T = shared_factors_mpz_array(count), *R = shared_factors_mpz_array(count);
    mpgpu_status st = words && T && R ? MPGPU_OK : MPGPU_ERR_OUT_OF_HOST_MEMORY;
    cudaError_t err = cudaSuccess;
    if (st == MPGPU_OK)
        err = cudaMemcpyAsync(words, t->buf[BUF_T], count * w * 4, cudaMemcpyDeviceToHost,
                              t->stream);
    if (st == MPGPU_OK && err == cudaSuccess)
        err = cudaStreamSynchronize(t->stream);
    if (err != cudaSuccess)
        st = libmpgpu_cuda_failure(err, "cudaMemcpyAsync (the top GPU level to the host)");
    release(t, &t->buf[BUF_T]);
    if (st == MPGPU_OK) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t v = 0; v < count; v++)
            mpz_import(T[v], w, -1, sizeof *words, 0, 0, words + v * w);
        st = shared_factors_tree_remainders(count, (const mpz_t *)T, R, G, t->n, threads,
                                            t->progress);
    }
    if (st == MPGPU_OK) {
        const size_t y_words = 2 * w;
        memset(words, 0, t->s.padded[G] * y_words * sizeof *words);
#pragma omp parallel num_threads(threads)
        {
            mpz_t square;
            mpz_init(square);
#pragma omp for schedule(dynamic, 1)
            for (size_t v = 0; v < count; v++) {
                mpz_mul(square, T[v], T[v]);
                mpz_mul_2exp(R[v], R[v], 32 * y_words);
                mpz_fdiv_q(R[v], R[v], square);
                mpz_export(words + v * y_words, NULL, -1, sizeof *words, 0, 0, R[v]);
            }
            mpz_clear(square);
        }
        err = alloc(t, &t->buf[BUF_Y], t->s.padded[G] * y_words);
        if (err == cudaSuccess)
            err = cudaMemcpyAsync(t->buf[BUF_Y], words, t->s.padded[G] * y_words * 4,
                                  cudaMemcpyHostToDevice, t->stream);
        if (err != cudaSuccess)
            st = libmpgpu_cuda_failure(err, "cudaMemcpyAsync (level G's fractions to the GPU)");
    }
    shared_factors_mpz_array_free(T, T ? count : 0);
    shared_factors_mpz_array_free(R, R ? count : 0);
    free(words);
    return st;
}

/* Down the scaled tree from Y_G to Y_0: at level k (m = 2 w_k words), Y_v = the middle m words
 * of Y_u S_s, from Y_u's halves times S_s. Leaves Y_0 in buf[BUF_Y]. */
static mpgpu_status down(struct tree_gpu *t)
{
    uint32_t **Y_up = &t->buf[BUF_Y_UP], **Y = &t->buf[BUF_Y], **lo = &t->buf[BUF_A],
             **hi = &t->buf[BUF_A_HI], **S = &t->buf[BUF_B], **P_lo = &t->buf[BUF_P_LO],
             **P_hi = &t->buf[BUF_P_HI];
    for (unsigned k = t->s.gpu_levels; k-- > 0;) {
        const size_t m = 2 * words_at(t, k), count = t->s.padded[k], parents = count / 2;
        *Y_up = *Y;
        *Y = NULL;
        LIBMPGPU_TRY(alloc(t, lo, count * m));
        LIBMPGPU_TRY(alloc(t, hi, count * m));
        LIBMPGPU_TRY(alloc(t, S, count * m));
        /* Both children of parent j get its halves; child 2j the square of 2j + 1, and back. */
        for (size_t child = 0; child < 2; child++) {
            LIBMPGPU_TRY(copy_rows(t, *lo + child * m, 2 * m, *Y_up, 2 * m, m, parents));
            LIBMPGPU_TRY(copy_rows(t, *hi + child * m, 2 * m, *Y_up + m, 2 * m, m, parents));
            LIBMPGPU_TRY(copy_rows(t, *S + child * m, 2 * m, t->squares[k] + (1 - child) * m,
                                   2 * m, m, parents));
        }
        release(t, Y_up);
        if (k > 0)
            release(t, &t->squares[k]);
        LIBMPGPU_TRY(alloc(t, P_lo, count * 2 * m));
        LIBMPGPU_TRY(alloc(t, P_hi, count * 2 * m));
        TRY_MPGPU(multiply(t, 32 * m, count, *lo, *S, *P_lo));
        TRY_MPGPU(multiply(t, 32 * m, count, *hi, *S, *P_hi));
        release(t, lo);
        release(t, hi);
        release(t, S);
        LIBMPGPU_TRY(alloc(t, Y, count * m));
        LIBMPGPU_TRY(scaled_tree_window(*P_lo, *P_hi, *Y, count, m, t->stream));
        release(t, P_lo);
        release(t, P_hi);
        TRY_MPGPU(level_done(t));
    }
    return MPGPU_OK;
}

/* The leaves: z_i = ceil(S_i Y_i / 2^P_0) on the GPU, then on the host g_i. */
static mpgpu_status leaves(struct tree_gpu *t, const mpz_t *N, mpz_t *g, int threads)
{
    const size_t m = 2 * t->s.leaf_words;
    uint32_t **X = &t->buf[BUF_P_LO], **Z = &t->buf[BUF_A];
    LIBMPGPU_TRY(alloc(t, X, t->n * 2 * m));
    TRY_MPGPU(multiply(t, 32 * m, t->n, t->squares[0], t->buf[BUF_Y], *X));
    LIBMPGPU_TRY(alloc(t, Z, t->n * m));
    LIBMPGPU_TRY(scaled_tree_leaf_ceiling(*X, *Z, t->n, m, t->stream));
    uint32_t *words = malloc(t->n * m * sizeof *words);
    mpz_t *z = shared_factors_mpz_array(t->n);
    mpgpu_status st = words && z ? MPGPU_OK : MPGPU_ERR_OUT_OF_HOST_MEMORY;
    cudaError_t err = cudaSuccess;
    if (st == MPGPU_OK)
        err = cudaMemcpyAsync(words, *Z, t->n * m * 4, cudaMemcpyDeviceToHost, t->stream);
    if (st == MPGPU_OK && err == cudaSuccess)
        err = cudaStreamSynchronize(t->stream);
    if (err != cudaSuccess)
        st = libmpgpu_cuda_failure(err, "cudaMemcpyAsync (the leaves' remainders to the host)");
    if (st == MPGPU_OK) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t i = 0; i < t->n; i++)
            mpz_import(z[i], m, -1, sizeof *words, 0, 0, words + i * m);
        st = shared_factors_tree_leaves(t->n, N, z, g, threads, t->progress);
    }
    shared_factors_mpz_array_free(z, z ? t->n : 0);
    free(words);
    return st;
}

static mpgpu_status run(struct tree_gpu *t, const uint32_t *moduli, const mpz_t *N, mpz_t *g,
                        int threads)
{
    uint64_t need = 0;
    size_t free_bytes = 0, total_bytes = 0;
    TRY_MPGPU(device_bytes(&t->s, &need));
    LIBMPGPU_TRY(cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking));
    LIBMPGPU_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (need > free_bytes)
        return libmpgpu_cuda_failure(cudaErrorMemoryAllocation,
                                     "cudaMemGetInfo (the GPU levels of tree-gpu need more)");
    TRY_MPGPU(up(t, moduli));
    TRY_MPGPU(host_levels(t, threads));
    TRY_MPGPU(down(t));
    return leaves(t, N, g, threads);
}

mpgpu_status shared_factors_tree_gpu(size_t n, const uint32_t *moduli, size_t words,
                                     const mpz_t *N, mpz_t *g, int threads,
                                     mpgpu_progress_fn progress, void *progress_ctx)
{
    struct call_progress p = call_progress_start(progress, progress_ctx, shared_factors_tree_steps(n));
    struct tree_gpu t = {.n = n, .words = words, .progress = &p};
    uint64_t widest = 0;
    for (size_t i = 0; i < n; i++)
        if (mpz_sizeinbase(N[i], 2) > widest)
            widest = mpz_sizeinbase(N[i], 2);
    if (!scaled_tree_shape_of(n, widest, &t.s) || n < 2)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    const mpgpu_status st = run(&t, moduli, N, g, threads);
    for (int b = 0; b < BUF_COUNT; b++)
        release(&t, &t.buf[b]);
    for (unsigned k = 0; k < t.s.gpu_levels; k++)
        release(&t, &t.squares[k]);
    if (t.stream) {
        cudaStreamSynchronize(t.stream);
        cudaStreamDestroy(t.stream);
    }
    return st;
}
