/* libmpgpu's Collatz part (mpgpu.h, "Collatz convergence and delay"): argument checks and the
 * status codes around the device state of kernels/collatz.h, the tables and the settlement. */
#include <stdlib.h>

#include "collatz.h"
#include "collatz_plain.h"
#include "mpgpu_internal.h"

struct mpgpu_collatz {
    struct collatz_device dev;
};

/* Host memory for a list or a table: malloc failed. The kernels' host code reports it as
 * cudaErrorMemoryAllocation without naming a CUDA call (failed_call stays NULL). */
static mpgpu_status device_failure(struct collatz_device *g, cudaError_t err, const char *what)
{
    if (err == cudaErrorMemoryAllocation && g->failed_call == NULL)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    return libmpgpu_cuda_failure(err, g->failed_call ? g->failed_call : what);
}

static int bc_bits_ok(unsigned bits)
{
    return bits >= MPGPU_COLLATZ_BC_MIN_BITS && bits <= MPGPU_COLLATZ_BC_MAX_BITS;
}

static int a_bits_ok(unsigned bits)
{
    return bits >= MPGPU_COLLATZ_A_MIN_BITS && bits <= MPGPU_COLLATZ_A_MAX_BITS;
}

mpgpu_status mpgpu_collatz_list_push(mpgpu_collatz_list *list, uint64_t value)
{
    if (!list || (!list->v && list->n))
        return MPGPU_ERR_BAD_ARGUMENT;
    return collatz_list_push(list, value) == 0 ? MPGPU_OK : MPGPU_ERR_OUT_OF_HOST_MEMORY;
}

mpgpu_status mpgpu_collatz_pairs_push(mpgpu_collatz_pairs *pairs, uint64_t n, uint32_t delay)
{
    if (!pairs || (!pairs->v && pairs->n))
        return MPGPU_ERR_BAD_ARGUMENT;
    return collatz_pairs_push(pairs, n, delay) == 0 ? MPGPU_OK : MPGPU_ERR_OUT_OF_HOST_MEMORY;
}

void mpgpu_collatz_list_free(mpgpu_collatz_list *list)
{
    if (list)
        collatz_list_free(list);
}

void mpgpu_collatz_pairs_free(mpgpu_collatz_pairs *pairs)
{
    if (pairs)
        collatz_pairs_free(pairs);
}

mpgpu_status mpgpu_collatz_bc_bytes(unsigned bc_bits, int with_j, size_t *bytes)
{
    if (!bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!bc_bits_ok(bc_bits))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    *bytes = with_j ? collatz_bcj_bytes(bc_bits) : collatz_bc_bytes(bc_bits);
    return MPGPU_OK;
}

mpgpu_status mpgpu_collatz_s_counts(unsigned s_bits, int threads, mpgpu_progress_fn progress, void *progress_ctx,
                                    uint64_t *counts)
{
    if (!counts)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (s_bits > MPGPU_COLLATZ_S_MAX_BITS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    return collatz_s_counts(s_bits, threads, progress, progress_ctx, counts);
}

mpgpu_status mpgpu_collatz_s_bytes(uint64_t s_count, uint64_t *host_bytes, uint64_t *device_bytes)
{
    if (!host_bytes || !device_bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    /* |S| <= 2^40 (S_MAX_BITS): larger counts are no S. */
    if (s_count > (UINT64_C(1) << MPGPU_COLLATZ_S_MAX_BITS))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    *host_bytes = collatz_s_bytes(s_count);
    *device_bytes = collatz_device_s_bytes(s_count);
    return MPGPU_OK;
}

mpgpu_status mpgpu_collatz_a_bytes(unsigned a_bits, uint64_t *bytes)
{
    if (!bytes)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!a_bits_ok(a_bits))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    *bytes = collatz_a_bytes(a_bits);
    return MPGPU_OK;
}

mpgpu_status mpgpu_collatz_bc_build(mpgpu_collatz_bc_table *t, unsigned bc_bits)
{
    if (!t)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!bc_bits_ok(bc_bits))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    return collatz_bc_build(t, bc_bits) == 0 ? MPGPU_OK : MPGPU_ERR_OUT_OF_HOST_MEMORY;
}

