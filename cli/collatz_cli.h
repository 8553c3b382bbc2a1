/* What `mpgpu collatz` and `mpgpu delay` share on the command line: the range of starting values
 * (--start, --count or --end), the methods (gpu, cpu), memory checks, and the checkpoint and
 * interruption messages. */
#ifndef MPGPU_COLLATZ_CLI_H
#define MPGPU_COLLATZ_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "mpgpu.h"
#include "collatz_checkpoint.h"
#include "collatz_chunks.h"
#include "bench.h"
#include "multi_device.h"

/* Option ids both subcommands use (cli_option ids start at 1000). */
enum {
    OPT_COLLATZ_START = 1000,
    OPT_COLLATZ_COUNT,
    OPT_COLLATZ_END,
    OPT_COLLATZ_BC_BITS,
    OPT_COLLATZ_TABLE_MEMORY,
    OPT_COLLATZ_CHECKPOINT,
    OPT_COLLATZ_DEVICES,
    OPT_COLLATZ_INTERLEAVE,
    OPT_COLLATZ_FIRST_OWN, /* the first id a subcommand may use for its own options */
};

struct collatz_range_args {
    bool start_set, count_set, end_set;
    uint64_t start, count;
    uint64_t last; /* --end minus one, so that --end 2^64 fits */
};

/* Handles --start, --count and --end; returns false for any other id. */
bool collatz_range_option(struct collatz_range_args *r, int id, const char *arg);

/* The range [*first, *first + *count): --start (default: a value from --seed, 2^40-aligned in
 * [2^62, 2^63), as 000 section 4.5 draws its constant M at random) and --count or --end
 * (default: default_count). Exits through cli_bad_input for an empty range or one that runs
 * past 2^64. */
void collatz_resolve_range(const struct collatz_range_args *r, uint64_t seed, uint64_t default_count,
                           uint64_t *first, uint64_t *count);

struct collatz_methods {
    bool gpu, cpu, explicit_;
};
/* --method: gpu, cpu, all (both); default gpu. */
void collatz_parse_methods(const struct cli_common *c, const char *command, struct collatz_methods *m);

/* --table-memory shared|global; anything else is bad input (exit 2). */
mpgpu_collatz_table_memory collatz_parse_table_memory(const char *arg);

/* The run-wide choices both subcommands make after parsing. */
struct collatz_setup {
    struct collatz_methods m;
    enum verify_mode verify; /* --verify, sample when not given */
    int cpu_threads;         /* --threads, 0 meaning every core */
    bool have_dev;           /* the GPU is open */
};
/* --method (--interleave and --table-memory refused with cpu alone), --verify and --threads, then
 * the GPUs of --devices (resolved into cb->devices; an unknown index exits 2): opened, or, when
 * there is none, replaced by the CPU twin with one line on stderr (the reason kept in cb->no_gpu,
 * which collatz_run gives bench_open to say after opening the outputs). The GPU is asked for by a
 * named gpu method, --devices, --interleave or --table-memory: then, where cpu was named too, the
 * cpu method runs and collatz_run returns EXIT_GPU_ERROR after it (cb->gpu_named_missing); else
 * this returns EXIT_GPU_ERROR, said after the outputs (the CSV, --json, the checkpoint's folder)
 * are found writable (else exit 2). Then the team of all MPI ranks' workers (cb->team, cb->stats;
 * a collective call), and on ranks other than 0 no table, progress or CSV. Returns 0 otherwise. */
struct collatz_bench;
int collatz_setup(int argc, char **argv, const char *command, struct collatz_bench *cb, const char *checkpoint,
                  const struct md_devices *devices, struct collatz_setup *out);

/* A new checkpoint for this command, parameters and range start (nothing resumed). */
void collatz_checkpoint_begin(struct checkpoint *ck, const char *command, const char *params,
                              uint64_t start);

/* What a subcommand supplies for the check of its chunks (issue 36): the CPU twin of one chunk,
 * and the comparison of its result with the one recorded from the timed pass. */
