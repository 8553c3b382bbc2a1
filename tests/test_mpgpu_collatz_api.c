/* cpu suite: libmpgpu's Collatz calls (mpgpu.h) without a GPU: every argument check of every
 * call, which must return its code before any CUDA call (so the same codes come back on a
 * machine without a GPU or driver); the table sizes and ranges against the tables the library
 * builds; the lists; and the host-only calls, settlement and records, against plain iteration
 * and the published delay records (collatz_published.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz_published.h"
#include "mpgpu.h"
#include "test_seed.h"

#define BAD MPGPU_ERR_BAD_ARGUMENT
#define SIZE MPGPU_ERR_UNSUPPORTED_SIZE

#define EXPECT(call, want)                                                                       \
    do {                                                                                         \
        mpgpu_status got_ = (call);                                                              \
        CHECK(got_ == (want), "%s: %d (%s), want %d", #call, (int)got_, mpgpu_status_string(got_), \
              (int)(want));                                                                      \
    } while (0)

static void test_sizes(void)
{
    size_t b = 0;
    uint64_t u = 0, v = 0;
    EXPECT(mpgpu_collatz_bc_bytes(0, 0, &b), SIZE);
    EXPECT(mpgpu_collatz_bc_bytes(MPGPU_COLLATZ_BC_MAX_BITS + 1, 1, &b), SIZE);
    EXPECT(mpgpu_collatz_bc_bytes(12, 0, NULL), BAD);
    EXPECT(mpgpu_collatz_bc_bytes(12, 0, &b), MPGPU_OK);
    CHECK(b == ((size_t)8 << 12), "B and C of 12 bits take %zu bytes, not 2^12 * 8", b);
    EXPECT(mpgpu_collatz_bc_bytes(12, 1, &b), MPGPU_OK);
    CHECK(b == ((size_t)9 << 12), "B, C and J of 12 bits take %zu bytes, not 2^12 * 9", b);
    uint64_t counts[MPGPU_COLLATZ_S_MAX_BITS + 1];
    EXPECT(mpgpu_collatz_s_counts(MPGPU_COLLATZ_S_MAX_BITS + 1, 1, NULL, NULL, counts), SIZE);
    EXPECT(mpgpu_collatz_s_counts(4, 1, NULL, NULL, NULL), BAD);
    EXPECT(mpgpu_collatz_s_counts(4, 1, NULL, NULL, counts), MPGPU_OK);
    CHECK(counts[4] == 3, "|S| of 4 bits is %llu, not 000 Table 4.1's 3", (unsigned long long)counts[4]);
    EXPECT(mpgpu_collatz_s_counts(20, 0, NULL, NULL, counts), MPGPU_OK);
    u = counts[20];
    CHECK(u == 27328 && counts[4] == 3, "|S| of 20 and 4 bits are %llu and %llu, not 000 Table 4.3's 27328 and 3",
          (unsigned long long)u, (unsigned long long)counts[4]);
    EXPECT(mpgpu_collatz_s_bytes(u, NULL, &v), BAD);
    EXPECT(mpgpu_collatz_s_bytes(u, &v, NULL), BAD);
    EXPECT(mpgpu_collatz_s_bytes((UINT64_C(1) << 40) + 1, &u, &v), SIZE);
    EXPECT(mpgpu_collatz_s_bytes(1000, &u, &v), MPGPU_OK);
    CHECK(u == 8000 && v == 24000, "S of 1000 residues: %llu host, %llu device bytes",
          (unsigned long long)u, (unsigned long long)v);
    EXPECT(mpgpu_collatz_a_bytes(MPGPU_COLLATZ_A_MIN_BITS - 1, &u), SIZE);
    EXPECT(mpgpu_collatz_a_bytes(MPGPU_COLLATZ_A_MAX_BITS + 1, &u), SIZE);
    EXPECT(mpgpu_collatz_a_bytes(10, NULL), BAD);
    EXPECT(mpgpu_collatz_a_bytes(10, &u), MPGPU_OK);
    CHECK(u == 2048, "A of 10 bits takes %llu bytes, not 2^10 * 2", (unsigned long long)u);
}

static void test_tables(void)
{
    mpgpu_collatz_bc_table t;
    mpgpu_collatz_s_table s;
    uint16_t *a = NULL;
    EXPECT(mpgpu_collatz_bc_build(NULL, 4), BAD);
    EXPECT(mpgpu_collatz_bc_build(&t, 0), SIZE);
    EXPECT(mpgpu_collatz_bc_build(&t, MPGPU_COLLATZ_BC_MAX_BITS + 1), SIZE);
    EXPECT(mpgpu_collatz_s_build(NULL, 4, 3, 1, NULL, NULL), BAD);
    EXPECT(mpgpu_collatz_s_build(&s, MPGPU_COLLATZ_S_MAX_BITS + 1, 3, 1, NULL, NULL), SIZE);
    EXPECT(mpgpu_collatz_s_build(&s, 4, 0, 1, NULL, NULL), BAD);
    EXPECT(mpgpu_collatz_s_build(&s, 4, 17, 1, NULL, NULL), BAD);
    EXPECT(mpgpu_collatz_a_build(NULL, 10, 1, NULL, NULL), BAD);
    EXPECT(mpgpu_collatz_a_build(&a, 1, 1, NULL, NULL), SIZE);
    EXPECT(mpgpu_collatz_a_build(&a, MPGPU_COLLATZ_A_MAX_BITS + 1, 1, NULL, NULL), SIZE);
    /* 000 Table 4.1: B, C and S of 4 bits. */
    static const uint32_t b41[16] = {1, 9, 9, 9, 3, 3, 9, 27, 3, 27, 3, 27, 9, 9, 27, 81};
    static const uint32_t c41[16] = {0, 1, 2, 2, 1, 1, 4, 13, 2, 17, 2, 20, 8, 8, 26, 80};
    EXPECT(mpgpu_collatz_bc_build(&t, 4), MPGPU_OK);
    EXPECT(mpgpu_collatz_s_build(&s, 4, 3, 1, NULL, NULL), MPGPU_OK);
    bool same = t.bits == 4 && s.bits == 4 && s.count == 3;
    for (unsigned i = 0; same && i < 16; i++)
        same = t.bc[2 * i] == b41[i] && t.bc[2 * i + 1] == c41[i];
    uint64_t s_sum = 0;
    for (uint64_t i = 0; same && i < s.count; i++)
        s_sum += s.residues[i];
    CHECK(same && s_sum == 7 + 11 + 15, "B, C and S of 4 bits differ from 000 Table 4.1");
    mpgpu_collatz_bc_free(&t);
    mpgpu_collatz_s_free(&s);
    CHECK(t.bc == NULL && s.residues == NULL, "the tables' free leaves no pointer behind");
    /* A against the published records below 2^12. */
    EXPECT(mpgpu_collatz_a_build(&a, 12, 0, NULL, NULL), MPGPU_OK);
    for (size_t i = 0; a && i < N_PUBLISHED && published_records[i].n < 4096; i++)
        CHECK(a[published_records[i].n] == published_records[i].delay, "A[%llu] = %u, published %u",
              (unsigned long long)published_records[i].n, a[published_records[i].n],
              published_records[i].delay);
    mpgpu_collatz_a_free(a);
    mpgpu_collatz_bc_free(NULL);
    mpgpu_collatz_s_free(NULL);
}

