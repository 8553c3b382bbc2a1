/* mpgpu fixed: fixed-precision arithmetic in straight-line code per precision (004, Carlessi
 * and Kashani, EPFL 2013), with the Montgomery reduction the study could not make work and the
 * multiplication and exponentiation built on it; every result checked against GMP. */
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"
#include "fixed_ref.h"
#include "gpu.h"
#include "hexio.h"
#include "hostmem.h"
#include "loop_run.h"
#include "mpgpu.h"
#include "name_list.h"
#include "path_claim.h"
#include "progress.h"
#include "timing.h"

enum {
    OPT_OP = 1000, OPT_CHAIN, OPT_IMPL, OPT_OPERANDS, OPT_WORD_ORDER, OPT_MEM, OPT_GRID, OPT_BLOCK,
    OPT_MODULUS, OPT_MODULI, OPT_INPUT, OPT_RESOURCES
};

/* --op's names: the library's (mpgpu_fixed_op_get), in the order of mpgpu_fixed_op. */
static const char *op_names[MPGPU_FIXED_N_OPS];

/* The variants of --impl, --mem, --operands and --word-order, in the order their cases run;
 * the index is the library's impl (mpgpu_fixed_impl), and for the others the flag it sets
 * (mpgpu_fixed_options' global_mem, interleaved, coalesced). */
static const char *const impl_names[MPGPU_FIXED_N_IMPLS] = {"ptx", "c", "fp64", "hybrid"};
static const char *const mem_names[] = {"local", "global"};
static const char *const operands_names[] = {"separate", "interleaved"};
static const char *const word_order_names[] = {"contiguous", "coalesced"};

struct fixed_args {
    /* Each a list (issue 36): every combination runs. */
    bool ops[MPGPU_FIXED_N_OPS], impls[MPGPU_FIXED_N_IMPLS], mems[2], operands[2], word_orders[2];
    /* The (op, impl) pairs that run: --method's, else every pairing of --op and --impl. */
    bool pairs[MPGPU_FIXED_N_OPS][MPGPU_FIXED_N_IMPLS];
    uint64_t chain;
    unsigned grid, block;
    const char *modulus, *input;
    bool moduli_each; /* --moduli per-element */
    bool resources;
};

static int fixed_handle(int id, const char *arg, void *ctx)
{
    struct fixed_args *f = ctx;
    switch (id) {
    case OPT_OP: name_list_parse("--op", arg, op_names, MPGPU_FIXED_N_OPS, NULL, NULL, f->ops); break;
    case OPT_IMPL: name_list_parse("--impl", arg, impl_names, MPGPU_FIXED_N_IMPLS, NULL, NULL, f->impls); break;
    case OPT_CHAIN: f->chain = cli_parse_u64("--chain", arg, 1, UINT64_C(1) << 32); break;
    case OPT_OPERANDS: name_list_parse("--operands", arg, operands_names, 2, NULL, NULL, f->operands); break;
    case OPT_WORD_ORDER: name_list_parse("--word-order", arg, word_order_names, 2, NULL, NULL, f->word_orders); break;
    case OPT_MEM: name_list_parse("--mem", arg, mem_names, 2, NULL, NULL, f->mems); break;
    case OPT_GRID: f->grid = (unsigned)cli_parse_u64("--grid", arg, 1, 0x7fffffff); break;
    case OPT_BLOCK: f->block = (unsigned)cli_parse_u64("--block", arg, 1, 1024); break;
    case OPT_MODULUS: f->modulus = arg; break;
    case OPT_MODULI:
        if (strcmp(arg, "shared") && strcmp(arg, "per-element"))
            cli_bad_input("--moduli '%s' is not accepted; accepted: shared, per-element", arg);
        f->moduli_each = !strcmp(arg, "per-element");
        break;
    case OPT_INPUT: path_claim("--input", f->input = arg, PATH_READ); break;
    case OPT_RESOURCES: f->resources = true; break;
    }
    return 0;
}

