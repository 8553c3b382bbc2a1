/* mpgpu fixed: fixed-precision arithmetic in straight-line code per precision (004, Carlessi
 * and Kashani, EPFL 2013), with the Montgomery reduction the study could not make work and the
 * multiplication and exponentiation built on it; every result checked against GMP. */
#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"
#include "fixed_device.h"
#include "fixed_ref.h"
#include "fixed_resources.h"
#include "gpu.h"
#include "hexio.h"
#include "hostmem.h"
#include "loop_run.h"
#include "name_list.h"
#include "progress.h"
#include "timing.h"

#define FIXED_MIN_BITS 64u
#define FIXED_MAX_BITS 1024u

enum {
    OPT_OP = 1000, OPT_CHAIN, OPT_IMPL, OPT_OPERANDS, OPT_WORD_ORDER, OPT_MEM, OPT_GRID, OPT_BLOCK,
    OPT_MODULUS, OPT_INPUT, OPT_RESOURCES
};

/* The variants of --impl, --mem, --operands and --word-order, in the order their cases run;
 * index 1 is the kernel's flag set (fixed_config's impl, global_mem, interleaved, coalesced). */
static const char *const impl_names[] = {"ptx", "c"};
static const char *const mem_names[] = {"local", "global"};
static const char *const operands_names[] = {"separate", "interleaved"};
static const char *const word_order_names[] = {"contiguous", "coalesced"};

struct fixed_args {
    /* Each a list (issue 36): every combination runs. */
    bool ops[FIXED_N_OPS], impls[2], mems[2], operands[2], word_orders[2];
    uint64_t chain;
    unsigned grid, block;
    const char *modulus, *input;
    bool resources;
};

static int fixed_handle(int id, const char *arg, void *ctx)
{
    struct fixed_args *f = ctx;
    switch (id) {
    case OPT_OP: name_list_parse("--op", arg, fixed_op_names, FIXED_N_OPS, f->ops); break;
    case OPT_IMPL: name_list_parse("--impl", arg, impl_names, 2, f->impls); break;
    case OPT_CHAIN: f->chain = cli_parse_u64("--chain", arg, 1, UINT64_C(1) << 32); break;
    case OPT_OPERANDS: name_list_parse("--operands", arg, operands_names, 2, f->operands); break;
    case OPT_WORD_ORDER: name_list_parse("--word-order", arg, word_order_names, 2, f->word_orders); break;
    case OPT_MEM: name_list_parse("--mem", arg, mem_names, 2, f->mems); break;
    case OPT_GRID: f->grid = (unsigned)cli_parse_u64("--grid", arg, 1, 0x7fffffff); break;
    case OPT_BLOCK: f->block = (unsigned)cli_parse_u64("--block", arg, 1, 1024); break;
    case OPT_MODULUS: f->modulus = arg; break;
    case OPT_INPUT: f->input = arg; break;
    case OPT_RESOURCES: f->resources = true; break;
    }
    return 0;
}

static const struct cli_option fixed_options[] = {
    {"op", "OP[,OP...]", OPT_OP, "operations, a comma list (default montmul): add, sub (two's complement in the operand width), addm, subm (branch-free mod m), mul (column order), karatsuba (one level), montred (T R^-1 mod m, R = 2^(32 ceil(P/32))), montmul (a b R^-1 mod m), powm (a^b mod m)"},
    {"chain", "K", OPT_CHAIN, "apply the operation K times per element in registers, each time to the last result (default 1); the throughput counts all K"},
    {"impl", "ptx|c[,...]", OPT_IMPL, "carry chains in inline PTX or in plain C (default ptx; ptx,c runs both)"},
    {"operands", "separate|interleaved[,...]", OPT_OPERANDS, "the two operands in separate arrays, or interleaved word by word in one (default separate; 004 section 3.4; a comma list runs each)"},
    {"word-order", "contiguous|coalesced[,...]", OPT_WORD_ORDER, "each element's words together (contiguous: IDX), or word j of every element together (coalesced: COAL_IDX) (default coalesced; a comma list runs each)"},
    {"mem", "local|global[,...]", OPT_MEM, "operands copied to registers (local: _loc), or used in place in device memory (global: _glo, the operands and the result; mul, karatsuba, montred, montmul and powm keep their temporaries in registers) (default local; a comma list runs each)"},
    {"grid", "G", OPT_GRID, "thread blocks (1..2^31-1; default: one element per thread); fewer blocks loop over the elements"},
    {"block", "B", OPT_BLOCK, "threads per block, 1..1024 (default 256)"},
    {"modulus", "HEX", OPT_MODULUS, "the modulus of modular operations, below 2^P, at least 3, odd for montred/montmul/powm (default: a random odd P-bit one from --seed)"},
    {"input", "FILE", OPT_INPUT, "read one 'HEX_A HEX_B' line per element instead of random operands (montred: A is T < mR, B is ignored); one --bits and one --op"},
    {"resources", NULL, OPT_RESOURCES, "print the registers, stack and spills ptxas reported for every kernel when mpgpu was built (of --bits, or every precision; 004 Fig. 3.6) and exit"},
    {0},
};

