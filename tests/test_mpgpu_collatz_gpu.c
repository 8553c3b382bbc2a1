/* gpu suite: libmpgpu's Collatz calls (mpgpu.h) on the device against the CPU twins
 * (cpu_ref/collatz_convergence.h, collatz_delay.h) with the same tables, and against the
 * published delay records (collatz_published.h): convergence and delay over ranges through a
 * device state on the caller's stream (tables in shared and global memory, interleave 1 and 2,
 * both first steps, and lists of one entry, so that every launch is redone on halves), ranges at
 * the top of 2^64 whose values overflow 96 bits and are settled on the host, a range from 1,
 * and the synchronous host calls. A seeded random offset moves each range. Exits 77 without a
 * GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz_convergence.h"
#include "collatz_delay.h"
#include "collatz_published.h"
#include "mpgpu.h"
#include "random_words.h"
#include "test_seed.h"

/* Fails the program (exit 1) on an error of the test's own calls: not what is tested. */
static void ok(int good, const char *call)
{
    if (!good) {
        printf("test_mpgpu_collatz_gpu: %s failed\n", call);
        exit(1);
    }
}
#define OK(call) ok((call) == 0, #call)

static bool same_lists(mpgpu_collatz_list *x, mpgpu_collatz_list *y)
{
    collatz_list_sort(x);
    collatz_list_sort(y);
    return x->n == y->n && (x->n == 0 || !memcmp(x->v, y->v, x->n * sizeof *x->v));
}

struct tables {
    mpgpu_collatz_bc_table bc;
    mpgpu_collatz_s_table s;
    uint16_t *a;
    unsigned a_bits;
};

/* [first, last] on the device (c) and on the CPU twin: totals and overflows alike, every
 * overflow settled. */
static void check_convergence(mpgpu_collatz *c, const char *what, const struct tables *t,
                              mpgpu_collatz_table_memory memory, mpgpu_collatz_first_step step,
                              unsigned interleave, uint64_t first, uint64_t last)
{
    mpgpu_collatz_conv_totals got = {0, 0, 0}, want = {0, 0, 0};
    mpgpu_collatz_list got_ov = {0}, want_ov = {0};
    mpgpu_status st = mpgpu_collatz_convergence(c, memory, step, interleave, first, last, &got, &got_ov);
    CHECK(st == MPGPU_OK, "%s: mpgpu_collatz_convergence: %s", what, mpgpu_status_string(st));
    OK(collatz_conv_cpu(&t->s, &t->bc, step == MPGPU_COLLATZ_FIRST_JUMP ? COLLATZ_FIRST_JUMP : COLLATZ_FIRST_TABLE,
                        first, last, 0, &want, &want_ov));
    CHECK(got.mandatory == want.mandatory && got.steps == want.steps && got.overflows == want.overflows,
          "%s [%llu, %llu]: %llu iterated, %llu steps, %llu overflows; twin %llu, %llu, %llu", what,
          (unsigned long long)first, (unsigned long long)last, (unsigned long long)got.mandatory,
          (unsigned long long)got.steps, (unsigned long long)got.overflows, (unsigned long long)want.mandatory,
          (unsigned long long)want.steps, (unsigned long long)want.overflows);
    CHECK(same_lists(&got_ov, &want_ov), "%s: overflowed values differ from the twin's", what);
    size_t unsettled = 0;
    st = mpgpu_collatz_settle_convergence(got_ov.v, got_ov.n, 0, &unsettled);
    CHECK(st == MPGPU_OK && unsettled == got_ov.n, "%s: overflow %zu of %zu not settled", what, unsettled,
          got_ov.n);
    mpgpu_collatz_list_free(&got_ov);
    mpgpu_collatz_list_free(&want_ov);
}