struct collatz_twin {
    size_t result_size;
    /* The CPU twin over [first, last] on all cores, from the inputs `recorded` was computed
     * with (delay: its record floor), into out (result_size bytes). Returns 0, or -1 when host
     * memory is short. */
    int (*compute)(const void *ctx, const void *recorded, uint64_t first, uint64_t last, void *out);
    bool (*same)(const void *recorded, const void *twin);
    /* A result in words, for the message of one that differs. */
    void (*describe)(const void *result, char *out, size_t len);
    /* Numbers of the twin that measure its rate, for the announcement of a long check. */
    uint64_t probe;
};

/* The state the run-loop callbacks of collatz and delay share (bench.h): the range, what a
 * resumed checkpoint finished, and the device. Each subcommand's state begins with it, so the
 * shared callbacks below take that state as their ctx. */
struct collatz_bench {
    struct cli_common opt;
    const char *command;      /* "collatz" or "delay" */
    enum verify_mode verify;
    int cpu_threads;
    uint64_t first, count;    /* the whole range */
    uint64_t done_before;     /* finished by the resumed checkpoint: [first, first + done_before) */
    const char *checkpoint;   /* --checkpoint, or NULL */
    struct checkpoint ck;
    bool resumed;
    char save_failed[256];    /* why the checkpoint of the whole range could not be saved ("": saved) */
    char no_gpu[256];         /* why there is no GPU ("": there is, or none is needed): said, with
                               * "running the CPU twin instead", once the outputs are open */
    bool gpu_named_missing;   /* the gpu method was named (with cpu) and cannot run: exit 3 after */
    /* --devices (issue 14): one worker thread and one device state (stream, buffers, tables)
     * per entry, so a GPU named twice runs two streams. */
    struct md_devices devices;
    mpgpu_stream streams[MD_MAX_DEVICES];
    mpgpu_collatz *devs[MD_MAX_DEVICES];
    /* The workers of all MPI ranks, of the run's method (team_gpu: the gpu one), and each
     * one's share of the last pass. */
    struct md_team team;
    bool team_gpu;
    struct md_stats *stats;
    bool have_dev;
    unsigned warmup_passes;   /* of every case, as the run loop runs them */
    unsigned timed_passes_least; /* the timed passes of a case, at least (--reps) */
    /* The check (issue 36): the chunks of the last pass that the CPU twin did not compute
     * itself (all of a GPU case; under MPI, the CPU twin's on other ranks), recorded on rank 0. */
    const struct collatz_twin *twin;
    uint64_t check_budget;    /* numbers a --verify sample recomputes at least (the sample before
                               * issue 36, of a fresh pass) */
    struct collatz_chunks chunks;
    /* The case in hand. */
    bool gpu;
    unsigned seg_bits;        /* its chunks end on multiples of 2^seg_bits */
    bool have_ref;            /* pass 1 is kept as the reference of the later passes */
    unsigned differing_pass;  /* the first pass whose totals differ from pass 1 (0: none) */
    double overflow_ms;       /* settling overflows with GMP, over the timed passes */
    unsigned timed_passes;
};

/* The cases of the run: gpu then cpu, as --method chose, each over the part of the range a
 * resumed checkpoint left. Returns their number. */
size_t collatz_bench_cases(const struct collatz_bench *cb, const struct collatz_methods *m,
                           struct bench_case *out);
/* case->data of a GPU case is non-NULL. */
static inline bool collatz_case_gpu(const struct bench_case *c)
{
    return c->data != NULL;
}

/* Opens one device state per --devices entry, each on its GPU and a stream of its own (list_cap,
 * cand_cap as mpgpu_collatz_create), and closes them; the caller's thread is left on the first
 * GPU. With
 * tables in shared memory, a GPU whose blocks cannot hold B and C (and J, with_ops) of bc_bits
 * is refused (exit 2). */
