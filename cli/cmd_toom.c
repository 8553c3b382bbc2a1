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

enum { OPT_COUNT_OPS = 1000 };

/* Room for the k of Toom-k: libmpgpu builds 2..9 (mpgpu_toom_k_min, _k_max). */
#define TOOM_K_LIMIT 31u

/* What --method selects: the Comba line, each Toom-k, and GMP. */
struct toom_selection {
    bool comba, gmp;
    bool k[TOOM_K_LIMIT + 1];
    unsigned k_max;   /* the largest k selected, 0 if none */
    unsigned k_named; /* the largest k named by itself (toom-K): it must fit every --bits */
};

static int toom_handle(int id, const char *arg, void *ctx)
{
    (void)arg;
    if (id == OPT_COUNT_OPS)
        *(bool *)ctx = true; /* --count-ops */
    return 0;
}

static const struct cli_option toom_options[] = {
    {"count-ops", NULL, OPT_COUNT_OPS, "print 000 Table 3.2: word multiplications, memory reads and writes of School, Comba and Toom-2..9 at --bits on a CPU model, next to the paper's formulas; runs no GPU"},
    {0},
};

/* The k of a Toom-k method name as the library names it, or 0. */
static unsigned toom_k_of(const char *name)
{
    for (unsigned k = mpgpu_toom_k_min(); k <= mpgpu_toom_k_max(); k++) {
        const char *n = "";
        if (mpgpu_toom_method(k, &n) == MPGPU_OK && !strcmp(n, name))
            return k;
    }
    return 0;
}

/* --method's list, resolved before any work; without it, the lines of 000 Fig. 3.5: the Comba
 * line and every Toom-k (each at the sizes it fits). */
static struct toom_selection select_methods(const struct cli_common *opt)
{
    const unsigned k_min = mpgpu_toom_k_min(), k_most = mpgpu_toom_k_max();
    struct toom_selection sel = {.comba = !opt->n_methods};
    for (unsigned k = k_min; k <= k_most; k++)
        sel.k[k] = !opt->n_methods;
    for (size_t i = 0; i < opt->n_methods; i++) {
        const char *name = opt->methods[i];
        const unsigned k = toom_k_of(name);
        if (k) {
            sel.k[k] = true;
            sel.k_named = k > sel.k_named ? k : sel.k_named;
        } else if (!strcmp(name, COMBA_METHOD)) {
            sel.comba = true;
        } else if (!strcmp(name, "gmp")) {
            sel.gmp = true;
        } else if (!strcmp(name, "all")) {
            sel.comba = sel.gmp = true;
            for (unsigned j = k_min; j <= k_most; j++)
                sel.k[j] = true;
        } else {
            cli_bad_input("toom: unknown method '%s'; accepted: " COMBA_METHOD ", toom-%u..toom-%u, "
                          "gmp, all", name, k_min, k_most);
        }
    }
    for (unsigned k = k_min; k <= k_most; k++)
        if (sel.k[k])
            sel.k_max = k;
    return sel;
}