/* The state of a run: the operands of the current case on the host, its device buffers. */
struct fixed_bench {
    struct cli_common opt;
    struct fixed_args args;
    uint32_t m[FIXED_MAX_WORDS];
    bool modulus_given;
    size_t count;
    uint32_t *a, *b, *r; /* element-major */
    struct hex_pairs input;
    struct fixed_device dev;
    bool dev_open;
};

/* A case's two-way variants as bits of one number, so that one loop runs every combination. */
enum {
    VARIANT_WORD_ORDER = 1,
    VARIANT_OPERANDS = 2,
    VARIANT_MEM = 4,
    VARIANT_IMPL = 8,
    N_VARIANTS = 16,
};

struct fixed_case {
    unsigned bits;
    enum fixed_op op;
    enum fixed_impl impl;
    bool global_mem, interleaved, coalesced;
    char method[32];
};

/* An option not given selects its default variant. */
static void select_default(bool *selected, size_t n, size_t variant)
{
    for (size_t i = 0; i < n; i++)
        if (selected[i])
            return;
    selected[variant] = true;
}

static void words_of_hex(const char *hex, unsigned bits, uint32_t *m)
{
    mpz_t z;
    mpz_init(z);
    const char *digits = !strncmp(hex, "0x", 2) || !strncmp(hex, "0X", 2) ? hex + 2 : hex;
    if (!*digits || strspn(digits, "0123456789abcdefABCDEF") != strlen(digits) || mpz_set_str(z, digits, 16))
        cli_bad_input("--modulus '%s' is not a hex number", hex);
    if (mpz_sizeinbase(z, 2) > bits)
        cli_bad_input("--modulus %s has %zu bits; accepted: below 2^%u (--bits)", hex,
                      mpz_sizeinbase(z, 2), bits);
    if (mpz_cmp_ui(z, 3) < 0)
        cli_bad_input("--modulus %s is too small; accepted: at least 3", hex);
    memset(m, 0, FIXED_MAX_WORDS * sizeof m[0]);
    mpz_export(m, NULL, -1, sizeof(uint32_t), 0, 0, z);
    mpz_clear(z);
}

/* --input's operands against the operation's rule: bad input names the line's element. */
static void check_input(const struct fixed_bench *f, enum fixed_op op, unsigned bits)
{
    const unsigned n = fixed_words(bits), aw = fixed_a_words(op, n);
    const struct hex_pairs *hp = &f->input;
    uint32_t bound[2 * FIXED_MAX_WORDS + 1];
    for (size_t p = 0; p < hp->count; p++) {
        const uint32_t *a = hp->a + p * hp->words, *b = hp->b + p * hp->words;
        if (op == FIXED_MUL || op == FIXED_KARATSUBA) {
            if (bits % 32 && ((a[n - 1] | b[n - 1]) >> (bits % 32)))
                cli_bad_input("--input %s: element %zu has an operand not below 2^%u", f->args.input, p, bits);
        } else if (op == FIXED_MONTRED) {
            memset(bound, 0, sizeof bound);
            memcpy(bound + n, f->m, n * sizeof(uint32_t)); /* mR */
            if (!fixed_less(a, bound, aw))
                cli_bad_input("--input %s: element %zu: T is not below m R = m 2^%u", f->args.input, p, 32 * n);
        } else if (fixed_op_modular(op)) {
            if (!fixed_less(a, f->m, n) || (op != FIXED_POWM && !fixed_less(b, f->m, n)))
                cli_bad_input("--input %s: element %zu: operand not below the modulus m", f->args.input, p);
        }
    }
}

