/* cgbn_bench: NVIDIA CGBN measured the way mpgpu measures itself (issue 39), so that a ratio
 * between the two comes from rows of one schema, one timing and one run. The command line, the
 * timing (held or --include-launch), the repetitions, the check against GMP and the CSV/JSON
 * rows are mpgpu's own (cli/bench.c, cli/timing.c, cli/report.c), linked from the build; the
 * kernels (cgbn_kernels.cu) are compiled against the user's CGBN headers. No CGBN code is in
 * this project. experiments/peers/cgbn.sh builds and runs it.
 *
 *   cgbn_bench mul   --bits 256,1024 --count 2^20 [--method cgbn-tpi8] [mpgpu's options]
 *                    (cgbn-tpiN: N threads per instance in CGBN's 128-thread blocks;
 *                    cgbn-tpiN-bM: in blocks of M threads)
 *   cgbn_bench fixed --bits 256 --count 2^20 --chain 100      (cgbn_mont_mul, a modulus each)
 *   cgbn_bench gcd   --bits 1024 --count 2^17
 *   cgbn_bench --list                                        (the sizes and methods built)
 *
 * Operands: mul and gcd take mpgpu mul's (random_words from --seed, streams 2p and 2p + 1), the
 * same numbers `mpgpu mul` multiplies with that seed; fixed takes mpgpu fixed's operands below a
 * modulus (fixed_random_operands), each element with its own random odd modulus of exactly
 * --bits bits (fixed_random_modulus from seed + p), as CGBN's own Montgomery samples do. */
#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cgbn_bench.h"
#include "cli.h"
#include "fixed_ref.h"
#include "gpu.h"
#include "hostmem.h"
#include "mul_gmp.h"
#include "random_words.h"
#include "timing.h"

/* The kernels the objects registered: at most 4 TPIs x 5 block sizes x 3 operations x the sizes
 * built. */
#define MAX_KERNELS 1024
static const struct cgbn_kernel *kernels[MAX_KERNELS];
static size_t n_kernels;

void cgbn_register(const struct cgbn_kernel *k)
{
    if (n_kernels == MAX_KERNELS)
        abort(); /* before main: only a build of more than 17 sizes gets here */
    kernels[n_kernels++] = k;
}

/* A method is a TPI and a block size: cgbn-tpiN in blocks of 128 threads, as CGBN's samples
 * launch, cgbn-tpiN-bM in blocks of M (cgbn_kernels.cu builds the sizes asked for). */
static const unsigned tpis[] = {4, 8, 16, 32};
static const unsigned block_sizes[] = {32, 64, 128, 256, 512}; /* ascending */
#define SAMPLES_BLOCK 128u
#define N_BLOCKS (sizeof block_sizes / sizeof block_sizes[0])
#define N_VARIANTS (sizeof tpis / sizeof tpis[0] * N_BLOCKS)
#define METHOD_NAME_MAX 24
#define METHOD_LIST_MAX 512

static unsigned tpi_of(size_t v) { return tpis[v / N_BLOCKS]; }
static unsigned block_of(size_t v) { return block_sizes[v % N_BLOCKS]; }

static void method_name(size_t v, char *out, size_t len)
{
    if (block_of(v) == SAMPLES_BLOCK)
        snprintf(out, len, "cgbn-tpi%u", tpi_of(v));
    else
        snprintf(out, len, "cgbn-tpi%u-b%u", tpi_of(v), block_of(v));
}

/* Each operation as mpgpu's rows name it: the subcommand whose rows it stands beside, what one
 * result is, and what the throughput counts. */
struct op_desc {
    const char *subcommand, *element, *unit;
    unsigned default_bits;
};
static const struct op_desc ops[CGBN_N_OPS] = {
    [CGBN_MUL] = {"mul", "product", "products", 1024},
    [CGBN_MONTMUL] = {"fixed", "element", "ops", 256},
    [CGBN_GCD] = {"gcd", "pair", "gcds", 1024},
};

static const struct cgbn_kernel *kernel_of(enum cgbn_op op, unsigned bits, size_t v)
{
    for (size_t i = 0; i < n_kernels; i++)
        if (kernels[i]->op == op && kernels[i]->bits == bits && kernels[i]->tpi == tpi_of(v) &&
            kernels[i]->block_threads == block_of(v))
            return kernels[i];
    return NULL;
}

