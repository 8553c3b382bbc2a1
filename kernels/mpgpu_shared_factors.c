/* libmpgpu's shared-factor search (mpgpu.h, "Shared factors"): the methods that give g_i =
 * gcd(N_i, prod over j != i of N_j) (shared_factors_tree.c on the host; shared_factors_tree_gpu.c
 * and shared_factors_pairs_gpu.c on the GPU), and the report made from them
 * (shared_factors_classify.c), over moduli carried as words. */
#include <gmp.h>
#include <omp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu_internal.h"
#include "shared_factors_classify.h"
#include "shared_factors_tree.h"

/* The widest modulus tree-cpu takes: the sizes the rest of mpgpu takes, 64..65536 bits. */
#define TREE_CPU_MAX_BITS 65536u
/* The root of the product tree, and its square's remainders, must stay well inside GMP's
 * largest number (2^31 limbs of 64 bits, 2^37 bits). */
#define TREE_CPU_MAX_TOTAL_BITS (UINT64_C(1) << 36)

/* tree-gpu: the leaves' steps fit mpgpu mul (scaled_tree_shape.h: 2 (floor(bits / 32) + 1) words
 * at most 2048). */
#define TREE_GPU_MAX_BITS 32767u

/* pairs-gpu: the bulk GCD kernel's sizes, and moduli indexed by 32 bits. */
#define PAIRS_GPU_MAX_BITS 8192u
#define PAIRS_GPU_MAX_TOTAL_BITS ((uint64_t)UINT32_MAX * PAIRS_GPU_MAX_BITS)

static const mpgpu_shared_factors_method_info methods[] = {
    {"tree-cpu", "Bernstein's batch GCD (product tree, remainder tree of P mod N_i^2) with GMP on "
                 "every host core",
     0, TREE_CPU_MAX_BITS, TREE_CPU_MAX_TOTAL_BITS},
    {"pairs-gpu", "gcd(N_i, N_j) of every pair on the GPU, one pair a thread (the bulk GCD's "
                  "Lehmer steps), tiled; g_i from the pairs that share a factor",
     1, PAIRS_GPU_MAX_BITS, PAIRS_GPU_MAX_TOTAL_BITS},
    {"tree-gpu", "Bernstein's batch GCD with the levels below 65536 bits on the GPU in mpgpu mul "
                 "(product tree, scaled remainder tree), those above with GMP on every host core",
     1, TREE_GPU_MAX_BITS, TREE_CPU_MAX_TOTAL_BITS},
};
#define N_METHODS (sizeof methods / sizeof methods[0])

size_t mpgpu_shared_factors_method_count(void)
{
    return N_METHODS;
}

mpgpu_status mpgpu_shared_factors_method_get(size_t index, mpgpu_shared_factors_method_info *info)
{
    if (!info || index >= N_METHODS)
        return MPGPU_ERR_BAD_ARGUMENT;
    *info = methods[index];
    return MPGPU_OK;
}

static const mpgpu_shared_factors_method_info *find(const char *name)
{
    for (size_t i = 0; i < N_METHODS; i++)
        if (!strcmp(name, methods[i].name))
            return &methods[i];
    return NULL;
}

mpgpu_status mpgpu_shared_factors_method_find(const char *name,
                                              mpgpu_shared_factors_method_info *info)
{
    if (!name || !info)
        return MPGPU_ERR_BAD_ARGUMENT;
    const mpgpu_shared_factors_method_info *m = find(name);
    if (!m)
        return MPGPU_ERR_UNKNOWN_METHOD;
    *info = *m;
    return MPGPU_OK;
}

mpgpu_status mpgpu_shared_factors_check(const char *method, uint64_t count, uint64_t bits)
{
    if (!method)
        return MPGPU_ERR_BAD_ARGUMENT;
    const mpgpu_shared_factors_method_info *m = find(method);
    if (!m)
        return MPGPU_ERR_UNKNOWN_METHOD;
    if (count < 2)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (bits == 0 || bits > m->max_bits || count > m->max_total_bits / bits)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    return MPGPU_OK;
}

static int threads_of(int threads)
{
    return threads > 0 ? threads : omp_get_num_procs();
}

