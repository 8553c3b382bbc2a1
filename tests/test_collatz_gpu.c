/* gpu suite: the Collatz convergence and delay kernels against their CPU twins, exactly (totals,
 * overflow lists, records), on ranges with and without overflows past 96 bits, with B/C in shared
 * and in global memory and both first steps; the split path of full report lists; and the delay
 * records of [1, 1.8e10] against the published list. A shared-memory case whose tables do not
 * fit this GPU runs with them in global memory and is reported not applicable. Exits 77
 * (skipped) without a GPU. Optional argument: "convergence" or "delay" runs one half (anything
 * else is an error). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz.h"
#include "collatz_convergence.h"
#include "collatz_delay.h"
#include "collatz_plain.h"
#include "collatz_published.h"
#include "gpu.h"
#include "test_gpu.h"
#include "test_seed.h"
#include "timing.h"

#define U(x) ((unsigned long long)(x))

/* The table memory a case runs with on this GPU: a shared-memory case whose tables do not fit
 * runs with them in global memory, so its range is still checked, and is counted not
 * applicable with the reason. */
/* |S| of `bits` base bits, counted without progress. */
static uint64_t s_count(unsigned bits)
{
    uint64_t counts[COLLATZ_PREFIX_MAX_BITS + 1];
    return collatz_s_counts(bits, 0, NULL, NULL, counts) == MPGPU_OK ? counts[bits] : 0;
}

static enum collatz_table_memory memory_here(const struct collatz_device *g, const char *what,
                                             unsigned d, bool with_ops, enum collatz_table_memory mem)
{
    if (mem == COLLATZ_TABLES_SHARED && !collatz_device_shared_fits(g, d, with_ops)) {
        NOT_APPLICABLE("%s d=%u in shared memory: %zu bytes of tables and the kernel's own exceed "
                       "the %zu a block may use here; the range runs with the tables in global "
                       "memory", what, d, collatz_device_shared_bytes(d, with_ops), g->shared_limit);
        return COLLATZ_TABLES_GLOBAL;
    }
    return mem;
}

static bool lists_equal(struct mpgpu_collatz_list *a, struct mpgpu_collatz_list *b)
{
    collatz_list_sort(a);
    collatz_list_sort(b);
    return a->n == b->n && (a->n == 0 || !memcmp(a->v, b->v, a->n * sizeof *a->v));
}

struct conv_case {
    unsigned d, k, interleave;
    enum collatz_table_memory mem;
    enum collatz_first_step step;
    uint64_t first, last;
    bool want_overflows;
};

/* On a mismatch: halves the range, GPU against CPU twin, down to the first starting value
 * whose totals differ, and prints it, so a failure names its input. */
static void bisect_conv(struct collatz_device *g, const struct mpgpu_collatz_s_table *s, const struct mpgpu_collatz_bc_table *bc,
                        const struct conv_case *c, uint64_t first, uint64_t last)
{
    for (int depth = 0; depth < 70; depth++) {
        const uint64_t mid = first + (last - first) / 2;
        uint64_t lo[2] = {first, mid + 1}, hi[2] = {mid, last};
        int found = -1;
        for (int h = 0; h < 2 && found < 0 && first < last; h++) {
            struct mpgpu_collatz_conv_totals tg = {0, 0, 0}, tc = {0, 0, 0};
            struct mpgpu_collatz_list og = {0}, oc = {0};
            cudaError_t err = collatz_device_convergence(g, c->mem, c->step, c->interleave, lo[h], hi[h], &tg, &og);
            collatz_conv_cpu(s, bc, c->step, lo[h], hi[h], 0, &tc, &oc);
            if (err != cudaSuccess || tg.mandatory != tc.mandatory || tg.steps != tc.steps || tg.overflows != tc.overflows)
                found = h;
            collatz_list_free(&og);
            collatz_list_free(&oc);
        }
        if (found < 0 || first == last) {
            struct mpgpu_collatz_conv_totals tg = {0, 0, 0}, tc = {0, 0, 0};
            struct mpgpu_collatz_list og = {0}, oc = {0};
            collatz_device_convergence(g, c->mem, c->step, c->interleave, first, last, &tg, &og);
            collatz_conv_cpu(s, bc, c->step, first, last, 0, &tc, &oc);
            printf("     first difference in [%llu, %llu]: GPU (%llu, %llu, %llu), CPU (%llu, %llu, %llu)\n", U(first), U(last),
                   U(tg.mandatory), U(tg.steps), U(tg.overflows), U(tc.mandatory), U(tc.steps), U(tc.overflows));
            collatz_list_free(&og);
            collatz_list_free(&oc);
            return;
        }
        first = lo[found];
        last = hi[found];
    }
}

