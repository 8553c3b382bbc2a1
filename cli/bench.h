/* The one run loop every subcommand uses: for each case (one method at one size) the warm-up
 * passes, the timed repetitions (median, min, max), Ctrl-C between and inside passes, the check
 * against the reference, the table row, the CSV row and the closing summary. A subcommand
 * supplies only what differs, through struct bench_ops: preparing a case, running one pass,
 * checking its results and describing its parameters (nvbench's benchmark/state split). */
#ifndef MPGPU_BENCH_H
#define MPGPU_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "json_report.h"
#include "report.h"
#include "stats.h"

/* What pass() returns besides 0 and an EXIT_* status: Ctrl-C stopped the pass part-way. */
#define BENCH_STOPPED (-1)

/* One measured case. The subcommand fills the first block; the loop fills the results. */
struct bench_case {
    const char *method;
    unsigned bits;               /* 0 where the subcommand has no operand size */
    uint64_t count;              /* problems one pass solves */
    const char *throughput_unit; /* what count counts: "products", "numbers", ... */
    const char *timed_region;    /* "kernels", "kernels+transfers", "cpu", "pass" */
    int cpu_threads;             /* 0 for GPU cases */
    void *data;                  /* the subcommand's own state for this case */
    /* Results, filled by bench_run. */
    bool done;                   /* timed and checked (not interrupted) */
    double median_ms, min_ms, max_ms;
    struct sample_stats stats;   /* the samples' noise and number too (cli/stats.h) */
};

/* Result of a check against the reference (GMP or the CPU twin). */
struct bench_check {
    const char *verify_mode;     /* "all", "sample", "none" or "reference" (the case is one) */
    uint64_t checked, mismatches;
    uint64_t fallbacks;          /* elements the reference itself answered: not GPU results, not checked */
    const char *reference;       /* what computed the expected values */
    const char *element;         /* what one checked result is: "product", "chunk", ... */
    char first_bad[160];         /* where it first differs, e.g. "first bad product 17" */
};

/* What reference() found for an element. */
enum bench_ref {
    BENCH_REF_READY,     /* the expected value is in scratch: compare() judges the element */
    BENCH_REF_FALLBACK,  /* the run answered the element with the reference itself (gcd's GMP
                          * fallback): no GPU result, so not checked, but counted apart */
    BENCH_REF_NO_MEMORY, /* the reference could not be had */
};

/* Spread samples look at about this many elements (--verify sample), unless a subcommand
 * asks for fewer because each costs much more than one product (a chunk of a range). */
#define BENCH_SAMPLE_ELEMENTS 1000u

/* What a case's results are, for the check: the loop picks which elements to look at (every one
 * with --verify all; with sample, 0, stride, 2 stride, ... and the last, about `sample` of them;
 * none with none) and runs them on the CPU in parallel, with progress and Ctrl-C. */
struct bench_check_spec {
    uint64_t elements;           /* results that can be checked; 0: the case is a reference */
    const char *element;         /* what one is, for messages: "product", "pair", "chunk", ... */
    const char *element_plural;  /* where it is not element + "s" ("moduli"); else NULL */
    const char *reference;       /* what computes the expected value: "GMP", "the CPU twin" */
    size_t scratch_bytes;        /* for the reference of one element, per checking thread */
    int threads;                 /* CPU threads for the check, >= 1 */
    uint64_t sample;             /* elements of a spread sample; 0: BENCH_SAMPLE_ELEMENTS */
};

/* What the check's progress counts, the plural of spec->element ("pairs", "moduli"), into unit. */
void bench_check_unit(const struct bench_check_spec *spec, char *unit, size_t len);