/* "cgbn-tpi4,cgbn-tpi4-b32,..." of the methods built for op at bits (all sizes: bits 0); "none"
 * if none. */
static void built_methods(enum cgbn_op op, unsigned bits, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t v = 0; v < N_VARIANTS; v++) {
        bool any = false;
        for (size_t i = 0; i < n_kernels && !any; i++)
            any = kernels[i]->op == op && kernels[i]->tpi == tpi_of(v) &&
                  kernels[i]->block_threads == block_of(v) && (!bits || kernels[i]->bits == bits);
        char name[METHOD_NAME_MAX];
        method_name(v, name, sizeof name);
        if (any && used < len)
            used += snprintf(out + used, len - used, "%s%s", used ? "," : "", name);
    }
    if (!used)
        snprintf(out, len, "none");
}

/* "4, 8, 16" of vals[0 .. n) that some kernel built for op has as its TPI (by_tpi) or as its
 * block size; returns the characters written. */
static size_t built_values(enum cgbn_op op, const unsigned *vals, size_t n, bool by_tpi, char *out,
                           size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n_kernels; i++)
            if (kernels[i]->op == op &&
                (by_tpi ? kernels[i]->tpi : kernels[i]->block_threads) == vals[j]) {
                used += snprintf(out + used, len - used, "%s%u", used ? ", " : "", vals[j]);
                break;
            }
    return used;
}

/* "TPI 4, 8, 16, 32 in blocks of 32, 64, 128, 256, 512 threads" of the kernels built for op (at
 * some size); "no method" if none. */
static void built_shapes(enum cgbn_op op, char *out, size_t len)
{
    char t_list[64], b_list[64];
    if (built_values(op, tpis, sizeof tpis / sizeof tpis[0], true, t_list, sizeof t_list)) {
        built_values(op, block_sizes, N_BLOCKS, false, b_list, sizeof b_list);
        snprintf(out, len, "TPI %s in blocks of %s threads", t_list, b_list);
    } else {
        snprintf(out, len, "no method");
    }
}

/* "256,512" of the sizes built for op; "none" if none. */
static void built_sizes(enum cgbn_op op, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (unsigned bits = 32; bits <= 32768; bits += 32) {
        bool any = false;
        for (size_t v = 0; v < N_VARIANTS && !any; v++)
            any = kernel_of(op, bits, v) != NULL;
        if (any && used < len)
            used += snprintf(out + used, len - used, "%s%u", used ? "," : "", bits);
    }
    if (!used)
        snprintf(out, len, "none");
}

static void print_list(void)
{
    for (int op = 0; op < CGBN_N_OPS; op++)
        for (unsigned bits = 32; bits <= 32768; bits += 32) {
            char methods[METHOD_LIST_MAX];
            built_methods((enum cgbn_op)op, bits, methods, sizeof methods);
            if (strcmp(methods, "none"))
                printf("%s %u %s\n", ops[op].subcommand, bits, methods);
        }
}

struct run {
    enum cgbn_op op;
    struct cli_common opt;
    uint64_t chain;           /* fixed: cgbn_mont_mul calls an element */
    size_t count;             /* instances */
    unsigned words;           /* of the operands now on the device; 0: none */
    uint32_t *a, *b, *m, *r;  /* host: operands, moduli (fixed), results */
    uint32_t *d_a, *d_b, *d_m, *d_r;
    cudaStream_t stream;
};

struct cgbn_case {
    const struct cgbn_kernel *k;
    char method[METHOD_NAME_MAX];
};

static unsigned result_words(const struct run *x, unsigned words)
{
    return x->op == CGBN_MUL ? 2 * words : words;
}

/* Host bytes of one size's operands and results; device bytes are the same. */
static uint64_t bytes_of_size(const struct run *x, unsigned words)
{
    const uint64_t per = (2u + (x->op == CGBN_MONTMUL) + result_words(x, words) / words) * (uint64_t)words;
    return per * sizeof(uint32_t) * x->count;
}

/* A seeded generator gives zero with probability 2^-bits; a zero operand would make gcd and
 * the Montgomery form degenerate, so it becomes one. */
static void never_zero(uint32_t *x, unsigned words)
{
    for (unsigned j = 0; j < words; j++)
        if (x[j])
            return;
    x[0] = 1;
}

