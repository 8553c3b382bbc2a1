/* libmpgpu's GCDs of pairs (mpgpu.h) over the host drivers of `mpgpu gcd`: gcd_device.c (the
 * modular and k-ary methods) and gcd_lehmer_device.c. The drivers take GMP numbers, form the
 * GCD from the kernels' digits with GMP, and decide each retry on the host; the calls here
 * carry words in and out of them. */
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_device.h"
#include "gcd_kary_host.h"
#include "gcd_lehmer_device.h"
#include "gcd_modular.h"
#include "gcd_moduli.h"
#include "mpgpu_internal.h"

enum gcd_method { METHOD_MODULAR, METHOD_KARY, METHOD_LEHMER };

static const struct {
    mpgpu_gcd_method_info info;
    enum gcd_method id;
} methods[] = {
    {{"modular", "Weber and Brew's modular integer GCD (002 Fig. 2): residues mod L-bit primes, "
                 "one global minimum a step across the grid", 1},
     METHOD_MODULAR},
    {{"kary", "beyond 002: the k-ary reduction in the same residues, a pivot's short vector "
              "(x, y) with p | yA - xB, no grid barrier a step", 1},
     METHOD_KARY},
    {{"lehmer", "beyond 002: Lehmer's GCD on the numbers themselves in one thread block, 2 x 2 "
                "cofactor matrices from the top 63 bits", 0},
     METHOD_LEHMER},
};
#define N_METHODS (sizeof methods / sizeof methods[0])

/* Numbers of up to 2^30 bits, what `mpgpu gcd --bits` takes. */
#define MAX_WORDS ((size_t)1 << 25)

/* --barrier auto's rule (mpgpu_gcd_auto_barrier): a cluster's hardware barrier while N_Q is small
 * enough for 16 SMs to keep up, else cooperative groups over one block an SM (the barrier rows
 * of results/gcd_table2.csv on the H200: 16 Kibit, 4608 moduli, 4.97 ms against coop's 5.31;
 * 32 Kibit, 8192 moduli, 10.45 against the cluster's 11.60). */
#define AUTO_CLUSTER_MAX_NQ 6144u

static const char *const barrier_names[GCD_N_BARRIERS] = {"coop", "cluster", "custom"};
static const char *const inverse_names[GCD_N_INVERSES] = {"euclid", "fermat"};

struct mpgpu_gcd_moduli {
    struct gcd_moduli M;
};

struct mpgpu_gcd_plan {
    enum gcd_method method;
    struct gcd_device dev;          /* modular and kary */
    struct gcd_lehmer_device lehmer; /* lehmer */
    uint64_t pairs, unresolved, attempts, retried, steps, max_moduli;
    mpz_t a, b, g;
    uint32_t *words; /* mpgpu_gcd_device's host copy of a pair and its GCD */
    size_t words_cap;
};

size_t mpgpu_gcd_method_count(void)
{
    return N_METHODS;
}

mpgpu_status mpgpu_gcd_method_get(size_t index, mpgpu_gcd_method_info *info)
{
    if (!info || index >= N_METHODS)
        return MPGPU_ERR_BAD_ARGUMENT;
    *info = methods[index].info;
    return MPGPU_OK;
}

static mpgpu_status find_method(const char *name, enum gcd_method *id)
{
    if (!name)
        return MPGPU_ERR_BAD_ARGUMENT;
    for (size_t i = 0; i < N_METHODS; i++)
        if (!strcmp(name, methods[i].info.name)) {
            *id = methods[i].id;
            return MPGPU_OK;
        }
    return MPGPU_ERR_UNKNOWN_METHOD;
}

mpgpu_status mpgpu_gcd_method_find(const char *name, mpgpu_gcd_method_info *info)
{
    enum gcd_method id;
    mpgpu_status st = find_method(name, &id);
    if (st == MPGPU_OK && !info)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (st == MPGPU_OK)
        *info = methods[id].info;
    return st;
}

static enum gcd_filter filter_of(int all_primes)
{
    return all_primes ? GCD_FILTER_ALL : GCD_FILTER_CHEAP;
}

static bool L_valid(unsigned L)
{
    return L >= GCD_L_MIN && L <= GCD_L_MAX;
}