static const struct cli_option fixed_options[] = {
    {"op", "OP[,OP...]", OPT_OP, "operations, a comma list (default montmul): add, sub (two's complement in the operand width), addm, subm (branch-free mod m), mul (column order), karatsuba (one level), montred (T R^-1 mod m, R = 2^(32 ceil(P/32))), montmul (a b R^-1 mod m), powm (a^b mod m); all: each"},
    {"chain", "K", OPT_CHAIN, "apply the operation K times per element in registers, each time to the last result (default 1); the throughput counts all K"},
    {"impl", "ptx|c|fp64|hybrid[,...]", OPT_IMPL, "carry chains in inline PTX or in plain C; or, montmul and powm only, 52-bit limbs whose products are fused multiply-adds on the FP64 pipe (fp64), or the PTX path with part of its word products on the FP64 pipe (hybrid) (default ptx; a comma list, or all, runs each, fp64 and hybrid with the ops they have)"},
    {"operands", "separate|interleaved[,...]", OPT_OPERANDS, "the two operands in separate arrays, or interleaved word by word in one (default separate; 004 section 3.4; a comma list, or all, runs each)"},
    {"word-order", "contiguous|coalesced[,...]", OPT_WORD_ORDER, "each element's words together (contiguous: IDX), or word j of every element together (coalesced: COAL_IDX) (default coalesced; a comma list, or all, runs each)"},
    {"mem", "local|global[,...]", OPT_MEM, "operands copied to registers (local: _loc), or used in place in device memory (global: _glo, the operands and the result; mul, karatsuba, montred, montmul and powm keep their temporaries in registers) (default local; a comma list, or all, runs each)"},
    {"grid", "G", OPT_GRID, "thread blocks (1..2^31-1; default: one element per thread); fewer blocks loop over the elements"},
    {"block", "B", OPT_BLOCK, "threads per block, 1..1024 (default 256)"},
    {"modulus", "HEX", OPT_MODULUS, "the modulus of modular operations, below 2^P, at least 3, odd for montred/montmul/powm (default: a random odd P-bit one from --seed)"},
    {"moduli", "shared|per-element", OPT_MODULI, "one modulus for all elements, or (CGBN's setting) a random odd P-bit one of each element's own from --seed, the kernel deriving its Montgomery constants, for every op that takes a modulus (default shared)"},
    {"input", "FILE", OPT_INPUT, "read one 'HEX_A HEX_B' line per element from FILE ('-': stdin) instead of random operands (montred: A is T < mR, B is ignored); one --bits and one --op"},
    {"resources", NULL, OPT_RESOURCES, "print the registers, stack and spills ptxas reported for every kernel when mpgpu was built (of --bits, or every precision; 004 Fig. 3.6) and exit"},
    {0},
};

/* The current case on the device: its arrays in the layout of opts, and a host buffer of the
 * same layout that the operands and results pass through (mpgpu_fixed_pack, _unpack). */
struct fixed_device {
    mpgpu_fixed_op op;
    unsigned bits;
    size_t count;
    mpgpu_fixed_options opts;
    mpgpu_fixed_modulus mod;
    size_t a_words, b_words, r_words; /* of d_a, d_b, d_r (mpgpu_fixed_layout_words) */
    uint32_t *d_a, *d_b, *d_r;        /* d_b inside d_a's allocation, after a */
    uint32_t *d_m;                    /* one modulus per element (r_words), or NULL */
    uint32_t *stage;
    cudaStream_t stream;
};

/* The state of a run: the operands of the current case on the host, its device buffers. */
struct fixed_bench {
    struct cli_common opt;
    struct fixed_args args;
    uint32_t m[MPGPU_FIXED_MAX_WORDS];
    bool modulus_given;
    size_t count;
    uint32_t *a, *b, *r; /* element-major */
    uint32_t *m_each;    /* element-major, the case's moduli with --moduli per-element, or NULL */
    uint32_t case_m[MPGPU_FIXED_MAX_WORDS]; /* the current case's modulus */
    struct hex_pairs input;
    struct fixed_device dev;
    bool dev_open;
};

/* A case's two-way variants as bits of one number, so that one loop runs every combination
 * (with the implementation above them: v / N_VARIANTS). */
enum {
    VARIANT_WORD_ORDER = 1,
    VARIANT_OPERANDS = 2,
    VARIANT_MEM = 4,
    N_VARIANTS = 8,
};