void collatz_devices_open(struct collatz_bench *cb, size_t list_cap, size_t cand_cap,
                          mpgpu_collatz_table_memory memory, unsigned bc_bits, bool with_ops);
/* Exits as the GPU's failure of a library call (st, not MPGPU_OK) says: the CUDA call and error
 * that failed (what, when the library names none). */
_Noreturn void collatz_gpu_fail(mpgpu_status st, const char *what);
/* D(n) by plain iteration at any length: 0, or -1 when it runs away (mpgpu_collatz_settle_delay). */
int collatz_plain_delay_of(uint64_t n, uint32_t *delay);
void collatz_devices_close(struct collatz_bench *cb);
/* Refuses (exit 2) before the tables are built when a copy of `need` bytes per entry does not
 * fit in the free memory of each GPU of --devices (what: the tables, for the message). */
void collatz_devices_check_memory(const struct collatz_bench *cb, uint64_t need, const char *what);
/* Selects worker w's GPU on the calling thread: the begin() of the passes' chunk ops. */
void collatz_worker_begin(const struct collatz_bench *cb, size_t worker);
/* The number among all ranks' workers of this process's worker w, in the case in hand: what a
 * chunk's result carries to rank 0, for the check. */
uint32_t collatz_worker_id(const struct collatz_bench *cb, size_t worker);
/* Whether a worker number from another rank's bytes is one of the case's workers. */
bool collatz_worker_known(const struct collatz_bench *cb, uint32_t worker);
/* The devices of the case's workers, for the CSV row: "0/0" for --devices 0,0, "host" for the
 * CPU twin, rank by rank under MPI (md_team_format). */
void collatz_devices_format(const struct collatz_bench *cb, char *out, size_t len);
/* With more than one worker, one summary line per worker: its rank and GPU (or CPU), its
 * numbers and its rate. */
void collatz_report_devices(const struct collatz_bench *cb, FILE *out);
/* A rank other than 0 runs the chunks rank 0 hands it (ops, on ctx) until the run ends. */
void collatz_follow(struct collatz_bench *cb, const struct md_chunk_ops *ops, void *ctx);
/* What follows the checkpoint and the devices in both subcommands: a rank other than 0 builds
 * the tables (build_tables(ctx, gpu)) and follows rank 0 (collatz_follow); rank 0 opens the run
 * loop (one pass when checkpointed: the checkpoint follows it), builds the tables, and runs the
 * cases of --method through `ops`, unless the resumed checkpoint has finished the whole range,
 * which it says. Returns the run loop's status (0 on the other ranks), or, when the checkpoint
 * of the whole range could not be saved (collatz_checkpoint_keep), says so after the row and
 * returns EXIT_BAD_INPUT unless the status is already worse. */
int collatz_run(struct collatz_bench *cb, const struct collatz_methods *m,
                void (*build_tables)(void *ctx, bool gpu), const struct bench_ops *ops,
                const struct md_chunk_ops *chunk_ops, void *ctx);

/* Frees what collatz_setup allocated. */
void collatz_bench_free(struct collatz_bench *cb);

/* Starts a case: no reference pass yet, no overflow time. */
void collatz_case_begin(struct collatz_bench *cb, const struct bench_case *c);

/* The loop's pass for both subcommands: a label, then the case's range in segments that end on
 * multiples of 2^seg_bits (so that each S entry gets whole runs), handed out by md_schedule to
 * the team's workers (one for the CPU twin of --method all), with progress on stderr and the
 * wall-clock time in *ms. ops->commit merges, checks, records (collatz_chunk_record: the
 * records of the pass before are forgotten) and checkpoints a segment, in range order. Returns
 * 0, or BENCH_STOPPED after saying exactly what finished. */
int collatz_timed_pass(struct collatz_bench *cb, struct bench_case *c, unsigned pass_index, bool warmup,
                       unsigned seg_bits, const struct md_chunk_ops *ops, void *ctx, double *ms);