static void free_operands(struct fixed_bench *f)
{
    free(f->a);
    free(f->b);
    free(f->r);
    f->a = f->b = f->r = NULL;
}

static int fixed_setup(void *ctx, struct bench_case *c)
{
    struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    const unsigned n = fixed_words(fc->bits);
    const unsigned aw = fixed_a_words(fc->op, n), bw = fixed_b_words(fc->op, n), rw = fixed_r_words(fc->op, n);
    uint32_t m[FIXED_MAX_WORDS] = {0};
    if (f->modulus_given)
        memcpy(m, f->m, sizeof m);
    else
        fixed_random_modulus(fc->bits, f->opt.seed, m);
    f->a = malloc(f->count * aw * sizeof(uint32_t));
    f->b = malloc(f->count * (bw ? bw : 1) * sizeof(uint32_t));
    f->r = malloc(f->count * rw * sizeof(uint32_t));
    if (!f->a || !f->b || !f->r)
        cli_bad_input("--count %zu of %u-bit %s: out of host memory", f->count, fc->bits, fixed_op_names[fc->op]);
    const long count = (long)f->count;
    if (f->args.input) {
        for (long p = 0; p < count; p++) {
            memcpy(f->a + p * aw, f->input.a + p * f->input.words, aw * sizeof(uint32_t));
            memcpy(f->b + p * bw, f->input.b + p * f->input.words, bw * sizeof(uint32_t));
        }
    } else {
        const uint64_t seed = f->opt.seed;
        uint32_t *a = f->a, *b = f->b;
        struct progress_phase ph;
        struct loop_run run;
        loop_run_start(&run, progress_phase_begin(&ph, f->opt.quiet, "elements", f->count,
                                                  "fixed %s: generating the operands", c->method));
#pragma omp parallel for schedule(static)
        for (long p = 0; p < count; p++) {
            if (loop_run_stopped(&run))
                continue;
            fixed_random_operands(fc->op, fc->bits, seed, (uint64_t)p, m, a + p * aw, b + p * bw);
            loop_run_item_done(&run, (uint64_t)p);
        }
        progress_phase_end(&ph);
        if (loop_run_stopped(&run))
            return BENCH_STOPPED;
    }
    struct fixed_config cfg = {
        .bits = fc->bits, .op = fc->op, .impl = fc->impl, .global_mem = fc->global_mem,
        .interleaved = fc->interleaved, .coalesced = fc->coalesced, .chain = f->args.chain,
        .grid = f->args.grid, .block = f->args.block,
    };
    memcpy(cfg.m, m, sizeof m);
    cudaError_t err = fixed_device_open(&f->dev, &cfg, f->count);
    f->dev_open = true;
    if (err == cudaSuccess && !f->opt.include_transfers)
        err = fixed_device_upload(&f->dev, f->a, f->b);
    if (err == cudaSuccess)
        err = fixed_device_poison(&f->dev);
    if (err != cudaSuccess)
        gpu_fail(f->dev.failed_call ? f->dev.failed_call : "fixed_device_open", err);
    return 0;
}

struct region {
    struct fixed_bench *f;
};

static cudaError_t timed_region(void *p, const char **failed_call)
{
    struct fixed_bench *f = ((struct region *)p)->f;
    cudaError_t err = cudaSuccess;
    if (f->opt.include_transfers)
        err = fixed_device_upload(&f->dev, f->a, f->b);
    if (err == cudaSuccess)
        err = fixed_device_launch(&f->dev);
    if (err == cudaSuccess && f->opt.include_transfers)
        err = fixed_device_download(&f->dev, f->r);
    if (err != cudaSuccess)
        *failed_call = f->dev.failed_call;
    return err;
}

