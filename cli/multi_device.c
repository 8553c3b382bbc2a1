#include "multi_device.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpu.h"
#include "interrupt.h"
#include "mpi_ranks.h"
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
        if (len == 0 || strspn(p, "0123456789") < len)
            cli_bad_input("--devices '%s': '%.*s' is not a device index; %s", arg, (int)len, p, accepted);
        int id = 0; /* stays past MD_MAX_INDEX once past it, however many digits follow */
        for (size_t i = 0; i < len; i++)
            id = id > MD_MAX_INDEX ? id : 10 * id + (p[i] - '0');
        if (id > MD_MAX_INDEX)
            cli_bad_input("--devices '%s': %.*s is out of range; %s", arg, (int)len, p, accepted);
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
        gpu_require_index("--devices", d->arg, d->ids[i], count);
    return gpu_open(d->ids[0], why, why_len);
}

void md_format(const struct md_devices *d, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < d->n && at < len; i++)
        at += (size_t)snprintf(out + at, len - at, "%s%d", i ? "/" : "", d->ids[i]);
}

/* ---------------------------------------------------------------- the team */

/* Workers of all ranks together: their numbers must fit the message tags of cli/mpi_ranks.c
 * (MPI guarantees tags up to 32767). */
#define MD_MAX_WORKERS 32000

/* What each rank tells the others when the team forms. */
struct rank_workers {
    int32_t n;
    int32_t device[MD_MAX_DEVICES]; /* -1: the CPU twin */
};

void md_team_join(struct md_team *t, const struct md_devices *devices)
{
    memset(t, 0, sizeof *t);
    t->ranks = ranks_size();
    struct rank_workers mine = {.n = devices ? (int32_t)devices->n : 1, .device = {-1}};
    for (size_t i = 0; devices && i < devices->n; i++)
        mine.device[i] = devices->ids[i];
    struct rank_workers *all = malloc((size_t)t->ranks * sizeof *all);
    if (!all)
        cli_bad_input("out of host memory for the workers of %d ranks", t->ranks);
    ranks_allgather(&mine, sizeof mine, all);
    t->local = (size_t)mine.n;
    for (int r = 0; r < t->ranks; r++) {
        t->first += r < ranks_rank() ? (size_t)all[r].n : 0;
        t->total += (size_t)all[r].n;
    }
    if (t->total > MD_MAX_WORKERS)
        cli_bad_input("%zu workers over %d ranks are too many; accepted: at most %d in all", t->total, t->ranks,
                      MD_MAX_WORKERS);
    if (ranks_lead()) {
        t->rank = malloc(t->total * sizeof *t->rank);
        t->device = malloc(t->total * sizeof *t->device);
        if (!t->rank || !t->device)
            cli_bad_input("out of host memory for the workers of %d ranks", t->ranks);
        size_t w = 0;
        for (int r = 0; r < t->ranks; r++)
            for (int32_t i = 0; i < all[r].n; i++, w++) {
                t->rank[w] = r;
                t->device[w] = all[r].device[i];
            }
        ranks_set_followers(t->total - t->local);
    }
    free(all);
}

void md_ranks_agree(const char *params)
{
    const int n = ranks_size();
    /* FNV-1a 64 of the parameters, compared across ranks. */
    uint64_t mine = UINT64_C(0xcbf29ce484222325);
    for (const unsigned char *c = (const unsigned char *)params; *c; c++)
        mine = (mine ^ *c) * UINT64_C(0x100000001b3);
    uint64_t *all = malloc((size_t)n * sizeof *all);
    if (!all)
        cli_bad_input("out of host memory for the parameters of %d ranks", n);
    ranks_allgather(&mine, sizeof mine, all);
    for (int r = 1; r < n; r++) {
        if (all[r] == all[0])
            continue;
        cli_bad_input("MPI rank %d was given other table parameters than rank 0 (%s), which give other totals; "
                      "accepted: the same on every rank (the range is rank 0's; --devices and --threads may differ)",
                      r, params);
    }
    free(all);
}

void md_team_free(struct md_team *t)
{
    free(t->rank);
    free(t->device);
    memset(t, 0, sizeof *t);
}

void md_team_label(const struct md_team *t, size_t w, char *out, size_t len)
{
    char rank[24] = "";
    if (t->ranks > 1)
        snprintf(rank, sizeof rank, "rank %d ", t->rank[w]);
    if (t->device[w] < 0)
        snprintf(out, len, "%sCPU", rank);
    else
        snprintf(out, len, "%sGPU %d", rank, t->device[w]);
}