/* Every call that takes a device state: its argument errors, with no state made (no GPU). */
static void test_device_arguments(void)
{
    mpgpu_collatz *c = NULL;
    mpgpu_collatz_conv_totals ct = {0, 0, 0};
    mpgpu_collatz_delay_totals dt = {0, 0, 0, 0, 0};
    mpgpu_collatz_list ov = {0};
    mpgpu_collatz_bc_table t = {4, NULL, NULL};
    mpgpu_collatz_s_table s = {4, 3, NULL};
    uint16_t a[16] = {0};
    size_t need, limit;
    EXPECT(mpgpu_collatz_create(NULL, 1, 1, NULL), BAD);
    EXPECT(mpgpu_collatz_create(&c, 0, 1, NULL), BAD);
    EXPECT(mpgpu_collatz_create(&c, 1, 0, NULL), BAD);
    mpgpu_collatz_destroy(NULL);
    EXPECT(mpgpu_collatz_shared_check(NULL, 12, 0, &need, &limit), BAD);
    EXPECT(mpgpu_collatz_set_bc(NULL, &t, 0), BAD);
    EXPECT(mpgpu_collatz_set_s(NULL, &s), BAD);
    EXPECT(mpgpu_collatz_set_a(NULL, a, 4), BAD);
    EXPECT(mpgpu_collatz_convergence(NULL, MPGPU_COLLATZ_TABLES_SHARED, MPGPU_COLLATZ_FIRST_JUMP, 1, 1, 10, &ct, &ov),
           BAD);
    EXPECT(mpgpu_collatz_delay(NULL, MPGPU_COLLATZ_TABLES_SHARED, 1, 1, 10, -1, &dt, NULL, &ov), BAD);
    /* The convenience calls check all before the first CUDA call. */
    size_t unsettled;
    uint64_t runaway;
    mpgpu_collatz_pairs records = {0};
    EXPECT(mpgpu_collatz_convergence_host(12, 16, 0, 10, &ct, &ov, &unsettled), BAD);
    EXPECT(mpgpu_collatz_convergence_host(12, 16, 11, 10, &ct, &ov, &unsettled), BAD);
    EXPECT(mpgpu_collatz_convergence_host(12, 16, 1, 10, NULL, &ov, &unsettled), BAD);
    EXPECT(mpgpu_collatz_convergence_host(12, 16, 1, 10, &ct, NULL, &unsettled), BAD);
    EXPECT(mpgpu_collatz_convergence_host(12, 16, 1, 10, &ct, &ov, NULL), BAD);
    EXPECT(mpgpu_collatz_convergence_host(0, 16, 1, 10, &ct, &ov, &unsettled), SIZE);
    EXPECT(mpgpu_collatz_convergence_host(12, MPGPU_COLLATZ_S_MAX_BITS + 1, 1, 10, &ct, &ov, &unsettled), SIZE);
    EXPECT(mpgpu_collatz_delay_host(12, 20, 0, 10, -1, &dt, &records, &ov, &runaway), BAD);
    EXPECT(mpgpu_collatz_delay_host(12, 20, 5, 4, -1, &dt, &records, &ov, &runaway), BAD);
    EXPECT(mpgpu_collatz_delay_host(12, 20, 1, 10, -2, &dt, &records, &ov, &runaway), BAD);
    EXPECT(mpgpu_collatz_delay_host(12, 20, 1, 10, (int64_t)UINT32_MAX, &dt, &records, &ov, &runaway), BAD);
    EXPECT(mpgpu_collatz_delay_host(12, 20, 1, 10, -1, NULL, &records, &ov, &runaway), BAD);
    EXPECT(mpgpu_collatz_delay_host(12, 20, 1, 10, -1, &dt, NULL, &ov, &runaway), BAD);
    EXPECT(mpgpu_collatz_delay_host(12, 20, 1, 10, -1, &dt, &records, NULL, &runaway), BAD);
    EXPECT(mpgpu_collatz_delay_host(12, 20, 1, 10, -1, &dt, &records, &ov, NULL), BAD);
    EXPECT(mpgpu_collatz_delay_host(12, 12, 1, 10, -1, &dt, &records, &ov, &runaway), SIZE);
    EXPECT(mpgpu_collatz_delay_host(21, 25, 1, 10, -1, &dt, &records, &ov, &runaway), SIZE);
    EXPECT(mpgpu_collatz_delay_host(12, 33, 1, 10, -1, &dt, &records, &ov, &runaway), SIZE);
}