static void generate(struct run *x, unsigned bits)
{
    const unsigned w = bits / 32;
    const long count = (long)x->count;
    const uint64_t seed = x->opt.seed;
    const enum cgbn_op op = x->op;
    uint32_t *a = x->a, *b = x->b, *m = x->m;
#pragma omp parallel for schedule(static)
    for (long p = 0; p < count; p++) {
        uint32_t *ap = a + (size_t)p * w, *bp = b + (size_t)p * w;
        if (op == CGBN_MONTMUL) {
            uint32_t *mp = m + (size_t)p * w;
            fixed_random_modulus(bits, seed + (uint64_t)p, mp);
            fixed_random_operands(MPGPU_FIXED_MONTMUL, bits, seed, (uint64_t)p, mp, ap, bp);
        } else {
            random_words(seed, 2 * (uint64_t)p, ap, w);
            random_words(seed, 2 * (uint64_t)p + 1, bp, w);
        }
        never_zero(ap, w);
        never_zero(bp, w);
    }
}

static void free_size(struct run *x)
{
    free(x->a);
    free(x->b);
    free(x->m);
    free(x->r);
    cudaFree(x->d_a);
    cudaFree(x->d_b);
    cudaFree(x->d_m);
    cudaFree(x->d_r);
    x->a = x->b = x->m = x->r = NULL;
    x->d_a = x->d_b = x->d_m = x->d_r = NULL;
    x->words = 0;
}

/* The operands of a size, made once and kept on the device for every TPI of that size. */
static void prepare_size(struct run *x, unsigned bits)
{
    const unsigned w = bits / 32;
    if (x->words == w)
        return;
    free_size(x);
    const size_t op_bytes = x->count * w * sizeof(uint32_t);
    const size_t r_bytes = x->count * result_words(x, w) * sizeof(uint32_t);
    x->a = malloc(op_bytes);
    x->b = malloc(op_bytes);
    x->r = malloc(r_bytes);
    if (x->op == CGBN_MONTMUL)
        x->m = malloc(op_bytes);
    if (!x->a || !x->b || !x->r || (x->op == CGBN_MONTMUL && !x->m))
        cli_bad_input("--count %zu of %u-bit operands: out of host memory", x->count, bits);
    generate(x, bits);
    GPU_CHECK(cudaMalloc((void **)&x->d_a, op_bytes));
    GPU_CHECK(cudaMalloc((void **)&x->d_b, op_bytes));
    GPU_CHECK(cudaMalloc((void **)&x->d_r, r_bytes));
    GPU_CHECK(cudaMemcpy(x->d_a, x->a, op_bytes, cudaMemcpyHostToDevice));
    GPU_CHECK(cudaMemcpy(x->d_b, x->b, op_bytes, cudaMemcpyHostToDevice));
    if (x->op == CGBN_MONTMUL) {
        GPU_CHECK(cudaMalloc((void **)&x->d_m, op_bytes));
        GPU_CHECK(cudaMemcpy(x->d_m, x->m, op_bytes, cudaMemcpyHostToDevice));
    }
    x->words = w;
}

static int cgbn_setup(void *ctx, struct bench_case *c)
{
    struct run *x = ctx;
    const struct cgbn_case *cc = c->data;
    prepare_size(x, cc->k->bits);
    /* Every case starts from zeroed results, so that one whose kernel wrote nothing cannot pass
     * on the results of the TPI before it. */
    const size_t r_bytes = x->count * result_words(x, x->words) * sizeof(uint32_t);
    GPU_CHECK(cudaMemset(x->d_r, 0, r_bytes));
    memset(x->r, 0, r_bytes);
    return 0;
}

struct region {
    const struct run *x;
    const struct cgbn_kernel *k;
};

static cudaError_t timed_region(void *p, const char **failed_call)
{
    const struct region *g = p;
    const struct run *x = g->x;
    const cudaError_t err = g->k->launch(x->d_a, x->d_b, x->d_m, x->d_r, x->count, x->chain, x->stream);
    if (err != cudaSuccess)
        *failed_call = "CGBN kernel launch";
    return err;
}

static int cgbn_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    (void)pass_index;
    struct run *x = ctx;
    const struct region g = {x, ((const struct cgbn_case *)c->data)->k};
    const char *failed = NULL;
    const cudaError_t err = time_gpu_region(timed_region, (void *)&g, x->stream,
                                            gpu_region_held(&x->opt, warmup), 0, 1, ms, &failed);
    if (err != cudaSuccess)
        gpu_fail(failed ? failed : "CGBN kernel", err);
    return 0;
}