struct fixed_case {
    unsigned bits;
    mpgpu_fixed_op op;
    mpgpu_fixed_impl impl;
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

/* --method names a case as its rows do, OP-IMPL (montmul-fp64), or all: every op in every impl
 * that has it. It selects pairs, where --op and --impl select every pairing of their lists, so
 * it is given instead of them. */
static void select_methods(const struct cli_common *opt, struct fixed_args *a, bool op_or_impl)
{
    if (!opt->n_methods) {
        for (int op = 0; op < MPGPU_FIXED_N_OPS; op++)
            for (int impl = 0; impl < MPGPU_FIXED_N_IMPLS; impl++)
                a->pairs[op][impl] = a->ops[op] && a->impls[impl];
        return;
    }
    if (op_or_impl)
        cli_bad_input("fixed: --method names the op and the impl together (montmul-fp64); give it "
                      "or --op and --impl, not both");
    memset(a->ops, 0, sizeof a->ops);
    for (size_t i = 0; i < opt->n_methods; i++) {
        const char *name = opt->methods[i];
        const bool all = !strcmp(name, "all");
        bool found = all;
        for (int op = 0; op < MPGPU_FIXED_N_OPS; op++)
            for (int impl = 0; impl < MPGPU_FIXED_N_IMPLS; impl++) {
                char pair[32];
                snprintf(pair, sizeof pair, "%s-%s", op_names[op], impl_names[impl]);
                const bool named = all || !strcmp(name, pair);
                const bool built =
                    mpgpu_fixed_impl_check((mpgpu_fixed_op)op, (mpgpu_fixed_impl)impl) == MPGPU_OK;
                if (named && !all && !built)
                    cli_bad_input("fixed: method %s is not built: --impl %s has montmul and powm "
                                  "only", name, impl_names[impl]);
                found |= named;
                a->pairs[op][impl] |= named && built;
                a->ops[op] |= named && built;
            }
        if (!found)
            cli_bad_input("fixed: unknown method '%s'; accepted: OP-IMPL, OP one of --op's, IMPL "
                          "one of --impl's (fp64 and hybrid: montmul and powm only), or all", name);
    }
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
    memset(m, 0, MPGPU_FIXED_MAX_WORDS * sizeof m[0]);
    mpz_export(m, NULL, -1, sizeof(uint32_t), 0, 0, z);
    mpz_clear(z);
}

/* The shape of op at a precision of 64..1024 bits, which the library always gives. */
static mpgpu_fixed_op_info op_info(mpgpu_fixed_op op, unsigned bits)
{
    mpgpu_fixed_op_info info;
    mpgpu_fixed_op_get(op, bits, &info);
    return info;
}

/* --input's operands against the operation's rule: bad input names the line's element. */
static void check_input(const struct fixed_bench *f, mpgpu_fixed_op op, unsigned bits)
{
    const mpgpu_fixed_op_info info = op_info(op, bits);
    const unsigned n = info.words, aw = info.a_words;
    const struct hex_pairs *hp = &f->input;
    uint32_t bound[2 * MPGPU_FIXED_MAX_WORDS + 1];
    for (size_t p = 0; p < hp->count; p++) {
        const uint32_t *a = hp->a + p * hp->words, *b = hp->b + p * hp->words;
        if (op == MPGPU_FIXED_MUL || op == MPGPU_FIXED_KARATSUBA) {
            if (bits % 32 && ((a[n - 1] | b[n - 1]) >> (bits % 32)))
                cli_bad_input("--input %s: element %zu has an operand not below 2^%u", f->args.input, p, bits);
        } else if (op == MPGPU_FIXED_MONTRED) {
            memset(bound, 0, sizeof bound);
            memcpy(bound + n, f->m, n * sizeof(uint32_t)); /* mR */
            if (!fixed_less(a, bound, aw))
                cli_bad_input("--input %s: element %zu: T is not below m R = m 2^%u", f->args.input, p, 32 * n);
        } else if (info.modular) {
            if (!fixed_less(a, f->m, n) || (op != MPGPU_FIXED_POWM && !fixed_less(b, f->m, n)))
                cli_bad_input("--input %s: element %zu: operand not below the modulus m", f->args.input, p);
        }
    }
}

static void free_operands(struct fixed_bench *f)
{
    free(f->a);
    free(f->b);
    free(f->r);
    free(f->m_each);
    f->a = f->b = f->r = f->m_each = NULL;
}

/* A failed libmpgpu call as a CUDA failure of the command line's (gpu_fail, the timed region):
 * the CUDA error and call the library recorded; an argument the library refused, which the
 * checks of cmd_fixed make impossible, as cudaErrorInvalidValue with the library's message. */
static cudaError_t cuda_error_of(mpgpu_status st, const char **failed_call)
{
    if (st == MPGPU_ERR_NO_DEVICE || st == MPGPU_ERR_OUT_OF_DEVICE_MEMORY || st == MPGPU_ERR_CUDA) {
        mpgpu_error_info e;
        mpgpu_last_error(&e);
        *failed_call = e.cuda_call;
        return (cudaError_t)e.cuda_error;
    }
    *failed_call = mpgpu_status_string(st);
    return st == MPGPU_OK ? cudaSuccess : cudaErrorInvalidValue;
}

#define DEVICE_TRY(call)                                                                    \
    do {                                                                                    \
        cudaError_t device_try_err_ = (call);                                               \
        if (device_try_err_ != cudaSuccess) {                                               \
            *failed_call = #call;                                                           \
            return device_try_err_;                                                         \
        }                                                                                   \
    } while (0)
#define LIBRARY_TRY(call)                                                                   \
    do {                                                                                    \
        mpgpu_status library_try_st_ = (call);                                              \
        if (library_try_st_ != MPGPU_OK)                                                    \
            return cuda_error_of(library_try_st_, failed_call);                             \
    } while (0)

/* The device arrays of d's case (op, bits, count, opts, mod set) and its stream. */
static cudaError_t fixed_device_open(struct fixed_device *d, bool moduli_each, const char **failed_call)
{
    LIBRARY_TRY(mpgpu_fixed_layout_words(d->op, d->bits, d->count, &d->opts, &d->a_words,
                                         &d->b_words, &d->r_words));
    const size_t ab = d->a_words + d->b_words;
    d->stage = malloc((ab > d->r_words ? ab : d->r_words) * sizeof(uint32_t));
    if (!d->stage) {
        *failed_call = "malloc (host staging buffer)";
        return cudaErrorMemoryAllocation;
    }
    DEVICE_TRY(cudaStreamCreate(&d->stream));
    DEVICE_TRY(cudaMalloc((void **)&d->d_a, ab * sizeof(uint32_t)));
    d->d_b = d->b_words ? d->d_a + d->a_words : NULL;
    DEVICE_TRY(cudaMalloc((void **)&d->d_r, d->r_words * sizeof(uint32_t)));
    if (moduli_each) /* laid out as n-word results are: r_words words */
        DEVICE_TRY(cudaMalloc((void **)&d->d_m, d->r_words * sizeof(uint32_t)));
    return cudaSuccess;
}

static void fixed_device_close(struct fixed_device *d)
{
    cudaFree(d->d_a);
    cudaFree(d->d_r);
    cudaFree(d->d_m);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    free(d->stage);
    memset(d, 0, sizeof *d);
}

/* Element-major a and b (and the moduli m_each, with d_m) into the device arrays, through the
 * staging buffer. */
static cudaError_t fixed_device_upload(struct fixed_device *d, const uint32_t *a, const uint32_t *b,
                                       const uint32_t *m_each, const char **failed_call)
{
    if (d->d_m) {
        LIBRARY_TRY(mpgpu_fixed_pack_moduli(d->bits, d->count, &d->opts, m_each, d->stage));
        DEVICE_TRY(cudaMemcpyAsync(d->d_m, d->stage, d->r_words * sizeof(uint32_t),
                                   cudaMemcpyHostToDevice, d->stream));
        DEVICE_TRY(cudaStreamSynchronize(d->stream));
    }
    LIBRARY_TRY(mpgpu_fixed_pack(d->op, d->bits, d->count, &d->opts, a, b, d->stage,
                                 d->b_words ? d->stage + d->a_words : NULL));
    DEVICE_TRY(cudaMemcpyAsync(d->d_a, d->stage, (d->a_words + d->b_words) * sizeof(uint32_t),
                               cudaMemcpyHostToDevice, d->stream));
    DEVICE_TRY(cudaStreamSynchronize(d->stream));
    return cudaSuccess;
}

/* Fills the results with a pattern no correct result is made of only, so that an element the
 * kernel skipped cannot pass as one computed. */
static cudaError_t fixed_device_poison(struct fixed_device *d, const char **failed_call)
{
    DEVICE_TRY(cudaMemsetAsync(d->d_r, 0xa5, d->r_words * sizeof(uint32_t), d->stream));
    return cudaSuccess;
}

static cudaError_t fixed_device_launch(struct fixed_device *d, const char **failed_call)
{
    if (d->d_m)
        LIBRARY_TRY(mpgpu_fixed_device_moduli(d->op, d->bits, d->count, &d->opts, d->d_m, d->d_a,
                                              d->d_b, d->d_r, d->stream));
    else
        LIBRARY_TRY(mpgpu_fixed_device(d->op, d->bits, d->count, &d->opts, &d->mod, d->d_a,
                                       d->d_b, d->d_r, d->stream));
    return cudaSuccess;
}

/* The results back to element-major r, through the staging buffer. */
static cudaError_t fixed_device_download(struct fixed_device *d, uint32_t *r, const char **failed_call)
{
    DEVICE_TRY(cudaMemcpyAsync(d->stage, d->d_r, d->r_words * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, d->stream));
    DEVICE_TRY(cudaStreamSynchronize(d->stream));
    LIBRARY_TRY(mpgpu_fixed_unpack(d->op, d->bits, d->count, &d->opts, d->stage, r));
    return cudaSuccess;
}

static int fixed_setup(void *ctx, struct bench_case *c)
{
    struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    const mpgpu_fixed_op_info info = op_info(fc->op, fc->bits);
    const unsigned aw = info.a_words, bw = info.b_words, rw = info.r_words;
    uint32_t *m = f->case_m;
    memset(m, 0, sizeof f->case_m);
    if (f->modulus_given)
        memcpy(m, f->m, sizeof f->case_m);
    else
        fixed_random_modulus(fc->bits, f->opt.seed, m);
    const bool moduli_each = f->args.moduli_each && info.modular;
    const unsigned n = info.words;
    f->a = malloc(f->count * aw * sizeof(uint32_t));
    f->b = malloc(f->count * (bw ? bw : 1) * sizeof(uint32_t));
    f->r = malloc(f->count * rw * sizeof(uint32_t));
    f->m_each = moduli_each ? malloc(f->count * n * sizeof(uint32_t)) : NULL;
    if (!f->a || !f->b || !f->r || (moduli_each && !f->m_each))
        cli_bad_input("--count %zu of %u-bit %s: out of host memory", f->count, fc->bits, info.name);
    const long count = (long)f->count;
    if (f->args.input) {
        for (long p = 0; p < count; p++) {
            memcpy(f->a + p * aw, f->input.a + p * f->input.words, aw * sizeof(uint32_t));
            memcpy(f->b + p * bw, f->input.b + p * f->input.words, bw * sizeof(uint32_t));
        }
    } else {
        const uint64_t seed = f->opt.seed;
        uint32_t *a = f->a, *b = f->b, *m_each = f->m_each;
        struct progress_phase ph;
        struct loop_run run;
        loop_run_start(&run, progress_phase_begin(&ph, f->opt.quiet, "elements", f->count,
                                                  "fixed %s: generating the operands", c->method));
#pragma omp parallel for schedule(static)
        for (long p = 0; p < count; p++) {
            if (loop_run_stopped(&run))
                continue;
            const uint32_t *mp = m;
            if (m_each) {
                fixed_element_modulus(fc->bits, seed, (uint64_t)p, m_each + p * n);
                mp = m_each + p * n;
            }
            fixed_random_operands(fc->op, fc->bits, seed, (uint64_t)p, mp, a + p * aw, b + p * bw);
            loop_run_item_done(&run, (uint64_t)p);
        }
        progress_phase_end(&ph);
        if (loop_run_stopped(&run))
            return BENCH_STOPPED;
    }
    struct fixed_device *d = &f->dev;
    memset(d, 0, sizeof *d);
    d->op = fc->op;
    d->bits = fc->bits;
    d->count = f->count;
    d->opts = (mpgpu_fixed_options){
        .impl = fc->impl, .global_mem = fc->global_mem, .interleaved = fc->interleaved,
        .coalesced = fc->coalesced, .chain = f->args.chain, .grid = f->args.grid,
        .block = f->args.block,
    };
    const char *failed = "mpgpu_fixed_modulus_set";
    cudaError_t err = cudaSuccess;
    if (info.modular && !moduli_each)
        err = cuda_error_of(mpgpu_fixed_modulus_set(&d->mod, fc->bits, m), &failed);
    f->dev_open = true;
    if (err == cudaSuccess)
        err = fixed_device_open(d, moduli_each, &failed);
    if (err == cudaSuccess && !f->opt.include_transfers)
        err = fixed_device_upload(d, f->a, f->b, f->m_each, &failed);
    if (err == cudaSuccess)
        err = fixed_device_poison(d, &failed);
    if (err != cudaSuccess)
        gpu_fail(failed, err);
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
        err = fixed_device_upload(&f->dev, f->a, f->b, f->m_each, failed_call);
    if (err == cudaSuccess)
        err = fixed_device_launch(&f->dev, failed_call);
    if (err == cudaSuccess && f->opt.include_transfers)
        err = fixed_device_download(&f->dev, f->r, failed_call);
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
        const char *failed = NULL;
        cudaError_t err = fixed_device_download(&f->dev, f->r, &failed);
        if (err != cudaSuccess)
            gpu_fail(failed, err);
    }
    spec->elements = f->count;
    spec->element = "element";
    spec->reference = "GMP";
    spec->scratch_bytes = op_info(fc->op, fc->bits).r_words * sizeof(uint32_t);
    spec->threads = omp_get_max_threads();
    return 0;
}