static void check_conv(struct collatz_device *g, const char *dev_name, const struct conv_case *as_given)
{
    struct conv_case here = *as_given;
    here.mem = memory_here(g, "convergence", here.d, false, here.mem);
    const struct conv_case *c = &here;
    struct mpgpu_collatz_bc_table bc;
    struct mpgpu_collatz_s_table s;
    collatz_bc_build(&bc, c->d);
    collatz_s_build(&s, c->k, s_count(c->k), 0, NULL, NULL);
    cudaError_t err = collatz_device_set_bc(g, &bc, false);
    if (err == cudaSuccess)
        err = collatz_device_set_s(g, &s);
    struct mpgpu_collatz_conv_totals tg = {0, 0, 0}, tc = {0, 0, 0};
    struct mpgpu_collatz_list og = {0}, oc = {0};
    const double t0 = time_now_ms();
    if (err == cudaSuccess)
        err = collatz_device_convergence(g, c->mem, c->step, c->interleave, c->first, c->last, &tg, &og);
    const double gpu_ms = time_now_ms() - t0;
    collatz_conv_cpu(&s, &bc, c->step, c->first, c->last, 0, &tc, &oc);
    const char *mem = c->mem == COLLATZ_TABLES_SHARED ? "shared" : "global";
    char step[16];
    snprintf(step, sizeof step, "%s x%u", c->step == COLLATZ_FIRST_JUMP ? "jump" : "table", c->interleave);
    if (err != cudaSuccess) {
        printf("FAIL convergence %s d=%u k=%u %s %s [%llu, %llu]: CUDA call %s failed: %s\n", dev_name, c->d,
               c->k, mem, step, U(c->first), U(c->last), g->failed_call ? g->failed_call : "?", cudaGetErrorString(err));
        check_outcome(false);
        cudaGetLastError();
    } else if (tg.mandatory != tc.mandatory || tg.steps != tc.steps || tg.overflows != tc.overflows ||
               !lists_equal(&og, &oc) || tc.mandatory != collatz_conv_expected(&s, c->first, c->last, 0) ||
               (c->want_overflows && tc.overflows == 0)) {
        printf("FAIL convergence %s d=%u k=%u %s %s [%llu, %llu]: GPU (%llu iterated, %llu steps, %llu overflows), "
               "CPU (%llu, %llu, %llu)%s\n", dev_name, c->d, c->k, mem, step, U(c->first), U(c->last),
               U(tg.mandatory), U(tg.steps), U(tg.overflows), U(tc.mandatory), U(tc.steps), U(tc.overflows),
               c->want_overflows && tc.overflows == 0 ? "; the range was meant to overflow" : "");
        check_outcome(false);
        bisect_conv(g, &s, &bc, c, c->first, c->last);
    } else {
        check_outcome(true);
        printf("ok   convergence %s d=%u k=%u %s %s [%llu, %llu]: %llu iterated, %llu steps, %llu overflows (%.1f ms)\n",
               dev_name, c->d, c->k, mem, step, U(c->first), U(c->last), U(tg.mandatory), U(tg.steps),
               U(tg.overflows), gpu_ms);
    }
    collatz_list_free(&og);
    collatz_list_free(&oc);
    collatz_bc_free(&bc);
    collatz_s_free(&s);
}

/* A range too long for the CPU twin, with hundreds of overflows (000 section 4.5.1: about 2e-11 of
 * all starting values): lists of 3 entries make every launch split until it fits; the totals and
 * overflow lists must equal those of one launch, every overflow must descend under plain
 * iteration, and the iterated count must be what S implies. */