static int cgbn_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    (void)c;
    struct run *x = ctx;
    const size_t rw = result_words(x, x->words);
    GPU_CHECK(cudaMemcpy(x->r, x->d_r, x->count * rw * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    spec->elements = x->count;
    spec->element = ops[x->op].element;
    spec->reference = "GMP";
    spec->scratch_bytes = rw * sizeof(uint32_t);
    spec->threads = omp_get_max_threads();
    return 0;
}

static void words_to_mpz(mpz_t z, const uint32_t *x, unsigned words)
{
    mpz_import(z, words, -1, sizeof(uint32_t), 0, 0, x);
}

/* z (below 2^(32 words)) into words words, zero-extended. */
static void mpz_to_words(uint32_t *out, unsigned words, const mpz_t z)
{
    memset(out, 0, words * sizeof(uint32_t));
    mpz_export(out, NULL, -1, sizeof(uint32_t), 0, 0, z);
}

/* fixed: a b^chain mod m, what the loop leaves whatever CGBN's Montgomery radix (cgbn_bench.h);
 * gcd: gcd(a, b). */
static void modular_reference(const struct run *x, uint64_t i, uint32_t *expect)
{
    const unsigned w = x->words;
    mpz_t a, b, m, e;
    mpz_inits(a, b, m, e, NULL);
    words_to_mpz(a, x->a + i * w, w);
    words_to_mpz(b, x->b + i * w, w);
    if (x->op == CGBN_GCD) {
        mpz_gcd(a, a, b);
    } else {
        words_to_mpz(m, x->m + i * w, w);
        mpz_import(e, 1, -1, sizeof x->chain, 0, 0, &x->chain);
        mpz_powm(b, b, e, m);
        mpz_mul(a, a, b);
        mpz_mod(a, a, m);
    }
    mpz_to_words(expect, w, a);
    mpz_clears(a, b, m, e, NULL);
}

static enum bench_ref cgbn_reference(const void *ctx, const struct bench_case *c, uint64_t i, void *expect)
{
    (void)c;
    const struct run *x = ctx;
    if (x->op == CGBN_MUL)
        gmp_mul_words(expect, x->a + i * x->words, x->b + i * x->words, x->words);
    else
        modular_reference(x, i, expect);
    return BENCH_REF_READY;
}

static bool cgbn_compare(const void *ctx, const struct bench_case *c, uint64_t i, const void *expect)
{
    (void)c;
    const struct run *x = ctx;
    const size_t rw = result_words(x, x->words);
    return memcmp(expect, x->r + i * rw, rw * sizeof(uint32_t)) == 0;
}

static void cgbn_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    const struct run *x = ctx;
    const struct cgbn_kernel *k = ((const struct cgbn_case *)c->data)->k;
    switch (x->op) {
    case CGBN_MUL:
        snprintf(params, len, "words=%u;tpi=%u;block=%u", k->bits / 32, k->tpi, k->block_threads);
        break;
    case CGBN_MONTMUL:
        snprintf(params, len, "op=montmul;elements=%zu;chain=%llu;modulus=per-element;tpi=%u;block=%u",
                 x->count, (unsigned long long)x->chain, k->tpi, k->block_threads);
        break;
    default:
        snprintf(params, len, "gcd_bits=0;tpi=%u;block=%u", k->tpi, k->block_threads);
        break;
    }
}

static const struct bench_ops cgbn_ops = {
    .setup = cgbn_setup,
    .pass = cgbn_pass,
    .check_begin = cgbn_check_begin,
    .reference = cgbn_reference,
    .compare = cgbn_compare,
    .describe = cgbn_describe,
};

enum { OPT_CHAIN = 1000 };

static int handle_option(int id, const char *arg, void *ctx)
{
    struct run *x = ctx;
    if (id == OPT_CHAIN)
        x->chain = cli_parse_u64("--chain", arg, 1, UINT64_C(1) << 32);
    return 0;
}

static const struct cli_option fixed_options[] = {
    {"chain", "K", OPT_CHAIN, "cgbn_mont_mul K times per element in registers, each time on the last result (default 1); the throughput counts all K"},
    {0},
};