/* After a finished pass: counts its overflow time when timed, and returns true when it is the
 * first pass, which the caller keeps as the reference; otherwise same_as_ref() decides whether
 * it differs from it, and the first that does is remembered. */
bool collatz_pass_end(struct collatz_bench *cb, unsigned pass_index, bool warmup, double overflow_ms,
                      bool (*same_as_ref)(void *ctx), void *ctx);

/* Overflow time per timed pass, in ms. */
double collatz_overflow_ms_per_pass(const struct collatz_bench *cb);

/* A committed chunk of the pass, before it is merged: whether the test hook spoils it, as a
 * faulty GPU would (MPGPU_TEST_SPOIL=<command>-chunk:N, N counting the chunks that the pass
 * records for the check, from 0). */
bool collatz_chunk_spoiled(const struct collatz_bench *cb, uint32_t worker);
/* Then its result (cb->twin->result_size bytes) is recorded for the check, when the CPU twin did
 * not compute it itself. Exits 2 when host memory is short. */
void collatz_chunk_record(struct collatz_bench *cb, uint64_t first, uint64_t last, uint32_t worker,
                          const void *result);

/* The run loop's check of both subcommands (bench_ops), ctx being a state that begins with a
 * struct collatz_bench: the elements are the recorded chunks (collatz_chunks_order), and the
 * sample takes at least cb->check_budget numbers' worth and at least one chunk of every worker;
 * each is recomputed by cb->twin and compared, and the first chunk of each worker that differs is
 * described on stderr. A check predicted to take long says so first. The case as a whole: a pass
 * that differed from pass 1 is a mismatch, naming it. */
int collatz_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec);
enum bench_ref collatz_check_reference(const void *ctx, const struct bench_case *c, uint64_t i,
                                       void *scratch);
bool collatz_check_compare(const void *ctx, const struct bench_case *c, uint64_t i, const void *scratch);
void collatz_check_name(const void *ctx, const struct bench_case *c, uint64_t i, char *out, size_t len);
void collatz_check_end(void *ctx, struct bench_case *c, struct bench_check *out);
/* The summary line of the check: the chunks checked of each worker's, and those that differed. */
void collatz_report_checked(const struct collatz_bench *cb, FILE *out);

/* Checks, before any work, that --checkpoint FILE can be written where and as the run will
 * write it (a temporary file beside it, renamed over it): exits 2 naming what is wrong with the
 * path (a directory, a missing or unwritable folder, a name too long) otherwise. */
void collatz_checkpoint_prepare(const char *path);

/* Reads --checkpoint FILE: returns true when it holds a state of `command` with these
 * parameters, and then sets the range's start to the checkpoint's (a --start that differs is an
 * error). Exits 2 with the reason when the file is corrupt, belongs to another run, or the path
 * cannot be read. After the range is resolved, collatz_checkpoint_check tells whether it fits
 * the range: its finished prefix, and every total and record (a field that cannot be a state
 * of the range is named, and the run refused, exit 2). */
bool collatz_checkpoint_load(const char *path, const char *command, const char *params,
                             struct collatz_range_args *r, struct checkpoint *ck);
void collatz_checkpoint_check(const char *path, const struct checkpoint *ck, uint64_t count);

/* --checkpoint FILE's argument: an empty one is refused (exit 2). */
const char *collatz_checkpoint_option(const char *arg);

/* Writes the checkpoint after a committed chunk. When it cannot be saved, says why and exits 2,
 * as the run's progress would no longer be kept; but when ck finishes the whole range, the run's
 * results are complete: the reason is kept in cb->save_failed, and collatz_run says it (and
 * exits non-zero) after the row. */
void collatz_checkpoint_keep(struct collatz_bench *cb, const struct checkpoint *ck);

/* The message of an interrupted run: the exact finished prefix. */
void collatz_report_interrupted(const char *command, uint64_t first, uint64_t done, const char *checkpoint);

#endif