static int fixed_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    (void)c;
    (void)pass_index;
    struct fixed_bench *f = ctx;
    struct region x = {f};
    const char *failed = NULL;
    cudaError_t err = time_gpu_region(timed_region, &x, f->dev.stream, gpu_region_held(&f->opt, warmup), 0, 1, ms,
                                      &failed);
    if (err != cudaSuccess)
        gpu_fail(failed ? failed : "fixed kernel", err);
    return 0;
}

static int fixed_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    if (!f->opt.include_transfers) {
        cudaError_t err = fixed_device_download(&f->dev, f->r);
        if (err != cudaSuccess)
            gpu_fail(f->dev.failed_call, err);
    }
    spec->elements = f->count;
    spec->element = "element";
    spec->reference = "GMP";
    spec->scratch_bytes = fixed_r_words(fc->op, fixed_words(fc->bits)) * sizeof(uint32_t);
    spec->threads = omp_get_max_threads();
    return 0;
}

/* Element i's result from fixed_ref (GMP underneath), in the op's result width. */
static enum bench_ref fixed_reference(const void *ctx, const struct bench_case *c, uint64_t i, void *expect)
{
    const struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    const unsigned n = fixed_words(fc->bits);
    const unsigned aw = fixed_a_words(fc->op, n), bw = fixed_b_words(fc->op, n);
    fixed_ref(fc->op, fc->bits, f->args.chain, f->a + i * aw, f->b + i * bw, f->dev.cfg.m, expect);
    return BENCH_REF_READY;
}

static bool fixed_compare(const void *ctx, const struct bench_case *c, uint64_t i, const void *expect)
{
    const struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    const unsigned rw = fixed_r_words(fc->op, fixed_words(fc->bits));
    return memcmp(expect, f->r + i * rw, rw * sizeof(uint32_t)) == 0;
}

static void fixed_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    snprintf(params, len,
             "op=%s;impl=%s;elements=%zu;chain=%llu;operands=%s;word_order=%s;mem=%s;grid=%u;block=%u;modulus=%s",
             fixed_op_names[fc->op], impl_names[fc->impl], f->count, (unsigned long long)f->args.chain,
             operands_names[fc->interleaved], word_order_names[fc->coalesced], mem_names[fc->global_mem],
             f->args.grid, f->args.block,
             f->modulus_given ? "given" : "random");
}

static void fixed_teardown(void *ctx, struct bench_case *c)
{
    (void)c;
    struct fixed_bench *f = ctx;
    if (f->dev_open)
        fixed_device_close(&f->dev);
    f->dev_open = false;
    free_operands(f);
}

static const struct bench_ops fixed_ops = {
    .setup = fixed_setup,
    .pass = fixed_pass,
    .check_begin = fixed_check_begin,
    .reference = fixed_reference,
    .compare = fixed_compare,
    .describe = fixed_describe,
    .teardown = fixed_teardown,
};

static void built_list(char *s, size_t len)
{
    size_t n, k = 0;
    const unsigned *built = fixed_built_bits(&n);
    s[0] = '\0';
    for (size_t i = 0; i < n; i++)
        k += snprintf(s + k, len - k, "%s%u", i ? ", " : "", built[i]);
}

/* --resources: ptxas's report of every kernel, recorded at build time (kernels/meson.build,
 * fixed_resources.sh), of the precisions asked for. */
static int print_resources(const struct cli_common *opt)
{
    printf("%-5s %-6s %-9s %-4s %9s %11s %12s %11s\n", "bits", "mem", "op", "impl", "registers",
           "stack_bytes", "spill_stores", "spill_loads");
    for (const char *line = fixed_resources_text; *line;) {
        const size_t len = strcspn(line, "\n");
        unsigned bits, regs, stack, stores, loads;
        char mem[8], op[16], impl[4];
        if (sscanf(line, "%u %7s %15s %3s %u %u %u %u", &bits, mem, op, impl, &regs, &stack, &stores,
                   &loads) == 8) {
            bool wanted = !opt->bits_set;
            for (size_t s = 0; s < opt->n_bits && !wanted; s++)
                wanted = opt->bits_list[s] == bits;
            if (wanted)
                printf("%-5u %-6s %-9s %-4s %9u %11u %12u %11u\n", bits, mem, op, impl, regs, stack,
                       stores, loads);
        }
        line += len + (line[len] == '\n');
    }
    return 0;
}

