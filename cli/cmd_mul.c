/* mpgpu mul: bulk full products C = A * B on the GPU, each checked against GMP, and the GMP
 * baseline on the CPU (000 ch. 3, 001). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "gpu.h"
#include "hexio.h"
#include "interrupt.h"
#include "mpgpu.h"
#include "bench.h"
#include "mul_bench.h"
#include "path_claim.h"
#include "tune_table.h"
#include "report.h"

#define MUL_MIN_BITS 64u
#define MUL_MAX_BITS 65536u
/* What runs when no --method is given: the fastest GPU method for the size and count, as the
 * tune table measured it (auto), and the papers' CPU baseline. No one method is fastest at
 * every size (results/tune_table.csv). */
static const char *const default_methods[] = {"auto", "gmp"};

enum { OPT_INPUT = 1000, OPT_OUTPUT, OPT_BATCH, OPT_LIST_METHODS, OPT_DEVICES };

struct mul_args {
    const char *input, *output;
    uint64_t batch; /* 0: as many products per device batch as fit */
    bool list_methods;
    struct md_devices devices;
};

static int mul_handle(int id, const char *arg, void *ctx)
{
    struct mul_args *m = ctx;
    if (id == OPT_INPUT)
        path_claim("--input", m->input = arg, PATH_READ);
    else if (id == OPT_OUTPUT)
        path_claim("--output", m->output = arg, PATH_WRITE);
    else if (id == OPT_LIST_METHODS)
        m->list_methods = true;
    else if (id == OPT_BATCH)
        m->batch = cli_parse_u64("--batch", arg, 1, UINT64_C(1) << 40);
    else if (id == OPT_DEVICES)
        md_parse(&m->devices, arg);
    return 0;
}

static const struct cli_option mul_options[] = {
    {"input", "FILE", OPT_INPUT, "read operand pairs from FILE ('-': stdin), one 'HEX_A HEX_B' line each, instead of random operands; they are zero-padded to one --bits, or without it to the smallest size that holds the widest (a product's work is its size's)"},
    {"output", "FILE", OPT_OUTPUT, "write the products to FILE ('-': stdout, the table then going to stderr), one hex line each, in input order (from the first method that ran and matched GMP); FILE is replaced only when they are all written"},
    {"list-methods", NULL, OPT_LIST_METHODS, "print each GPU method as 'NAME MIN_BITS MAX_BITS MULTIPLE_BITS', one a line, for scripts, and exit"},
    {"batch", "N", OPT_BATCH, "at most N products per device batch (default: all that fit in 90% of free device memory)"},
    {"devices", "all|LIST", OPT_DEVICES, MD_DEVICES_HELP "; the batch is split, each GPU taking whole batches (at most an equal share each), and the products are those of one GPU. mul runs in one process (not over MPI ranks)"},
    {0},
};

static char *methods_help(void)
{
    size_t n, len = 0, cap = 8192;
    const mpgpu_mul_method_info *all = mul_bench_methods(&n);
    char *s = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        char range[80];
        int k = snprintf(range, sizeof range, "%u..%u bits", all[i].min_bits, all[i].max_bits);
        if (all[i].bits_multiple > 32)
            snprintf(range + k, sizeof range - k, ", multiples of %u", all[i].bits_multiple);
        len += snprintf(s + len, cap - len, "  %-30s %s [%s]\n", all[i].name, all[i].summary, range);
    }
    len += snprintf(s + len, cap - len, "  %-30s %s\n", "gmp", MUL_BENCH_GMP_SUMMARY);
    len += snprintf(s + len, cap - len, "  %-30s %s\n", "auto",
                    "the fastest GPU method in the table `mpgpu tune` writes ($MPGPU_TUNE_TABLE, else the installed one, else the one built in) at the smallest measured size >= --bits (else the largest), and there at the measured count nearest --count in log scale (of two equally near, the larger); its rows say auto_bits and auto_count in params");
    snprintf(s + len, cap - len, "  %-30s %s\n", "all", "every GPU method that supports --bits, then gmp");
    return s;
}

/* Appends m unless the list holds it: a method named twice runs once. */
static size_t add_unique(const mpgpu_mul_method_info **list, size_t n,
                         const mpgpu_mul_method_info *m)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == m)
            return n;
    list[n] = m;
    return n + 1;
}

