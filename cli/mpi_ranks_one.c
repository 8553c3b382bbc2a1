/* cli/mpi_ranks.h without MPI (meson -Dmpi=disabled, or none found): one process, rank 0 of 1.
 * With no followers, md_schedule starts no go-between and md_follow never runs, so the message
 * calls below are never made; they end the process should that ever change. */
#include "mpi_ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static _Noreturn void no_mpi(const char *call)
{
    fprintf(stderr, "mpgpu: %s needs several MPI ranks, and this build has no MPI\n", call);
    abort();
}

void ranks_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* Under mpirun each process of this build would run the whole range by itself. */
    const char *n = getenv("OMPI_COMM_WORLD_SIZE");
    if (!n)
        n = getenv("PMI_SIZE");
    if (n && strcmp(n, "1") != 0)
        cli_bad_input("this mpgpu was built without MPI, so %s processes of mpirun would each run the whole "
                      "range; run it without mpirun, or build with -Dmpi=enabled", n);
}

int ranks_finish(int status)
{
    return status;
}

int ranks_rank(void)
{
    return 0;
}

int ranks_size(void)
{
    return 1;
}

void ranks_allgather(const void *mine, size_t len, void *all)
{
    memcpy(all, mine, len);
}

void ranks_set_followers(size_t workers)
{
    (void)workers;
}

void ranks_request(size_t worker, struct ranks_grant *g)
{
    (void)worker;
    (void)g;
    no_mpi("ranks_request");
}

void ranks_send_result(size_t worker, uint64_t seq, uint64_t items, double busy_ms, const void *bytes,
                       size_t len)
{
    (void)worker, (void)seq, (void)items, (void)busy_ms, (void)bytes, (void)len;
    no_mpi("ranks_send_result");
}

bool ranks_poll(struct ranks_message *m)
{
    (void)m;
    no_mpi("ranks_poll");
}

void ranks_reply(const struct ranks_message *request, const struct ranks_grant *g)
{
    (void)request;
    (void)g;
    no_mpi("ranks_reply");
}

void ranks_keep(const struct ranks_message *request)
{
    (void)request;
    no_mpi("ranks_keep");
}