mpgpu_status mpgpu_collatz_s_build(mpgpu_collatz_s_table *t, unsigned s_bits, uint64_t s_count,
                                   int threads, mpgpu_progress_fn progress, void *progress_ctx)
{
    if (!t)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (s_bits > MPGPU_COLLATZ_S_MAX_BITS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    /* S holds at least the residue 2^k - 1 and at most all 2^k of them. */
    if (s_count == 0 || s_count > (UINT64_C(1) << s_bits))
        return MPGPU_ERR_BAD_ARGUMENT;
    return collatz_s_build(t, s_bits, s_count, threads, progress, progress_ctx);
}

mpgpu_status mpgpu_collatz_a_build(uint16_t **a, unsigned a_bits, int threads, mpgpu_progress_fn progress,
                                   void *progress_ctx)
{
    if (!a)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!a_bits_ok(a_bits))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    return collatz_a_build(a, a_bits, threads, progress, progress_ctx);
}

void mpgpu_collatz_bc_free(mpgpu_collatz_bc_table *t)
{
    if (t)
        collatz_bc_free(t);
}

void mpgpu_collatz_s_free(mpgpu_collatz_s_table *t)
{
    if (t)
        collatz_s_free(t);
}

void mpgpu_collatz_a_free(uint16_t *a)
{
    free(a);
}

mpgpu_status mpgpu_collatz_create(mpgpu_collatz **out, size_t overflow_cap, size_t candidate_cap,
                                  mpgpu_stream stream)
{
    if (!out || overflow_cap == 0 || candidate_cap == 0)
        return MPGPU_ERR_BAD_ARGUMENT;
    *out = NULL;
    mpgpu_collatz *c = calloc(1, sizeof *c);
    if (!c)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    cudaError_t err = collatz_device_open(&c->dev, overflow_cap, candidate_cap, stream);
    if (err != cudaSuccess) {
        mpgpu_status st = device_failure(&c->dev, err, "collatz_device_open");
        collatz_device_close(&c->dev);
        free(c);
        return st;
    }
    *out = c;
    return MPGPU_OK;
}

void mpgpu_collatz_destroy(mpgpu_collatz *c)
{
    if (!c)
        return;
    collatz_device_close(&c->dev);
    free(c);
}

mpgpu_status mpgpu_collatz_shared_check(const mpgpu_collatz *c, unsigned bc_bits, int with_j,
                                        size_t *need, size_t *limit)
{
    if (!c)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!bc_bits_ok(bc_bits))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    if (need)
        *need = collatz_device_shared_bytes(bc_bits, with_j != 0);
    if (limit)
        *limit = c->dev.shared_limit;
    return collatz_device_shared_fits(&c->dev, bc_bits, with_j != 0) ? MPGPU_OK : MPGPU_ERR_UNSUPPORTED_SIZE;
}

mpgpu_status mpgpu_collatz_set_bc(mpgpu_collatz *c, const mpgpu_collatz_bc_table *t, int with_j)
{
    if (!c || !t || !t->bc || (with_j && !t->ops))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!bc_bits_ok(t->bits))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    c->dev.failed_call = NULL;
    cudaError_t err = collatz_device_set_bc(&c->dev, t, with_j != 0);
    return err == cudaSuccess ? MPGPU_OK : device_failure(&c->dev, err, "collatz_device_set_bc");
}

mpgpu_status mpgpu_collatz_set_s(mpgpu_collatz *c, const mpgpu_collatz_s_table *s)
{
    if (!c || !s || !s->residues || s->count == 0)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (s->bits > MPGPU_COLLATZ_S_MAX_BITS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    if (s->count > (UINT64_C(1) << s->bits))
        return MPGPU_ERR_BAD_ARGUMENT;
    c->dev.failed_call = NULL;
    cudaError_t err = collatz_device_set_s(&c->dev, s);
    return err == cudaSuccess ? MPGPU_OK : device_failure(&c->dev, err, "collatz_device_set_s");
}

mpgpu_status mpgpu_collatz_set_a(mpgpu_collatz *c, const uint16_t *a, unsigned a_bits)
{
    if (!c || !a)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!a_bits_ok(a_bits))
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    c->dev.failed_call = NULL;
    cudaError_t err = collatz_device_set_a(&c->dev, a, a_bits);
    return err == cudaSuccess ? MPGPU_OK : device_failure(&c->dev, err, "collatz_device_set_a");
}

static mpgpu_status check_pass(const mpgpu_collatz *c, mpgpu_collatz_table_memory memory,
                               unsigned interleave, uint64_t first, uint64_t last, const void *totals,
                               const mpgpu_collatz_list *overflows)
{
    if (!c || !totals || !overflows || first == 0 || first > last)
        return MPGPU_ERR_BAD_ARGUMENT;
    if ((memory != MPGPU_COLLATZ_TABLES_SHARED && memory != MPGPU_COLLATZ_TABLES_GLOBAL) || interleave == 0 ||
        interleave > MPGPU_COLLATZ_MAX_INTERLEAVE)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!c->dev.d_bc)
        return MPGPU_ERR_BAD_ARGUMENT;
    return MPGPU_OK;
}