mpgpu_status mpgpu_shared_factors_host_bytes(const char *method, uint64_t count, uint64_t bits,
                                             uint64_t *bytes)
{
    if (!bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    const mpgpu_status st = mpgpu_shared_factors_check(method, count, bits);
    if (st != MPGPU_OK)
        return st;
    /* pairs-gpu: a copy of the moduli, and the g_i's products and GCDs, a few numbers each.
     * tree-gpu: tree-cpu's trees from above (it keeps fewer levels), and the words of the
     * leaves' remainders and of level G on their way between host and GPU. */
    if (!strcmp(method, "pairs-gpu"))
        *bytes = 4 * count * ((bits + 63) / 64 * 8 + 32);
    else
        *bytes = shared_factors_tree_bytes(count, bits, threads_of(0)) +
                 (strcmp(method, "tree-gpu") ? 0 : 4 * count * (bits / 32 + 2) * 4);
    return MPGPU_OK;
}

mpgpu_status mpgpu_shared_factors_device_bytes(const char *method, uint64_t count, uint64_t bits,
                                               uint64_t *bytes)
{
    if (!bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    const mpgpu_status st = mpgpu_shared_factors_check(method, count, bits);
    if (st != MPGPU_OK)
        return st;
    *bytes = 0;
    if (!strcmp(method, "tree-gpu"))
        return shared_factors_tree_gpu_device_bytes(count, bits, bytes);
    if (!strcmp(method, "pairs-gpu")) /* the moduli and their staging copy, the pairs' room */
        *bytes = 2 * count * ((bits + 31) / 32) * 4 + (UINT64_C(1) << 20);
    return MPGPU_OK;
}

mpgpu_status mpgpu_shared_factors_check_moduli(size_t count, const uint32_t *moduli, size_t words,
                                               size_t *first_bad)
{
    if (count && (!moduli || !words))
        return MPGPU_ERR_BAD_ARGUMENT;
    for (size_t i = 0; i < count; i++) {
        const uint32_t *x = moduli + i * words;
        bool above_one = x[0] > 1;
        for (size_t w = 1; w < words && !above_one; w++)
            above_one = x[w] != 0;
        if (!(x[0] & 1) || !above_one) {
            if (first_bad)
                *first_bad = i;
            return MPGPU_ERR_BAD_ARGUMENT;
        }
    }
    return MPGPU_OK;
}

/* n numbers of `words` words (0: zeros) into fresh mpz_t (NULL when host memory is short). */
static mpz_t *import_all(size_t n, const uint32_t *x, size_t words, int threads)
{
    mpz_t *z = shared_factors_mpz_array(n);
    if (!z)
        return NULL;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n; i++)
        mpz_import(z[i], words, -1, sizeof *x, 0, 0, x + i * words);
    return z;
}

/* z into `words` words at out, zero-padded (z has at most that many). */
static void export_padded(uint32_t *out, size_t words, const mpz_t z)
{
    memset(out, 0, words * sizeof *out);
    mpz_export(out, NULL, -1, sizeof *out, 0, 0, z);
}

/* The widest modulus's size in bits (the words may carry zero top words). */
static uint64_t widest_bits(size_t count, const uint32_t *moduli, size_t words)
{
    uint64_t widest = 0;
    for (size_t i = 0; i < count; i++) {
        const uint32_t *x = moduli + i * words;
        size_t top = words;
        while (top > 0 && x[top - 1] == 0)
            top--;
        const uint64_t bits = top ? (uint64_t)top * 32 - (uint64_t)__builtin_clz(x[top - 1]) : 0;
        widest = bits > widest ? bits : widest;
    }
    return widest;
}

/* The checks every call over a set of moduli makes: pointers, the method's sizes (count and the
 * widest modulus), and each modulus odd and above 1. */
static mpgpu_status check_set(const char *method, size_t count, const uint32_t *moduli,
                              size_t words, const void *out)
{
    if (!moduli || !out || !words || count > SIZE_MAX / words / sizeof *moduli)
        return MPGPU_ERR_BAD_ARGUMENT;
    const mpgpu_status st = mpgpu_shared_factors_check_moduli(count, moduli, words, NULL);
    if (st != MPGPU_OK)
        return st;
    return mpgpu_shared_factors_check(method, count, widest_bits(count, moduli, words));
}

/* pairs-gpu whole: every tile in order, progress a tile; the pairs found gathered, then g. */
static mpgpu_status pairs_gpu(const mpgpu_shared_factors_options *o, size_t count,
                              const uint32_t *moduli, size_t words, uint32_t *g)
{
    mpgpu_shared_pairs *p = NULL;
    mpgpu_status st = mpgpu_shared_pairs_create(count, moduli, words, 0, &p);
    uint32_t *all = NULL;
    size_t n_all = 0, cap = 0;
    const uint64_t tiles = mpgpu_shared_pairs_tiles(p);
    for (uint64_t k = 0; k < tiles && st == MPGPU_OK; k++) {
        st = mpgpu_shared_pairs_run_tile(p, k, &all, &n_all, &cap);
        if (st == MPGPU_OK && o->progress && o->progress(o->progress_ctx, k + 1, tiles))
            st = MPGPU_ERR_CANCELLED;
    }
    mpgpu_shared_pairs_destroy(p);
    if (st == MPGPU_OK)
        st = mpgpu_shared_factors_g_from_pairs(count, moduli, words, n_all, all, g);
    free(all);
    return st;
}

mpgpu_status mpgpu_shared_factors_gcds(const mpgpu_shared_factors_options *o, size_t count,
                                       const uint32_t *moduli, size_t words, uint32_t *g)
{
    const mpgpu_shared_factors_options defaults = {0};
    if (!o)
        o = &defaults;
    const char *method = o->method ? o->method : "tree-cpu";
    mpgpu_status st = check_set(method, count, moduli, words, g);
    if (st != MPGPU_OK)
        return st;
    if (libmpgpu_overlap(moduli, count * words * sizeof *moduli, g, count * words * sizeof *g))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!strcmp(method, "pairs-gpu"))
        return pairs_gpu(o, count, moduli, words, g);
    const bool on_gpu = !strcmp(method, "tree-gpu");
    const int threads = threads_of(o->threads);
    mpz_t *N = import_all(count, moduli, words, threads), *G = import_all(count, g, 0, threads);
    if (!N || !G) {
        shared_factors_mpz_array_free(N, N ? count : 0);
        shared_factors_mpz_array_free(G, G ? count : 0);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    st = on_gpu ? shared_factors_tree_gpu(count, moduli, words, (const mpz_t *)N, G, threads,
                                          o->progress, o->progress_ctx)
                : shared_factors_tree(count, (const mpz_t *)N, G, threads, o->progress,
                                      o->progress_ctx);
    if (st == MPGPU_OK) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t i = 0; i < count; i++)
            export_padded(g + i * words, words, G[i]);
    }
    shared_factors_mpz_array_free(N, count);
    shared_factors_mpz_array_free(G, count);
    return st;
}

