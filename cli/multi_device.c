#include "multi_device.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpu.h"
#include "interrupt.h"
#include "timing.h"

#define MD_MAX_INDEX 1023

void md_parse(struct md_devices *d, const char *arg)
{
    static const char accepted[] = "accepted: all, or a comma list of device indices 0..1023";
    memset(d, 0, sizeof *d);
    d->arg = arg;
    if (!strcmp(arg, "all")) {
        d->all = true;
        return;
    }
    cli_check_list("--devices", arg, "all, or a comma list of device indices 0..1023");
    for (const char *p = arg; *p;) {
        const size_t len = strcspn(p, ",");
        if (len == 0 || len > 4 || strspn(p, "0123456789") != len)
            cli_bad_input("--devices '%s': '%.*s' is not a device index; %s", arg, (int)len, p, accepted);
        const int id = atoi(p);
        if (id > MD_MAX_INDEX)
            cli_bad_input("--devices '%s': %d is out of range; %s", arg, id, accepted);
        if (d->n == MD_MAX_DEVICES)
            cli_bad_input("--devices '%s' names more than %d devices; %s", arg, MD_MAX_DEVICES, accepted);
        d->ids[d->n++] = id;
        p += len + (p[len] == ',');
    }
}

bool md_resolve(struct md_devices *d, int device, char *why, size_t why_len)
{
    if (!d->arg) {
        d->ids[0] = device;
        d->n = 1;
        return gpu_open(device, why, why_len);
    }
    const int count = gpu_count(why, why_len);
    if (count == 0)
        return false;
    if (d->all) {
        d->n = count < MD_MAX_DEVICES ? (size_t)count : MD_MAX_DEVICES;
        for (size_t i = 0; i < d->n; i++)
            d->ids[i] = (int)i;
    }
    for (size_t i = 0; i < d->n; i++)
        if (d->ids[i] >= count)
            cli_bad_input("--devices %s: there is no GPU %d; accepted: indices 0..%d", d->arg, d->ids[i],
                          count - 1);
    return gpu_open(d->ids[0], why, why_len);
}

void md_format(const struct md_devices *d, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < d->n && at < len; i++)
        at += (size_t)snprintf(out + at, len - at, "%s%d", i ? "," : "", d->ids[i]);
}

/* ---------------------------------------------------------------- the scheduler */

/* A chunk handed out and not yet committed. Chunks wait in a ring of WINDOW_PER_WORKER slots per
 * worker: a worker that runs ahead of a slow chunk by more than that waits, so the results held
 * for the in-order merge stay bounded. */
#define WINDOW_PER_WORKER 4u

struct pending {
    bool ready;
    uint64_t first, last, done_after;
    void *slot;
};

struct sched {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    const struct md_chunk_ops *ops;
    void *ctx;
    struct progress *pg;
    struct md_stats *stats;
    unsigned chunk_bits;
    uint64_t n, pos, handed, committed; /* numbers handed out and committed */
    uint64_t next, commit_next;         /* chunk indices */
    size_t window;
    struct pending *ring;
};

struct worker_arg {
    struct sched *s;
    size_t w;
};

/* Commits every finished chunk at the head of the range; under the lock. */
static void commit_ready(struct sched *s)
{
    struct pending *p;
    while ((p = &s->ring[s->commit_next % s->window])->ready && s->commit_next < s->next) {
        s->ops->commit(s->ctx, p->first, p->last, p->done_after, p->slot);
        s->committed = p->done_after;
        p->ready = false;
        s->commit_next++;
        progress_update(s->pg, s->committed);
    }
}

static void *worker_main(void *arg)
{
    struct worker_arg *wa = arg;
    struct sched *s = wa->s;
    s->ops->begin(s->ctx, wa->w);
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->handed < s->n && !interrupt_requested() && s->next - s->commit_next >= s->window)
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->handed >= s->n || interrupt_requested())
            break;
        /* Up to the next multiple of 2^chunk_bits (modulo 2^64, which is right at the top end),
         * or the end of the range: the boundaries of a one-GPU run. */
        const uint64_t to_boundary = (((s->pos >> s->chunk_bits) + 1) << s->chunk_bits) - s->pos;
        const uint64_t len = s->n - s->handed < to_boundary ? s->n - s->handed : to_boundary;
        struct pending *p = &s->ring[s->next % s->window];
        p->first = s->pos;
        p->last = s->pos + (len - 1);
        s->handed += len;
        p->done_after = s->handed;
        s->pos = p->last + 1;
        s->next++;
        memset(p->slot, 0, s->ops->slot_size);
        if (s->ops->take)
            s->ops->take(s->ctx, p->slot);
        pthread_mutex_unlock(&s->lock);

        const double t0 = time_now_ms();
        s->ops->run(s->ctx, wa->w, p->first, p->last, p->slot);
        const double busy = time_now_ms() - t0;

        pthread_mutex_lock(&s->lock);
        s->stats[wa->w].items += len;
        s->stats[wa->w].busy_ms += busy;
        p->ready = true;
        commit_ready(s);
        pthread_cond_broadcast(&s->wake);
    }
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

uint64_t md_schedule(size_t workers, uint64_t from, uint64_t n, unsigned chunk_bits,
                     const struct md_chunk_ops *ops, void *ctx, struct progress *pg,
                     struct md_stats *stats)
{
    struct sched s = {
        .ops = ops, .ctx = ctx, .pg = pg, .stats = stats, .chunk_bits = chunk_bits,
        .n = n, .pos = from, .window = WINDOW_PER_WORKER * workers,
    };
    memset(stats, 0, workers * sizeof *stats);
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.wake, NULL);
    s.ring = calloc(s.window, sizeof *s.ring);
    char *slots = calloc(s.window, ops->slot_size ? ops->slot_size : 1);
    struct worker_arg args[MD_MAX_DEVICES];
    pthread_t threads[MD_MAX_DEVICES];
    if (!s.ring || !slots || workers > MD_MAX_DEVICES)
        cli_bad_input("--devices: out of host memory for %zu workers' chunks", workers);
    for (size_t i = 0; i < s.window; i++)
        s.ring[i].slot = slots + i * ops->slot_size;
    for (size_t w = 0; w < workers; w++)
        args[w] = (struct worker_arg){&s, w};
    /* One worker runs on the caller's thread: a one-GPU or CPU run keeps its thread (and its
     * OpenMP pool) as before issue 14. */
    size_t started = 0;
    for (size_t w = 1; w < workers; w++) {
        if (pthread_create(&threads[w], NULL, worker_main, &args[w]) != 0)
            break;
        started = w;
    }
    worker_main(&args[0]);
    for (size_t w = 1; w <= started; w++)
        pthread_join(threads[w], NULL);
    pthread_mutex_destroy(&s.lock);
    pthread_cond_destroy(&s.wake);
    free(slots);
    free(s.ring);
    return s.committed;
}