/* Delays of [first, last] with records above floor, on the device and the twin, both settled. */
static void check_delay(mpgpu_collatz *c, const char *what, const struct tables *t,
                        mpgpu_collatz_table_memory memory, unsigned interleave, uint64_t first, uint64_t last,
                        int64_t floor, uint64_t *overflows)
{
    mpgpu_collatz_delay_totals got = {0, 0, 0, 0, 0}, want = {0, 0, 0, 0, 0};
    mpgpu_collatz_list got_ov = {0}, want_ov = {0};
    mpgpu_collatz_pairs got_cand = {0}, want_cand = {0}, got_rec = {0}, want_rec = {0};
    mpgpu_status st = mpgpu_collatz_delay(c, memory, interleave, first, last, floor, &got, &got_cand, &got_ov);
    CHECK(st == MPGPU_OK, "%s: mpgpu_collatz_delay: %s", what, mpgpu_status_string(st));
    OK(collatz_delay_cpu(&t->bc, t->a, t->a_bits, first, last, floor, 0, &want, &want_cand, &want_ov));
    CHECK(same_lists(&got_ov, &want_ov), "%s: overflowed numbers differ from the twin's", what);
    uint64_t runaway = 1;
    st = mpgpu_collatz_settle_delay(&got_ov, floor, 0, &got, &got_cand, &runaway);
    CHECK(st == MPGPU_OK && runaway == 0, "%s: settlement %s, runaway %llu", what, mpgpu_status_string(st),
          (unsigned long long)runaway);
    OK(mpgpu_collatz_settle_delay(&want_ov, floor, 0, &want, &want_cand, &runaway));
    CHECK(got.numbers == last - first + 1 && got.numbers == want.numbers && got.sum == want.sum &&
              got.max == want.max && got.argmax == want.argmax && got.overflows == want.overflows,
          "%s [%llu, %llu]: sum %llu of %llu, max %u at %llu; twin sum %llu of %llu, max %u at %llu", what,
          (unsigned long long)first, (unsigned long long)last, (unsigned long long)got.sum,
          (unsigned long long)got.numbers, got.max, (unsigned long long)got.argmax, (unsigned long long)want.sum,
          (unsigned long long)want.numbers, want.max, (unsigned long long)want.argmax);
    int64_t got_floor = floor, want_floor = floor;
    OK(mpgpu_collatz_records(&got_cand, &got_floor, &got_rec));
    OK(mpgpu_collatz_records(&want_cand, &want_floor, &want_rec));
    CHECK(collatz_pairs_equal(&got_rec, &want_rec) && got_floor == want_floor,
          "%s: %zu records, the twin %zu", what, got_rec.n, want_rec.n);
    /* From 1, the records are the published ones. */
    if (first == 1 && floor == -1) {
        size_t n = 0;
        while (n < N_PUBLISHED && published_records[n].n <= last)
            n++;
        bool same = got_rec.n == n;
        for (size_t i = 0; same && i < n; i++)
            same = got_rec.v[i].n == published_records[i].n && got_rec.v[i].delay == published_records[i].delay;
        CHECK(same, "%s: %zu records up to %llu, %zu published", what, got_rec.n, (unsigned long long)last, n);
    }
    *overflows += got.overflows;
    mpgpu_collatz_list_free(&got_ov);
    mpgpu_collatz_list_free(&want_ov);
    mpgpu_collatz_pairs_free(&got_cand);
    mpgpu_collatz_pairs_free(&want_cand);
    mpgpu_collatz_pairs_free(&got_rec);
    mpgpu_collatz_pairs_free(&want_rec);
}

static void build(struct tables *t, unsigned bc_bits, unsigned s_bits, unsigned a_bits)
{
    uint64_t counts[MPGPU_COLLATZ_S_MAX_BITS + 1];
    OK(mpgpu_collatz_bc_build(&t->bc, bc_bits));
    OK(mpgpu_collatz_s_counts(s_bits, 0, NULL, NULL, counts));
    OK(mpgpu_collatz_s_build(&t->s, s_bits, counts[s_bits], 0, NULL, NULL));
    OK(mpgpu_collatz_a_build(&t->a, a_bits, 0, NULL, NULL));
    t->a_bits = a_bits;
}