mpgpu_status mpgpu_shared_factors_classify(size_t count, const uint32_t *moduli, size_t words,
                                           const uint32_t *g, int threads,
                                           mpgpu_shared_factors_report **report)
{
    if (!report || !g || !moduli || !words || count < 2 ||
        count > SIZE_MAX / words / sizeof *moduli)
        return MPGPU_ERR_BAD_ARGUMENT;
    *report = NULL;
    mpgpu_status st = mpgpu_shared_factors_check_moduli(count, moduli, words, NULL);
    if (st != MPGPU_OK)
        return st;
    threads = threads_of(threads);
    mpz_t *N = import_all(count, moduli, words, threads), *G = import_all(count, g, words, threads);
    if (!N || !G) {
        shared_factors_mpz_array_free(N, N ? count : 0);
        shared_factors_mpz_array_free(G, G ? count : 0);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < count && st == MPGPU_OK; i++)
        if (mpz_sgn(G[i]) == 0 || !mpz_divisible_p(N[i], G[i]))
            st = MPGPU_ERR_BAD_ARGUMENT;
    if (st == MPGPU_OK)
        st = shared_factors_classify(count, (const mpz_t *)N, (const mpz_t *)G, threads, report);
    shared_factors_mpz_array_free(N, count);
    shared_factors_mpz_array_free(G, count);
    return st;
}

mpgpu_status mpgpu_shared_factors_report_share(const mpgpu_shared_factors_report *report, size_t k,
                                               size_t s, uint32_t *factor, size_t factor_cap,
                                               size_t *factor_words, size_t *partners,
                                               size_t *n_partners)
{
    mpgpu_shared_factors_finding f;
    if (mpgpu_shared_factors_report_get(report, k, &f) != MPGPU_OK || s >= f.shares || !factor ||
        !factor_words || !partners || !n_partners)
        return MPGPU_ERR_BAD_ARGUMENT;
    mpz_srcptr common;
    size_t n = 0;
    shared_factors_share(report, k, s, &common, partners, &n);
    const size_t need = (mpz_sizeinbase(common, 2) + 31) / 32;
    if (need > factor_cap)
        return MPGPU_ERR_BAD_ARGUMENT;
    memset(factor, 0, factor_cap * sizeof *factor);
    mpz_export(factor, NULL, -1, sizeof *factor, 0, 0, common);
    *factor_words = need;
    *n_partners = n;
    return MPGPU_OK;
}