static void check_conv_split(struct collatz_device *big, struct collatz_device *small)
{
    struct mpgpu_collatz_bc_table bc;
    struct mpgpu_collatz_s_table s;
    collatz_bc_build(&bc, 16);
    collatz_s_build(&s, 32, s_count(32), 0, NULL, NULL);
    const uint64_t first = ((uint64_t)1 << 62) + ((uint64_t)12345 << 43), last = first + ((uint64_t)1 << 43) - 1;
    struct mpgpu_collatz_conv_totals tb = {0, 0, 0}, ts = {0, 0, 0};
    struct mpgpu_collatz_list ob = {0}, os = {0};
    cudaError_t err = collatz_device_set_bc(big, &bc, false);
    if (err == cudaSuccess)
        err = collatz_device_set_s(big, &s);
    if (err == cudaSuccess)
        err = collatz_device_set_bc(small, &bc, false);
    if (err == cudaSuccess)
        err = collatz_device_set_s(small, &s);
    const double t0 = time_now_ms();
    if (err == cudaSuccess)
        err = collatz_device_convergence(big, COLLATZ_TABLES_GLOBAL, COLLATZ_FIRST_JUMP, 2, first, last, &tb, &ob);
    const double ms = time_now_ms() - t0;
    const uint64_t launches = small->launches;
    if (err == cudaSuccess)
        err = collatz_device_convergence(small, COLLATZ_TABLES_GLOBAL, COLLATZ_FIRST_JUMP, 1, first, last, &ts, &os);
    if (err != cudaSuccess) {
        printf("FAIL convergence split [%llu, %llu]: CUDA error %s\n", U(first), U(last), cudaGetErrorString(err));
        check_outcome(false);
    } else if (tb.mandatory != ts.mandatory || tb.steps != ts.steps || tb.overflows != ts.overflows ||
               !lists_equal(&ob, &os) || tb.overflows < 4 || tb.mandatory != collatz_conv_expected(&s, first, last, 0) ||
               collatz_plain_verify_descents(ob.v, ob.n, 0) != ob.n) {
        printf("FAIL convergence split [%llu, %llu]: one launch (%llu, %llu, %llu overflows), split (%llu, %llu, %llu); "
               "lists %s; expected iterated %llu; first overflow that does not descend: index %zu of %zu\n",
               U(first), U(last), U(tb.mandatory), U(tb.steps), U(tb.overflows), U(ts.mandatory), U(ts.steps), U(ts.overflows),
               lists_equal(&ob, &os) ? "equal" : "differ", U(collatz_conv_expected(&s, first, last, 0)),
               collatz_plain_verify_descents(ob.v, ob.n, 0), ob.n);
        check_outcome(false);
    } else {
        check_outcome(true);
        printf("ok   convergence split [%llu, %llu]: %llu overflows, all descend; %llu launches with lists of 3 "
               "(one launch: %.0f ms, %.3g numbers/s)\n", U(first), U(last), U(tb.overflows),
               U(small->launches - launches), ms, (double)(last - first + 1) / (ms * 1e-3));
    }
    collatz_list_free(&ob);
    collatz_list_free(&os);
    collatz_bc_free(&bc);
    collatz_s_free(&s);
}

struct delay_case {
    unsigned d, a, interleave;
    enum collatz_table_memory mem;
    uint64_t first, last;
    bool want_overflows;
};

/* Delays with records, like mpgpu delay: overflows resolved, then records extracted. */
static cudaError_t delay_pass(struct collatz_device *g, bool gpu, const struct mpgpu_collatz_bc_table *bc,
                              const uint16_t *a, unsigned a_bits, enum collatz_table_memory mem, unsigned interleave,
                              uint64_t first, uint64_t last, int64_t *floor, struct mpgpu_collatz_delay_totals *t,
                              struct mpgpu_collatz_list *ov, struct mpgpu_collatz_pairs *records)
{
    struct mpgpu_collatz_pairs cand = {0};
    struct mpgpu_collatz_list o = {0};
    cudaError_t err = cudaSuccess;
    if (gpu)
        err = collatz_device_delay(g, mem, interleave, first, last, *floor, t, &cand, &o);
    else
        collatz_delay_cpu(bc, a, a_bits, first, last, *floor, 0, t, &cand, &o);
    uint64_t runaway;
    if (err == cudaSuccess) {
        collatz_delay_resolve(&o, *floor, 0, t, &cand, &runaway);
        collatz_records_extract(&cand, floor, records);
        collatz_list_append(ov, o.v, o.n);
    }
    collatz_pairs_free(&cand);
    collatz_list_free(&o);
    return err;
}

