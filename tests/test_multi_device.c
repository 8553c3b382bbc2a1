/* cpu suite: the chunk scheduler of --devices (issue 14, cli/multi_device.c) with CPU workers
 * in place of GPUs. Chunks finish out of order (each worker sleeps a pseudo-random time, the first
 * one longer), and still: they are committed in range order with the boundaries of a one-worker
 * run, every number is handed out once, the delay records found with a floor that lags behind
 * (the running maximum when a chunk was handed out, as cmd_delay.c does) equal those of a
 * sequential run, and after Ctrl-C the committed part is an exact prefix. Also the bytes a
 * chunk's result travels in between MPI ranks (md_writer, md_reader). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collatz_delay.h"
#include "collatz_tables.h"
#include "interrupt.h"
#include "multi_device.h"
#include "random_words.h"
#include "test_seed.h"

#define BC_BITS 10u
#define A_BITS 16u

struct chunk {
    int64_t floor;
    uint64_t first, last;
    struct mpgpu_collatz_delay_totals t;
    struct mpgpu_collatz_pairs cand;
    struct mpgpu_collatz_list ov;
};

struct run {
    struct mpgpu_collatz_bc_table bc;
    uint16_t *a;
    uint64_t from;
    /* What the commits built, in order. */
    uint64_t next_first, committed;
    size_t commits;
    uint64_t bounds[4096];
    int64_t floor;
    struct mpgpu_collatz_delay_totals t;
    struct mpgpu_collatz_pairs records;
    size_t stop_after; /* raise SIGINT after this many commits (0: never) */
    int bad;
};

static void begin(void *ctx, size_t worker)
{
    (void)ctx;
    (void)worker;
}

static int64_t take(void *ctx)
{
    struct run *r = ctx;
    return r->floor;
}

static void run_chunk(void *ctx, size_t worker, uint64_t first, uint64_t last, int64_t floor, void *slot)
{
    struct run *r = ctx;
    struct chunk *k = slot;
    k->floor = floor;
    k->first = first;
    k->last = last;
    /* Out of order on purpose: a pseudo-random pause, longest on the first worker. */
    const long us = (long)(splitmix64(seed ^ first) % 3000) + (worker == 0 ? 4000 : 0);
    nanosleep(&(struct timespec){0, us * 1000}, NULL);
    if (collatz_delay_cpu(&r->bc, r->a, A_BITS, first, last, k->floor, 1, &k->t, &k->cand, &k->ov) != 0)
        r->bad = 1;
    uint64_t runaway = 0;
    if (collatz_delay_resolve(&k->ov, k->floor, 0, &k->t, &k->cand, &runaway) != 0)
        r->bad = 1;
}

static void commit(void *ctx, uint64_t first, uint64_t last, uint64_t done_after, void *slot)
{
    struct run *r = ctx;
    struct chunk *k = slot;
    if (first != r->next_first || k->first != first || k->last != last ||
        done_after != r->committed + (last - first + 1) || r->commits == 4096)
        r->bad = 1;
    else
        r->bounds[r->commits++] = last;
    r->next_first = last + 1;
    r->committed = done_after;
    collatz_records_extract(&k->cand, &r->floor, &r->records);
    collatz_delay_add(&r->t, &k->t);
    collatz_pairs_free(&k->cand);
    collatz_list_free(&k->ov);
    if (r->stop_after && r->commits == r->stop_after)
        raise(SIGINT);
}

static const struct md_chunk_ops ops = {
    .slot_size = sizeof(struct chunk),
    .begin = begin,
    .take = take,
    .run = run_chunk,
    .commit = commit,
};

static uint64_t schedule(struct run *r, size_t workers, uint64_t from, uint64_t n, unsigned bits,
                         struct md_stats *stats)
{
    struct progress pg;
    progress_begin(&pg, PROGRESS_OFF, "test", "numbers", n);
    r->from = r->next_first = from;
    r->committed = 0;
    r->commits = 0;
    r->floor = -1;
    memset(&r->t, 0, sizeof r->t);
    collatz_pairs_free(&r->records);
    memset(&r->records, 0, sizeof r->records);
    r->bad = 0;
    const struct md_team team = {.local = workers, .total = workers, .ranks = 1};
    const uint64_t done = md_schedule(&team, from, n, bits, &ops, r, &pg, stats);
    progress_end(&pg);
    return done;
}