static void test_lists(void)
{
    mpgpu_collatz_list l = {0};
    mpgpu_collatz_pairs p = {0};
    EXPECT(mpgpu_collatz_list_push(NULL, 1), BAD);
    EXPECT(mpgpu_collatz_pairs_push(NULL, 1, 0), BAD);
    const mpgpu_collatz_list broken = {NULL, 3, 0};
    EXPECT(mpgpu_collatz_list_push((mpgpu_collatz_list *)&broken, 1), BAD);
    for (uint64_t i = 0; i < 1000; i++) {
        EXPECT(mpgpu_collatz_list_push(&l, i * i), MPGPU_OK);
        EXPECT(mpgpu_collatz_pairs_push(&p, i, (uint32_t)(2 * i)), MPGPU_OK);
    }
    bool same = l.n == 1000 && p.n == 1000;
    for (uint64_t i = 0; same && i < 1000; i++)
        same = l.v[i] == i * i && p.v[i].n == i && p.v[i].delay == 2 * i;
    CHECK(same, "pushed lists hold what was pushed, in order");
    mpgpu_collatz_list_free(&l);
    mpgpu_collatz_pairs_free(&p);
    CHECK(l.v == NULL && l.n == 0 && p.v == NULL && p.n == 0, "freed lists are empty");
    mpgpu_collatz_list_free(NULL);
    mpgpu_collatz_pairs_free(NULL);
}

