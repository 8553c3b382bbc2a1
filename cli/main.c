/* mpgpu: one binary, one subcommand per paper experiment (README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "mpgpu_version.h"
#include "mpi_ranks.h"
#include "output_file.h"

struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    bool ranks; /* runs over several MPI ranks (the others run in one process) */
};

static const struct subcommand subcommands[] = {
    {"mul", cmd_mul, "bulk full products A*B: every warp-synchronous method, against GMP (000 ch. 3, 001)", false},
    {"toom", cmd_toom, "bulk Toom-k products (k = 2..9) on sum-rotate, and Table 3.2 op counts (000 3.3.2)", false},
    {"tune", cmd_tune, "measure the fastest multiplication method per size; writes the table --method auto reads", false},
    {"collatz", cmd_collatz, "Collatz convergence of a range of 64-bit starting values, GPU and CPU twin (000 ch. 4)", true},
    {"delay", cmd_delay, "Collatz delays and delay records of a range, GPU and CPU twin (000 ch. 4)", true},
    {"fixed", cmd_fixed, "fixed-precision add, sub, mod add/sub, mul, Karatsuba, Montgomery reduction/mul, powm in straight-line code, against GMP (004)", false},
    {"ctt-vs-ctw", cmd_ctt_vs_ctw, "variable-length integer batches: one computation per thread vs per warp vs by length, against GMP (003)", false},
    {"gcd", cmd_gcd, "GCDs of big pairs by the modular integer GCD on one GPU, and GMP's mpz_gcd (002)", false},
    {"compare", cmd_compare, "two result files (CSV or --json), case by case: FAST, SLOW or SAME beyond the noise; exit 1 when a case is SLOW beyond --threshold", false},
};
#define N_SUBCOMMANDS (sizeof subcommands / sizeof subcommands[0])

/* To stdout when asked for, to stderr when no subcommand was given (then it is an error). */
static void print_help(FILE *f)
{
    cli_print_wrapped(f, "usage: mpgpu <subcommand> [options]\n"
                         "       mpgpu <subcommand> --help   (or: mpgpu help <subcommand>)\n"
                         "       mpgpu --version\n\n"
                         "Multiple-precision integer arithmetic on NVIDIA GPUs: reproduces the "
                         "experiments of five papers and checks every GPU result against GMP.\n\n"
                         "subcommands:\n");
    for (size_t i = 0; i < N_SUBCOMMANDS; i++) {
        char line[256];
        snprintf(line, sizeof line, "  %-12s %s", subcommands[i].name, subcommands[i].summary);
        cli_print_wrapped(f, line);
    }
    cli_print_wrapped(f, "\nExit status: 0 success, 1 a result differs from GMP, 2 bad input, "
                         "3 GPU error, 130 interrupted.\n");
}

/* The subcommand named name, or exit 2 naming every subcommand. */
static const struct subcommand *find_subcommand(const char *what, const char *name)
{
    for (size_t i = 0; i < N_SUBCOMMANDS; i++)
        if (!strcmp(name, subcommands[i].name))
            return &subcommands[i];
    char list[256];
    size_t len = 0;
    for (size_t i = 0; i < N_SUBCOMMANDS; i++)
        len += snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", subcommands[i].name);
    cli_bad_input("%s '%s'; accepted: %s", what, name, list);
}

int main(int argc, char **argv)
{
    output_guard_stdout();
    if (argc < 2) {
        print_help(stderr);
        return EXIT_BAD_INPUT;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "help") && argc > 2) {
        if (argc > 3)
            cli_bad_input("help: unexpected argument '%s'; accepted: mpgpu help <subcommand>", argv[3]);
        if (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
            print_help(stdout);
            return 0;
        }
        char *help_argv[] = {argv[2], "--help", NULL};
        return find_subcommand("help: unknown subcommand", argv[2])->run(2, help_argv);
    }
    const bool version = !strcmp(sub, "--version");
    if (version || !strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        if (argc > 2)
            cli_bad_input("%s: unexpected argument '%s'; accepted: mpgpu %s alone", sub, argv[2], sub);
        if (version)
            printf("mpgpu %s (commit %s)\n", MPGPU_VERSION, MPGPU_COMMIT);
        else
            print_help(stdout);
        return 0;
    }
    const struct subcommand *c = find_subcommand("unknown subcommand", sub);
    /* --help prints and exits at once: MPI, which wants every rank to end through
     * MPI_Finalize, is not started for it (under mpirun, each rank prints it). */
    bool help = false;
    for (int a = 2; a < argc; a++)
        help |= !strcmp(argv[a], "--help");
    if (!help)
        ranks_init(&argc, &argv);
    cli_bad_input_quiet(!ranks_lead());
    if (ranks_size() > 1 && !c->ranks) {
        cli_bad_input("%s runs in one process, not in %d MPI ranks; accepted under mpirun -np N (N > 1): "
                      "collatz, delay", sub, ranks_size());
    }
    const int status = ranks_finish(c->run(argc - 1, argv + 1));
    output_set_exit_status(status);
    return status;
}