/* The methods --method asks for (wanted), and which of them it names one by one (named):
 * without --method, or with "all", every method built for the size. */
static void parse_methods(const struct cli_common *opt, bool *wanted, bool *named)
{
    for (size_t v = 0; v < N_VARIANTS; v++) {
        wanted[v] = opt->n_methods == 0;
        named[v] = false;
    }
    for (size_t i = 0; i < opt->n_methods; i++) {
        bool known = !strcmp(opt->methods[i], "all");
        for (size_t v = 0; v < N_VARIANTS; v++) {
            char name[METHOD_NAME_MAX];
            method_name(v, name, sizeof name);
            if (!strcmp(opt->methods[i], name))
                named[v] = known = true;
            wanted[v] |= named[v] || !strcmp(opt->methods[i], "all");
        }
        if (!known)
            cli_bad_input("--method '%s' is not accepted; accepted: cgbn-tpiN (N 4, 8, 16 or 32: "
                          "threads per instance, 128-thread blocks), cgbn-tpiN-bM (M 32, 64, 256 or "
                          "512 threads a block), all", opt->methods[i]);
    }
}

/* The cases, every size x every method wanted and built, in that order; a method named in
 * --method but not built for a size, or a size with none, is bad input. */
static size_t make_cases(const struct run *x, struct bench_case *cases, struct cgbn_case *ccs)
{
    bool wanted[N_VARIANTS], named[N_VARIANTS];
    parse_methods(&x->opt, wanted, named);
    size_t n = 0;
    for (size_t s = 0; s < x->opt.n_bits; s++) {
        const unsigned bits = x->opt.bits_list[s];
        char built[METHOD_LIST_MAX];
        built_methods(x->op, bits, built, sizeof built);
        const size_t first = n;
        for (size_t v = 0; v < N_VARIANTS; v++) {
            if (!wanted[v])
                continue;
            const struct cgbn_kernel *k = kernel_of(x->op, bits, v);
            method_name(v, ccs[n].method, sizeof ccs[n].method);
            if (!k && named[v])
                cli_bad_input("%s: %s at %u bits was not built; built at %u bits: %s",
                              ops[x->op].subcommand, ccs[n].method, bits, bits, built);
            if (!k)
                continue;
            ccs[n].k = k;
            cases[n] = (struct bench_case){
                .method = ccs[n].method,
                .bits = bits,
                .count = x->count * (x->op == CGBN_MONTMUL ? x->chain : 1),
                .throughput_unit = ops[x->op].unit,
                .timed_region = gpu_region_name(&x->opt),
                .data = &ccs[n],
            };
            n++;
        }
        if (n == first) {
            char sizes[512];
            built_sizes(x->op, sizes, sizeof sizes);
            cli_bad_input("%s: --bits %u with --method as given was not built; built: %s bits "
                          "(experiments/peers/cgbn.sh builds others)",
                          ops[x->op].subcommand, bits, sizes);
        }
    }
    return n;
}

/* Refuses, before any work, a run whose largest size does not fit in host memory or in the
 * GPU's free memory. */
static void require_memory(const struct run *x)
{
    uint64_t most = 0;
    unsigned bits = 0;
    for (size_t s = 0; s < x->opt.n_bits; s++)
        if (bytes_of_size(x, x->opt.bits_list[s] / 32) > most) {
            most = bytes_of_size(x, x->opt.bits_list[s] / 32);
            bits = x->opt.bits_list[s];
        }
    char what[96];
    snprintf(what, sizeof what, "--count %zu of %u-bit operands and results", x->count, bits);
    hostmem_require(most, what);
    size_t free_bytes = 0, total = 0;
    GPU_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (most > free_bytes * 0.9) {
        char need[32], have[32];
        hostmem_format(need, sizeof need, most);
        hostmem_format(have, sizeof have, free_bytes);
        cli_bad_input("%s need %s of device memory; the GPU has %s free; give a smaller --count",
                      what, need, have);
    }
}