int cmd_mul(int argc, char **argv)
{
    struct mul_bench r;
    struct mul_args io = {0};
    memset(&r, 0, sizeof r);
    char *mhelp = methods_help();
    const struct cli_spec spec = {
        .command = "mul",
        .usage = "mpgpu mul [--bits B] [--count N] [--method M,...] [options]",
        .description =
            "Computes --count independent full products C = A * B of two --bits-bit operands on\n"
            "the GPU with each chosen method, checks every product against GMP (see --verify),\n"
            "and reports kernel time (median, min, max of --reps runs) and products per second.\n"
            "Operands come from a seeded generator, or from --input. B is a multiple of 32 in\n"
            "64..65536. Without --method: auto (the tune table's fastest for the size and\n"
            "count) and gmp.",
        .common = OPT_ALL_COMMON | OPT_INCLUDE_LAUNCH,
        .bits_min = MUL_MIN_BITS,
        .bits_max = MUL_MAX_BITS,
        .bits_multiple = 32,
        .options = mul_options,
        .handle = mul_handle,
        .ctx = &io,
        .methods_help = mhelp,
        .examples = "  mpgpu mul --bits 4096 --count 10240\n"
                    "  mpgpu mul --bits 1024 --count 2^20 --method all --csv results.csv\n"
                    "  mpgpu mul --input pairs.txt --output products.txt --method gmp\n"
                    "  mpgpu mul --bits 4096 --count 2^22 --devices all\n",
    };
    cli_parse(argc, argv, &spec, &r.opt);
    free(mhelp);
    if (io.list_methods) {
        /* A mode that prints and exits: what it would not use is refused, not dropped. */
        for (int i = 1; i < argc; i++)
            if (strcmp(argv[i], "--list-methods") != 0)
                cli_bad_input("--list-methods prints every GPU method and exits; it takes no other "
                              "option or argument (got '%s')", argv[i]);
        size_t n;
        const mpgpu_mul_method_info *all = mul_bench_methods(&n);
        for (size_t i = 0; i < n; i++)
            printf("%s %u %u %u\n", all[i].name, all[i].min_bits, all[i].max_bits,
                   all[i].bits_multiple);
        return 0;
    }

    /* Resolve the method list before any work, so a typo costs nothing. */
    bool explicit_methods = r.opt.n_methods > 0;
    if (!explicit_methods)
        for (size_t i = 0; i < sizeof default_methods / sizeof default_methods[0]; i++)
            r.opt.methods[r.opt.n_methods++] = default_methods[i];

    unsigned sizes[CLI_MAX_SIZES];
    size_t n_sizes = r.opt.n_bits;
    memcpy(sizes, r.opt.bits_list, n_sizes * sizeof sizes[0]);
    if (io.output && n_sizes > 1)
        cli_bad_input("--output writes the products of one size; give one --bits, not %zu", n_sizes);
    if (io.input) {
        if (n_sizes > 1)
            cli_bad_input("--input sets the size from its operands; give one --bits, not %zu", n_sizes);
        if (cli_option_given(argc, argv, "seed"))
            cli_bad_input("--seed draws random operands; it does not apply to --input");
        struct hex_pairs hp;
        hex_pairs_read(io.input, r.opt.bits_set ? r.opt.bits / 32 : 0, MUL_MAX_BITS / 32, &hp);
        r.a = hp.a;
        r.b = hp.b;
        r.count = hp.count;
        sizes[0] = hp.words * 32;
        if (r.opt.count_set && r.opt.count != r.count)
            cli_bad_input("--count %llu differs from the %zu pairs in --input %s; give only one",
                          (unsigned long long)r.opt.count, r.count, io.input);
    } else {
        r.count = r.opt.count;
    }

    size_t n_all;
    const mpgpu_mul_method_info *all = mul_bench_methods(&n_all);
    const mpgpu_mul_method_info *chosen[CLI_MAX_METHODS + 64];
    const mpgpu_mul_method_info *picked[CLI_MAX_SIZES] = {0}; /* --method auto's choice per size */
    size_t n_chosen = 0;
    bool want_gmp = false;
    for (size_t i = 0; i < r.opt.n_methods; i++) {
        const char *name = r.opt.methods[i];
        if (!strcmp(name, "gmp")) {
            want_gmp = true;
        } else if (!strcmp(name, "auto")) {
            for (size_t s = 0; s < n_sizes; s++) {
                char why[256];
                if (!tune_table_pick(sizes[s] / 32, r.count, r.opt.device, &r.auto_picks[s], why,
                                     sizeof why))
                    cli_bad_input("mul: --method auto: %s", why);
                picked[s] = mul_bench_method_find(r.auto_picks[s].method);
            }
            r.n_auto_picks = n_sizes;
        } else if (!strcmp(name, "all")) {
            for (size_t k = 0; k < n_all; k++)
                n_chosen = add_unique(chosen, n_chosen, &all[k]);
            want_gmp = true;
        } else {
            const mpgpu_mul_method_info *m = mul_bench_method_find(name);
            if (!m) {
                char list[2048];
                size_t len = 0;
                for (size_t k = 0; k < n_all; k++)
                    len += snprintf(list + len, sizeof list - len, "%s, ", all[k].name);
                cli_bad_input("mul: unknown method '%s'; accepted: %sgmp, auto, all", name, list);
            }
            for (size_t s = 0; s < n_sizes; s++)
                if (!mul_bench_supports(m, sizes[s]))
                    cli_bad_input("mul: method %s does not support %u bits; accepted: multiples of %u "
                                  "bits in %u..%u", m->name, sizes[s], m->bits_multiple,
                                  m->min_bits, m->max_bits);
            n_chosen = add_unique(chosen, n_chosen, m);
        }
    }

    char why[256];
    const bool any_gpu = n_chosen > 0 || picked[0];
    if (io.devices.arg && !any_gpu)
        cli_bad_input("--devices chooses GPUs, but --method gmp runs none; name a GPU method");
    static const char *const gpu_only[] = {"include-transfers", "include-launch", "batch", "device",
                                           NULL};
    if (!any_gpu)
        cli_refuse_options(argc, argv, gpu_only, "--method gmp",
                           "which runs no GPU method; name one");
    if (io.devices.arg && cli_option_given(argc, argv, "device"))
        cli_bad_input("--device and --devices both choose the GPU; give one");
    bool have_gpu = any_gpu && md_resolve(&io.devices, r.opt.device, why, sizeof why);
    const bool gpu_missing = any_gpu && !have_gpu;
    /* Without a GPU, --devices is as --device: only named GPU methods make the run fail (exit 3,
     * after the GMP baseline when it was asked for too). */
    const int gpu_status = gpu_missing && explicit_methods ? EXIT_GPU_ERROR : 0;
    if (gpu_missing) {
        n_chosen = 0;
        memset(picked, 0, sizeof picked);
    }

    /* Per size: the methods named, and auto's pick unless it is one of them. */
    const size_t per_size = n_chosen + 2;
    struct bench_case *cases = malloc(per_size * n_sizes * sizeof *cases);
    size_t n_cases = 0;
    for (size_t s = 0; s < n_sizes; s++) {
        const mpgpu_mul_method_info *list[CLI_MAX_METHODS + 65];
        size_t n_list = n_chosen;
        memcpy(list, chosen, n_chosen * sizeof list[0]);
        bool named = false;
        for (size_t i = 0; i < n_chosen && picked[s]; i++)
            named |= chosen[i] == picked[s];
        if (picked[s] && !named)
            list[n_list++] = picked[s];
        n_cases += mul_bench_cases(&r, sizes[s], list, n_list, want_gmp, cases + n_cases, per_size);
    }
    mul_bench_check_host(&r, cases, n_cases);
    r.from_input = io.input != NULL;
    r.max_batch = io.batch;
    output_file_open(&r.output, "--output", io.output, r.opt.csv_path);

    struct bench b;
    if (have_gpu)
        r.devices = io.devices;
    bench_open(&b, "mul", &r.opt, have_gpu, have_gpu ? r.devices.ids[0] : r.opt.device,
               gpu_missing ? why : NULL,
               want_gmp ? "GPU methods skipped, running the GMP baseline only" : "GPU methods skipped");
    output_file_move_table(&r.output, &b.table);
    if (gpu_missing && explicit_methods && !want_gmp) {
        free(cases);
        return EXIT_GPU_ERROR;
    }
    if (r.from_input)
        b.seed = 0;
    int status = bench_run(&b, &mul_bench_ops, &r, cases, n_cases);
    if (r.output.f && !r.output_written)
        status = output_file_abandon(&r.output, status, "products");
    if (status == 0)
        status = r.output_status;
    if (r.from_input) {
        free(r.a);
        free(r.b);
    }
    mul_bench_free(&r);
    free(cases);
    return status ? status : gpu_status;
}