static char *methods_help(void)
{
    const mpgpu_mul_method_info *comba = mul_bench_method_find(COMBA_METHOD);
    size_t cap = 2048, len = 0;
    char *s = malloc(cap);
    if (!s)
        cli_bad_input("toom: out of host memory");
    char range[32];
    snprintf(range, sizeof range, "toom-%u..toom-%u", mpgpu_toom_k_min(), mpgpu_toom_k_max());
    len += snprintf(s + len, cap - len, "  %-30s %s; the Comba line of 000 Fig. 3.5\n", COMBA_METHOD,
                    comba ? comba->summary : "");
    len += snprintf(s + len, cap - len, "  %-30s %s\n", range,
                    "Toom-k: 2k-1 point products by sum-rotate warps, one thread interpolates (000 "
                    "section 3.3.2, Fig. 3.5)");
    len += snprintf(s + len, cap - len, "  %-30s %s\n", "gmp", MUL_BENCH_GMP_SUMMARY);
    snprintf(s + len, cap - len, "  %-30s %s\n", "all", "all of the above, each Toom-k at the sizes it fits");
    return s;
}

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
    memset(&r, 0, sizeof r);
    bool count_ops = false;
    char *mhelp = methods_help();
    const struct cli_spec spec = {
        .command = "toom",
        .usage = "mpgpu toom [--bits B] [--count N] [--method M,...] [options]\n"
                 "       mpgpu toom --count-ops [--bits B[,B...]] [--seed S]",
        .description =
            "Computes --count independent full products of two --bits-bit operands with Toom-k\n"
            "on the GPU (000 section 3.3.2: 2k-1 warps per product each compute one point\n"
            "product with sum-rotate, then one thread per product interpolates and recombines),\n"
            "next to the Comba line of 000 Fig. 3.5, checks every product against GMP (see\n"
            "--verify), and reports kernel time and products per second. B is a multiple of 32\n"
            "up to 65536, with at least one 32-bit word per piece: B >= 32 k. Without --method:\n"
            "the lines of Fig. 3.5, " COMBA_METHOD " and every Toom-k that fits B.\n"
            "With --count-ops: 000 Table 3.2 on a CPU model instead (no GPU needed).",
        .common = OPT_ALL_COMMON | OPT_INCLUDE_LAUNCH,
        .bits_min = 32 * k_min,
        .bits_max = TOOM_MAX_BITS,
        .bits_multiple = 32,
        .options = toom_options,
        .handle = toom_handle,
        .ctx = &count_ops,
        .methods_help = mhelp,
        .examples = "  mpgpu toom --bits 65536 --count 10240\n"
                    "  mpgpu toom --method toom-2,toom-4,gmp --bits 32768 --count 2^14 --threads 0\n"
                    "  mpgpu toom --count-ops --bits 4096\n",
    };
    cli_parse(argc, argv, &spec, &r.opt);
    free(mhelp);
    if (count_ops) {
        static const char *const unused[] = {"method", "csv", "json", "count", "reps", "warmup",
                                             "min-time", "max-noise", "device", "threads", "verify",
                                             "include-transfers", "include-launch", "quiet",
                                             "markdown", NULL};
        cli_refuse_options(argc, argv, unused, "--count-ops",
                           "which prints a table of counts of every method (000 Table 3.2) on a CPU "
                           "model, checked against GMP");
        for (size_t s = 0; s < r.opt.n_bits; s++)
            if (r.opt.bits_list[s] < 32 * k_most)
                cli_bad_input("--bits %u is too small for --count-ops, which runs Toom-%u: %u pieces "
                              "of at least one word need %u bits; accepted: a multiple of 32 in "
                              "%u..%u", r.opt.bits_list[s], k_most, k_most, 32 * k_most,
                              32 * k_most, TOOM_MAX_BITS);
        for (size_t s = 0; s < r.opt.n_bits; s++) {
            if (s)
                printf("\n");
            print_count_ops(r.opt.bits_list[s] / 32, r.opt.seed);
        }
        return 0;
    }
    const struct toom_selection sel = select_methods(&r.opt);
    r.count = r.opt.count;
    /* A Toom-k named by itself must fit every size; those of the default or of "all" run at the
     * sizes they fit, as mul's "all" runs the methods that support --bits. */
    for (size_t s = 0; s < r.opt.n_bits; s++) {
        const unsigned size = r.opt.bits_list[s];
        if (size < 32 * sel.k_named)
            cli_bad_input("--bits %u is too small for Toom-%u: %u pieces of at least one word need %u "
                          "bits; accepted: a multiple of 32 in %u..%u", size, sel.k_named, sel.k_named,
                          32 * sel.k_named, 32 * sel.k_named, TOOM_MAX_BITS);
    }

    /* Without a GPU, a run that names GPU methods fails (exit 3), after the GMP baseline when
     * that was named too; GMP alone runs anywhere. */
    char why[256];
    const bool any_gpu = sel.comba || sel.k_max;
    static const char *const gpu_only[] = {"include-transfers", "include-launch", "device", NULL};
    if (!any_gpu)
        cli_refuse_options(argc, argv, gpu_only, "--method gmp", "which runs no GPU method; name one");
    const bool have_gpu = any_gpu && gpu_open(r.opt.device, why, sizeof why);

    const size_t per_size = k_most + 2; /* the Comba line, each k, and gmp */
    struct bench_case *cases = malloc(CLI_MAX_SIZES * per_size * sizeof *cases);
    if (!cases)
        cli_bad_input("toom: out of host memory");
    size_t n_cases = 0;
    for (size_t s = 0; s < r.opt.n_bits; s++) {
        const unsigned size = r.opt.bits_list[s];
        const mpgpu_mul_method_info *chosen[TOOM_K_LIMIT + 1];
        size_t n_chosen = 0;
        if (have_gpu) {
            const mpgpu_mul_method_info *comba = mul_bench_method_find(COMBA_METHOD);
            if (sel.comba && comba && mul_bench_supports(comba, size))
                chosen[n_chosen++] = comba;
            for (unsigned k = k_min; k <= k_most; k++) {
                if (!sel.k[k] || size < 32 * k)
                    continue;
                const char *name = "";
                const mpgpu_mul_method_info *m = NULL;
                if (mpgpu_toom_method(k, &name) == MPGPU_OK)
                    m = mul_bench_method_find(name);
                if (!m || mpgpu_toom_check(k, size) != MPGPU_OK) /* the library and --bits agree */
                    cli_bad_input("toom: method toom-%u is not available at %u bits", k, size);
                chosen[n_chosen++] = m;
            }
        }
        n_cases += mul_bench_cases(&r, size, chosen, n_chosen, sel.gmp, cases + n_cases, per_size);
    }
    mul_bench_check_host(&r, cases, n_cases);

    struct bench b;
    bench_open(&b, "toom", &r.opt, have_gpu, r.opt.device, any_gpu && !have_gpu ? why : NULL,
               sel.gmp ? "toom's GPU methods skipped, running the GMP baseline only (--count-ops "
                         "runs without one)"
                       : "toom's GPU methods skipped (--count-ops runs without one)");
    if (any_gpu && !have_gpu && !sel.gmp) {
        mul_bench_free(&r);
        free(cases);
        return EXIT_GPU_ERROR;
    }
    int status = bench_run(&b, &mul_bench_ops, &r, cases, n_cases);
    mul_bench_free(&r);
    free(cases);
    return status ? status : any_gpu && !have_gpu ? EXIT_GPU_ERROR : 0;
}