static void upload(mpgpu_collatz *c, const struct tables *t)
{
    CHECK(mpgpu_collatz_set_bc(c, &t->bc, 1) == MPGPU_OK, "mpgpu_collatz_set_bc");
    CHECK(mpgpu_collatz_set_s(c, &t->s) == MPGPU_OK, "mpgpu_collatz_set_s");
    CHECK(mpgpu_collatz_set_a(c, t->a, t->a_bits) == MPGPU_OK, "mpgpu_collatz_set_a");
}

/* The host calls against the device state's results over the same range. */
static void check_host_calls(uint64_t offset)
{
    const uint64_t top = UINT64_MAX - ((UINT64_C(1) << 24) - 1) - offset;
    mpgpu_collatz_conv_totals ct = {0, 0, 0};
    mpgpu_collatz_list ov = {0};
    size_t unsettled = 0;
    mpgpu_status st = mpgpu_collatz_convergence_host(12, 20, top, top + ((UINT64_C(1) << 22) - 1), &ct, &ov, &unsettled);
    CHECK(st == MPGPU_OK && unsettled == ov.n && ct.overflows == ov.n && ct.mandatory > 0,
          "mpgpu_collatz_convergence_host: %s, %zu of %zu settled", mpgpu_status_string(st), unsettled, ov.n);
    struct tables t = {0};
    build(&t, 12, 20, 13);
    mpgpu_collatz_conv_totals want = {0, 0, 0};
    mpgpu_collatz_list want_ov = {0};
    OK(collatz_conv_cpu(&t.s, &t.bc, COLLATZ_FIRST_JUMP, top, top + ((UINT64_C(1) << 22) - 1), 0, &want, &want_ov));
    CHECK(ct.mandatory == want.mandatory && ct.steps == want.steps && same_lists(&ov, &want_ov),
          "mpgpu_collatz_convergence_host differs from the twin");
    mpgpu_collatz_list_free(&ov);
    mpgpu_collatz_list_free(&want_ov);

    mpgpu_collatz_delay_totals dt = {0, 0, 0, 0, 0};
    mpgpu_collatz_pairs records = {0};
    uint64_t runaway = 1;
    const uint64_t last = (UINT64_C(1) << 22) + offset;
    st = mpgpu_collatz_delay_host(12, 20, 1, last, -1, &dt, &records, &ov, &runaway);
    size_t n = 0;
    while (n < N_PUBLISHED && published_records[n].n <= last)
        n++;
    bool same = st == MPGPU_OK && runaway == 0 && dt.numbers == last && records.n == n;
    for (size_t i = 0; same && i < n; i++)
        same = records.v[i].n == published_records[i].n && records.v[i].delay == published_records[i].delay;
    CHECK(same, "mpgpu_collatz_delay_host [1, %llu]: %s, %zu records, %zu published", (unsigned long long)last,
          mpgpu_status_string(st), records.n, n);
    mpgpu_collatz_list_free(&ov);
    mpgpu_collatz_pairs_free(&records);
    mpgpu_collatz_bc_free(&t.bc);
    mpgpu_collatz_s_free(&t.s);
    mpgpu_collatz_a_free(t.a);
}