void md_team_format(const struct md_team *t, char *out, size_t len)
{
    size_t at = 0;
    snprintf(out, len, "host"); /* a team of one CPU worker, made without md_team_join */
    for (size_t w = 0; t->device && w < t->total && at < len; w++) {
        const char *sep = w == 0 ? "" : t->rank[w] != t->rank[w - 1] ? "+" : "/";
        if (t->device[w] < 0)
            at += (size_t)snprintf(out + at, len - at, "%shost", sep);
        else
            at += (size_t)snprintf(out + at, len - at, "%s%d", sep, t->device[w]);
    }
}

/* ---------------------------------------------------------------- a chunk's bytes */

void md_put(struct md_writer *w, const void *v, size_t len)
{
    if (w->failed || len == 0)
        return;
    if (w->len + len > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + len)
            cap *= 2;
        unsigned char *p = realloc(w->p, cap);
        if (!p) {
            w->failed = true;
            return;
        }
        w->p = p;
        w->cap = cap;
    }
    memcpy(w->p + w->len, v, len);
    w->len += len;
}

void md_put_array(struct md_writer *w, const void *v, size_t n, size_t size)
{
    const uint64_t count = n;
    md_put(w, &count, sizeof count);
    md_put(w, v, n * size);
}

void *md_writer_bytes(struct md_writer *w, size_t *len)
{
    if (w->failed) {
        free(w->p);
        return NULL;
    }
    *len = w->len;
    return w->p ? w->p : malloc(1);
}

void md_get(struct md_reader *r, void *v, size_t len)
{
    if (r->failed || len > r->left) {
        r->failed = true;
        return;
    }
    memcpy(v, r->at, len);
    r->at += len;
    r->left -= len;
}

void md_get_array(struct md_reader *r, void **v, size_t *n, size_t size)
{
    uint64_t count = 0;
    *v = NULL;
    *n = 0;
    md_get(r, &count, sizeof count);
    if (r->failed || count == 0)
        return;
    if (count > r->left / size || !(*v = malloc(count * size))) {
        r->failed = true;
        return;
    }
    md_get(r, *v, count * size);
    *n = count;
}

/* ---------------------------------------------------------------- the scheduler */

/* A chunk handed out and not yet committed. Chunks wait in a ring of WINDOW_PER_WORKER slots per
 * worker: a worker that runs ahead of a slow chunk by more than that waits, so the results held
 * for the in-order merge stay bounded. */
#define WINDOW_PER_WORKER 4u

struct pending {
    bool ready;
    uint64_t seq, first, last, done_after;
    int64_t hint;
    void *slot;
};

struct sched {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    const struct md_team *team;
    const struct md_chunk_ops *ops;
    void *ctx;
    struct progress *pg;
    struct md_stats *stats;
    unsigned chunk_bits;
    uint64_t n, pos, handed, committed; /* numbers handed out and committed */
    uint64_t next, commit_next;         /* chunk numbers */
    uint64_t stop_after;                /* chunks after which no chunk is handed out (0: no limit) */
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
    while (s->commit_next < s->next && (p = &s->ring[s->commit_next % s->window])->ready) {
        s->ops->commit(s->ctx, p->first, p->last, p->done_after, p->slot);
        s->committed = p->done_after;
        p->ready = false;
        s->commit_next++;
        progress_update(s->pg, s->committed);
    }
}

enum hand { HAND_CHUNK, HAND_WAIT, HAND_STOP };

/* The next chunk, under the lock: HAND_STOP at the end of the range or once stopped (Ctrl-C),
 * HAND_WAIT while the ring is full. */
static enum hand hand_out(struct sched *s, struct pending **out)
{
    if (s->handed >= s->n || interrupt_requested() || (s->stop_after && s->next >= s->stop_after))
        return HAND_STOP;
    if (s->next - s->commit_next >= s->window)
        return HAND_WAIT;
    /* Up to the next multiple of 2^chunk_bits (modulo 2^64, which is right at the top end), or
     * the end of the range: the boundaries of a one-GPU run. */
    const uint64_t to_boundary = (((s->pos >> s->chunk_bits) + 1) << s->chunk_bits) - s->pos;
    const uint64_t len = s->n - s->handed < to_boundary ? s->n - s->handed : to_boundary;
    struct pending *p = &s->ring[s->next % s->window];
    p->seq = s->next++;
    p->first = s->pos;
    p->last = s->pos + (len - 1);
    s->handed += len;
    p->done_after = s->handed;
    s->pos = p->last + 1;
    p->hint = s->ops->take ? s->ops->take(s->ctx) : 0;
    memset(p->slot, 0, s->ops->slot_size);
    *out = p;
    return HAND_CHUNK;
}