/* On a mismatch: halves the range down to the first number whose delay totals differ. */
static void bisect_delay(struct collatz_device *g, const struct mpgpu_collatz_bc_table *bc, const uint16_t *a,
                         const struct delay_case *c, uint64_t first, uint64_t last)
{
    for (int depth = 0; depth < 70; depth++) {
        const uint64_t mid = first + (last - first) / 2;
        uint64_t lo[2] = {first, mid + 1}, hi[2] = {mid, last};
        int found = -1;
        for (int h = 0; h < 2 && found < 0 && first < last; h++) {
            struct mpgpu_collatz_delay_totals tg = {0, 0, 0, 0, 0}, tc = {0, 0, 0, 0, 0};
            struct mpgpu_collatz_list og = {0}, oc = {0};
            cudaError_t err = collatz_device_delay(g, c->mem, c->interleave, lo[h], hi[h], -1, &tg, NULL, &og);
            collatz_delay_cpu(bc, a, c->a, lo[h], hi[h], -1, 0, &tc, NULL, &oc);
            if (err != cudaSuccess || tg.numbers != tc.numbers || tg.sum != tc.sum || tg.overflows != tc.overflows ||
                tg.max != tc.max || tg.argmax != tc.argmax)
                found = h;
            collatz_list_free(&og);
            collatz_list_free(&oc);
        }
        if (found < 0 || first == last) {
            struct mpgpu_collatz_delay_totals tg = {0, 0, 0, 0, 0}, tc = {0, 0, 0, 0, 0};
            struct mpgpu_collatz_list og = {0}, oc = {0};
            collatz_device_delay(g, c->mem, c->interleave, first, last, -1, &tg, NULL, &og);
            collatz_delay_cpu(bc, a, c->a, first, last, -1, 0, &tc, NULL, &oc);
            printf("     first difference in [%llu, %llu]: GPU (%llu numbers, sum %llu, max %u at %llu, %llu overflows), "
                   "CPU (%llu, %llu, %u at %llu, %llu)\n", U(first), U(last), U(tg.numbers), U(tg.sum), tg.max,
                   U(tg.argmax), U(tg.overflows), U(tc.numbers), U(tc.sum), tc.max, U(tc.argmax), U(tc.overflows));
            collatz_list_free(&og);
            collatz_list_free(&oc);
            return;
        }
        first = lo[found];
        last = hi[found];
    }
}

static void check_delay(struct collatz_device *g, const char *dev_name, const struct delay_case *as_given)
{
    struct delay_case here = *as_given;
    here.mem = memory_here(g, "delay", here.d, true, here.mem);
    const struct delay_case *c = &here;
    struct mpgpu_collatz_bc_table bc;
    collatz_bc_build(&bc, c->d);
    uint16_t *a = NULL;
    collatz_a_build(&a, c->a, 0, NULL, NULL);
    cudaError_t err = collatz_device_set_bc(g, &bc, true);
    if (err == cudaSuccess)
        err = collatz_device_set_a(g, a, c->a);
    struct mpgpu_collatz_delay_totals tg = {0, 0, 0, 0, 0}, tc = {0, 0, 0, 0, 0};
    struct mpgpu_collatz_list og = {0}, oc = {0};
    struct mpgpu_collatz_pairs rg = {0}, rc = {0};
    int64_t fg = -1, fc = -1;
    const double t0 = time_now_ms();
    if (err == cudaSuccess)
        err = delay_pass(g, true, &bc, a, c->a, c->mem, c->interleave, c->first, c->last, &fg, &tg, &og, &rg);
    const double gpu_ms = time_now_ms() - t0;
    delay_pass(g, false, &bc, a, c->a, c->mem, c->interleave, c->first, c->last, &fc, &tc, &oc, &rc);
    char mem[16];
    snprintf(mem, sizeof mem, "%s x%u", c->mem == COLLATZ_TABLES_SHARED ? "shared" : "global", c->interleave);
    if (err != cudaSuccess) {
        printf("FAIL delay %s d=%u a=%u %s [%llu, %llu]: CUDA call %s failed: %s\n", dev_name, c->d, c->a, mem,
               U(c->first), U(c->last), g->failed_call ? g->failed_call : "?", cudaGetErrorString(err));
        check_outcome(false);
        cudaGetLastError();
    } else if (tg.numbers != tc.numbers || tg.sum != tc.sum || tg.max != tc.max || tg.argmax != tc.argmax ||
               tg.overflows != tc.overflows || !lists_equal(&og, &oc) || !collatz_pairs_equal(&rg, &rc) ||
               tc.numbers != c->last - c->first + 1 || (c->want_overflows && tc.overflows == 0)) {
        printf("FAIL delay %s d=%u a=%u %s [%llu, %llu]: GPU (%llu numbers, sum %llu, max %u at %llu, %llu overflows, "
               "%zu records), CPU (%llu, %llu, %u at %llu, %llu, %zu)\n", dev_name, c->d, c->a, mem, U(c->first),
               U(c->last), U(tg.numbers), U(tg.sum), tg.max, U(tg.argmax), U(tg.overflows), rg.n, U(tc.numbers),
               U(tc.sum), tc.max, U(tc.argmax), U(tc.overflows), rc.n);
        check_outcome(false);
        bisect_delay(g, &bc, a, c, c->first, c->last);
    } else {
        check_outcome(true);
        printf("ok   delay %s d=%u a=%u %s [%llu, %llu]: sum %llu, max %u at %llu, %llu overflows, %zu records (%.1f ms)\n",
               dev_name, c->d, c->a, mem, U(c->first), U(c->last), U(tg.sum), tg.max, U(tg.argmax),
               U(tg.overflows), rg.n, gpu_ms);
    }
    collatz_list_free(&og);
    collatz_list_free(&oc);
    collatz_pairs_free(&rg);
    collatz_pairs_free(&rc);
    free(a);
    collatz_bc_free(&bc);
}

