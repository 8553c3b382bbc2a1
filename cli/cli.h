/* Command-line parsing shared by every subcommand: the common options keep one name and one
 * meaning everywhere; a subcommand adds its own options through `struct cli_option`. */
#ifndef MPGPU_CLI_H
#define MPGPU_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
    EXIT_MISMATCH = 1,  /* a GPU result differs from GMP */
    EXIT_BAD_INPUT = 2, /* bad command line or input file */
    EXIT_GPU_ERROR = 3, /* a CUDA call failed */
    EXIT_INTERRUPTED = 130,
};

enum verify_mode { VERIFY_ALL, VERIFY_SAMPLE, VERIFY_NONE };

/* Common options; a subcommand accepts the subset named in its cli_spec.common mask. */
enum {
    OPT_COUNT = 1 << 0,
    OPT_BITS = 1 << 1,
    OPT_METHOD = 1 << 2,
    OPT_REPS = 1 << 3,
    OPT_WARMUP = 1 << 4,
    OPT_SEED = 1 << 5,
    OPT_DEVICE = 1 << 6,
    OPT_THREADS = 1 << 7,
    OPT_CSV = 1 << 8,
    OPT_VERIFY = 1 << 9,
    OPT_INCLUDE_TRANSFERS = 1 << 10,
    OPT_QUIET = 1 << 11,
    OPT_ALL_COMMON = (1 << 12) - 1,
    /* Only where a subcommand times its kernels through time_gpu_region (cli/timing.h). */
    OPT_INCLUDE_LAUNCH = 1 << 12,
    /* How long to repeat and what to report: taken by every subcommand that takes --reps. */
    OPT_MIN_TIME = 1 << 13,
    OPT_MAX_NOISE = 1 << 14,
    OPT_JSON = 1 << 15,
    OPT_MARKDOWN = 1 << 16,
    OPT_WITH_REPS = OPT_MIN_TIME | OPT_MAX_NOISE | OPT_JSON | OPT_MARKDOWN,
};

/* What --min-time and --max-noise accept: seconds and percent, 0 meaning not asked for. */
#define CLI_MIN_TIME_MAX_S 3600.0
#define CLI_MAX_NOISE_MAX_PCT 100.0

#define CLI_MAX_METHODS 64
#define CLI_MAX_SIZES 64
/* What --count accepts, 1..CLI_COUNT_MAX, here so that a subcommand parsing a list of counts
 * (tune) accepts what the common option does. */
#define CLI_COUNT_MAX (UINT64_C(1) << 40)
/* What --bits accepts where a subcommand has no size rule of its own (1..CLI_BITS_MAX), and the
 * widest number such a subcommand reads from --input. */
#define CLI_BITS_MAX (1u << 30)

struct cli_common {
    uint64_t count;
    bool count_set;
    unsigned bits; /* bits_list[0] */
    bool bits_set;
    /* --bits as given (a comma list, repeatable: a sweep), each item checked against the
     * subcommand's size rule; without --bits the one default size. n_bits >= 1. */
    unsigned bits_list[CLI_MAX_SIZES];
    size_t n_bits;
    const char *methods[CLI_MAX_METHODS]; /* as given; "all" expanded by the subcommand */
    size_t n_methods;
    unsigned reps;
    unsigned warmup;
    uint64_t seed;
    int device;
    int threads;
    const char *csv_path;
    enum verify_mode verify;
    bool include_transfers;
    bool include_launch;
    bool quiet;
    double min_time_s;    /* --min-time, 0: none (cli/stats.h has the rule) */
    double max_noise_pct; /* --max-noise, 0: none */
    const char *json_path;
    bool markdown;
    /* The command line from the subcommand's name on, as the --json file records it. */
    int argc;
    char **argv;
};

/* A subcommand's own option. id must be >= 1000 so it cannot clash with the common ones. */
struct cli_option {
    const char *name;
    const char *arg_name; /* NULL: takes no argument */
    int id;
    const char *help;
};