/* A chunk computed by worker w (numbered among all ranks'), under the lock. */
static void finished(struct sched *s, struct pending *p, size_t w, double busy_ms)
{
    s->stats[w].items += p->last - p->first + 1;
    s->stats[w].busy_ms += busy_ms;
    p->ready = true;
    commit_ready(s);
    pthread_cond_broadcast(&s->wake);
}

static void *worker_main(void *arg)
{
    struct worker_arg *wa = arg;
    struct sched *s = wa->s;
    s->ops->begin(s->ctx, wa->w);
    pthread_mutex_lock(&s->lock);
    for (;;) {
        struct pending *p = NULL;
        enum hand h;
        while ((h = hand_out(s, &p)) == HAND_WAIT)
            pthread_cond_wait(&s->wake, &s->lock);
        if (h == HAND_STOP)
            break;
        pthread_mutex_unlock(&s->lock);
        const double t0 = time_now_ms();
        s->ops->run(s->ctx, wa->w, p->first, p->last, p->hint, p->slot);
        const double busy = time_now_ms() - t0;
        pthread_mutex_lock(&s->lock);
        finished(s, p, wa->w, busy);
    }
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* A follower's finished chunk, under the lock: unpacked into the slot it was handed out in. */
static void take_result(struct sched *s, struct ranks_message *m)
{
    struct pending *p = &s->ring[m->seq % s->window];
    if (m->seq >= s->next || p->seq != m->seq || p->ready || m->items != p->last - p->first + 1)
        cli_bad_input("rank %d sent a result for chunk %" PRIu64 ", which it was not handed", m->source, m->seq);
    if (s->ops->unpack(s->ctx, m->bytes, m->len, p->slot) != 0)
        cli_bad_input("rank %d sent a malformed result for chunk %" PRIu64 " (%zu bytes), or host memory is short",
                      m->source, m->seq, m->len);
    finished(s, p, m->worker, m->busy_ms);
}

/* Rank 0's go-between for the other ranks' workers during a pass: hands them chunks as they
 * ask, takes their results, and ends when each has been told that the pass is over (a worker
 * asks again only after sending its last result, so every chunk handed out is then in). A
 * request that finds the ring full waits here, not in MPI, so the results that free it come in.
 * A worker told already asks for the next pass: its request is kept for that (ranks_keep). */
static void *coordinator_main(void *arg)
{
    struct sched *s = arg;
    const size_t followers = s->team->total - s->team->local;
    struct ranks_message *waiting = malloc(followers * sizeof *waiting), *later = malloc(followers * sizeof *later);
    bool *told = calloc(s->team->total, sizeof *told);
    if (!waiting || !later || !told)
        cli_bad_input("out of host memory for the requests of %zu workers", followers);
    size_t n_waiting = 0, n_later = 0, ended = 0;
    while (ended < followers) {
        struct ranks_message m;
        if (ranks_poll(&m)) {
            if (m.worker < s->team->local || m.worker >= s->team->total)
                cli_bad_input("rank %d sent a message from worker %zu, which is not one of its", m.source, m.worker);
            pthread_mutex_lock(&s->lock);
            if (m.result)
                take_result(s, &m);
            pthread_mutex_unlock(&s->lock);
            free(m.bytes);
            if (!m.result && told[m.worker])
                later[n_later++] = m;
            else if (!m.result)
                waiting[n_waiting++] = m;
        }
        while (n_waiting > 0) {
            struct pending *p = NULL;
            pthread_mutex_lock(&s->lock);
            const enum hand h = hand_out(s, &p);
            struct ranks_grant g = {.kind = RANKS_PASS_END};
            if (h == HAND_CHUNK)
                g = (struct ranks_grant){RANKS_CHUNK, p->seq, p->first, p->last, p->hint};
            pthread_mutex_unlock(&s->lock);
            if (h == HAND_WAIT)
                break;
            ranks_reply(&waiting[0], &g);
            if (h == HAND_STOP) {
                told[waiting[0].worker] = true;
                ended++;
            }
            memmove(waiting, waiting + 1, --n_waiting * sizeof *waiting);
        }
    }
    for (size_t i = 0; i < n_later; i++)
        ranks_keep(&later[i]);
    free(waiting);
    free(later);
    free(told);
    return NULL;
}

/* MPGPU_STOP_AFTER_CHUNKS=K: stop as Ctrl-C does once the first K chunks of a pass are handed
 * out, so exactly they are finished: the tests' interruption at a known point (under mpirun too,
 * where a signal's timing is the launcher's). */
static uint64_t stop_after_chunks(void)
{
    const char *env = getenv("MPGPU_STOP_AFTER_CHUNKS");
    return env ? strtoull(env, NULL, 10) : 0;
}

uint64_t md_schedule(const struct md_team *team, uint64_t from, uint64_t n, unsigned chunk_bits,
                     const struct md_chunk_ops *ops, void *ctx, struct progress *pg,
                     struct md_stats *stats)
{
    struct sched s = {
        .team = team, .ops = ops, .ctx = ctx, .pg = pg, .stats = stats, .chunk_bits = chunk_bits,
        .n = n, .pos = from, .window = WINDOW_PER_WORKER * team->total, .stop_after = stop_after_chunks(),
    };
    memset(stats, 0, team->total * sizeof *stats);
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.wake, NULL);
    s.ring = calloc(s.window, sizeof *s.ring);
    char *slots = calloc(s.window, ops->slot_size ? ops->slot_size : 1);
    struct worker_arg args[MD_MAX_DEVICES];
    pthread_t threads[MD_MAX_DEVICES], coordinator;
    if (!s.ring || !slots || team->local > MD_MAX_DEVICES)
        cli_bad_input("out of host memory for the chunks of %zu workers", team->total);
    for (size_t i = 0; i < s.window; i++)
        s.ring[i].slot = slots + i * ops->slot_size;
    for (size_t w = 0; w < team->local; w++)
        args[w] = (struct worker_arg){&s, w};
    const bool followers = team->total > team->local;
    if (followers && pthread_create(&coordinator, NULL, coordinator_main, &s) != 0)
        cli_bad_input("cannot start the thread that serves the other ranks");
    /* One worker runs on the caller's thread: a one-GPU or CPU run keeps its thread (and its
     * OpenMP pool) as before issue 14. */
    size_t started = 0;
    for (size_t w = 1; w < team->local; w++) {
        if (pthread_create(&threads[w], NULL, worker_main, &args[w]) != 0)
            break;
        started = w;
    }
    worker_main(&args[0]);
    for (size_t w = 1; w <= started; w++)
        pthread_join(threads[w], NULL);
    if (followers)
        pthread_join(coordinator, NULL);
    pthread_mutex_destroy(&s.lock);
    pthread_cond_destroy(&s.wake);
    free(slots);
    free(s.ring);
    return s.committed;
}