/* The records of [1, 1.8e10] on the GPU, in growing segments with the floor carried. */
static void check_published_records(struct collatz_device *g)
{
    const uint64_t limit = published_records[N_PUBLISHED - 1].n + 1000;
    struct mpgpu_collatz_bc_table bc;
    collatz_bc_build(&bc, 9);
    uint16_t *a = NULL;
    collatz_a_build(&a, 12, 0, NULL, NULL);
    cudaError_t err = collatz_device_set_bc(g, &bc, true);
    if (err == cudaSuccess)
        err = collatz_device_set_a(g, a, 12);
    int64_t floor = -1;
    struct mpgpu_collatz_pairs rec = {0};
    struct mpgpu_collatz_list ov = {0};
    struct mpgpu_collatz_delay_totals t = {0, 0, 0, 0, 0};
    const double t0 = time_now_ms();
    for (uint64_t lo = 1; lo <= limit && err == cudaSuccess;) {
        uint64_t hi = lo < ((uint64_t)1 << 30) ? ((uint64_t)1 << 30) : lo + ((uint64_t)1 << 34);
        if (hi > limit)
            hi = limit;
        err = delay_pass(g, true, &bc, a, 12, COLLATZ_TABLES_SHARED, 2, lo, hi, &floor, &t, &ov, &rec);
        lo = hi + 1;
    }
    const double ms = time_now_ms() - t0;
    bool same = err == cudaSuccess && rec.n == N_PUBLISHED;
    for (size_t i = 0; same && i < N_PUBLISHED; i++)
        same = rec.v[i].n == published_records[i].n && rec.v[i].delay == published_records[i].delay;
    if (!same) {
        printf("FAIL delay records of [1, %llu]: %zu found, %zu published, or they differ%s%s\n", U(limit), rec.n,
               (size_t)N_PUBLISHED, err != cudaSuccess ? "; CUDA error: " : "", err != cudaSuccess ? cudaGetErrorString(err) : "");
        for (size_t i = 0; i < rec.n && i < N_PUBLISHED; i++)
            if (rec.v[i].n != published_records[i].n || rec.v[i].delay != published_records[i].delay) {
                printf("     first difference at record %zu: found %llu (%u), published %llu (%u)\n", i,
                       U(rec.v[i].n), rec.v[i].delay, U(published_records[i].n), published_records[i].delay);
                break;
            }
        check_outcome(false);
    } else {
        check_outcome(true);
        printf("ok   delay records of [1, %llu]: all %zu published records, last %llu with D = %u (%.0f ms, %.3g numbers/s)\n",
               U(limit), rec.n, U(rec.v[rec.n - 1].n), rec.v[rec.n - 1].delay, ms, limit / (ms * 1e-3));
    }
    collatz_pairs_free(&rec);
    collatz_list_free(&ov);
    free(a);
    collatz_bc_free(&bc);
}