static void usage(FILE *f)
{
    fprintf(f, "usage: cgbn_bench mul|fixed|gcd [options]   (cgbn_bench OP --help for the options)\n"
               "       cgbn_bench --list                    (the sizes and methods built)\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (!strcmp(argv[1], "--list")) {
        print_list();
        return 0;
    }
    if (!strcmp(argv[1], "--help")) {
        usage(stdout);
        return 0;
    }
    struct run x;
    memset(&x, 0, sizeof x);
    x.chain = 1;
    int op = 0;
    while (op < CGBN_N_OPS && strcmp(argv[1], ops[op].subcommand))
        op++;
    if (op == CGBN_N_OPS) {
        fprintf(stderr, "cgbn_bench: '%s' is not an operation; accepted: mul, fixed, gcd, --list\n", argv[1]);
        return EXIT_BAD_INPUT;
    }
    x.op = (enum cgbn_op)op;
    char usage_line[96], description[2048], sizes[512], methods[METHOD_LIST_MAX], default_bits[16];
    built_sizes(x.op, sizes, sizeof sizes);
    built_shapes(x.op, methods, sizeof methods);
    snprintf(usage_line, sizeof usage_line, "cgbn_bench %s [--bits N[,N...]] [--count N] [--method M[,M...]]%s [options]",
             ops[op].subcommand, x.op == CGBN_MONTMUL ? " [--chain K]" : "");
    snprintf(default_bits, sizeof default_bits, "%u", ops[op].default_bits);
    snprintf(description, sizeof description,
             "Times NVIDIA CGBN's %s on the GPU, one instance per problem, with mpgpu's timing "
             "(held, or --include-launch), checks the results against GMP and writes mpgpu's rows "
             "(method cgbn-tpiN: N threads per instance in blocks of 128 threads, as CGBN's samples "
             "launch; cgbn-tpiN-bM: in blocks of M threads). Built here: %s bits; %s.",
             x.op == CGBN_MUL ? "cgbn_mul_wide (full products from and to device memory)"
             : x.op == CGBN_MONTMUL ? "cgbn_mont_mul (a register-resident chain, each element with its own odd modulus)"
                                    : "cgbn_gcd (one pair an instance)",
             sizes, methods);
    const struct cli_spec spec = {
        .command = ops[op].subcommand,
        .usage = usage_line,
        .description = description,
        .common = OPT_COUNT | OPT_BITS | OPT_METHOD | OPT_REPS | OPT_WARMUP | OPT_SEED | OPT_DEVICE |
                  OPT_CSV | OPT_VERIFY | OPT_QUIET | OPT_INCLUDE_LAUNCH | OPT_WITH_REPS,
        .bits_min = 32,
        .bits_max = 32768,
        .bits_multiple = 32,
        .bits_default = default_bits,
        .options = x.op == CGBN_MONTMUL ? fixed_options : NULL,
        .handle = handle_option,
        .ctx = &x,
        .methods_help = "methods: cgbn-tpiN (N = 4, 8, 16, 32: CGBN's threads per instance, in 128-thread blocks), cgbn-tpiN-bM (in blocks of M = 32, 64, 256, 512 threads), all (the default: every one built for the size)",
    };
    cli_parse(argc - 1, argv + 1, &spec, &x.opt);
    if (!x.opt.bits_set)
        x.opt.bits_list[0] = ops[op].default_bits;
    x.count = x.opt.count;
    if (x.op == CGBN_MONTMUL && x.count > UINT64_MAX / x.chain)
        cli_bad_input("fixed: --count %zu times --chain %llu operations overflow a 64-bit count",
                      x.count, (unsigned long long)x.chain);
    struct bench_case *cases = calloc(x.opt.n_bits * N_VARIANTS, sizeof *cases);
    struct cgbn_case *ccs = calloc(x.opt.n_bits * N_VARIANTS, sizeof *ccs);
    if (!cases || !ccs)
        cli_bad_input("out of host memory for %zu cases", x.opt.n_bits * N_VARIANTS);
    const size_t n_cases = make_cases(&x, cases, ccs);

    char why[256];
    const bool have_gpu = gpu_open(x.opt.device, why, sizeof why);
    struct bench b;
    bench_open(&b, ops[op].subcommand, &x.opt, have_gpu, x.opt.device, have_gpu ? NULL : why,
               "CGBN runs on the GPU only");
    if (!have_gpu)
        return EXIT_GPU_ERROR;
    require_memory(&x);
    GPU_CHECK(cudaStreamCreate(&x.stream));
    const int status = bench_run(&b, &cgbn_ops, &x, cases, n_cases);
    free_size(&x);
    cudaStreamDestroy(x.stream);
    free(cases);
    free(ccs);
    return status;
}