struct cli_spec {
    const char *command;     /* e.g. "mul" */
    const char *usage;       /* e.g. "mpgpu mul [options]" */
    const char *description; /* a paragraph printed by --help */
    unsigned common;         /* OPT_* mask */
    /* What --bits accepts: a multiple of bits_multiple in bits_min..bits_max. All 0: no rule of
     * the subcommand's own, any size in 1..2^30. */
    unsigned bits_min, bits_max, bits_multiple;
    /* What --help says --bits accepts, where the subcommand checks the sizes itself (fixed: the
     * precisions built); NULL: the rule above. */
    const char *bits_accepted;
    /* What runs without --bits, as its help says it; NULL: "1024" (bits_list[0] then). */
    const char *bits_default;
    /* What runs without --count, as its help says it; NULL: "10240" (the count then). */
    const char *count_default;
    const struct cli_option *options; /* terminated by a zero entry, or NULL */
    /* Called for each subcommand option; returns 0, or exits through cli_bad_input. */
    int (*handle)(int id, const char *arg, void *ctx);
    void *ctx;
    /* --verify: its default (VERIFY_ALL unless set), and its help: what a result is checked
     * against and what a sample is; NULL: every result against GMP, a sample of about 1000. */
    enum verify_mode verify_default;
    const char *verify_help;
    const char *threads_help; /* --threads where it is not the CPU baseline's (NULL: it is) */
    const char *methods_help; /* appended to --help: the methods and what they are */
    const char *examples;     /* appended to --help */
};

/* Defaults: count 10240, bits 1024, reps 10, warmup 2, seed 1, device 0, threads 1,
 * verify spec->verify_default. Parses argv (argv[0] is the subcommand name); prints help and
 * exits 0 on --help. Options are taken by their whole names only, as --NAME VALUE or
 * --NAME=VALUE; an unknown or abbreviated one, or a value given to an option that takes none,
 * is bad input. */
void cli_parse(int argc, char **argv, const struct cli_spec *spec, struct cli_common *out);

/* One line "mpgpu: <message>" on stderr. A %s value longer than 64 characters (an argument of
 * 100 kB, a token of an input file) is cut to its first 64 and "...", so the line stays one to
 * read; every message of the command line goes through here or cli_bad_input. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error's line, then exit(EXIT_BAD_INPUT). */
_Noreturn void cli_bad_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* On an MPI rank other than 0 (set once the ranks are known): bad input exits without a word,
 * since every rank parses the same command line and rank 0 says it once. */
void cli_bad_input_quiet(bool quiet);

/* The notations of numbers, as messages name them. */
#define CLI_NUMBER_NOTATIONS "decimal, 2^N, 10^N, either minus one, or 0x hex"

/* Number parsing: the whole argument must be a number in [min, max], else cli_bad_input naming
 * the option, the value and the range ("is not a number", or "is out of range" for a number
 * outside it, 2^64 and beyond included). Accepts decimal (leading zeros do not make it octal),
 * 0x hex, 2^N and 10^N, and those two minus one (2^64-1, as cli_format_bound prints bounds). */
uint64_t cli_parse_u64(const char *option, const char *arg, uint64_t min, uint64_t max);

/* A real amount in [0, max] (seconds, percent, words): a decimal with an optional fraction and
 * exponent (0.5, 1e2), or an integer in cli_parse_u64's notations (2^4, 10^3, 0x10); else
 * cli_bad_input "<option> '<arg>' is not a number; accepted: <unit> in 0..<max> (...)" or "...
 * is out of range; accepted: <unit> in 0..<max>", each followed by " (<note>)" where note is not
 * NULL ("0: off"). */
double cli_parse_real(const char *option, const char *arg, double max, const char *unit,
                      const char *note);

/* The end of a range that may run to the end of the 64-bit numbers: a number in [min, 2^64] as
 * cli_parse_u64 reads it (2^64 as 0x10000000000000000 or 18446744073709551616 too), else
 * cli_bad_input "... accepted: <min>..2^64". Returns it minus one, so that 2^64 fits. */