/* Element i's result from fixed_ref (GMP underneath), in the op's result width. */
static enum bench_ref fixed_reference(const void *ctx, const struct bench_case *c, uint64_t i, void *expect)
{
    const struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    const mpgpu_fixed_op_info info = op_info(fc->op, fc->bits);
    fixed_ref(fc->op, fc->bits, f->args.chain, f->a + i * info.a_words, f->b + i * info.b_words,
              f->m_each ? f->m_each + i * info.words : f->case_m, expect);
    return BENCH_REF_READY;
}

static bool fixed_compare(const void *ctx, const struct bench_case *c, uint64_t i, const void *expect)
{
    const struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    const unsigned rw = op_info(fc->op, fc->bits).r_words;
    return memcmp(expect, f->r + i * rw, rw * sizeof(uint32_t)) == 0;
}

static void fixed_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    struct fixed_bench *f = ctx;
    const struct fixed_case *fc = c->data;
    snprintf(params, len,
             "op=%s;impl=%s;elements=%zu;chain=%llu;operands=%s;word_order=%s;mem=%s;grid=%u;block=%u;modulus=%s",
             op_names[fc->op], impl_names[fc->impl], f->count, (unsigned long long)f->args.chain,
             operands_names[fc->interleaved], word_order_names[fc->coalesced], mem_names[fc->global_mem],
             f->args.grid, f->args.block,
             f->args.moduli_each && op_info(fc->op, fc->bits).modular ? "per-element"
             : f->modulus_given                                       ? "given"
                                                                      : "random");
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
    size_t k = 0;
    s[0] = '\0';
    for (size_t i = 0; i < mpgpu_fixed_bits_count(); i++) {
        unsigned bits;
        mpgpu_fixed_bits_get(i, &bits);
        k += snprintf(s + k, len - k, "%s%u", i ? ", " : "", bits);
    }
}

