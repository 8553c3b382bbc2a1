/* The shared-factor search's all-pairs method on the GPU (pairs-gpu, issue 38): gcd(N_i, N_j)
 * for every i < j with the bulk GCD kernel's Lehmer steps (gcd_bulk.cu), a tile of T x T pairs a
 * launch, the moduli read in place from one word-major copy on the GPU (no N^2 memory); the
 * pairs whose GCD is not 1 come back, and g_i = gcd(N_i, prod over j != i of N_j) is formed
 * from them on the host. */
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_bulk.h"
#include "layout_transpose.h"
#include "mpgpu_internal.h"
#include "shared_factors_tree.h"

/* The default tile: 2^20 pairs a launch, enough threads to fill an H200 several times over. */
#define DEFAULT_TILE 1024u
/* The first room for a tile's hits; grown (and the tile rerun) when a set has more. */
#define FIRST_HIT_CAP 4096u

struct mpgpu_shared_pairs {
    size_t count, words;
    unsigned tile;
    uint64_t rows; /* tile rows (and columns) */
    uint32_t *d_moduli;
    struct gcd_bulk_hit *d_hits;
    uint32_t hit_cap;
    unsigned long long *d_n_hits;
    cudaStream_t stream;
};

void mpgpu_shared_pairs_destroy(mpgpu_shared_pairs *p)
{
    if (!p)
        return;
    if (p->stream)
        cudaStreamSynchronize(p->stream);
    cudaFree(p->d_moduli);
    cudaFree(p->d_hits);
    cudaFree(p->d_n_hits);
    if (p->stream)
        cudaStreamDestroy(p->stream);
    free(p);
}

static mpgpu_status grow_hits(mpgpu_shared_pairs *p, uint64_t need)
{
    uint64_t cap = p->hit_cap ? p->hit_cap : FIRST_HIT_CAP;
    while (cap < need)
        cap *= 2;
    cudaFree(p->d_hits);
    p->d_hits = NULL;
    p->hit_cap = (uint32_t)cap;
    LIBMPGPU_TRY(cudaMalloc((void **)&p->d_hits, cap * sizeof *p->d_hits));
    return MPGPU_OK;
}

