/* cli/mpi_ranks.h with MPI (meson -Dmpi=auto finds it, -Dmpi=enabled requires it). Rank 0 keeps
 * MPI to one thread at a time by design (its go-between during a pass, its main thread between
 * passes); a follower's worker threads take turns through `lock`: MPI_THREAD_SERIALIZED. */
#include "mpi_ranks.h"

#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "interrupt.h"

enum { TAG_REQUEST = 1, TAG_RESULT = 2, TAG_GRANT = 16 /* + the worker's number */ };

/* How long a loop that waits for a message sleeps between looks: short against a chunk (about a
 * second of work), long enough not to take a core from the workers. */
#define POLL_NS 200000L

static bool started;
static int rank, size = 1;
static size_t followers;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Requests kept for a later pass (ranks_keep), answered first. */
static struct ranks_message *kept;
static size_t n_kept;

/* What a result message starts with; the chunk's bytes follow. */
struct result_head {
    uint64_t worker, seq, items;
    double busy_ms;
};

static void check(int err, const char *call)
{
    if (err == MPI_SUCCESS)
        return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, msg, &len);
    fprintf(stderr, "mpgpu: MPI call %s failed on rank %d: %s\n", call, rank, msg);
    MPI_Abort(MPI_COMM_WORLD, EXIT_GPU_ERROR);
    exit(EXIT_GPU_ERROR);
}
#define MPI_CHECK(call) check((call), #call)

static void pause_briefly(void)
{
    nanosleep(&(struct timespec){0, POLL_NS}, NULL);
}

void ranks_init(int *argc, char ***argv)
{
    /* Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE, PMIx launchers PMIX_RANK. */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK"))
        return;
    int provided = 0;
    MPI_CHECK(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided));
    started = true;
    /* Errors come back to check(), which names the call. */
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (provided < MPI_THREAD_SERIALIZED) {
        fprintf(stderr, "mpgpu: this MPI gives thread support level %d; mpgpu's worker threads need "
                        "MPI_THREAD_SERIALIZED (%d)\n", provided, MPI_THREAD_SERIALIZED);
        MPI_Abort(MPI_COMM_WORLD, EXIT_BAD_INPUT);
    }
    if (size > 1)
        interrupt_install_ranks(rank == 0);
}

int ranks_finish(int status)
{
    if (!started)
        return status;
    /* Each follower's workers are waiting in ranks_request for the next pass: this ends them. */
    for (size_t released = 0; rank == 0 && released < followers;) {
        struct ranks_message m;
        if (!ranks_poll(&m))
            continue;
        free(m.bytes);
        if (!m.result) {
            ranks_reply(&m, &(struct ranks_grant){.kind = RANKS_RUN_END});
            released++;
        }
    }
    MPI_CHECK(MPI_Finalize());
    return status;
}

int ranks_rank(void)
{
    return rank;
}

int ranks_size(void)
{
    return size;
}

void ranks_allgather(const void *mine, size_t len, void *all)
{
    if (!started) {
        memcpy(all, mine, len);
        return;
    }
    MPI_CHECK(MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, MPI_COMM_WORLD));
}

void ranks_set_followers(size_t workers)
{
    followers = workers;
}

void ranks_request(size_t worker, struct ranks_grant *g)
{
    const uint64_t w = worker;
    MPI_Request rq;
    pthread_mutex_lock(&lock);
    MPI_CHECK(MPI_Send(&w, sizeof w, MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Irecv(g, sizeof *g, MPI_BYTE, 0, TAG_GRANT + (int)worker, MPI_COMM_WORLD, &rq));
    pthread_mutex_unlock(&lock);
    /* The lock is not held while waiting: this rank's other workers must send their results,
     * which rank 0 may need before it can hand out another chunk. */
    for (int done = 0;;) {
        pthread_mutex_lock(&lock);
        MPI_CHECK(MPI_Test(&rq, &done, MPI_STATUS_IGNORE));
        pthread_mutex_unlock(&lock);
        if (done)
            return;
        pause_briefly();
    }
}

void ranks_send_result(size_t worker, uint64_t seq, uint64_t items, double busy_ms, const void *bytes,
                       size_t len)
{
    const struct result_head head = {worker, seq, items, busy_ms};
    if (len > INT_MAX - sizeof head)
        cli_bad_input("a chunk's result of %zu bytes is more than one MPI message holds", len);
    unsigned char *msg = malloc(sizeof head + len);
    if (!msg)
        cli_bad_input("out of host memory for a chunk's result of %zu bytes", len);
    memcpy(msg, &head, sizeof head);
    memcpy(msg + sizeof head, bytes, len);
    pthread_mutex_lock(&lock);
    MPI_CHECK(MPI_Send(msg, (int)(sizeof head + len), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD));
    pthread_mutex_unlock(&lock);
    free(msg);
}

bool ranks_poll(struct ranks_message *m)
{
    memset(m, 0, sizeof *m);
    if (n_kept > 0) {
        *m = kept[0];
        memmove(kept, kept + 1, --n_kept * sizeof *kept);
        return true;
    }
    int flag = 0, count = 0;
    MPI_Status st;
    MPI_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    if (!flag) {
        pause_briefly();
        return false;
    }
    MPI_CHECK(MPI_Get_count(&st, MPI_BYTE, &count));
    unsigned char *msg = malloc(count > 0 ? (size_t)count : 1);
    if (!msg)
        cli_bad_input("out of host memory for a message of %d bytes from rank %d", count, st.MPI_SOURCE);
    MPI_CHECK(MPI_Recv(msg, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    m->source = st.MPI_SOURCE;
    uint64_t w = 0;
    if (st.MPI_TAG == TAG_REQUEST && count == (int)sizeof w) {
        memcpy(&w, msg, sizeof w);
        free(msg);
    } else if (st.MPI_TAG == TAG_RESULT && count >= (int)sizeof(struct result_head)) {
        struct result_head head;
        memcpy(&head, msg, sizeof head);
        w = head.worker;
        m->result = true;
        m->seq = head.seq;
        m->items = head.items;
        m->busy_ms = head.busy_ms;
        m->len = (size_t)count - sizeof head;
        memmove(msg, msg + sizeof head, m->len);
        m->bytes = msg;
    } else {
        cli_bad_input("rank %d sent a message of %d bytes with tag %d, which mpgpu does not send", st.MPI_SOURCE,
                      count, st.MPI_TAG);
    }
    m->worker = (size_t)w;
    return true;
}

void ranks_reply(const struct ranks_message *request, const struct ranks_grant *g)
{
    MPI_CHECK(MPI_Send(g, sizeof *g, MPI_BYTE, request->source, TAG_GRANT + (int)request->worker, MPI_COMM_WORLD));
}

void ranks_keep(const struct ranks_message *request)
{
    struct ranks_message *more = realloc(kept, (n_kept + 1) * sizeof *kept);
    if (!more)
        cli_bad_input("out of host memory for the requests of the next pass");
    kept = more;
    kept[n_kept++] = *request;
}