/* --resources: ptxas's report of every kernel, recorded in the library at build time
 * (mpgpu_fixed_resources_get), of the precisions asked for. */
static int print_resources(const struct cli_common *opt)
{
    printf("%-5s %-6s %-9s %-6s %9s %11s %12s %11s\n", "bits", "mem", "op", "impl", "registers",
           "stack_bytes", "spill_stores", "spill_loads");
    for (size_t i = 0; i < mpgpu_fixed_resources_count(); i++) {
        mpgpu_fixed_resources k;
        mpgpu_fixed_resources_get(i, &k);
        bool wanted = !opt->bits_set;
        for (size_t s = 0; s < opt->n_bits && !wanted; s++)
            wanted = opt->bits_list[s] == k.bits;
        if (wanted)
            printf("%-5u %-6s %-9s %-6s %9u %11u %12u %11u\n", k.bits, mem_names[k.global_mem],
                   op_names[k.op], impl_names[k.impl], k.registers, k.stack_bytes,
                   k.spill_store_bytes, k.spill_load_bytes);
    }
    return 0;
}

int cmd_fixed(int argc, char **argv)
{
    struct fixed_bench f;
    memset(&f, 0, sizeof f);
    f.args.chain = 1;
    f.args.block = 256;
    for (int op = 0; op < MPGPU_FIXED_N_OPS; op++)
        op_names[op] = op_info((mpgpu_fixed_op)op, MPGPU_FIXED_MIN_BITS).name;
    char built[256], description[1536], bits_accepted[300];
    built_list(built, sizeof built);
    snprintf(bits_accepted, sizeof bits_accepted, "one of the precisions built: %s", built);
    snprintf(description, sizeof description,
             "Runs --count independent fixed-precision operations on the GPU, one thread per element, "
             "each --chain times in registers, in straight-line code built for each precision "
             "(004, Carlessi and Kashani); checks every result against GMP (see --verify) and reports "
             "kernel time and operations per second. A P-bit number is ceil(P/32) 32-bit words. "
             "Precisions built: %s; add others with meson setup -Dfixed_bits=P[,P...] (64..1024). "
             "--bits, --op, --impl, --mem, --operands and --word-order each take a comma list (or "
             "repeat): every combination runs, in that order of the options, the last varying "
             "fastest, each option's items in the order its help lists them. --method names "
             "(op, impl) pairs instead of --op and --impl.",
             built);
    const struct cli_spec spec = {
        .command = "fixed",
        .usage = "mpgpu fixed [--bits P[,P...]] [--op OP[,OP...]] [--count N] [--chain K] [options]",
        .description = description,
        .common = OPT_COUNT | OPT_BITS | OPT_METHOD | OPT_REPS | OPT_WARMUP | OPT_SEED | OPT_DEVICE |
                  OPT_CSV | OPT_VERIFY | OPT_INCLUDE_TRANSFERS | OPT_INCLUDE_LAUNCH | OPT_QUIET,
        .verify_help = "check each element against GMP (the op chained --chain times with mpz, in the op's result width): all of them, a sample of about 1000 spread over the batch (every k-th and the last), or none",
        .bits_accepted = bits_accepted,
        .bits_default = "256",
        .options = fixed_options,
        .handle = fixed_handle,
        .ctx = &f.args,
        .methods_help =
            "  OP-IMPL                        an op of --op in an impl of --impl, as the rows name "
            "them: montmul-ptx, powm-fp64, add-c, ... (fp64 and hybrid: montmul and powm only)\n"
            "  all                            every op in every impl that has it\n",
        .examples = "  mpgpu fixed --bits 256 --op montmul --count 2^20 --chain 100\n"
                    "  mpgpu fixed --bits 109,131,163,191,239 --op add,mul,karatsuba --impl ptx,c\n"
                    "  mpgpu fixed --bits 239 --op add --mem global --grid 64 --block 64\n"
                    "  mpgpu fixed --bits 256,384,512 --op montmul,powm --impl ptx,fp64 --chain 100\n"
                    "  mpgpu fixed --bits 256 --op montmul --impl ptx,fp64 --moduli per-element\n"
                    "  mpgpu fixed --bits 256 --method montmul-ptx,powm-fp64 --chain 100\n",
    };
    cli_parse(argc, argv, &spec, &f.opt);
    if (!f.opt.bits_set)
        f.opt.bits_list[0] = 256;
    const bool op_or_impl =
        cli_option_given(argc, argv, "op") || cli_option_given(argc, argv, "impl");
    select_default(f.args.ops, MPGPU_FIXED_N_OPS, MPGPU_FIXED_MONTMUL);
    select_default(f.args.impls, MPGPU_FIXED_N_IMPLS, MPGPU_FIXED_IMPL_PTX);
    select_methods(&f.opt, &f.args, op_or_impl);
    select_default(f.args.mems, 2, 0);
    select_default(f.args.operands, 2, 0);
    select_default(f.args.word_orders, 2, 1);

    for (size_t s = 0; s < f.opt.n_bits; s++) {
        const unsigned p = f.opt.bits_list[s];
        if (mpgpu_fixed_check(MPGPU_FIXED_ADD, p) == MPGPU_OK)
            continue;
        if (p < MPGPU_FIXED_MIN_BITS || p > MPGPU_FIXED_MAX_BITS)
            cli_bad_input("fixed: --bits %u is not accepted; accepted: %s (others in %u..%u by "
                          "meson setup -Dfixed_bits=P)", p, bits_accepted, MPGPU_FIXED_MIN_BITS,
                          MPGPU_FIXED_MAX_BITS);
        cli_bad_input("fixed: --bits %u was not built; accepted: %s; add it with meson setup "
                      "-Dfixed_bits=%u (or meson configure BUILD -Dfixed_bits=%u) and rebuild", p,
                      bits_accepted, p, p);
    }
    if (f.args.resources) {
        static const char *const unused[] = {"op", "chain", "impl", "operands", "word-order", "mem",
                                             "grid", "block", "modulus", "moduli", "input", "count",
                                             "method", "reps", "warmup", "seed", "device", "csv",
                                             "verify", "include-transfers", "include-launch",
                                             "quiet", NULL};
        cli_refuse_options(argc, argv, unused, "--resources",
                           "which prints ptxas's report of every kernel of --bits (or of every "
                           "precision) and exits");
        return print_resources(&f.opt);
    }
    bool montgomery = false, modular = false;
    int n_ops = 0;
    mpgpu_fixed_op the_op = MPGPU_FIXED_ADD;
    for (int op = 0; op < MPGPU_FIXED_N_OPS; op++) {
        if (!f.args.ops[op])
            continue;
        n_ops++;
        the_op = (mpgpu_fixed_op)op;
        bool has_impl = false;
        for (int impl = 0; impl < MPGPU_FIXED_N_IMPLS; impl++)
            has_impl |= f.args.pairs[op][impl] &&
                        mpgpu_fixed_impl_check(the_op, (mpgpu_fixed_impl)impl) == MPGPU_OK;
        if (!has_impl)
            cli_bad_input("fixed: --op %s is not in --impl fp64 or hybrid, which have montmul and "
                          "powm; give --impl ptx or c for it too", op_names[op]);
        const mpgpu_fixed_op_info info = op_info(the_op, MPGPU_FIXED_MIN_BITS);
        montgomery |= info.montgomery;
        modular |= info.modular;
    }
    if (!modular) {
        static const char *const modular_only[] = {"modulus", "moduli", NULL};
        char mode[160] = "--op ";
        for (int op = 0, n = 0; op < MPGPU_FIXED_N_OPS; op++)
            if (f.args.ops[op])
                snprintf(mode + strlen(mode), sizeof mode - strlen(mode), "%s%s", n++ ? "," : "", op_names[op]);
        cli_refuse_options(argc, argv, modular_only, mode,
                           n_ops > 1 ? "which take no modulus (the option applies to addm, subm, montred, "
                                       "montmul and powm)"
                                     : "which takes no modulus (the option applies to addm, subm, montred, "
                                       "montmul and powm)");
    }
    if (f.args.input && cli_option_given(argc, argv, "seed"))
        cli_bad_input("--seed draws random operands; it does not apply to --input");
    if (f.args.modulus) {
        if (f.opt.n_bits > 1)
            cli_bad_input("fixed: --modulus is of one precision; give one --bits, not %zu", f.opt.n_bits);
        words_of_hex(f.args.modulus, f.opt.bits_list[0], f.m);
        f.modulus_given = true;
        if (montgomery && !(f.m[0] & 1))
            cli_bad_input("fixed: --modulus %s is even; montred, montmul and powm need an odd modulus",
                          f.args.modulus);
    }
    if (f.args.moduli_each && (f.args.modulus || f.args.input))
        cli_bad_input("fixed: --moduli per-element draws each element's modulus; give no %s",
                      f.args.modulus ? "--modulus" : "--input");
    if (f.args.input) {
        if (f.opt.n_bits > 1 || n_ops > 1)
            cli_bad_input("fixed: --input holds operands of one precision and one operation; give "
                          "one --bits and one --op");
        if (modular && !f.modulus_given)
            cli_bad_input("fixed: --input with --op %s needs --modulus", op_names[the_op]);
        const unsigned aw = op_info(the_op, f.opt.bits_list[0]).a_words;
        hex_pairs_read(f.args.input, aw, aw, &f.input);
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
    const size_t max_cases = f.opt.n_bits * MPGPU_FIXED_N_OPS * MPGPU_FIXED_N_IMPLS * N_VARIANTS;
    struct bench_case *cases = calloc(max_cases, sizeof *cases);
    struct fixed_case *fcs = calloc(max_cases, sizeof *fcs);
    for (size_t s = 0; s < f.opt.n_bits; s++)
        for (int op = 0; op < MPGPU_FIXED_N_OPS; op++)
            for (unsigned v = 0; v < MPGPU_FIXED_N_IMPLS * N_VARIANTS; v++) {
                const int impl = v / N_VARIANTS, mem = (v & VARIANT_MEM) != 0,
                          operands = (v & VARIANT_OPERANDS) != 0, order = (v & VARIANT_WORD_ORDER) != 0;
                if (!f.args.pairs[op][impl] || !f.args.mems[mem] ||
                    !f.args.operands[operands] || !f.args.word_orders[order] ||
                    mpgpu_fixed_impl_check((mpgpu_fixed_op)op, (mpgpu_fixed_impl)impl) != MPGPU_OK)
                    continue;
                struct fixed_case *fc = &fcs[n_cases];
                fc->bits = f.opt.bits_list[s];
                fc->op = (mpgpu_fixed_op)op;
                fc->impl = (mpgpu_fixed_impl)impl;
                fc->global_mem = mem;
                fc->interleaved = operands;
                fc->coalesced = order;
                snprintf(fc->method, sizeof fc->method, "%s-%s", op_names[op], impl_names[impl]);
                const mpgpu_fixed_op_info info = op_info(fc->op, fc->bits);
                char what[128];
                snprintf(what, sizeof what, "--count %zu of %u-bit %s", f.count, fc->bits, op_names[op]);
                const unsigned moduli_words = f.args.moduli_each && info.modular ? info.words : 0;
                hostmem_require(2 * (info.a_words + info.b_words + info.r_words + moduli_words) *
                                    sizeof(uint32_t) * f.count,
                                what);
                cases[n_cases++] = (struct bench_case){
                    .method = fc->method,
                    .bits = fc->bits,
                    .count = f.count * f.args.chain,
                    .throughput_unit = "ops",
                    .timed_region = gpu_region_name(&f.opt),
                    .data = fc,
                };
            }

    char why[256];
    const bool have_gpu = gpu_open(f.opt.device, why, sizeof why);
    struct bench b;
    bench_open(&b, "fixed", &f.opt, have_gpu, f.opt.device, have_gpu ? NULL : why,
               "fixed runs on the GPU only");
    if (!have_gpu) {
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