struct bench_ops {
    /* Before the first pass of a case: buffers, uploads. Returns 0, BENCH_STOPPED (Ctrl-C in a
     * long preparation) or an EXIT_* status. */
    int (*setup)(void *ctx, struct bench_case *c);
    /* One pass (pass_index counts the warm-up passes first); sets *ms to its time, measured
     * with CUDA events around the kernels or with the monotonic clock. Returns 0,
     * BENCH_STOPPED, or an EXIT_* status. */
    int (*pass)(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms);
    /* After the last pass, before the check: brings the results to the host and says what
     * they are (spec starts zeroed, threads 1). Returns 0 or an EXIT_* status. */
    int (*check_begin)(void *ctx, struct bench_case *c, struct bench_check_spec *spec);
    /* The reference of element i into scratch (spec.scratch_bytes of the calling thread's own),
     * computed from the host's own copy of the inputs, never from what the device holds.
     * Called from several threads at once, for distinct i. A long one may stop early on Ctrl-C
     * (interrupt_requested()): the loop then judges nothing of it. */
    enum bench_ref (*reference)(const void *ctx, const struct bench_case *c, uint64_t i,
                                void *scratch);
    /* Whether element i of the results equals the reference in scratch. Thread-safe as above. */
    bool (*compare)(const void *ctx, const struct bench_case *c, uint64_t i, const void *scratch);
    /* Optional: names element i in the mismatch message ("pair 17", "chunk [a, b] on GPU 1");
     * default "<element> <i>". */
    void (*name_element)(const void *ctx, const struct bench_case *c, uint64_t i, char *out,
                         size_t len);
    /* Optional: after the elements (also with --verify none): checks of the case as a whole
     * (operands unchanged, passes that agree), each adding to out->mismatches with its own
     * message in out->first_bad; and what follows a good check (writing --output). */
    void (*check_end)(void *ctx, struct bench_case *c, struct bench_check *out);
    /* The row's params column, "key=value;key=value". */
    void (*describe)(void *ctx, const struct bench_case *c, char *params, size_t len);
    /* Optional: '#' lines after the case's row (on the table's stream). */
    void (*summary)(void *ctx, const struct bench_case *c, FILE *out);
    /* Optional: after the case, also after an interrupted one. */
    void (*teardown)(void *ctx, struct bench_case *c);
};

struct bench {
    const char *subcommand;
    const struct cli_common *opt;   /* opt->verify picks the elements the check looks at */
    unsigned warmup, reps;       /* the passes of every case: opt's, unless the subcommand sets them */
    uint64_t seed;               /* written into rows: opt's seed, 0 for inputs from a file */
    struct run_env env;
    FILE *table;                 /* stdout, or stderr when the CSV goes to stdout; NULL with --quiet */
    FILE *csv;                   /* opened by bench_open; NULL without --csv */
    int csv_schema;              /* the schema of the rows the CSV file takes (cli/report.h) */
    bool csv_is_stdout;
    struct json_report *json;    /* opened by bench_open; NULL without --json */
    bool interrupted;
    bool output_failed;          /* a row could not be written (a reader gone, a full disk): stop */
    int exit_status;             /* the worst so far: EXIT_MISMATCH, ..., 0 */
};

/* Opens every output the loop writes (the CSV, "-" meaning stdout) before any work, exiting 2
 * naming the path when one cannot be written; collects the run's environment; installs the
 * Ctrl-C handler. Then, where no_gpu (the reason there is no GPU, as gpu_open gives it) is not
 * NULL, says "mpgpu: <no_gpu>; <instead>" on stderr, instead saying what the run does without
 * one: so in every subcommand a bad output path is refused alone (exit 2) before "no GPU" (exit
 * 3 where nothing can run) is said. */
void bench_open(struct bench *b, const char *subcommand, const struct cli_common *opt, bool have_gpu,
                int device, const char *no_gpu, const char *instead);

/* Runs the cases in order, stopping at Ctrl-C. Each case is repeated b->reps times, or with
 * --min-time or --max-noise as cli/stats.h's stop_rule says, reps being the least; a subcommand
 * that set reps itself after bench_open (collatz's checkpointed pass) gets exactly reps. Returns the exit status of the whole run
 * (EXIT_INTERRUPTED when stopped) after the closing summary, and closes the CSV. */
int bench_run(struct bench *b, const struct bench_ops *ops, void *ctx, struct bench_case *cases,
              size_t n_cases);

/* Whether a spread sample of `sample` (0: BENCH_SAMPLE_ELEMENTS) out of `elements` takes element
 * i, as the check picks them: 0, stride, 2 stride, ... and the last. For a subcommand that orders
 * its elements so that the sample covers what it must (collatz: every worker). */
bool bench_sample_takes(uint64_t i, uint64_t elements, uint64_t sample);

/* stderr progress lines are wanted: not --quiet. */
bool bench_talk(const struct bench *b);

#endif