int cmd_fixed(int argc, char **argv)
{
    struct fixed_bench f;
    memset(&f, 0, sizeof f);
    f.args.chain = 1;
    f.args.block = 256;
    char built[256], description[1536];
    built_list(built, sizeof built);
    snprintf(description, sizeof description,
             "Runs --count independent fixed-precision operations on the GPU, one thread per element, "
             "each --chain times in registers, in straight-line code built for each precision "
             "(004, Carlessi and Kashani); checks every result against GMP (see --verify) and reports "
             "kernel time and operations per second. A P-bit number is ceil(P/32) 32-bit words. "
             "Precisions built: %s; add others with meson setup -Dfixed_bits=P[,P...] (64..1024). "
             "--bits, --op, --impl, --mem, --operands and --word-order each take a comma list (or "
             "repeat): every combination runs, in that order of the options, the last varying "
             "fastest, each option's items in the order its help lists them.",
             built);
    const struct cli_spec spec = {
        .command = "fixed",
        .usage = "mpgpu fixed [--bits P[,P...]] [--op OP[,OP...]] [--count N] [--chain K] [options]",
        .description = description,
        .common = OPT_COUNT | OPT_BITS | OPT_REPS | OPT_WARMUP | OPT_SEED | OPT_DEVICE | OPT_CSV |
                  OPT_VERIFY | OPT_INCLUDE_TRANSFERS | OPT_INCLUDE_LAUNCH | OPT_QUIET,
        .verify_help = "check each element against GMP (the op chained --chain times with mpz, in the op's result width): all of them, a sample of about 1000 spread over the batch (every k-th and the last), or none",
        .bits_min = FIXED_MIN_BITS,
        .bits_max = FIXED_MAX_BITS,
        .bits_multiple = 1,
        .bits_default = "256",
        .options = fixed_options,
        .handle = fixed_handle,
        .ctx = &f.args,
        .examples = "  mpgpu fixed --bits 256 --op montmul --count 2^20 --chain 100\n"
                    "  mpgpu fixed --bits 109,131,163,191,239 --op add,mul,karatsuba --impl ptx,c\n"
                    "  mpgpu fixed --bits 239 --op add --mem global --grid 64 --block 64\n",
    };
    cli_parse(argc, argv, &spec, &f.opt);
    if (!f.opt.bits_set)
        f.opt.bits_list[0] = 256;
    select_default(f.args.ops, FIXED_N_OPS, FIXED_MONTMUL);
    select_default(f.args.impls, 2, FIXED_IMPL_PTX);
    select_default(f.args.mems, 2, 0);
    select_default(f.args.operands, 2, 0);
    select_default(f.args.word_orders, 2, 1);

    for (size_t s = 0; s < f.opt.n_bits; s++)
        if (!fixed_bits_built(f.opt.bits_list[s]))
            cli_bad_input("fixed: --bits %u was not built; built: %s; add it with meson setup "
                          "-Dfixed_bits=%u (or meson configure BUILD -Dfixed_bits=%u) and rebuild",
                          f.opt.bits_list[s], built, f.opt.bits_list[s], f.opt.bits_list[s]);
    if (f.args.resources)
        return print_resources(&f.opt);
    bool montgomery = false, modular = false;
    int n_ops = 0;
    enum fixed_op the_op = FIXED_ADD;
    for (int op = 0; op < FIXED_N_OPS; op++) {
        if (!f.args.ops[op])
            continue;
        n_ops++;
        the_op = (enum fixed_op)op;
        montgomery |= fixed_op_montgomery(op);
        modular |= fixed_op_modular(op);
    }
    if (f.args.modulus) {
        if (f.opt.n_bits > 1)
            cli_bad_input("fixed: --modulus is of one precision; give one --bits, not %zu", f.opt.n_bits);
        words_of_hex(f.args.modulus, f.opt.bits_list[0], f.m);
        f.modulus_given = true;
        if (montgomery && !(f.m[0] & 1))
            cli_bad_input("fixed: --modulus %s is even; montred, montmul and powm need an odd modulus",
                          f.args.modulus);
    }
    if (f.args.input) {
        if (f.opt.n_bits > 1 || n_ops > 1)
            cli_bad_input("fixed: --input holds operands of one precision and one operation; give "
                          "one --bits and one --op");
        if (modular && !f.modulus_given)
            cli_bad_input("fixed: --input with --op %s needs --modulus", fixed_op_names[the_op]);
        const unsigned n = fixed_words(f.opt.bits_list[0]);
        hex_pairs_read(f.args.input, fixed_a_words(the_op, n), fixed_a_words(the_op, n), &f.input);
        f.count = f.input.count;
        if (f.opt.count_set && f.opt.count != f.count)
            cli_bad_input("fixed: --count %llu differs from the %zu pairs in --input %s; give only one",
                          (unsigned long long)f.opt.count, f.count, f.args.input);
        check_input(&f, the_op, f.opt.bits_list[0]);
    } else {
        f.count = f.opt.count;
    }
    if (f.count > UINT64_MAX / f.args.chain)
        cli_bad_input("fixed: --count %zu times --chain %llu operations overflow a 64-bit count",
                      f.count, (unsigned long long)f.args.chain);

    /* Cases: every precision x operation x implementation x memory x operand layout x word
     * order, in that order (VARIANT_* bits, the last varying fastest). */
    size_t n_cases = 0;
    const size_t max_cases = f.opt.n_bits * FIXED_N_OPS * N_VARIANTS;
    struct bench_case *cases = calloc(max_cases, sizeof *cases);
    struct fixed_case *fcs = calloc(max_cases, sizeof *fcs);
    for (size_t s = 0; s < f.opt.n_bits; s++)
        for (int op = 0; op < FIXED_N_OPS; op++)
            for (unsigned v = 0; v < N_VARIANTS; v++) {
                const int impl = (v & VARIANT_IMPL) != 0, mem = (v & VARIANT_MEM) != 0,
                          operands = (v & VARIANT_OPERANDS) != 0, order = (v & VARIANT_WORD_ORDER) != 0;
                if (!f.args.ops[op] || !f.args.impls[impl] || !f.args.mems[mem] ||
                    !f.args.operands[operands] || !f.args.word_orders[order])
                    continue;
                struct fixed_case *fc = &fcs[n_cases];
                fc->bits = f.opt.bits_list[s];
                fc->op = (enum fixed_op)op;
                fc->impl = (enum fixed_impl)impl;
                fc->global_mem = mem;
                fc->interleaved = operands;
                fc->coalesced = order;
                snprintf(fc->method, sizeof fc->method, "%s-%s", fixed_op_names[op], impl_names[impl]);
                struct fixed_config probe = {.bits = fc->bits, .op = fc->op};
                char what[128];
                snprintf(what, sizeof what, "--count %zu of %u-bit %s", f.count, fc->bits, fixed_op_names[op]);
                hostmem_require(2 * fixed_device_bytes_per_element(&probe) * f.count, what);
                cases[n_cases++] = (struct bench_case){
                    .method = fc->method,
                    .bits = fc->bits,
                    .count = f.count * f.args.chain,
                    .throughput_unit = "ops",
                    .timed_region = gpu_region_name(&f.opt),
                    .data = fc,
                };
            }

    /* --csv is opened (exit 2 when it cannot be) before "no GPU" is said (exit 3). */
    char why[256];
    const bool have_gpu = gpu_open(f.opt.device, why, sizeof why);
    struct bench b;
    bench_open(&b, "fixed", &f.opt, have_gpu, f.opt.device);
    if (!have_gpu) {
        fprintf(stderr, "mpgpu: %s; fixed runs on the GPU only\n", why);
        free(cases);
        free(fcs);
        return EXIT_GPU_ERROR;
    }
    if (f.args.input)
        b.seed = 0;
    int status = bench_run(&b, &fixed_ops, &f, cases, n_cases);
    if (f.args.input)
        hex_pairs_free(&f.input);
    free(cases);
    free(fcs);
    return status;
}