int main(void)
{
    seed = test_seed();
    uint64_t rng = seed;
    const uint64_t offset = splitmix64(rng++) >> 44; /* up to 2^20: moves every range */
    /* Lists of one: every launch with two overflows or candidates is redone on halves. The
     * library says whether there is a GPU at all. */
    mpgpu_collatz *big = NULL, *tiny = NULL;
    const mpgpu_status made = mpgpu_collatz_create(&tiny, 1, 1, NULL);
    if (made == MPGPU_ERR_NO_DEVICE) {
        mpgpu_error_info info;
        mpgpu_last_error(&info);
        printf("skipped: %s\n", info.cuda_error_string);
        return 77;
    }
    CHECK(made == MPGPU_OK, "create (lists 1, legacy stream): %s", mpgpu_status_string(made));
    cudaStream_t stream;
    ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess, "cudaStreamCreateWithFlags");
    CHECK(mpgpu_collatz_create(&big, (size_t)1 << 20, (size_t)1 << 22, stream) == MPGPU_OK, "create (lists 2^20)");
    if (!big || !tiny)
        return test_finish("test_mpgpu_collatz_gpu");
    size_t need = 0, limit = 0;
    const mpgpu_status fits = mpgpu_collatz_shared_check(big, 12, 1, &need, &limit);
    CHECK(fits == MPGPU_OK && need == ((size_t)9 << 12) && limit >= 48 * 1024,
          "B, C and J of 12 bits fit a block: %zu of %zu bytes", need, limit);
    CHECK(mpgpu_collatz_shared_check(big, 20, 1, &need, &limit) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "B, C and J of 20 bits (%zu bytes) do not fit a block of %zu", need, limit);
    mpgpu_collatz_conv_totals ct = {0, 0, 0};
    mpgpu_collatz_list ov = {0};
    CHECK(mpgpu_collatz_convergence(big, MPGPU_COLLATZ_TABLES_SHARED, MPGPU_COLLATZ_FIRST_JUMP, 1, 1, 10, &ct, &ov) ==
              MPGPU_ERR_BAD_ARGUMENT, "convergence without tables is refused");

    struct tables t = {0};
    build(&t, 12, 24, 20);
    upload(big, &t);
    upload(tiny, &t);
    const uint64_t top = UINT64_MAX - ((UINT64_C(1) << 28) - 1) - offset;
    const uint64_t two62 = (UINT64_C(1) << 62) + offset;
    check_convergence(big, "from 1, shared, jump", &t, MPGPU_COLLATZ_TABLES_SHARED, MPGPU_COLLATZ_FIRST_JUMP, 1, 1,
                      (UINT64_C(1) << 25) + offset);
    check_convergence(big, "2^62, global, table, interleave 2", &t, MPGPU_COLLATZ_TABLES_GLOBAL,
                      MPGPU_COLLATZ_FIRST_TABLE, 2, two62, two62 + (UINT64_C(1) << 28));
    check_convergence(big, "top of 2^64, shared, jump, interleave 2", &t, MPGPU_COLLATZ_TABLES_SHARED,
                      MPGPU_COLLATZ_FIRST_JUMP, 2, top, UINT64_MAX);
    check_convergence(tiny, "top of 2^64, lists of one", &t, MPGPU_COLLATZ_TABLES_GLOBAL, MPGPU_COLLATZ_FIRST_JUMP, 1,
                      UINT64_MAX - ((UINT64_C(1) << 24) - 1), UINT64_MAX);

    uint64_t overflows = 0;
    check_delay(big, "from 1, shared", &t, MPGPU_COLLATZ_TABLES_SHARED, 1, 1, (UINT64_C(1) << 24) + offset, -1,
                &overflows);
    check_delay(big, "2^62, global, interleave 2", &t, MPGPU_COLLATZ_TABLES_GLOBAL, 2, two62,
                two62 + (UINT64_C(1) << 24), 900, &overflows);
    check_delay(big, "top of 2^64, shared, interleave 2", &t, MPGPU_COLLATZ_TABLES_SHARED, 2,
                UINT64_MAX - ((UINT64_C(1) << 24) - 1) - offset, UINT64_MAX, -1, &overflows);
    check_delay(tiny, "top of 2^64, lists of one", &t, MPGPU_COLLATZ_TABLES_GLOBAL, 1,
                UINT64_MAX - ((UINT64_C(1) << 16) - 1), UINT64_MAX, 1000, &overflows);
    check_delay(tiny, "from 1, lists of one", &t, MPGPU_COLLATZ_TABLES_SHARED, 1, 1, UINT64_C(1) << 12, -1,
                &overflows);
    /* The ranges at the top of 2^64 must have exercised the settlement. */
    CHECK(overflows > 0, "no delay range overflowed 96 bits");

    check_host_calls(offset);
    mpgpu_collatz_destroy(big);
    mpgpu_collatz_destroy(tiny);
    mpgpu_collatz_bc_free(&t.bc);
    mpgpu_collatz_s_free(&t.s);
    mpgpu_collatz_a_free(t.a);
    ok(cudaStreamDestroy(stream) == cudaSuccess, "cudaStreamDestroy");
    return test_finish("test_mpgpu_collatz_gpu");
}
