/* mpgpu toom: bulk Toom-k multiplication on sum-rotate, k = 2..9, against Comba and GMP
 * (000 section 3.3.2, Fig. 3.5), and 000 Table 3.2's operation counts on a CPU model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "gpu.h"
#include "interrupt.h"
#include "mpgpu.h"
#include "bench.h"
#include "mul_bench.h"
#include "report.h"
#include "toom_opcount.h"

#define TOOM_MAX_BITS 65536u
/* The Comba line of 000 Fig. 3.5: Comba over 1024-bit sum-rotate blocks, exchange by shuffles. */
#define COMBA_METHOD "sumrotate-shuffle"

enum { OPT_K = 1000, OPT_COUNT_OPS, OPT_NO_COMBA, OPT_GMP };

/* Room for the k of --k: libmpgpu builds 2..9 (mpgpu_toom_k_min, _k_max). */
#define TOOM_K_LIMIT 31u

struct toom_args {
    bool k_selected[TOOM_K_LIMIT + 1];
    bool k_given;
    bool count_ops, no_comba, gmp;
};

static void parse_k_list(struct toom_args *t, const char *arg)
{
    const unsigned k_min = mpgpu_toom_k_min(), k_max = mpgpu_toom_k_max();
    char accepted[64];
    snprintf(accepted, sizeof accepted, "%u..%u, a comma list of them, or all", k_min, k_max);
    cli_check_list("--k", arg, accepted);
    char *copy = strdup(arg);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!strcmp(tok, "all")) {
            for (unsigned k = k_min; k <= k_max; k++)
                t->k_selected[k] = true;
            continue;
        }
        char *end;
        long k = strtol(tok, &end, 10);
        if (*end || end == tok || k < (long)k_min || k > (long)k_max)
            cli_bad_input("--k '%s' is not accepted; accepted: %s", tok, accepted);
        t->k_selected[k] = true;
    }
    free(copy);
    t->k_given = true;
}

static int toom_handle(int id, const char *arg, void *ctx)
{
    struct toom_args *t = ctx;
    if (id == OPT_K)
        parse_k_list(t, arg);
    else if (id == OPT_COUNT_OPS)
        t->count_ops = true;
    else if (id == OPT_NO_COMBA)
        t->no_comba = true;
    else if (id == OPT_GMP)
        t->gmp = true;
    return 0;
}

static const struct cli_option toom_options[] = {
    {"k", "K[,K...]|all", OPT_K, "Toom-k to run: 2..9, a comma list, or all (default all)"},
    {"no-comba", NULL, OPT_NO_COMBA, "leave out the Comba line (" COMBA_METHOD ", 000 Fig. 3.5)"},
    {"gmp", NULL, OPT_GMP, "also time GMP mpn_mul_n on --threads threads (the papers' baseline)"},
    {"count-ops", NULL, OPT_COUNT_OPS, "print 000 Table 3.2: word multiplications, memory reads and writes of School, Comba and Toom-2..9 at --bits on a CPU model, next to the paper's formulas; runs no GPU"},
    {0},
};

static void print_count_ops(unsigned words, uint64_t seed)
{
    struct opcount_row rows[OPCOUNT_ROWS];
    if (opcount_table(words, seed, rows) != 0)
        cli_bad_input("--count-ops at %u bits: the model needs more host memory than is free",
                      words * 32);
    printf("# 000 Table 3.2 at w = %u words (%u bits): one product of seeded random operands on "
           "the CPU model\n# (cpu_ref/toom_ref.c follows the GPU steps; sub-products are counted "
           "as Comba, as the paper does).\n", words, words * 32);
    printf("%-8s %12s %12s %12s %12s | %12s %12s | %10s %10s | %10s %10s | %s\n", "method",
           "word-mults", "const-mults", "mults", "paper", "reads", "paper", "writes", "paper",
           "transp-rd", "transp-wr", "product");
    bool all_ok = true;
    for (unsigned r = 0; r < OPCOUNT_ROWS; r++) {
        const struct opcount_row *x = &rows[r];
        const struct toom_op_counts *o = &x->ours;
        printf("%-8s %12llu %12llu %12llu %12.0f | %12llu %12.0f | %10llu %10.0f | %10llu %10llu | %s\n",
               x->method, (unsigned long long)o->word_mults, (unsigned long long)o->const_mults,
               (unsigned long long)(o->word_mults + o->const_mults), x->paper_mults,
               (unsigned long long)o->reads, x->paper_reads, (unsigned long long)o->writes,
               x->paper_writes, (unsigned long long)o->transpose_reads,
               (unsigned long long)o->transpose_writes, x->product_ok ? "= GMP" : "DIFFERS FROM GMP");
        all_ok = all_ok && x->product_ok;
    }
    printf("\npaper formulas (000 Table 3.2, as printed):\n");
    for (unsigned r = 0; r < OPCOUNT_ROWS; r++)
        printf("  %-8s mults %-28s reads %-30s writes %s\n", rows[r].method,
               opcount_paper_formula(r, 0), opcount_paper_formula(r, 1), opcount_paper_formula(r, 2));
    if (!all_ok) {
        fprintf(stderr, "mpgpu: toom --count-ops: a model product differs from GMP\n");
        exit(EXIT_MISMATCH);
    }
}