/* The moduli onto the GPU, word-major (uploaded pair-major, transposed there). */
static mpgpu_status upload(mpgpu_shared_pairs *p, const uint32_t *moduli)
{
    const size_t bytes = p->count * p->words * sizeof *moduli;
    uint32_t *staging = NULL;
    LIBMPGPU_TRY(cudaStreamCreateWithFlags(&p->stream, cudaStreamNonBlocking));
    LIBMPGPU_TRY(cudaMalloc((void **)&p->d_moduli, bytes));
    LIBMPGPU_TRY(cudaMalloc((void **)&p->d_n_hits, sizeof *p->d_n_hits));
    LIBMPGPU_TRY(cudaMalloc((void **)&staging, bytes));
    cudaError_t err = cudaMemcpyAsync(staging, moduli, bytes, cudaMemcpyHostToDevice, p->stream);
    if (err == cudaSuccess)
        err = layout_transpose(staging, p->d_moduli, p->count, p->words, p->stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(p->stream);
    cudaFree(staging);
    if (err != cudaSuccess)
        return libmpgpu_cuda_failure(err, "upload of the moduli (cudaMemcpyAsync, transpose)");
    return grow_hits(p, FIRST_HIT_CAP);
}

mpgpu_status mpgpu_shared_pairs_create(size_t count, const uint32_t *moduli, size_t words,
                                       unsigned tile, mpgpu_shared_pairs **out)
{
    if (!out || !moduli || count < 2 || count > UINT32_MAX || words == 0)
        return MPGPU_ERR_BAD_ARGUMENT;
    *out = NULL;
    if (words > MPGPU_GCD_BULK_MAX_BITS / 32)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    mpgpu_shared_pairs *p = calloc(1, sizeof *p);
    if (!p)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    p->count = count;
    p->words = words;
    p->tile = tile ? tile : DEFAULT_TILE;
    p->rows = (count + p->tile - 1) / p->tile;
    const mpgpu_status st = upload(p, moduli);
    if (st != MPGPU_OK) {
        mpgpu_shared_pairs_destroy(p);
        return st;
    }
    *out = p;
    return MPGPU_OK;
}

uint64_t mpgpu_shared_pairs_tiles(const mpgpu_shared_pairs *p)
{
    return p ? p->rows * (p->rows + 1) / 2 : 0;
}

/* Tile k's row and column, the tiles on and above the diagonal taken row by row. */
static void tile_at(const mpgpu_shared_pairs *p, uint64_t k, uint64_t *row, uint64_t *col)
{
    uint64_t r = 0, left = k;
    while (left >= p->rows - r) {
        left -= p->rows - r;
        r++;
    }
    *row = r;
    *col = r + left;
}

/* Room for `more` pairs beyond the n in *pairs (2 words a pair), grown by doubling. */
static mpgpu_status reserve(uint32_t **pairs, size_t *cap, size_t n, size_t more)
{
    if (n + more <= *cap)
        return MPGPU_OK;
    const size_t want = 2 * (n + more);
    uint32_t *grown = realloc(*pairs, 2 * want * sizeof *grown);
    if (!grown)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    *pairs = grown;
    *cap = want;
    return MPGPU_OK;
}

mpgpu_status mpgpu_shared_pairs_run_tile(mpgpu_shared_pairs *p, uint64_t k, uint32_t **pairs,
                                         size_t *n_pairs, size_t *cap)
{
    if (!p || !pairs || !n_pairs || !cap || k >= mpgpu_shared_pairs_tiles(p))
        return MPGPU_ERR_BAD_ARGUMENT;
    uint64_t row, col;
    tile_at(p, k, &row, &col);
    for (;;) {
        unsigned long long found = 0;
        LIBMPGPU_TRY(cudaMemsetAsync(p->d_n_hits, 0, sizeof *p->d_n_hits, p->stream));
        LIBMPGPU_TRY(gcd_bulk_tile_launch(p->d_moduli, p->count, (uint32_t)p->words,
                                          row * p->tile, col * p->tile, p->tile, p->d_hits,
                                          p->hit_cap, p->d_n_hits, p->stream));
        LIBMPGPU_TRY(cudaMemcpyAsync(&found, p->d_n_hits, sizeof found, cudaMemcpyDeviceToHost,
                                     p->stream));
        LIBMPGPU_TRY(cudaStreamSynchronize(p->stream));
        /* More than the room: the tile again, with room for all of them. */
        const mpgpu_status st = found <= p->hit_cap ? reserve(pairs, cap, *n_pairs, found)
                                                    : grow_hits(p, found);
        if (st != MPGPU_OK)
            return st;
        if (found <= p->hit_cap) {
            LIBMPGPU_TRY(cudaMemcpy(*pairs + 2 * *n_pairs, p->d_hits, found * sizeof *p->d_hits,
                                    cudaMemcpyDeviceToHost));
            *n_pairs += (size_t)found;
            return MPGPU_OK;
        }
    }
}

mpgpu_status mpgpu_shared_factors_g_from_pairs(size_t count, const uint32_t *moduli, size_t words,
                                               size_t n_pairs, const uint32_t *pairs, uint32_t *g)
{
    if (!moduli || !g || !words || (n_pairs && !pairs))
        return MPGPU_ERR_BAD_ARGUMENT;
    for (size_t k = 0; k < 2 * n_pairs; k++)
        if (pairs[k] >= count || (k % 2 && pairs[k - 1] == pairs[k]))
            return MPGPU_ERR_BAD_ARGUMENT;
    mpz_t *acc = shared_factors_mpz_array(count);
    if (!acc)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    mpz_t a, b, d;
    mpz_inits(a, b, d, NULL);
    for (size_t i = 0; i < count; i++)
        mpz_set_ui(acc[i], 1);
    /* g_i = gcd(N_i, prod over j of gcd(N_i, N_j)): for a prime p with N_i's exponent e, either
     * some N_j has p^e (both sides then have e) or every exponent is below e, and the GCDs carry
     * them whole; so it is gcd(N_i, prod over j != i of N_j), exactly. The product is kept
     * modulo N_i. */
    for (size_t k = 0; k < n_pairs; k++) {
        const uint32_t i = pairs[2 * k], j = pairs[2 * k + 1];
        mpz_import(a, words, -1, sizeof *moduli, 0, 0, moduli + (size_t)i * words);
        mpz_import(b, words, -1, sizeof *moduli, 0, 0, moduli + (size_t)j * words);
        mpz_gcd(d, a, b);
        mpz_mul(acc[i], acc[i], d);
        mpz_mod(acc[i], acc[i], a);
        mpz_mul(acc[j], acc[j], d);
        mpz_mod(acc[j], acc[j], b);
    }
    for (size_t i = 0; i < count; i++) {
        mpz_import(a, words, -1, sizeof *moduli, 0, 0, moduli + i * words);
        mpz_gcd(d, a, acc[i]);
        memset(g + i * words, 0, words * sizeof *g);
        mpz_export(g + i * words, NULL, -1, sizeof *g, 0, 0, d);
    }
    mpz_clears(a, b, d, NULL);
    shared_factors_mpz_array_free(acc, count);
    return MPGPU_OK;
}