/* Settlement and records need no GPU: against A (plain delays) and the published records. */
static void test_settlement(void)
{
    size_t unsettled = 99;
    uint64_t runaway = 99;
    mpgpu_collatz_delay_totals t = {0, 0, 0, 0, 0};
    mpgpu_collatz_pairs cand = {0}, records = {0};
    const uint64_t one = 1;
    EXPECT(mpgpu_collatz_settle_convergence(NULL, 3, 1, &unsettled), BAD);
    EXPECT(mpgpu_collatz_settle_convergence(&one, 1, 1, &unsettled), BAD);
    EXPECT(mpgpu_collatz_settle_convergence(NULL, 0, 1, NULL), BAD);
    EXPECT(mpgpu_collatz_settle_convergence(NULL, 0, 1, &unsettled), MPGPU_OK);
    CHECK(unsettled == 0, "no values: all (none) settled, got %zu", unsettled);
    /* Values whose trajectories climb high: 2^64 - 1 and the 64-bit path records' neighbours. */
    const uint64_t climbers[] = {UINT64_MAX, UINT64_MAX - 2, (UINT64_C(1) << 63) + 1, 27, 703, 77031};
    EXPECT(mpgpu_collatz_settle_convergence(climbers, 6, 0, &unsettled), MPGPU_OK);
    CHECK(unsettled == 6, "every climber falls below itself; %zu does not", unsettled);
    const mpgpu_collatz_list zero = {(uint64_t[]){0}, 1, 1};
    EXPECT(mpgpu_collatz_settle_delay(NULL, -1, 1, &t, NULL, &runaway), BAD);
    EXPECT(mpgpu_collatz_settle_delay(&zero, -1, 1, &t, NULL, &runaway), BAD);
    mpgpu_collatz_list low = {0};
    for (size_t i = 0; i < N_PUBLISHED && published_records[i].n < 100000; i++)
        mpgpu_collatz_list_push(&low, published_records[i].n);
    EXPECT(mpgpu_collatz_settle_delay(&low, -2, 1, &t, &cand, &runaway), BAD);
    EXPECT(mpgpu_collatz_settle_delay(&low, -1, 1, NULL, &cand, &runaway), BAD);
    EXPECT(mpgpu_collatz_settle_delay(&low, -1, 1, &t, &cand, NULL), BAD);
    EXPECT(mpgpu_collatz_settle_delay(&low, -1, 0, &t, &cand, &runaway), MPGPU_OK);
    CHECK(runaway == 0 && t.numbers == low.n && cand.n == low.n, "%zu settled: %llu delays, %zu candidates",
          low.n, (unsigned long long)t.numbers, cand.n);
    int64_t floor = -1;
    EXPECT(mpgpu_collatz_records(NULL, &floor, &records), BAD);
    EXPECT(mpgpu_collatz_records(&cand, NULL, &records), BAD);
    EXPECT(mpgpu_collatz_records(&cand, &floor, NULL), BAD);
    EXPECT(mpgpu_collatz_records(&cand, &floor, &records), MPGPU_OK);
    bool same = records.n == low.n;
    for (size_t i = 0; same && i < records.n; i++)
        same = records.v[i].n == published_records[i].n && records.v[i].delay == published_records[i].delay;
    CHECK(same, "the records of the published records below 10^5 are themselves (%zu of %zu)", records.n, low.n);
    mpgpu_collatz_list_free(&low);
    mpgpu_collatz_pairs_free(&cand);
    mpgpu_collatz_pairs_free(&records);
}

int main(void)
{
    seed = test_seed();
    test_sizes();
    test_tables();
    test_device_arguments();
    test_lists();
    test_settlement();
    return test_finish("test_mpgpu_collatz_api");
}