uint64_t cli_parse_end(const char *option, const char *arg, uint64_t min);

/* A range bound as it reads best in messages: decimal up to 65536 (operand sizes read as such),
 * above it powers of two as 2^N and one below them as 2^N-1 (--count 1..2^40, --seed
 * 0..2^64-1). Returns out. */
const char *cli_format_bound(char out[24], uint64_t v);

/* One operand size: a number that is a multiple of `multiple` (>= 1) in [min, max], else
 * cli_bad_input "<option> <arg> is not accepted; accepted: a multiple of <multiple> in
 * <min>..<max>". For --bits items and lists of sizes of a subcommand's own. */
unsigned cli_parse_size(const char *option, const char *arg, unsigned min, unsigned max,
                        unsigned multiple);

/* A comma list must have no empty item ("", ",", "a,,b", "a,"): else cli_bad_input
 * "<option> '<arg>' is not accepted: it has an empty item; accepted: <accepted>". */
void cli_check_list(const char *option, const char *arg, const char *accepted);

/* The first of --reps other than 1, --warmup other than 0, --min-time and --max-noise that asks for
 * more than one pass ("--reps"), or NULL: for runs that are one pass (a checkpoint's). */
const char *cli_repeat_option(const struct cli_common *opt);

/* An option that takes one value, given a second time: refused, "<option> given twice ('<first>',
 * then '<again>'); accepted: once", where the last would silently have won (--csv a --csv b wrote
 * no a; compare --threshold 1 --threshold 50 loosened a gate). Lists (--bits, --method, ...) and
 * flags may repeat. */
_Noreturn void cli_refuse_repeat(const char *option, const char *first, const char *again);

/* A comma list of numbers (--bits, ctt-vs-ctw's --words, tune's --count): cli_check_list, then
 * each item read as cli_parse_size reads it (multiple > 0) or cli_parse_u64 (multiple 0), in
 * min..max, and added to the values that the option's earlier occurrences gave. A value given
 * twice counts once, as a method named twice does: its rows would be duplicates. More than
 * capacity values: cli_bad_input "<option>: more than <capacity> <noun> given; accepted: at most
 * <capacity>". */
struct cli_number_list {
    const char *option;   /* "--bits" */
    const char *accepted; /* what cli_check_list's message says is accepted */
    const char *noun;     /* "sizes" */
    uint64_t min, max;
    unsigned multiple;
    void *values;         /* unsigned or uint64_t, value_size bytes each */
    size_t value_size;
    size_t *n;
    size_t capacity;
};
void cli_add_number_list(const struct cli_number_list *l, const char *list);

/* True when --NAME was given on the command line (to tell a default from a choice). cli_parse
 * takes options by their whole names only (an abbreviation is an unknown option), so the whole
 * name is the one way an option can have been given. */
bool cli_option_given(int argc, char **argv, const char *name);

/* "--method A[,B...]", the methods as given, each once, into buf (for cli_refuse_options' MODE),
 * or without --method "the default methods (DEFAULTS)", DEFAULTS a comma list; returns how many,
 * for "which runs" or "which run". */
size_t cli_methods_text(const struct cli_common *opt, const char *defaults, char *buf, size_t len);

/* The options of a run that prints and exits (toom --count-ops, gcd --make-moduli, collatz
 * --tables, fixed --resources) that it would not use: the first of `names` (long names without
 * "--", NULL-ended) given is refused, "--NAME is not accepted with MODE, WHY", so that none (an
 * output above all) is taken and dropped without a word. */
void cli_refuse_options(int argc, char **argv, const char *const *names, const char *mode,
                        const char *why);

/* Prints help text, each line wrapped at 80 columns; a continuation line hangs under the
 * line's second column ("  name      summary ...") or four columns in from its indent. */
void cli_print_wrapped(FILE *f, const char *text);


#endif