/* The checks of a call about the moduli of L bits that fills *out. */
static mpgpu_status check_L(unsigned L, const void *out)
{
    if (!out)
        return MPGPU_ERR_BAD_ARGUMENT;
    return L_valid(L) ? MPGPU_OK : MPGPU_ERR_UNSUPPORTED_SIZE;
}

mpgpu_status mpgpu_gcd_moduli_count(unsigned L, int all_primes, uint64_t *count)
{
    mpgpu_status st = check_L(L, count);
    if (st != MPGPU_OK)
        return st;
    *count = gcd_moduli_count(L, filter_of(all_primes));
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_moduli_cache_name(unsigned L, int all_primes, char *buf, size_t len)
{
    mpgpu_status st = check_L(L, buf);
    if (st != MPGPU_OK)
        return st;
    char name[64];
    gcd_moduli_cache_name(name, sizeof name, L, filter_of(all_primes));
    if (strlen(name) >= len)
        return MPGPU_ERR_BAD_ARGUMENT;
    memcpy(buf, name, strlen(name) + 1);
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_moduli_create(unsigned L, int all_primes, const char *cache_path,
                                     mpgpu_gcd_moduli **out, mpgpu_gcd_moduli_source *source,
                                     char *why, size_t why_len)
{
    if (!out || !source || (!why && why_len))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!L_valid(L))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    *out = NULL;
    if (why_len)
        why[0] = '\0';
    mpgpu_gcd_moduli *m = malloc(sizeof *m);
    if (!m)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    /* gcd_moduli_load says why on a stream: here the caller's buffer. */
    FILE *log = why_len ? fmemopen(why, why_len, "w") : NULL;
    const int rc = gcd_moduli_load(cache_path, L, filter_of(all_primes), &m->M, log);
    if (log) {
        fclose(log);
        why[why_len - 1] = '\0';
    }
    if (rc < 0) {
        free(m);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    *source = rc == 0 ? MPGPU_GCD_MODULI_CACHE_READ
              : rc == 1 ? MPGPU_GCD_MODULI_SIEVED_CACHED
                        : MPGPU_GCD_MODULI_SIEVED;
    *out = m;
    return MPGPU_OK;
}

void mpgpu_gcd_moduli_destroy(mpgpu_gcd_moduli *moduli)
{
    if (!moduli)
        return;
    gcd_moduli_free(&moduli->M);
    free(moduli);
}

mpgpu_status mpgpu_gcd_moduli_get(const mpgpu_gcd_moduli *moduli, unsigned *L, int *all_primes,
                                  uint64_t *count)
{
    if (!moduli)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (L)
        *L = moduli->M.L;
    if (all_primes)
        *all_primes = moduli->M.filter == GCD_FILTER_ALL;
    if (count)
        *count = moduli->M.count;
    return MPGPU_OK;
}

/* The first attempt's moduli (0: the table is too small for the pair). */
static size_t first_moduli(enum gcd_method id, unsigned L, uint64_t available, uint64_t bits)
{
    size_t n_q = 0;
    if (id == METHOD_LEHMER ||
        (id == METHOD_KARY ? gcd_kary_nq(bits, bits, L, GCD_KARY_ROUND, available, &n_q)
                           : gcd_modular_nq(bits, L, GCD_BLOCK_THREADS, available, &n_q)) != GCD_OK)
        return 0;
    return n_q;
}

mpgpu_status mpgpu_gcd_first_moduli(const char *method, unsigned L, int all_primes,
                                    uint64_t bits, uint64_t *n_moduli)
{
    enum gcd_method id;
    mpgpu_status st = find_method(method, &id);
    if (st == MPGPU_OK)
        st = check_L(L, n_moduli);
    if (st != MPGPU_OK)
        return st;
    *n_moduli = first_moduli(id, L, gcd_moduli_count(L, filter_of(all_primes)), bits);
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_moduli_formula(unsigned L, uint64_t bits, uint64_t *n_moduli)
{
    mpgpu_status st = check_L(L, n_moduli);
    if (st != MPGPU_OK)
        return st;
    *n_moduli = gcd_modular_nq_formula(bits, L);
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_max_bits(unsigned L, int all_primes, uint64_t *bits)
{
    mpgpu_status st = check_L(L, bits);
    if (st != MPGPU_OK)
        return st;
    /* The formula grows with N from N = 3 on: a binary search. */
    const uint64_t count = gcd_moduli_count(L, filter_of(all_primes));
    uint64_t lo = 3, hi = UINT64_C(1) << 40;
    if (gcd_modular_nq_formula(lo, L) > count) {
        *bits = 0;
        return MPGPU_OK;
    }
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (gcd_modular_nq_formula(mid, L) <= count)
            lo = mid;
        else
            hi = mid - 1;
    }
    *bits = lo;
    return MPGPU_OK;
}

/* Whether the current GPU can launch thread-block clusters (compute capability 9.0 and later).
 * Where no GPU answers, true: the rule then reads as on the GPU it was measured on. */
static bool cluster_launch_possible(void)
{
    int dev, v = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, dev) != cudaSuccess) {
        (void)cudaGetLastError(); /* this query's error, not left for a later launch's check */
        return true;
    }
    return v != 0;
}

mpgpu_status mpgpu_gcd_auto_barrier(const mpgpu_gcd_moduli *moduli, uint64_t bits,
                                    const char **barrier)
{
    if (!moduli || !barrier)
        return MPGPU_ERR_BAD_ARGUMENT;
    const size_t n_q = first_moduli(METHOD_MODULAR, moduli->M.L, moduli->M.count, bits);
    const bool cluster = n_q != 0 && n_q <= AUTO_CLUSTER_MAX_NQ && cluster_launch_possible();
    *barrier = barrier_names[cluster ? GCD_BARRIER_CLUSTER : GCD_BARRIER_COOP];
    return MPGPU_OK;
}

static int name_index(const char *name, const char *const *names, int n, int if_null)
{
    if (!name)
        return if_null;
    for (int i = 0; i < n; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

/* Everything about the options and moduli, before any CUDA call. */
static mpgpu_status check_options(const mpgpu_gcd_options *o, const mpgpu_gcd_moduli *moduli,
                                  enum gcd_method *id, enum gcd_barrier *barrier,
                                  enum gcd_inverse *inverse)
{
    if (!o)
        return MPGPU_ERR_BAD_ARGUMENT;
    mpgpu_status st = find_method(o->method, id);
    if (st != MPGPU_OK)
        return st;
    const int b = name_index(o->barrier, barrier_names, GCD_N_BARRIERS, GCD_BARRIER_COOP),
              i = name_index(o->inverse, inverse_names, GCD_N_INVERSES, GCD_INVERSE_FERMAT);
    const unsigned k = o->min_per_thread;
    if (b < 0 || i < 0 || k > 8 || (k & (k - 1)))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (*id != METHOD_MODULAR && (o->barrier || o->inverse || o->percent_remainder))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (*id == METHOD_LEHMER ? moduli != NULL || k != 0 : moduli == NULL)
        return MPGPU_ERR_BAD_ARGUMENT;
    *barrier = (enum gcd_barrier)b;
    *inverse = (enum gcd_inverse)i;
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_check(const mpgpu_gcd_options *options, const mpgpu_gcd_moduli *moduli)
{
    enum gcd_method id;
    enum gcd_barrier barrier;
    enum gcd_inverse inverse;
    return check_options(options, moduli, &id, &barrier, &inverse);
}

mpgpu_status mpgpu_gcd_workspace_bytes(const mpgpu_gcd_options *options,
                                       const mpgpu_gcd_moduli *moduli, uint64_t bits,
                                       uint64_t *bytes)
{
    enum gcd_method id;
    enum gcd_barrier barrier;
    enum gcd_inverse inverse;
    mpgpu_status st = check_options(options, moduli, &id, &barrier, &inverse);
    if (st != MPGPU_OK)
        return st;
    if (!bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    const size_t words = (size_t)((bits + 31) / 32);
    if (bits == 0 || words > MAX_WORDS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    if (id == METHOD_LEHMER) {
        *bytes = gcd_lehmer_device_bytes(words);
        return MPGPU_OK;
    }
    /* A pair the first attempt cannot serve still gets every modulus of the table tried. */
    size_t n_q = first_moduli(id, moduli->M.L, moduli->M.count, bits);
    if (n_q == 0)
        n_q = (size_t)moduli->M.count;
    *bytes = gcd_device_bytes(n_q, words);
    return MPGPU_OK;
}

/* The caller's device buffers of one pair of `bits`-bit numbers: A, B and the GCD. */
static uint64_t pair_bytes(uint64_t bits)
{
    return 3 * ((bits + 31) / 32) * sizeof(uint32_t);
}

mpgpu_status mpgpu_gcd_device_bytes(const mpgpu_gcd_options *options,
                                    const mpgpu_gcd_moduli *moduli, uint64_t bits, size_t count,
                                    uint64_t *bytes)
{
    uint64_t workspace;
    mpgpu_status st = mpgpu_gcd_workspace_bytes(options, moduli, bits, &workspace);
    if (st != MPGPU_OK)
        return st;
    if (count > (UINT64_MAX - workspace) / pair_bytes(bits))
        return MPGPU_ERR_BAD_ARGUMENT;
    *bytes = workspace + count * pair_bytes(bits);
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_max_count(const mpgpu_gcd_options *options,
                                 const mpgpu_gcd_moduli *moduli, uint64_t bits,
                                 uint64_t free_bytes, size_t *count)
{
    uint64_t workspace;
    mpgpu_status st = mpgpu_gcd_workspace_bytes(options, moduli, bits, &workspace);
    if (st != MPGPU_OK)
        return st;
    if (!count)
        return MPGPU_ERR_BAD_ARGUMENT;
    const uint64_t n = free_bytes > workspace ? (free_bytes - workspace) / pair_bytes(bits) : 0;
    *count = n > SIZE_MAX ? SIZE_MAX : (size_t)n;
    return MPGPU_OK;
}

/* A driver's failure: its error and the call it named. */
static mpgpu_status driver_failure(cudaError_t err, const char *failed_call, const char *driver)
{
    return libmpgpu_cuda_failure(err, failed_call ? failed_call : driver);
}

static void plan_free(mpgpu_gcd_plan *p)
{
    if (p->method == METHOD_LEHMER)
        gcd_lehmer_device_close(&p->lehmer);
    else
        gcd_device_close(&p->dev);
    mpz_clears(p->a, p->b, p->g, NULL);
    free(p->words);
    free(p);
}

mpgpu_status mpgpu_gcd_plan_create(const mpgpu_gcd_options *options,
                                   const mpgpu_gcd_moduli *moduli, mpgpu_gcd_plan **plan)
{
    enum gcd_method id;
    enum gcd_barrier barrier;
    enum gcd_inverse inverse;
    mpgpu_status st = check_options(options, moduli, &id, &barrier, &inverse);
    if (st != MPGPU_OK)
        return st;
    if (!plan)
        return MPGPU_ERR_BAD_ARGUMENT;
    *plan = NULL;
    mpgpu_gcd_plan *p = calloc(1, sizeof *p);
    if (!p)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    p->method = id;
    mpz_inits(p->a, p->b, p->g, NULL);
    cudaError_t err;
    const char *failed;
    if (id == METHOD_LEHMER) {
        err = gcd_lehmer_device_open(&p->lehmer);
        failed = p->lehmer.failed_call;
    } else {
        err = id == METHOD_KARY ? gcd_device_open_kary(&p->dev, &moduli->M)
                                : gcd_device_open(&p->dev, &moduli->M, barrier, inverse);
        failed = p->dev.failed_call;
        p->dev.min_per_thread = options->min_per_thread;
        p->dev.percent = options->percent_remainder != 0;
    }
    if (err != cudaSuccess) {
        st = driver_failure(err, failed, "mpgpu_gcd_plan_create");
        plan_free(p);
        return st;
    }
    *plan = p;
    return MPGPU_OK;
}

void mpgpu_gcd_plan_destroy(mpgpu_gcd_plan *plan)
{
    if (plan)
        plan_free(plan);
}

mpgpu_status mpgpu_gcd_plan_stats(const mpgpu_gcd_plan *plan, mpgpu_gcd_stats *stats)
{
    if (!plan || !stats)
        return MPGPU_ERR_BAD_ARGUMENT;
    const mpgpu_gcd_plan *p = plan;
    *stats = (mpgpu_gcd_stats){
        .pairs = p->pairs, .unresolved = p->unresolved, .attempts = p->attempts,
        .retried = p->retried, .steps = p->steps, .max_moduli = p->max_moduli,
    };
    if (p->method == METHOD_LEHMER) {
        const struct gcd_lehmer_stats *ls = &p->lehmer.stats;
        stats->kernel_ms = p->lehmer.kernel_ms;
        stats->steps = ls->steps;
        stats->pair_steps = ls->pairs;
        stats->shift_steps = ls->shifts;
        stats->one_steps = ls->ones;
        stats->quotients = ls->quotients;
        stats->negations = ls->negations;
        stats->ripple_rounds = ls->ripple_rounds;
        stats->ahead = ls->ahead;
        stats->threads = p->lehmer.threads;
        stats->chunk_words = p->lehmer.chunk;
        stats->in_shared = p->lehmer.in_shared;
        return MPGPU_OK;
    }
    const struct gcd_launch *L = &p->dev.last;
    stats->kernel_ms = p->dev.kernel_ms;
    stats->grid = L->grid;
    stats->block = L->block;
    if (p->method == METHOD_KARY) {
        const struct gcd_kary_stats *ks = &p->dev.kary_stats;
        stats->per_thread = gcd_kary_shapes[L->shape].per_thread;
        stats->in_registers = 1;
        stats->pivots = ks->consumed;
        stats->spurious_bits = ks->spurious_bits;
        stats->zero_checks = ks->checks;
        stats->common_factors = ks->commons;
    } else {
        stats->per_thread = L->block ? L->chunk / L->block : 0;
        stats->in_registers = gcd_shapes[L->shape].resident;
    }
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_plan_reset_stats(mpgpu_gcd_plan *plan)
{
    if (!plan)
        return MPGPU_ERR_BAD_ARGUMENT;
    plan->pairs = plan->unresolved = plan->attempts = plan->retried = plan->steps = 0;
    plan->max_moduli = 0;
    plan->dev.kernel_ms = 0;
    plan->dev.kary_stats = (struct gcd_kary_stats){0};
    plan->lehmer.kernel_ms = 0;
    plan->lehmer.stats = (struct gcd_lehmer_stats){0};
    return MPGPU_OK;
}

/* g = gcd(a, b) of the plan's numbers by its method; *unresolved when the moduli ran out. */
static mpgpu_status gcd_pair(mpgpu_gcd_plan *p, uint8_t *unresolved)
{
    *unresolved = 0;
    p->pairs++;
    if (p->method == METHOD_LEHMER) {
        cudaError_t err = gcd_lehmer_device_gcd(&p->lehmer, p->g, p->a, p->b);
        return err == cudaSuccess
                   ? MPGPU_OK
                   : driver_failure(err, p->lehmer.failed_call, "gcd_lehmer_device_gcd");
    }
    struct gcd_run run;
    cudaError_t err = gcd_device_gcd(&p->dev, p->g, p->a, p->b, 0, &run);
    if (err != cudaSuccess)
        return driver_failure(err, p->dev.failed_call, "gcd_device_gcd");
    p->attempts += run.attempts;
    p->retried += run.attempts > 1;
    p->steps += run.steps;
    if (run.n_q > p->max_moduli)
        p->max_moduli = run.n_q;
    if (run.status == GCD_TOO_LARGE) {
        *unresolved = 1;
        p->unresolved++;
        mpz_set_ui(p->g, 0);
    }
    return MPGPU_OK;
}

/* Words in, words out: order -1 (least significant word first), native byte order. */
static void words_to_mpz(mpz_t x, const uint32_t *w, size_t n)
{
    mpz_import(x, n, -1, sizeof *w, 0, 0, w);
}

static void mpz_to_words(uint32_t *w, size_t n, const mpz_t x)
{
    size_t written = 0;
    memset(w, 0, n * sizeof *w);
    mpz_export(w, &written, -1, sizeof *w, 0, 0, x);
}

/* Checks everything mpgpu_gcd_host and mpgpu_gcd_device take, before any CUDA call. */
static mpgpu_status check_call(const mpgpu_gcd_plan *plan, size_t count, const uint32_t *a,
                               size_t a_words, const uint32_t *b, size_t b_words,
                               const uint32_t *g, const uint8_t *unresolved)
{
    if (!plan)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (a_words == 0 || b_words == 0 || a_words > MAX_WORDS || b_words > MAX_WORDS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    const size_t g_words = a_words > b_words ? a_words : b_words;
    if (count > SIZE_MAX / sizeof(uint32_t) / g_words)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (count == 0)
        return MPGPU_OK;
    if (!a || !b || !g || !unresolved)
        return MPGPU_ERR_BAD_ARGUMENT;
    const size_t g_bytes = count * g_words * sizeof(uint32_t);
    if (libmpgpu_overlap(g, g_bytes, a, count * a_words * sizeof(uint32_t)) ||
        libmpgpu_overlap(g, g_bytes, b, count * b_words * sizeof(uint32_t)) ||
        libmpgpu_overlap(unresolved, count, a, count * a_words * sizeof(uint32_t)) ||
        libmpgpu_overlap(unresolved, count, b, count * b_words * sizeof(uint32_t)) ||
        libmpgpu_overlap(unresolved, count, g, g_bytes))
        return MPGPU_ERR_BAD_ARGUMENT;
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_host(mpgpu_gcd_plan *plan, size_t count, const uint32_t *a,
                            size_t a_words, const uint32_t *b, size_t b_words, uint32_t *g,
                            uint8_t *unresolved)
{
    mpgpu_status st = check_call(plan, count, a, a_words, b, b_words, g, unresolved);
    if (st != MPGPU_OK || count == 0)
        return st;
    const size_t g_words = a_words > b_words ? a_words : b_words;
    for (size_t i = 0; i < count; i++) {
        words_to_mpz(plan->a, a + i * a_words, a_words);
        words_to_mpz(plan->b, b + i * b_words, b_words);
        if ((st = gcd_pair(plan, &unresolved[i])) != MPGPU_OK)
            return st;
        mpz_to_words(g + i * g_words, g_words, plan->g);
    }
    return MPGPU_OK;
}

/* The device side of mpgpu_gcd_device, on `stream` in place of the plan's own. */
static mpgpu_status device_pairs(mpgpu_gcd_plan *p, size_t count, const uint32_t *d_a,
                                 size_t a_words, const uint32_t *d_b, size_t b_words,
                                 uint32_t *d_g, uint8_t *unresolved, cudaStream_t stream)
{
    const size_t g_words = a_words > b_words ? a_words : b_words;
    uint32_t *ha = p->words, *hb = ha + a_words, *hg = hb + b_words;
    for (size_t i = 0; i < count; i++) {
        LIBMPGPU_TRY(cudaMemcpyAsync(ha, d_a + i * a_words, a_words * sizeof *ha,
                                     cudaMemcpyDeviceToHost, stream));
        LIBMPGPU_TRY(cudaMemcpyAsync(hb, d_b + i * b_words, b_words * sizeof *hb,
                                     cudaMemcpyDeviceToHost, stream));
        LIBMPGPU_TRY(cudaStreamSynchronize(stream));
        words_to_mpz(p->a, ha, a_words);
        words_to_mpz(p->b, hb, b_words);
        mpgpu_status st = gcd_pair(p, &unresolved[i]);
        if (st != MPGPU_OK)
            return st;
        mpz_to_words(hg, g_words, p->g);
        LIBMPGPU_TRY(cudaMemcpyAsync(d_g + i * g_words, hg, g_words * sizeof *hg,
                                     cudaMemcpyHostToDevice, stream));
        /* hg is filled again for the next pair. */
        LIBMPGPU_TRY(cudaStreamSynchronize(stream));
    }
    return MPGPU_OK;
}

mpgpu_status mpgpu_gcd_device(mpgpu_gcd_plan *plan, size_t count, const uint32_t *d_a,
                              size_t a_words, const uint32_t *d_b, size_t b_words,
                              uint32_t *d_g, uint8_t *unresolved, mpgpu_stream stream)
{
    mpgpu_status st = check_call(plan, count, d_a, a_words, d_b, b_words, d_g, unresolved);
    if (st != MPGPU_OK || count == 0)
        return st;
    const size_t need = 2 * (a_words + b_words);
    if (need > plan->words_cap) {
        uint32_t *w = realloc(plan->words, need * sizeof *w);
        if (!w)
            return MPGPU_ERR_OUT_OF_HOST_MEMORY;
        plan->words = w;
        plan->words_cap = need;
    }
    /* The drivers queue on the stream in their holder: the caller's for this call. */
    cudaStream_t own = plan->method == METHOD_LEHMER ? plan->lehmer.stream : plan->dev.stream;
    if (plan->method == METHOD_LEHMER)
        plan->lehmer.stream = stream;
    else
        plan->dev.stream = stream;
    st = device_pairs(plan, count, d_a, a_words, d_b, b_words, d_g, unresolved, stream);
    if (plan->method == METHOD_LEHMER)
        plan->lehmer.stream = own;
    else
        plan->dev.stream = own;
    return st;
}