/* ---------------------------------------------------------------- a follower's workers */

struct follower_arg {
    const struct md_team *team;
    const struct md_chunk_ops *ops;
    void *ctx;
    size_t w;
};

static void *follower_main(void *arg)
{
    const struct follower_arg *fa = arg;
    const struct md_chunk_ops *ops = fa->ops;
    const size_t me = fa->team->first + fa->w;
    void *slot = malloc(ops->slot_size ? ops->slot_size : 1);
    if (!slot)
        cli_bad_input("out of host memory for a chunk's result");
    ops->begin(fa->ctx, fa->w);
    for (;;) {
        struct ranks_grant g;
        ranks_request(me, &g);
        if (g.kind == RANKS_RUN_END)
            break;
        if (g.kind != RANKS_CHUNK)
            continue; /* the pass is over; the next one's chunks come to the same request */
        memset(slot, 0, ops->slot_size);
        const double t0 = time_now_ms();
        ops->run(fa->ctx, fa->w, g.first, g.last, g.hint, slot);
        const double busy = time_now_ms() - t0;
        size_t len = 0;
        void *bytes = ops->pack(fa->ctx, slot, &len);
        if (!bytes)
            cli_bad_input("out of host memory for the result of [%" PRIu64 ", %" PRIu64 "]", g.first, g.last);
        ranks_send_result(me, g.seq, g.last - g.first + 1, busy, bytes, len);
        free(bytes);
    }
    free(slot);
    return NULL;
}

void md_follow(const struct md_team *team, const struct md_chunk_ops *ops, void *ctx)
{
    /* Ctrl-C reaches every rank under mpirun (interrupt_install_ranks): a follower goes on
     * until rank 0, which decides where the run stops, releases it. */
    struct follower_arg args[MD_MAX_DEVICES];
    pthread_t threads[MD_MAX_DEVICES];
    for (size_t w = 0; w < team->local; w++)
        args[w] = (struct follower_arg){team, ops, ctx, w};
    for (size_t w = 1; w < team->local; w++)
        if (pthread_create(&threads[w], NULL, follower_main, &args[w]) != 0)
            cli_bad_input("cannot start worker thread %zu of %zu", w + 1, team->local);
    follower_main(&args[0]);
    for (size_t w = 1; w < team->local; w++)
        pthread_join(threads[w], NULL);
}