int main(void)
{
    seed = test_seed();
    struct run one, many;
    memset(&one, 0, sizeof one);
    memset(&many, 0, sizeof many);
    if (collatz_bc_build(&one.bc, BC_BITS) != 0 || collatz_a_build(&one.a, A_BITS, 1, NULL, NULL) != MPGPU_OK) {
        printf("out of memory for the tables\n");
        return 1;
    }
    many.bc = one.bc;
    many.a = one.a;
    struct md_stats stats[MD_MAX_DEVICES];

    /* From 1 (the records of the literature, 27 and 97 among them) and from an unaligned start. */
    const uint64_t starts[] = {1, 1000003};
    for (size_t s = 0; s < 2; s++) {
        const uint64_t from = starts[s], n = (UINT64_C(1) << 21) + 12345;
        const uint64_t done1 = schedule(&one, 1, from, n, 15, stats);
        CHECK(done1 == n && !one.bad, "one worker from %llu: done %llu of %llu", (unsigned long long)from,
              (unsigned long long)done1, (unsigned long long)n);
        for (size_t workers = 2; workers <= 5; workers++) {
            const uint64_t done = schedule(&many, workers, from, n, 15, stats);
            CHECK(done == n && !many.bad, "%zu workers from %llu: done %llu, in order %d", workers,
                  (unsigned long long)from, (unsigned long long)done, !many.bad);
            CHECK(many.commits == one.commits && !memcmp(many.bounds, one.bounds, one.commits * sizeof one.bounds[0]),
                  "%zu workers: other chunk boundaries than one worker's", workers);
            CHECK(many.t.numbers == one.t.numbers && many.t.sum == one.t.sum && many.t.max == one.t.max &&
                      many.t.argmax == one.t.argmax && many.t.overflows == one.t.overflows,
                  "%zu workers: totals differ (sum %llu vs %llu)", workers, (unsigned long long)many.t.sum,
                  (unsigned long long)one.t.sum);
            CHECK(collatz_pairs_equal(&many.records, &one.records), "%zu workers: %zu records, one worker %zu",
                  workers, many.records.n, one.records.n);
            uint64_t items = 0;
            size_t busy = 0;
            for (size_t w = 0; w < workers; w++) {
                items += stats[w].items;
                busy += stats[w].items > 0;
            }
            CHECK(items == n && busy > 1, "%zu workers: shares add to %llu of %llu, %zu workers busy", workers,
                  (unsigned long long)items, (unsigned long long)n, busy);
        }
    }
    CHECK(one.records.n > 10 && one.records.v[0].n == 1000003, "records from 1000003: %zu", one.records.n);

    /* Ctrl-C after the fifth commit: the chunks in flight are finished and committed, no chunk is
     * handed out after, and the committed part is an exact prefix. Last: the request stays. */
    interrupt_install();
    many.stop_after = 5;
    const uint64_t n = UINT64_C(1) << 22;
    const uint64_t done = schedule(&many, 3, 1, n, 14, stats);
    uint64_t items = 0;
    for (size_t w = 0; w < 3; w++)
        items += stats[w].items;
    CHECK(!many.bad && done < n && done == many.committed && many.commits >= 5 && many.commits <= 5 + 3 * 4 &&
              done == many.bounds[many.commits - 1] && items == done,
          "Ctrl-C: done %llu, %zu commits, handed out %llu", (unsigned long long)done, many.commits,
          (unsigned long long)items);

    /* A chunk's bytes between MPI ranks: values and counted arrays come back as written, an
     * empty array as NULL; bytes cut short, or a count past their end, are refused. */
    struct md_writer wr = {0};
    const double ms = 1.25;
    uint64_t list[5];
    for (size_t i = 0; i < 5; i++)
        list[i] = splitmix64(seed + i);
    md_put(&wr, &ms, sizeof ms);
    md_put_array(&wr, list, 5, sizeof list[0]);
    md_put_array(&wr, NULL, 0, sizeof list[0]);
    md_put_array(&wr, one.records.v, one.records.n, sizeof *one.records.v);
    size_t len = 0;
    unsigned char *bytes = md_writer_bytes(&wr, &len);
    CHECK(bytes && len == sizeof ms + 3 * 8 + sizeof list + one.records.n * sizeof *one.records.v,
          "md_writer: %zu bytes", len);
    for (size_t cut = 0; bytes && cut <= len; cut += cut < len - 16 ? 7 : 1) {
        struct md_reader rd = {bytes, cut, false};
        double got_ms = 0;
        void *got_list = NULL, *got_empty = NULL, *got_pairs = NULL;
        size_t n_list = 0, n_empty = 1, n_pairs = 0;
        md_get(&rd, &got_ms, sizeof got_ms);
        md_get_array(&rd, &got_list, &n_list, sizeof list[0]);
        md_get_array(&rd, &got_empty, &n_empty, sizeof list[0]);
        md_get_array(&rd, &got_pairs, &n_pairs, sizeof *one.records.v);
        if (cut < len) {
            CHECK(rd.failed, "md_reader: %zu of %zu bytes read as whole", cut, len);
        } else {
            const struct mpgpu_collatz_pairs back = {got_pairs, n_pairs, n_pairs};
            CHECK(!rd.failed && rd.left == 0 && got_ms == ms && n_list == 5 && !memcmp(got_list, list, sizeof list) &&
                      n_empty == 0 && got_empty == NULL && collatz_pairs_equal(&back, &one.records),
                  "md_reader: the values read back differ");
        }
        free(got_list);
        free(got_empty);
        free(got_pairs);
    }
    /* A count of more items than the bytes hold. */
    const uint64_t huge[2] = {UINT64_C(1) << 60, 7};
    struct md_reader rd = {(const unsigned char *)huge, sizeof huge, false};
    void *got = NULL;
    size_t n_got = 0;
    md_get_array(&rd, &got, &n_got, 8);
    CHECK(rd.failed && got == NULL && n_got == 0, "md_reader: a count of 2^60 items in 16 bytes was read");
    free(bytes);

    collatz_pairs_free(&one.records);
    collatz_pairs_free(&many.records);
    collatz_bc_free(&one.bc);
    free(one.a);
    return test_finish("multi_device");
}
