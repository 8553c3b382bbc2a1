/* Several processes on one range (issue 14): `mpirun -np N mpgpu collatz|delay ...`. Rank 0
 * leads: it hands out the chunks of every pass (cli/multi_device.c), merges the results in range
 * order, and alone prints, writes the CSV and the checkpoint. The other ranks follow: each runs
 * the chunks it is handed on its own --devices and sends the results to rank 0.
 *
 * Built from mpi_ranks.c with MPI (meson -Dmpi), else from mpi_ranks_one.c: one process, rank 0
 * of 1, where the follower's calls are never made. */
#ifndef MPGPU_MPI_RANKS_H
#define MPGPU_MPI_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Starts MPI when an MPI launcher started the process (so a plain run never pays for MPI_Init).
 * Exits 2 when MPI cannot give what mpgpu needs. */
void ranks_init(int *argc, char ***argv);
/* Ends the run: rank 0 releases the followers (their workers' waiting requests are answered
 * with RANKS_RUN_END), then MPI is finalized. Returns status. */
int ranks_finish(int status);
int ranks_rank(void);
int ranks_size(void);
static inline bool ranks_lead(void)
{
    return ranks_rank() == 0;
}

/* Every rank's `len` bytes, in rank order, into all (ranks_size() * len bytes). */
void ranks_allgather(const void *mine, size_t len, void *all);
/* The followers' workers, which ranks_finish releases (set on rank 0 by md_team_join). */
void ranks_set_followers(size_t workers);

/* What rank 0 answers a follower's worker. */
enum ranks_grant_kind { RANKS_CHUNK = 1, RANKS_PASS_END, RANKS_RUN_END };
struct ranks_grant {
    int64_t kind;
    uint64_t seq, first, last; /* RANKS_CHUNK: the chunk's number in the pass, and its range */
    int64_t hint;              /* md_chunk_ops.take's */
};

/* A follower's worker (`worker`: its number among all ranks' workers) asks for its next grant
 * and waits for it, without holding up the other workers' messages. */
void ranks_request(size_t worker, struct ranks_grant *g);
/* A follower's worker sends a finished chunk: its number, what it counted and took, its bytes. */
void ranks_send_result(size_t worker, uint64_t seq, uint64_t items, double busy_ms, const void *bytes,
                       size_t len);

/* On rank 0: the next message of a follower's worker, a kept one first (false, after a moment's
 * wait, when none has come). A result's bytes are malloc'ed: the caller frees them. */
struct ranks_message {
    bool result; /* else a request, to answer with ranks_reply */
    int source;
    size_t worker;
    uint64_t seq, items;
    double busy_ms;
    void *bytes;
    size_t len;
};
bool ranks_poll(struct ranks_message *m);
void ranks_reply(const struct ranks_message *request, const struct ranks_grant *g);
/* Keeps a request for the next ranks_poll of a later pass (or of ranks_finish). */
void ranks_keep(const struct ranks_message *request);

#endif