static enum collatz_table_memory table_memory(mpgpu_collatz_table_memory memory)
{
    return memory == MPGPU_COLLATZ_TABLES_SHARED ? COLLATZ_TABLES_SHARED : COLLATZ_TABLES_GLOBAL;
}

mpgpu_status mpgpu_collatz_convergence(mpgpu_collatz *c, mpgpu_collatz_table_memory memory,
                                       mpgpu_collatz_first_step first_step, unsigned interleave,
                                       uint64_t first, uint64_t last,
                                       mpgpu_collatz_conv_totals *totals,
                                       mpgpu_collatz_list *overflows)
{
    mpgpu_status st = check_pass(c, memory, interleave, first, last, totals, overflows);
    if (st != MPGPU_OK)
        return st;
    if ((first_step != MPGPU_COLLATZ_FIRST_TABLE && first_step != MPGPU_COLLATZ_FIRST_JUMP) || !c->dev.d_s)
        return MPGPU_ERR_BAD_ARGUMENT;
    c->dev.failed_call = NULL;
    cudaError_t err = collatz_device_convergence(
        &c->dev, table_memory(memory), first_step == MPGPU_COLLATZ_FIRST_JUMP ? COLLATZ_FIRST_JUMP : COLLATZ_FIRST_TABLE,
        interleave, first, last, totals, overflows);
    return err == cudaSuccess ? MPGPU_OK : device_failure(&c->dev, err, "collatz kernel");
}

mpgpu_status mpgpu_collatz_delay(mpgpu_collatz *c, mpgpu_collatz_table_memory memory,
                                 unsigned interleave, uint64_t first, uint64_t last, int64_t floor,
                                 mpgpu_collatz_delay_totals *totals, mpgpu_collatz_pairs *candidates,
                                 mpgpu_collatz_list *overflows)
{
    mpgpu_status st = check_pass(c, memory, interleave, first, last, totals, overflows);
    if (st != MPGPU_OK)
        return st;
    if (floor < -1 || floor > (int64_t)UINT32_MAX - 2 || !c->dev.d_ops || !c->dev.d_a ||
        c->dev.a_bits <= c->dev.bc_bits)
        return MPGPU_ERR_BAD_ARGUMENT;
    c->dev.failed_call = NULL;
    cudaError_t err = collatz_device_delay(&c->dev, table_memory(memory), interleave, first, last, floor, totals,
                                           candidates, overflows);
    return err == cudaSuccess ? MPGPU_OK : device_failure(&c->dev, err, "delay kernel");
}

mpgpu_status mpgpu_collatz_settle_convergence(const uint64_t *m, size_t n, int threads,
                                              size_t *unsettled)
{
    if ((!m && n) || !unsettled)
        return MPGPU_ERR_BAD_ARGUMENT;
    for (size_t i = 0; i < n; i++)
        if (m[i] < 2)
            return MPGPU_ERR_BAD_ARGUMENT;
    *unsettled = collatz_plain_verify_descents(m, n, threads);
    return MPGPU_OK;
}

mpgpu_status mpgpu_collatz_settle_delay(const mpgpu_collatz_list *overflows, int64_t floor,
                                        int threads, mpgpu_collatz_delay_totals *totals,
                                        mpgpu_collatz_pairs *candidates, uint64_t *runaway)
{
    if (!overflows || (!overflows->v && overflows->n) || !totals || !runaway || floor < -1)
        return MPGPU_ERR_BAD_ARGUMENT;
    for (size_t i = 0; i < overflows->n; i++)
        if (overflows->v[i] == 0)
            return MPGPU_ERR_BAD_ARGUMENT;
    if (collatz_delay_resolve(overflows, floor, threads, totals, candidates, runaway) != 0 && *runaway == 0)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    return MPGPU_OK;
}

mpgpu_status mpgpu_collatz_records(mpgpu_collatz_pairs *candidates, int64_t *floor,
                                   mpgpu_collatz_pairs *records)
{
    if (!candidates || !floor || !records || (!candidates->v && candidates->n))
        return MPGPU_ERR_BAD_ARGUMENT;
    return collatz_records_extract(candidates, floor, records) == 0 ? MPGPU_OK : MPGPU_ERR_OUT_OF_HOST_MEMORY;
}