int main(int argc, char **argv)
{
    seed = test_seed();
    /* The filter is checked before the GPU is looked for, so a misspelt one fails everywhere. */
    const char *only = argc > 1 ? argv[1] : NULL;
    if (argc > 2 || (only && strcmp(only, "convergence") && strcmp(only, "delay"))) {
        printf("usage: test_collatz_gpu [convergence|delay]\n");
        return 1;
    }
    if (test_gpu_open() != 0)
        return 77;
    struct collatz_device big, small;
    cudaStream_t stream;
    cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = collatz_device_open(&big, 1u << 20, 1u << 16, stream);
    if (err == cudaSuccess)
        err = collatz_device_open(&small, 3, 5, stream); /* full lists: the split path */
    if (!check_outcome(err == cudaSuccess)) {
        printf("FAIL collatz_device_open: %s\n", cudaGetErrorString(err));
        return test_finish("test_collatz_gpu");
    }
    const uint64_t two62 = (uint64_t)1 << 62, two40 = (uint64_t)1 << 40;
    const enum collatz_table_memory SH = COLLATZ_TABLES_SHARED, GL = COLLATZ_TABLES_GLOBAL;
    const enum collatz_first_step J = COLLATZ_FIRST_JUMP, T = COLLATZ_FIRST_TABLE;
    if (!only || !strcmp(only, "convergence")) {
        const struct conv_case cases[] = {
            {12, 16, 1, SH, J, 1, 1 << 22, false},
            {12, 16, 2, GL, T, 3, 1 << 22, false},
            {4, 8, 2, GL, J, 1, 1 << 20, false},
            {10, 24, 1, SH, J, two40 - 12345, two40 + (1 << 28), false},
            {14, 32, 2, SH, T, two40 * 4096, two40 * 4096 + ((uint64_t)1 << 34) - 1, false},
            {16, 32, 2, GL, J, two62 - ((uint64_t)1 << 33), two62 + ((uint64_t)1 << 33), true},
            {18, 32, 1, GL, T, two62 - ((uint64_t)1 << 33), two62 + ((uint64_t)1 << 33), true},
            {12, 24, 2, SH, J, 3 * (two62 / 2) - ((uint64_t)1 << 30), 3 * (two62 / 2) + 99, true},
            {20, 35, 2, GL, J, UINT64_MAX - ((uint64_t)1 << 37) + 1, UINT64_MAX, true},
            {13, 35, 1, SH, J, two62 + ((uint64_t)1 << 40), two62 + ((uint64_t)1 << 40) + ((uint64_t)1 << 36), false},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            check_conv(&big, "lists 2^20", &cases[i]);
        check_conv(&small, "lists 3", &cases[5]);
        check_conv_split(&big, &small);
    }
    if (!only || !strcmp(only, "delay")) {
        const struct delay_case cases[] = {
            {9, 12, 2, SH, 1, 1 << 22, false},
            {4, 5, 1, GL, 1, 1 << 20, false},
            {11, 16, 2, GL, two40 - 1000, two40 + (1 << 24), false},
            {12, 20, 1, SH, two62 - (1 << 24), two62 + (1 << 20), true},
            {16, 23, 2, GL, UINT64_MAX - (1 << 24) + 1, UINT64_MAX, true},
            {20, 25, 1, GL, ((uint64_t)1 << 50) + 7, ((uint64_t)1 << 50) + (1 << 22), false},
            {13, 18, 2, SH, ((uint64_t)1 << 45), ((uint64_t)1 << 45) + ((uint64_t)1 << 26), false},
            {12, 20, 2, SH, two62 - (1 << 24), two62 + (1 << 20), true},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            check_delay(&big, "lists 2^20", &cases[i]);
        check_delay(&small, "lists 3/5", &cases[0]);
        check_delay(&small, "lists 3/5", &cases[3]);
        check_published_records(&big);
    }
    collatz_device_close(&big);
    collatz_device_close(&small);
    cudaStreamDestroy(stream);
    return test_finish("test_collatz_gpu");
}