int cmd_toom(int argc, char **argv)
{
    const unsigned k_min = mpgpu_toom_k_min(), k_most = mpgpu_toom_k_max();
    if (k_most > TOOM_K_LIMIT) {
        fprintf(stderr, "mpgpu: libmpgpu builds Toom-k up to k = %u, more than the %u mpgpu was "
                        "built for\n", k_most, TOOM_K_LIMIT);
        return EXIT_GPU_ERROR;
    }
    struct mul_bench r;
    struct toom_args t = {0};
    memset(&r, 0, sizeof r);
    const struct cli_spec spec = {
        .command = "toom",
        .usage = "mpgpu toom [--k K,...|all] [--bits B] [--count N] [options]\n"
                 "       mpgpu toom --count-ops [--bits B]",
        .description =
            "Computes --count independent full products of two --bits-bit operands with Toom-k\n"
            "on the GPU (000 section 3.3.2: 2k-1 warps per product each compute one point\n"
            "product with sum-rotate, then one thread per product interpolates and recombines),\n"
            "next to the Comba line of 000 Fig. 3.5, checks every product against GMP (see\n"
            "--verify), and reports kernel time and products per second. B is a multiple of 32\n"
            "up to 65536, with at least one 32-bit word per piece: B >= 32 k.\n"
            "With --count-ops: 000 Table 3.2 on a CPU model instead (no GPU needed).",
        .common = (OPT_ALL_COMMON & ~OPT_METHOD) | OPT_INCLUDE_LAUNCH,
        .bits_min = 32 * k_min,
        .bits_max = TOOM_MAX_BITS,
        .bits_multiple = 32,
        .options = toom_options,
        .handle = toom_handle,
        .ctx = &t,
        .examples = "  mpgpu toom --bits 65536 --count 10240\n"
                    "  mpgpu toom --k 2,4,8 --bits 32768 --count 2^14 --gmp --threads 0\n"
                    "  mpgpu toom --count-ops --bits 4096\n",
    };
    cli_parse(argc, argv, &spec, &r.opt);
    if (!t.k_given)
        for (unsigned k = k_min; k <= k_most; k++)
            t.k_selected[k] = true;
    unsigned k_max = 0;
    for (unsigned k = k_min; k <= k_most; k++)
        if (t.k_selected[k])
            k_max = k;
    const unsigned bits = r.opt.bits;
    if (t.count_ops) {
        if (bits < 32 * k_most)
            cli_bad_input("--bits %u is too small for --count-ops, which runs Toom-%u: %u pieces of "
                          "at least one word need %u bits; accepted: a multiple of 32 in %u..%u",
                          bits, k_most, k_most, 32 * k_most, 32 * k_most, TOOM_MAX_BITS);
        if (r.opt.csv_path)
            cli_bad_input("--csv is not accepted with --count-ops, which prints a table of counts");
        print_count_ops(bits / 32, r.opt.seed);
        return 0;
    }
    r.count = r.opt.count;

    const size_t per_size = k_most + 2; /* the Comba line, each k, and gmp */
    struct bench_case *cases = malloc(CLI_MAX_SIZES * per_size * sizeof *cases);
    if (!cases)
        cli_bad_input("toom: out of host memory");
    size_t n_cases = 0;
    for (size_t s = 0; s < r.opt.n_bits; s++) {
        const unsigned size = r.opt.bits_list[s];
        if (size < 32 * k_max)
            cli_bad_input("--bits %u is too small for Toom-%u: %u pieces of at least one word need %u "
                          "bits; accepted: a multiple of 32 in %u..%u", size, k_max, k_max, 32 * k_max,
                          32 * k_max, TOOM_MAX_BITS);
        const mpgpu_mul_method_info *chosen[TOOM_K_LIMIT + 1];
        size_t n_chosen = 0;
        if (!t.no_comba) {
            const mpgpu_mul_method_info *m = mul_bench_method_find(COMBA_METHOD);
            if (m && mul_bench_supports(m, size))
                chosen[n_chosen++] = m;
        }
        for (unsigned k = k_min; k <= k_most; k++) {
            if (!t.k_selected[k])
                continue;
            const char *name = "";
            const mpgpu_mul_method_info *m = NULL;
            if (mpgpu_toom_method(k, &name) == MPGPU_OK)
                m = mul_bench_method_find(name);
            if (!m || mpgpu_toom_check(k, size) != MPGPU_OK) /* the library and --bits agree */
                cli_bad_input("toom: method toom-%u is not available at %u bits", k, size);
            chosen[n_chosen++] = m;
        }
        n_cases += mul_bench_cases(&r, size, chosen, n_chosen, t.gmp, cases + n_cases, per_size);
    }
    mul_bench_check_host(&r, cases, n_cases);

    char why[256];
    if (!gpu_open(r.opt.device, why, sizeof why)) {
        fprintf(stderr, "mpgpu: %s; toom runs on the GPU (--count-ops runs without one)\n", why);
        free(cases);
        return EXIT_GPU_ERROR;
    }
    struct bench b;
    bench_open(&b, "toom", &r.opt, true, r.opt.device);
    int status = bench_run(&b, &mul_bench_ops, &r, cases, n_cases);
    mul_bench_free(&r);
    free(cases);
    return status;
}