/* A state of its own for a convenience call: a stream, and B and C (with_j: J) in shared memory
 * when a block holds them. */
struct host_run {
    cudaStream_t stream;
    mpgpu_collatz *c;
    mpgpu_collatz_bc_table bc;
    mpgpu_collatz_table_memory memory;
};

static mpgpu_status host_run_open(struct host_run *h, unsigned bc_bits, int with_j)
{
    LIBMPGPU_TRY(cudaStreamCreateWithFlags(&h->stream, cudaStreamNonBlocking));
    mpgpu_status st = mpgpu_collatz_create(&h->c, (size_t)1 << 20, (size_t)1 << 22, h->stream);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_bc_build(&h->bc, bc_bits);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_set_bc(h->c, &h->bc, with_j);
    if (st == MPGPU_OK)
        h->memory = mpgpu_collatz_shared_check(h->c, bc_bits, with_j, NULL, NULL) == MPGPU_OK
                        ? MPGPU_COLLATZ_TABLES_SHARED : MPGPU_COLLATZ_TABLES_GLOBAL;
    return st;
}

static void host_run_close(struct host_run *h)
{
    mpgpu_collatz_destroy(h->c);
    mpgpu_collatz_bc_free(&h->bc);
    if (h->stream)
        cudaStreamDestroy(h->stream);
}

mpgpu_status mpgpu_collatz_convergence_host(unsigned bc_bits, unsigned s_bits, uint64_t first,
                                            uint64_t last, mpgpu_collatz_conv_totals *totals,
                                            mpgpu_collatz_list *overflows, size_t *unsettled)
{
    if (!totals || !overflows || !unsettled || first == 0 || first > last)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!bc_bits_ok(bc_bits) || s_bits > MPGPU_COLLATZ_S_MAX_BITS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    struct host_run h = {0};
    mpgpu_collatz_s_table s = {0};
    uint64_t s_counts[MPGPU_COLLATZ_S_MAX_BITS + 1];
    mpgpu_status st = collatz_s_counts(s_bits, 0, NULL, NULL, s_counts);
    if (st == MPGPU_OK)
        st = host_run_open(&h, bc_bits, 0);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_s_build(&s, s_bits, s_counts[s_bits], 0, NULL, NULL);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_set_s(h.c, &s);
    const size_t before = overflows->n;
    if (st == MPGPU_OK)
        st = mpgpu_collatz_convergence(h.c, h.memory, MPGPU_COLLATZ_FIRST_JUMP, 1, first, last, totals, overflows);
    if (st == MPGPU_OK) {
        size_t bad = 0;
        st = mpgpu_collatz_settle_convergence(overflows->v + before, overflows->n - before, 0, &bad);
        *unsettled = before + bad;
    }
    mpgpu_collatz_s_free(&s);
    host_run_close(&h);
    return st;
}

mpgpu_status mpgpu_collatz_delay_host(unsigned bc_bits, unsigned a_bits, uint64_t first,
                                      uint64_t last, int64_t floor,
                                      mpgpu_collatz_delay_totals *totals,
                                      mpgpu_collatz_pairs *records, mpgpu_collatz_list *overflows,
                                      uint64_t *runaway)
{
    if (!totals || !records || !overflows || !runaway || first == 0 || first > last || floor < -1 ||
        floor > (int64_t)UINT32_MAX - 2)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (!bc_bits_ok(bc_bits) || !a_bits_ok(a_bits) || a_bits <= bc_bits)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    struct host_run h = {0};
    uint16_t *a = NULL;
    mpgpu_collatz_pairs candidates = {0};
    mpgpu_collatz_list mine = {0};
    mpgpu_status st = host_run_open(&h, bc_bits, 1);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_a_build(&a, a_bits, 0, NULL, NULL);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_set_a(h.c, a, a_bits);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_delay(h.c, h.memory, 1, first, last, floor, totals, &candidates, &mine);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_settle_delay(&mine, floor, 0, totals, &candidates, runaway);
    if (st == MPGPU_OK)
        st = mpgpu_collatz_records(&candidates, &floor, records);
    if (st == MPGPU_OK && collatz_list_append(overflows, mine.v, mine.n) != 0)
        st = MPGPU_ERR_OUT_OF_HOST_MEMORY;
    collatz_list_free(&mine);
    collatz_pairs_free(&candidates);
    free(a);
    host_run_close(&h);
    return st;
}
