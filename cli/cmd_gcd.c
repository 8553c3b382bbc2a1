/* mpgpu gcd: the modular integer GCD of Weber and Brew (002, Fig. 2) on one GPU, two methods
 * beyond it (the k-ary reduction in the same residues, and Lehmer's GCD on the numbers
 * themselves), each result checked against GMP's mpz_gcd, and mpz_gcd on one host thread as the
 * paper's baseline. */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <gmp.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"
#include "gcd_cache.h"
#include "gcd_pairs.h"
#include "gcd_shared.h"
#include "gpu.h"
#include "hostmem.h"
#include "interrupt.h"
#include "mpgpu.h"
#include "name_list.h"
#include "output_file.h"
#include "path_claim.h"
#include "progress.h"
#include "timing.h"

/* Table 2 of 002 starts at 16 Kibit with ten pairs. */
#define GCD_DEFAULT_BITS 16384u
#define GCD_DEFAULT_COUNT 10u

enum {
    OPT_GCD_BITS = 1000,
    OPT_BARRIER,
    OPT_INVERSE,
    OPT_PER_THREAD,
    OPT_REMAINDER,
    OPT_L,
    OPT_ALL_PRIMES,
    OPT_INPUT,
    OPT_OUTPUT,
    OPT_SHARED_FACTORS,
    OPT_MAKE_MODULI,
    OPT_PLANT,
    OPT_CHECKPOINT
};

struct gcd_args {
    uint64_t gcd_bits;
    bool gcd_bits_set;
    const char *barriers, *inverses;
    unsigned per_thread; /* 0: auto */
    bool percent;        /* --remainder mod */
    unsigned L;
    bool all_primes;
    const char *input, *output;
    struct gcd_shared_args shared; /* --shared-factors, --make-moduli, --plant */
};

/* The barriers and inverses of the modular method, as libmpgpu names them. */
#define GCD_N_BARRIERS 3
#define GCD_N_INVERSES 2
static const char *const barrier_names[GCD_N_BARRIERS] = {"coop", "cluster", "custom"};
static const char *const inverse_names[GCD_N_INVERSES] = {"euclid", "fermat"};

/* The run loop's context. */
struct gcd_cli {
    struct cli_common opt;
    struct gcd_args args;
    mpgpu_gcd_moduli *moduli;
    uint64_t moduli_count;     /* of the moduli above */
    char cache_dir[1024];      /* the moduli cache's folder (gcd_moduli_cache_dir) */
    const char *cache_var;     /* the variable that chose it; NULL: no cache */
    mpgpu_gcd_moduli_source moduli_loaded;
    const char *moduli_source; /* "cache" or "built" */
    char moduli_path[1200];
    double init_ms;
    size_t count;
    bool from_input;
    struct gcd_pairs pairs; /* of the size in hand (pairs.bits; 0: none yet) */
    mpz_t *g, *expect;      /* results of the case in hand; mpz_gcd's, computed once a size */
    bool *expect_ready;     /* which of expect are computed */
    bool *by_gmp;           /* pairs of the last pass that GMP answered (moduli ran out) */
    unsigned gmp_told_bits; /* the size whose gmp passes were last predicted */
    struct output_file output;
    bool output_written;
    int output_status; /* EXIT_BAD_INPUT when writing --output failed, for the run's status */
    mpgpu_gcd_plan *plan;   /* of the GPU case in hand */
    uint32_t *words;        /* a pair and its GCD as words, for the plan */
    /* A bulk case whose pairs fit the device at once: A, B and G word-major there, uploaded
     * once, each pass one launch timed as mul's are (held unless --include-launch). Else the
     * library's host call takes them through in batches, timed by its events. */
    uint32_t *d_bulk;
    cudaStream_t bulk_stream;
    mpgpu_gcd_stats stats;  /* of the last pass of the case in hand */
};

/* A GPU case: Fig. 2 with a barrier and an inverse, the k-ary method, Lehmer's, or a bulk
 * method (libmpgpu's method, barrier and inverse); its row's name. */
struct gcd_variant {
    const char *library_method, *barrier, *inverse;
    const char *method;
    bool kary, lehmer, bulk;
};
static const struct gcd_variant variants[GCD_N_BARRIERS][GCD_N_INVERSES] = {
    {{"modular", "coop", "euclid", "gpu-coop-euclid", false, false, false},
     {"modular", "coop", "fermat", "gpu-coop-fermat", false, false, false}},
    {{"modular", "cluster", "euclid", "gpu-cluster-euclid", false, false, false},
     {"modular", "cluster", "fermat", "gpu-cluster-fermat", false, false, false}},
    {{"modular", "custom", "euclid", "gpu-custom-euclid", false, false, false},
     {"modular", "custom", "fermat", "gpu-custom-fermat", false, false, false}},
};

static const struct gcd_variant kary_variant = {"kary", NULL, NULL, "gpu-kary", true, false, false};
static const struct gcd_variant lehmer_variant = {"lehmer", NULL, NULL, "gpu-lehmer", false, true,
                                                  false};
static const struct gcd_variant bulk_lehmer_variant = {"bulk-lehmer", NULL, NULL, "gpu-bulk-lehmer",
                                                       false, false, true};
static const struct gcd_variant bulk_binary_variant = {"bulk-binary", NULL, NULL, "gpu-bulk-binary",
                                                       false, false, true};

/* --method auto's crossover between the bulk GCD (one pair a thread) and Lehmer's whole-GPU
 * method (issue 38), measured on an H200 (results/gcd_bulk.csv, experiments/gcd_bulk.sh: both
 * at 1, 4, 16, 64 and 256 pairs of 1024..8192 bits): bulk-lehmer was the faster from 4 pairs
 * at 1024, 2048 and 4096 bits and from 16 at 8192 (at 4 pairs of 8192 bits Lehmer's led by
 * 10 %); one pair is always Lehmer's. A size between rows takes the row above it; past 8192
 * bits the bulk kernel does not apply. */
static const struct {
    unsigned max_bits;
    size_t min_count;
} auto_crossover[] = {{4096, 4}, {MPGPU_GCD_BULK_MAX_BITS, 16}};

/* The variant --method auto runs for `count` pairs of `bits` bits. */
static const struct gcd_variant *auto_variant(size_t count, unsigned bits)
{
    for (size_t i = 0; i < sizeof auto_crossover / sizeof *auto_crossover; i++)
        if (bits <= auto_crossover[i].max_bits)
            return count >= auto_crossover[i].min_count ? &bulk_lehmer_variant : &lehmer_variant;
    return &lehmer_variant;
}

static int gcd_handle(int id, const char *arg, void *ctx)
{
    struct gcd_args *a = ctx;
    if (id == OPT_GCD_BITS) {
        a->gcd_bits = cli_parse_u64("--gcd-bits", arg, 0, UINT64_C(1) << 30);
        a->gcd_bits_set = true;
    } else if (id == OPT_BARRIER) {
        a->barriers = arg;
    } else if (id == OPT_INVERSE) {
        a->inverses = arg;
    } else if (id == OPT_REMAINDER) {
        if (strcmp(arg, "fast") != 0 && strcmp(arg, "mod") != 0)
            cli_bad_input("--remainder '%s' is not accepted; accepted: fast, mod", arg);
        a->percent = !strcmp(arg, "mod");
    } else if (id == OPT_PER_THREAD) {
        if (strcmp(arg, "auto") != 0) {
            a->per_thread = (unsigned)cli_parse_u64("--per-thread", arg, 1, 8);
            if (a->per_thread & (a->per_thread - 1))
                cli_bad_input("--per-thread %s: accepted: auto, 1, 2, 4, 8", arg);
        }
    } else if (id == OPT_L) {
        a->L = (unsigned)cli_parse_u64("--L", arg, MPGPU_GCD_L_MIN, MPGPU_GCD_L_MAX);
    } else if (id == OPT_ALL_PRIMES) {
        a->all_primes = true;
    } else if (id == OPT_INPUT) {
        path_claim("--input", a->input = arg, PATH_READ);
    } else if (id == OPT_OUTPUT) {
        path_claim("--output", a->output = arg, PATH_WRITE);
    } else if (id == OPT_SHARED_FACTORS) {
        path_claim("--shared-factors", a->shared.moduli_path = arg, PATH_READ);
    } else if (id == OPT_MAKE_MODULI) {
        a->shared.make_count = cli_parse_u64("--make-moduli", arg, 2, UINT64_C(1) << 26);
    } else if (id == OPT_PLANT) {
        a->shared.plants = arg;
    } else if (id == OPT_CHECKPOINT) {
        path_claim("--checkpoint", a->shared.checkpoint = arg, PATH_WRITE);
    }
    return 0;
}

static const struct cli_option gcd_options[] = {
    {"gcd-bits", "G", OPT_GCD_BITS, "plant a random common factor of G bits in every pair (default 0: none; random pairs rarely share more than a few bits)"},
    {"barrier", "B[,B...]", OPT_BARRIER, "grid-wide synchronisation of the GPU method, one case each: auto (default: the fastest for the size, measured on the H200: cluster up to 6144 moduli, about 24 Kibit, else coop), coop (cooperative groups grid sync), cluster (one thread-block cluster of up to 16 blocks, distributed shared memory), custom (the paper's barrier, 002 section 4.1), all"},
    {"inverse", "I[,I...]", OPT_INVERSE, "modular inverse of the GPU method, one case each: fermat (default; a^(q-2) by Montgomery products, beyond 002), euclid (002 section 3.2: extended Euclid, quotients from a floating-point reciprocal), all"},
    {"per-thread", "K", OPT_PER_THREAD, "moduli each GPU thread keeps in registers, at least: auto (default: the fewest that fit in one block an SM), 1, 2, 4 or 8; inputs too large for 8 stream the moduli through device memory"},
    {"remainder", "R", OPT_REMAINDER, "how the GPU reduces mod q: fast (default: the Cavagnino-Werbrouck remainder, 002 section 3.1) or mod (the % operator, to measure the paper's claim that the fast one is significantly faster)"},
    {"L", "L", OPT_L, "moduli of L bits, 16..32 (default 32, as the paper)"},
    {"all-primes", NULL, OPT_ALL_PRIMES, "use every L-bit prime, remainders through the exact path, instead of only those of the cheap fast-remainder category"},
    {"input", "FILE", OPT_INPUT, "read pairs from FILE ('-': stdin), one 'HEX_U HEX_V' line each (optional 0x; blank and '#' lines skipped), instead of random pairs; the size is that of the widest number (a GCD's work is its numbers', not a width's), so --bits is refused"},
    {"output", "FILE", OPT_OUTPUT, "write the GCDs to FILE ('-': stdout, the table then going to stderr), one hex line each, in input order (from the first method that ran and matched GMP); with --shared-factors the moduli found, with --make-moduli the moduli made; FILE is replaced only when they are all written"},
    {"shared-factors", "FILE", OPT_SHARED_FACTORS, "search the moduli of FILE ('-': stdin; one odd hex number a line, at least 2) for every one that shares a factor with another or has a prime factor below 2^16: --method tree-cpu (default: Bernstein's batch GCD with GMP on --threads cores, default all), tree-gpu (the same tree with its levels below 65536 bits on the GPU in mpgpu mul, moduli of up to 32767 bits) or pairs-gpu (every pair on the GPU with the bulk GCD, tiled, moduli of up to 8192 bits; see --checkpoint), checked against the all-pairs twin (--verify all up to 4096 moduli, else a sample), one search timed (--reps 1 --warmup 0 unless given); the findings go to stdout and --output (docs/shared-factors.md)"},
    {"make-moduli", "N", OPT_MAKE_MODULI, "write N RSA-like moduli of --bits bits (default 2048; even, 64..16384: two random primes of half the size each, from --seed) to --output, one a line, with the relations --plant names, on --threads cores (default all)"},
    {"plant", "P[,P...]", OPT_PLANT, "with --make-moduli, plant each: shared (three moduli share a prime), duplicate (two equal moduli), both (a modulus sharing one prime with one modulus and the other with another), small (a modulus with a prime factor below 2^16), all, none (default)"},
    {"checkpoint", "FILE", OPT_CHECKPOINT, "with --shared-factors --method pairs-gpu: resume from FILE if it exists (the tiles done and the pairs found, for the same input only), and keep it up to date every few seconds and at Ctrl-C; one pass (--reps above 1, --warmup above 0, --min-time and --max-noise are refused)"},
    {0},
};

/* The moduli's filter as the messages and params name it. */
static const char *filter_name(bool all_primes)
{
    return all_primes ? "all" : "cheap";
}

/* What a library call that needs no GPU returns for arguments the command line has checked:
 * anything but MPGPU_OK is a fault of this program. */
static void library_ok(mpgpu_status st, const char *call)
{
    if (st != MPGPU_OK) {
        fprintf(stderr, "mpgpu: gcd: %s: %s\n", call, mpgpu_status_string(st));
        exit(EXIT_GPU_ERROR);
    }
}

/* A failed GPU call of the library: its CUDA call and error, as gpu_fail names them; a failure
 * that was not CUDA's by the library's message. */
static _Noreturn void library_fail(mpgpu_status st, const char *what)
{
    mpgpu_error_info info;
    mpgpu_last_error(&info);
    if (st == MPGPU_ERR_CUDA || st == MPGPU_ERR_NO_DEVICE || st == MPGPU_ERR_OUT_OF_DEVICE_MEMORY)
        gpu_fail(info.cuda_call, (cudaError_t)info.cuda_error);
    fprintf(stderr, "mpgpu: gcd: %s: %s\n", what, mpgpu_status_string(st));
    exit(EXIT_GPU_ERROR);
}

/* mkdir -p. Returns 0, or -1 with errno of the mkdir that failed. */
static int make_dirs(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1;; p++) {
        const bool end = *p == '\0';
        if (!end && *p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return -1;
        if (end)
            return 0;
        *p = '/';
    }
}

/* The cache file of the run's moduli in the cache folder. */
static void cache_file(const struct gcd_cli *r, char *path, size_t len)
{
    char name[64];
    library_ok(mpgpu_gcd_moduli_cache_name(r->args.L, r->args.all_primes, name, sizeof name),
               "mpgpu_gcd_moduli_cache_name");
    snprintf(path, len, "%s/%s", r->cache_dir, name);
}

/* Whether a file can be made in dir (created first), by making one: access(2) says yes to root
 * on a read-only file system. */
static bool dir_writable(const char *dir, char *why, size_t why_len)
{
    if (make_dirs(dir) != 0) {
        snprintf(why, why_len, "it cannot be created (%s)", strerror(errno));
        return false;
    }
    char probe[1100];
    snprintf(probe, sizeof probe, "%s/.mpgpu-probe-XXXXXX", dir);
    const int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(why, why_len, "no file can be written in it (%s)", strerror(errno));
        return false;
    }
    close(fd);
    unlink(probe);
    return true;
}

/* The cache folder, chosen before any work. $MPGPU_CACHE is the user's own choice, so one that
 * cannot hold the cache is refused here (exit 2) rather than sieved into again on every run;
 * one that cannot be written but already holds the file (a shared cache made beforehand) is
 * read as it is. The folders of $XDG_CACHE_HOME and $HOME are only defaults: one that cannot be
 * written costs a line when the moduli are sieved (load_moduli). */
static void choose_cache(struct gcd_cli *r)
{
    r->cache_var = gcd_moduli_cache_dir(r->cache_dir, sizeof r->cache_dir);
    if (!r->cache_var || strcmp(r->cache_var, "MPGPU_CACHE") != 0)
        return;
    char path[1200], why[256];
    cache_file(r, path, sizeof path);
    if (dir_writable(r->cache_dir, why, sizeof why) || access(path, R_OK) == 0)
        return;
    cli_bad_input("MPGPU_CACHE '%s' cannot hold the moduli cache: %s; accepted: a folder that "
                  "can be created and written, or one that holds %s (or leave MPGPU_CACHE unset)",
                  r->cache_dir, why, strrchr(path, '/') + 1);
}

/* The moduli of (L, filter) from the cache, sieved when it is missing or damaged and written
 * back when the folder allows; the one-time initialisation 002 section 5 reports apart (about
 * 300 ms there). What the cache said is held in `log` and printed by report_moduli. */
static void load_moduli(struct gcd_cli *r, FILE *log)
{
    r->moduli_path[0] = '\0';
    if (!r->cache_var) {
        if (log)
            fprintf(log, "gcd moduli cache: none of $MPGPU_CACHE, $XDG_CACHE_HOME and $HOME is "
                         "set, so the moduli are not cached (set one to keep them)\n");
    } else if (make_dirs(r->cache_dir) != 0) {
        if (log)
            fprintf(log, "gcd moduli cache: the folder %s ($%s) cannot be created (%s), so the "
                         "moduli are not cached\n", r->cache_dir, r->cache_var, strerror(errno));
    } else {
        cache_file(r, r->moduli_path, sizeof r->moduli_path);
    }
    char why[4096];
    const double t0 = time_now_ms();
    const mpgpu_status st = mpgpu_gcd_moduli_create(
        r->args.L, r->args.all_primes, r->moduli_path[0] ? r->moduli_path : NULL, &r->moduli,
        &r->moduli_loaded, why, sizeof why);
    r->init_ms = time_now_ms() - t0;
    if (log)
        fputs(why, log);
    if (st == MPGPU_ERR_OUT_OF_HOST_MEMORY) {
        fprintf(stderr, "mpgpu: gcd: the %u-bit %s moduli cannot be built: out of host memory\n",
                r->args.L, filter_name(r->args.all_primes));
        exit(EXIT_BAD_INPUT);
    }
    library_ok(st, "mpgpu_gcd_moduli_create");
    library_ok(mpgpu_gcd_moduli_get(r->moduli, NULL, NULL, &r->moduli_count),
               "mpgpu_gcd_moduli_get");
    r->moduli_source = r->moduli_loaded == MPGPU_GCD_MODULI_CACHE_READ ? "cache" : "built";
}

static void report_moduli(const struct gcd_cli *r, const char *log)
{
    if (r->opt.quiet)
        return;
    fputs(log, stderr);
    char how[1300];
    if (r->moduli_loaded == MPGPU_GCD_MODULI_SIEVED)
        snprintf(how, sizeof how, "sieved (not cached)");
    else
        snprintf(how, sizeof how, "%s %s",
                 r->moduli_loaded == MPGPU_GCD_MODULI_CACHE_READ ? "read from" : "sieved into",
                 r->moduli_path);
    fprintf(stderr, "mpgpu: gcd moduli: %llu %s primes of %u bits, %s in %.0f ms "
                    "(one-time initialisation, not timed)\n",
            (unsigned long long)r->moduli_count, filter_name(r->args.all_primes), r->args.L, how,
            r->init_ms);
}

/* Against the size of M (gcd_moduli_count), so that nothing is sieved for a size refused. */
static void check_size(const struct gcd_cli *r, uint64_t bits)
{
    const unsigned L = r->args.L;
    uint64_t count, limit, need;
    library_ok(mpgpu_gcd_moduli_count(L, r->args.all_primes, &count), "mpgpu_gcd_moduli_count");
    library_ok(mpgpu_gcd_max_bits(L, r->args.all_primes, &limit), "mpgpu_gcd_max_bits");
    library_ok(mpgpu_gcd_moduli_formula(L, bits, &need), "mpgpu_gcd_moduli_formula");
    char what[1200];
    if (r->from_input)
        snprintf(what, sizeof what, "--input %s: a number of %llu bits", r->args.input,
                 (unsigned long long)bits);
    else
        snprintf(what, sizeof what, "--bits %llu", (unsigned long long)bits);
    if (bits > limit)
        cli_bad_input("%s needs %llu moduli (002 Fig. 2 line 2); the %u-bit %s primes "
                      "are %llu, enough for %llu bits; accepted: 1..%llu (--all-primes or a larger "
                      "--L give more)",
                      what, (unsigned long long)need, L,
                      filter_name(r->args.all_primes), (unsigned long long)count,
                      (unsigned long long)limit,
                      (unsigned long long)limit);
}

static void prepare_pairs(struct gcd_cli *r, unsigned bits)
{
    if (r->from_input || r->pairs.bits == bits)
        return;
    gcd_pairs_free(&r->pairs);
    gcd_mpz_array_free(r->expect, r->count);
    r->expect = NULL;
    free(r->expect_ready);
    r->expect_ready = NULL;
    gcd_pairs_random(&r->pairs, r->count, bits, r->args.gcd_bits, r->opt.seed);
}

/* The library's options of a GPU case. */
static mpgpu_gcd_options plan_options(const struct gcd_cli *r, const struct gcd_variant *var)
{
    const bool modular = !var->kary && !var->lehmer;
    return (mpgpu_gcd_options){
        .method = var->library_method,
        .barrier = var->barrier,
        .inverse = var->inverse,
        .min_per_thread = var->lehmer ? 0 : r->args.per_thread,
        .percent_remainder = modular && r->args.percent,
    };
}

/* Words a number of the bulk methods' pairs of `bits` bits. */
static size_t bulk_words(unsigned bits)
{
    return ((size_t)bits + 31) / 32;
}

/* x into w[0 .. words), zero-padded (x has at most words words). */
static void bulk_put(uint32_t *w, size_t words, const mpz_t x)
{
    memset(w, 0, words * sizeof *w);
    mpz_export(w, NULL, -1, sizeof *w, 0, 0, x);
}

/* A bulk case: the pairs as pair-major words, A, B and G (the GCDs) one after the other, made
 * once (not timed); on the device at once when they fit (d_bulk: A, B and G word-major, as the
 * bulk kernel reads them, and a pair-major stage that the library's transpose turns them from
 * and back, as mul's runs do), else taken through by the library in batches of its free
 * memory. */
static int bulk_setup(struct gcd_cli *r, struct bench_case *c)
{
    const size_t words = bulk_words(c->bits), n = r->count * words;
    r->words = malloc(3 * n * sizeof *r->words);
    if (!r->words)
        cli_bad_input("--count %zu --bits %u: out of host memory for the bulk pairs' words",
                      r->count, c->bits);
    for (size_t i = 0; i < r->count; i++) {
        bulk_put(r->words + i * words, words, r->pairs.a[i]);
        bulk_put(r->words + n + i * words, words, r->pairs.b[i]);
    }
    if (r->opt.include_transfers)
        return 0;
    const struct gcd_variant *var = c->data;
    size_t free_b = 0, total_b = 0;
    GPU_CHECK(cudaMemGetInfo(&free_b, &total_b));
    uint64_t need = 0;
    library_ok(mpgpu_gcd_bulk_device_bytes(var->library_method, c->bits, r->count, &need),
               "mpgpu_gcd_bulk_device_bytes");
    need += n * sizeof *r->d_bulk; /* the stage */
    if (need > free_b / 10 * 9) {
        /* Batches through the host call: each launch timed by events around it. */
        c->timed_region = "kernels+launch";
        return 0;
    }
    GPU_CHECK(cudaMalloc((void **)&r->d_bulk, 4 * n * sizeof *r->d_bulk));
    GPU_CHECK(cudaStreamCreateWithFlags(&r->bulk_stream, cudaStreamNonBlocking));
    uint32_t *const stage = r->d_bulk + 3 * n;
    for (int operand = 0; operand < 2; operand++) {
        /* On the transpose's stream: a cudaMemcpy from pageable memory may return before its
         * last bytes reach the device, and the non-blocking stream would not wait for them (the
         * last pairs were read stale, and the check against GMP caught it). */
        GPU_CHECK(cudaMemcpyAsync(stage, r->words + operand * n, n * sizeof *stage,
                                  cudaMemcpyHostToDevice, r->bulk_stream));
        library_ok(mpgpu_mul_transpose((unsigned)words, r->count, MPGPU_MUL_PRODUCT_MAJOR, stage,
                                       r->d_bulk + operand * n, r->bulk_stream),
                   "mpgpu_mul_transpose");
        GPU_CHECK(cudaStreamSynchronize(r->bulk_stream));
    }
    return 0;
}

struct bulk_region {
    const struct gcd_cli *r;
    const char *method;
    size_t words;
};

/* One launch of the bulk kernel on the pairs uploaded by bulk_setup. */
static cudaError_t bulk_region_launch(void *ctx, const char **failed_call)
{
    const struct bulk_region *x = ctx;
    const size_t n = x->r->count * x->words;
    const mpgpu_status st =
        mpgpu_gcd_bulk_device(x->method, x->r->count, x->words, x->r->d_bulk, x->r->d_bulk + n,
                              x->r->d_bulk + 2 * n, x->r->bulk_stream);
    if (st == MPGPU_OK)
        return cudaSuccess;
    mpgpu_error_info info;
    mpgpu_last_error(&info);
    *failed_call = "mpgpu_gcd_bulk_device";
    return st == MPGPU_ERR_CUDA ? (cudaError_t)info.cuda_error : cudaErrorInvalidValue;
}

/* A pass of a bulk case: every pair in one synchronous library call (its batches inside). */
static int bulk_pass(struct gcd_cli *r, const struct bench_case *c, bool warmup, double *ms)
{
    const struct gcd_variant *var = c->data;
    const size_t words = bulk_words(c->bits), n = r->count * words;
    if (r->d_bulk) {
        struct bulk_region x = {r, var->library_method, words};
        const char *failed = NULL;
        const cudaError_t err = time_gpu_region(bulk_region_launch, &x, r->bulk_stream,
                                                gpu_region_held(&r->opt, warmup), 0, 1, ms,
                                                &failed);
        if (err != cudaSuccess)
            gpu_fail(failed ? failed : "bulk GCD kernel", err);
        return 0;
    }
    const uint32_t *a = r->words, *b = a + n;
    uint32_t *g = r->words + 2 * n;
    if (interrupt_requested())
        return BENCH_STOPPED;
    double kernel_ms = 0;
    const double t0 = time_now_ms();
    const mpgpu_status st =
        mpgpu_gcd_bulk_host(var->library_method, r->count, words, a, b, g, &kernel_ms);
    const double wall = time_now_ms() - t0;
    if (st != MPGPU_OK)
        library_fail(st, "mpgpu_gcd_bulk_host");
    for (size_t i = 0; i < r->count; i++)
        mpz_import(r->g[i], words, -1, sizeof *g, 0, 0, g + i * words);
    *ms = r->opt.include_transfers ? wall : kernel_ms;
    return 0;
}

static int gcd_setup(void *ctx, struct bench_case *c)
{
    struct gcd_cli *r = ctx;
    prepare_pairs(r, c->bits);
    r->g = gcd_mpz_array(r->count);
    r->by_gmp = calloc(r->count, sizeof *r->by_gmp);
    if (!r->by_gmp)
        cli_bad_input("--count %zu: out of host memory", r->count);
    r->stats = (mpgpu_gcd_stats){0};
    if (!c->data)
        return 0;
    const struct gcd_variant *var = c->data;
    if (var->bulk)
        return bulk_setup(r, c);
    const mpgpu_gcd_options o = plan_options(r, var);
    const mpgpu_gcd_moduli *moduli = var->lehmer ? NULL : r->moduli;
    size_t free_b = 0, total_b = 0;
    GPU_CHECK(cudaMemGetInfo(&free_b, &total_b));
    uint64_t need = 0;
    library_ok(mpgpu_gcd_workspace_bytes(&o, moduli, c->bits, &need), "mpgpu_gcd_workspace_bytes");
    if (var->lehmer) {
        if (need > free_b / 10 * 9)
            cli_bad_input("--bits %u: the Lehmer method needs %llu bytes of device memory; %zu "
                          "are free", c->bits, (unsigned long long)need, free_b);
    } else {
        uint64_t n_q = 0;
        library_ok(mpgpu_gcd_first_moduli(var->library_method, r->args.L, r->args.all_primes,
                                          c->bits, &n_q),
                   "mpgpu_gcd_first_moduli");
        if (n_q == 0)
            n_q = r->moduli_count;
        if (need > free_b / 10 * 9)
            cli_bad_input("--bits %u: %llu moduli need %llu bytes of device memory; %zu are free",
                          c->bits, (unsigned long long)n_q, (unsigned long long)need, free_b);
    }
    const mpgpu_status st = mpgpu_gcd_plan_create(&o, moduli, &r->plan);
    if (st != MPGPU_OK) {
        mpgpu_error_info info;
        mpgpu_last_error(&info);
        if (st == MPGPU_ERR_CUDA && info.cuda_error == cudaErrorNotSupported) {
            fprintf(stderr, "mpgpu: gcd %s: %s\n", var->method, info.cuda_call);
            return EXIT_GPU_ERROR;
        }
        library_fail(st, "mpgpu_gcd_plan_create");
    }
    /* A pair and its GCD, of at most c->bits bits each (the widest pair of --input). */
    const size_t words = ((size_t)c->bits + 31) / 32 + 1;
    r->words = malloc(3 * words * sizeof *r->words);
    if (!r->words)
        cli_bad_input("--bits %u: out of host memory", c->bits);
    return 0;
}

/* x as words into w (at least one), for the plan; returns how many. */
static size_t to_words(uint32_t *w, const mpz_t x)
{
    size_t n = 0;
    w[0] = 0;
    mpz_export(w, &n, -1, sizeof *w, 0, 0, x);
    return n ? n : 1;
}

/* GMP's GCD is subquadratic: a pass at 2^30 bits takes minutes a pair, and its first pair would
 * pass in silence. So before the first pass at a size beyond 2^21 bits it is predicted: GMP's
 * GCD (half-GCD) costs about c M(n) log n, M(n) a product's time, so a pair of n bits takes
 * gcd(2^21) x (M(n) / M(2^21)) x (log n / 21), one GCD and one product of 2^21 bits timed and one
 * product of the pass's widest pair. On an AMD EPYC host (GMP 6.2.1) it put passes of 2^24 and
 * 2^26 bits 8 % and 15 % under their times, where a power law through GCDs of 2^19 and 2^20 bits
 * (before) was 54 % over at 2^25: the exponent of GMP's GCD falls from 1.40 there to 1.24 at 2^25,
 * as that of its product does. Said when the pass comes to more than 10 s; its own progress
 * corrects it once its first pair is done. */
#define GMP_PREDICT_BITS (1u << 21)

/* x = a b, the faster of two: the first also pays for x's pages. */
static double time_gmp_mul(mpz_t x, const mpz_t a, const mpz_t b)
{
    double best = INFINITY;
    for (int k = 0; k < 2; k++) {
        const double t0 = time_now_ms();
        mpz_mul(x, a, b);
        best = fmin(best, time_now_ms() - t0);
    }
    return best;
}

static void predict_gmp_pass(struct gcd_cli *r, unsigned bits)
{
    if (r->opt.quiet || bits <= GMP_PREDICT_BITS || r->gmp_told_bits == bits)
        return;
    r->gmp_told_bits = bits;
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)r->opt.seed);
    mpz_t a, b, x;
    mpz_inits(a, b, x, NULL);
    mpz_urandomb(a, rs, GMP_PREDICT_BITS);
    mpz_urandomb(b, rs, GMP_PREDICT_BITS);
    const double ref_mul_ms = time_gmp_mul(x, a, b);
    const double t0 = time_now_ms();
    mpz_gcd(x, a, b);
    const double ref_gcd_ms = time_now_ms() - t0;
    size_t widest = 0; /* of pairs read from --input, which may differ in size */
    for (size_t i = 1; i < r->count; i++)
        if (mpz_size(r->pairs.a[i]) + mpz_size(r->pairs.b[i]) >
            mpz_size(r->pairs.a[widest]) + mpz_size(r->pairs.b[widest]))
            widest = i;
    const double mul_ms = time_gmp_mul(x, r->pairs.a[widest], r->pairs.b[widest]);
    mpz_clears(a, b, x, NULL);
    gmp_randclear(rs);
    const double pair_ms =
        ref_gcd_ms * (mul_ms / fmax(ref_mul_ms, 1e-3)) * (log2((double)bits) / log2(GMP_PREDICT_BITS));
    const double pass_s = 1e-3 * pair_ms * r->count;
    if (pass_s <= 10.0)
        return;
    char eta[32];
    progress_format_duration(eta, sizeof eta, pass_s);
    const unsigned passes = r->opt.warmup + r->opt.reps;
    fprintf(stderr, "mpgpu: gcd gmp at %u bits: about %s a pass of %zu pair%s, %u pass%s or more "
            "(predicted from GMP's GCD and product at 2^21 bits and its product of the widest pair); "
            "Ctrl-C stops after a pair, twice at once\n",
            bits, eta, r->count, r->count == 1 ? "" : "s", passes, passes == 1 ? "" : "es");
}

static int gcd_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup, double *ms)
{
    struct gcd_cli *r = ctx;
    if (!c->data) {
        predict_gmp_pass(r, c->bits);
        /* A pair of 2^30 bits takes GMP minutes: progress a pair, and a stop at Ctrl-C between
         * pairs (a second Ctrl-C ends mpgpu inside one). */
        struct progress_phase ph;
        const struct loop_watch *watch =
            progress_phase_begin(&ph, r->opt.quiet, "pairs", r->count, "gcd gmp at %u bits: pass %u%s",
                                 c->bits, pass_index + 1, warmup ? " (warm-up)" : "");
        bool stopped = false;
        const double t0 = time_now_ms();
        for (size_t i = 0; i < r->count && !stopped; i++) {
            mpz_gcd(r->g[i], r->pairs.a[i], r->pairs.b[i]);
            stopped = !watch->tick(watch->ctx, i + 1);
        }
        *ms = time_now_ms() - t0;
        progress_phase_end(&ph);
        return stopped ? BENCH_STOPPED : 0;
    }
    if (((const struct gcd_variant *)c->data)->bulk)
        return bulk_pass(r, c, warmup, ms);
    library_ok(mpgpu_gcd_plan_reset_stats(r->plan), "mpgpu_gcd_plan_reset_stats");
    memset(r->by_gmp, 0, r->count * sizeof *r->by_gmp);
    const size_t words = ((size_t)c->bits + 31) / 32 + 1;
    uint32_t *a = r->words, *b = a + words, *g = b + words;
    uint64_t fallbacks = 0;
    const double t0 = time_now_ms();
    for (size_t i = 0; i < r->count; i++) {
        if (interrupt_requested()) {
            /* The row of a stopped pass says what it did. */
            library_ok(mpgpu_gcd_plan_stats(r->plan, &r->stats), "mpgpu_gcd_plan_stats");
            return BENCH_STOPPED;
        }
        const size_t a_words = to_words(a, r->pairs.a[i]), b_words = to_words(b, r->pairs.b[i]);
        uint8_t unresolved = 0;
        const mpgpu_status st = mpgpu_gcd_host(r->plan, 1, a, a_words, b, b_words, g, &unresolved);
        if (st != MPGPU_OK)
            library_fail(st, "mpgpu_gcd_host");
        if (unresolved) {
            /* Never a missing answer (issue 10): the moduli ran out for this pair. */
            if (fallbacks++ == 0 && !r->opt.quiet)
                fprintf(stderr, "mpgpu: gcd %s: pair %zu needs more moduli than the %llu of M or "
                                "than the GPU's registers hold; answered with GMP's mpz_gcd\n",
                        c->method, i, (unsigned long long)r->moduli_count);
            mpz_gcd(r->g[i], r->pairs.a[i], r->pairs.b[i]);
            r->by_gmp[i] = true;
        } else {
            mpz_import(r->g[i], a_words > b_words ? a_words : b_words, -1, sizeof *g, 0, 0, g);
        }
    }
    const double wall = time_now_ms() - t0;
    library_ok(mpgpu_gcd_plan_stats(r->plan, &r->stats), "mpgpu_gcd_plan_stats");
    *ms = r->opt.include_transfers ? wall : r->stats.kernel_ms;
    return 0;
}

static void write_output(struct gcd_cli *r)
{
    if (!r->output.f || r->output_written)
        return;
    for (size_t i = 0; i < r->count; i++)
        gmp_fprintf(r->output.f, "%Zx\n", r->g[i]);
    r->output_status = output_file_commit(&r->output);
    r->output_written = true;
}

static int gcd_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    struct gcd_cli *r = ctx;
    if (!c->data)
        return 0; /* GMP's own results: the reference */
    if (!r->expect) {
        r->expect = gcd_mpz_array(r->count);
        r->expect_ready = calloc(r->count, sizeof *r->expect_ready);
        if (!r->expect_ready)
            cli_bad_input("--count %zu: out of host memory for the check against GMP", r->count);
    }
    const struct gcd_variant *var = c->data;
    if (var->bulk && r->d_bulk) {
        const size_t words = bulk_words(c->bits), n = r->count * words;
        uint32_t *g = r->words + 2 * n, *const stage = r->d_bulk + 3 * n;
        library_ok(mpgpu_mul_transpose((unsigned)words, r->count, MPGPU_MUL_WORD_MAJOR,
                                       r->d_bulk + 2 * n, stage, r->bulk_stream),
                   "mpgpu_mul_transpose");
        GPU_CHECK(cudaMemcpyAsync(g, stage, n * sizeof *g, cudaMemcpyDeviceToHost,
                                  r->bulk_stream));
        GPU_CHECK(cudaStreamSynchronize(r->bulk_stream));
        for (size_t i = 0; i < r->count; i++)
            mpz_import(r->g[i], words, -1, sizeof *g, 0, 0, g + i * words);
    }
    spec->elements = r->count;
    spec->element = "pair";
    spec->reference = "GMP";
    spec->threads = omp_get_num_procs();
    return 0;
}

/* mpz_gcd of pair i, once a size: every method of the size is checked against the same. A pair
 * GMP answered in the pass (its moduli ran out) is no GPU result, and is not checked. */
static enum bench_ref gcd_reference(const void *ctx, const struct bench_case *c, uint64_t i,
                                    void *scratch)
{
    (void)c;
    (void)scratch;
    const struct gcd_cli *r = ctx;
    if (r->by_gmp[i])
        return BENCH_REF_FALLBACK;
    if (!r->expect_ready[i]) {
        mpz_gcd(r->expect[i], r->pairs.a[i], r->pairs.b[i]);
        r->expect_ready[i] = true;
    }
    return BENCH_REF_READY;
}

static bool gcd_compare(const void *ctx, const struct bench_case *c, uint64_t i, const void *scratch)
{
    (void)c;
    (void)scratch;
    const struct gcd_cli *r = ctx;
    return mpz_cmp(r->g[i], r->expect[i]) == 0;
}

static void gcd_check_end(void *ctx, struct bench_case *c, struct bench_check *out)
{
    (void)c;
    if (out->mismatches == 0)
        write_output(ctx);
}

/* The row of a GPU variant at `bits`. */
static struct bench_case gpu_case(const struct gcd_cli *r, const struct gcd_variant *var,
                                  unsigned bits)
{
    return (struct bench_case){
        .method = var->method,
        .bits = bits,
        .count = r->count,
        .throughput_unit = "gcds",
        .timed_region = gpu_region_name(&r->opt),
        .data = (void *)var,
    };
}

static void gcd_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    struct gcd_cli *r = ctx;
    int k = snprintf(params, len, "gcd_bits=%llu", (unsigned long long)r->args.gcd_bits);
    if (!c->data || k < 0 || (size_t)k >= len)
        return;
    const mpgpu_gcd_stats *s = &r->stats;
    const struct gcd_variant *var = c->data;
    const double pairs = r->count ? (double)r->count : 1.0;
    if (var->bulk) {
        snprintf(params + k, len - (size_t)k, ";algorithm=%s;words=%zu;pairs_per_thread=1",
                 var->library_method, bulk_words(c->bits));
        return;
    }
    if (var->lehmer) {
        snprintf(params + k, len - (size_t)k,
                 ";algorithm=lehmer;threads=%u;chunk_words=%u;memory=%s;steps_per_pair=%.1f;"
                 "pair_steps=%llu;shift_steps=%llu;one_steps=%llu;quotients_per_pair_step=%.2f;"
                 "negations=%llu;ripple_rounds=%llu;steps_planned_ahead=%llu",
                 s->threads, s->chunk_words, s->in_shared ? "shared" : "device",
                 (double)s->steps / pairs, (unsigned long long)s->pair_steps,
                 (unsigned long long)s->shift_steps, (unsigned long long)s->one_steps,
                 s->pair_steps ? (double)s->quotients / (double)s->pair_steps : 0.0,
                 (unsigned long long)s->negations, (unsigned long long)s->ripple_rounds,
                 (unsigned long long)s->ahead);
        return;
    }
    if (var->kary) {
        snprintf(params + k, len - (size_t)k,
                 ";algorithm=kary;inverse=fermat;L=%u;moduli=%s;n_q=%zu;grid=%u;block=%u;"
                 "per_thread=%u;state=registers;steps_per_pair=%.1f;pivots_per_pair=%.1f;"
                 "spurious_bits_per_pair=%.1f;zero_checks=%llu;common_factors=%llu;"
                 "attempts=%llu;retried_pairs=%llu;gmp_fallbacks=%llu;init_ms=%.1f;init=%s",
                 r->args.L, filter_name(r->args.all_primes), (size_t)s->max_moduli, s->grid,
                 s->block, s->per_thread, (double)s->steps / pairs, (double)s->pivots / pairs,
                 (double)s->spurious_bits / pairs, (unsigned long long)s->zero_checks,
                 (unsigned long long)s->common_factors, (unsigned long long)s->attempts,
                 (unsigned long long)s->retried, (unsigned long long)s->unresolved, r->init_ms,
                 r->moduli_source);
        return;
    }
    snprintf(params + k, len - (size_t)k,
             ";barrier=%s;inverse=%s;remainder=%s;L=%u;moduli=%s;n_q=%zu;grid=%u;block=%u;per_thread=%u;"
             "state=%s;steps_per_pair=%.1f;"
             "attempts=%llu;retried_pairs=%llu;gmp_fallbacks=%llu;init_ms=%.1f;init=%s",
             var->barrier, var->inverse, r->args.percent ? "mod" : "fast", r->args.L,
             filter_name(r->args.all_primes), (size_t)s->max_moduli, s->grid, s->block,
             s->per_thread, s->in_registers ? "registers" : "device-memory",
             r->count ? (double)s->steps / (double)r->count : 0.0,
             (unsigned long long)s->attempts, (unsigned long long)s->retried,
             (unsigned long long)s->unresolved, r->init_ms,
             r->moduli_source);
}

static void gcd_summary(void *ctx, const struct bench_case *c, FILE *out)
{
    struct gcd_cli *r = ctx;
    if (c->data && (r->stats.retried || r->stats.unresolved))
        fprintf(out, "# %s: %llu of %zu pairs ran short of moduli and were retried with more; "
                     "%llu answered by GMP after the moduli ran out\n",
                c->method, (unsigned long long)r->stats.retried, r->count,
                (unsigned long long)r->stats.unresolved);
}

static void gcd_teardown(void *ctx, struct bench_case *c)
{
    (void)c;
    struct gcd_cli *r = ctx;
    mpgpu_gcd_plan_destroy(r->plan);
    r->plan = NULL;
    free(r->words);
    r->words = NULL;
    if (r->d_bulk) {
        cudaFree(r->d_bulk);
        cudaStreamDestroy(r->bulk_stream);
        r->d_bulk = NULL;
    }
    gcd_mpz_array_free(r->g, r->count);
    r->g = NULL;
    free(r->by_gmp);
    r->by_gmp = NULL;
}

static const struct bench_ops gcd_ops = {
    .setup = gcd_setup,
    .pass = gcd_pass,
    .check_begin = gcd_check_begin,
    .reference = gcd_reference,
    .compare = gcd_compare,
    .check_end = gcd_check_end,
    .describe = gcd_describe,
    .summary = gcd_summary,
    .teardown = gcd_teardown,
};

/* Host bytes of an mpz of `bits` bits: its limbs and malloc's 16-byte header. */
static uint64_t mpz_host_bytes(uint64_t bits)
{
    return (bits + 63) / 64 * 8 + 16;
}

/* The host memory of the run at its largest size, refused up front (malloc does not fail under
 * overcommit: the run would grow until the kernel kills it). Per pair: its two numbers (held
 * already when read from --input), the method's GCD and GMP's, each of the planted factor's size
 * (random pairs rarely share more than a few bits), and four mpz_t; once: GMP's scratch for one
 * GCD (7 numbers measured at 2^24 bits; 8 here), and the moduli when they will be loaded, beside
 * the sieve's bitmap or the cache file (about 1.3 bytes a modulus). */
static void check_host_memory(const struct gcd_cli *r, const unsigned *sizes, size_t n_sizes,
                              bool moduli, bool bulk)
{
    unsigned bits = 0;
    for (size_t s = 0; s < n_sizes; s++)
        bits = sizes[s] > bits ? sizes[s] : bits;
    const uint64_t gcd_bits = r->args.gcd_bits > 64 ? r->args.gcd_bits : 64;
    uint64_t per_pair = 2 * mpz_host_bytes(gcd_bits) + 4 * sizeof(mpz_t);
    if (!r->from_input)
        per_pair += 2 * mpz_host_bytes(bits);
    if (bulk) /* the pairs and their GCDs as words (bulk_setup) */
        per_pair += 3 * ((uint64_t)bits + 31) / 32 * sizeof(uint32_t);
    unsigned __int128 need = (unsigned __int128)per_pair * r->count + 8 * mpz_host_bytes(bits);
    char what[1300], lower[64];
    if (r->from_input)
        snprintf(what, sizeof what, "gcd --input %s (%zu pairs of up to %u bits)", r->args.input,
                 r->count, bits);
    else
        snprintf(what, sizeof what, "gcd --bits %u --count %zu", bits, r->count);
    snprintf(lower, sizeof lower, "%s", r->from_input ? "the pairs in --input" : "--count or --bits");
    if (moduli) {
        uint64_t count;
        library_ok(mpgpu_gcd_moduli_count(r->args.L, r->args.all_primes, &count),
                   "mpgpu_gcd_moduli_count");
        const uint64_t bitmap = (UINT64_C(1) << (r->args.L - 2)) / 8;
        need += count * 4 + (bitmap > 2 * count ? bitmap : 2 * count);
        snprintf(what + strlen(what), sizeof what - strlen(what), " with the %u-bit %s moduli",
                 r->args.L, filter_name(r->args.all_primes));
        snprintf(lower + strlen(lower), sizeof lower - strlen(lower), ", or --L");
    }
    hostmem_require_lower(need > UINT64_MAX ? UINT64_MAX : (uint64_t)need, what, lower);
}

/* --barrier auto: the fastest barrier for a size (mpgpu_gcd_auto_barrier), as an index of
 * barrier_names. */
static int auto_barrier(const mpgpu_gcd_moduli *moduli, unsigned bits)
{
    const char *name = NULL;
    library_ok(mpgpu_gcd_auto_barrier(moduli, bits, &name), "mpgpu_gcd_auto_barrier");
    for (int i = 0; i < GCD_N_BARRIERS; i++)
        if (!strcmp(name, barrier_names[i]))
            return i;
    return 0;
}

int cmd_gcd(int argc, char **argv)
{
    struct gcd_cli r;
    memset(&r, 0, sizeof r);
    r.args.L = MPGPU_GCD_L_DEFAULT;
    const struct cli_spec spec = {
        .command = "gcd",
        .usage = "mpgpu gcd [--bits N[,N...]] [--count P] [--gcd-bits G] "
                 "[--method gpu,kary,lehmer,bulk-lehmer,bulk-binary,auto,gmp|all] "
                 "[--barrier auto|coop|cluster|custom|all] [--inverse fermat|euclid|all] "
                 "[--L 16..32] [--all-primes] [options]\n"
                 "       mpgpu gcd --shared-factors FILE [--output FILE] "
                 "[--method tree-cpu|tree-gpu|pairs-gpu] [--threads T] [--checkpoint FILE] [options]\n"
                 "       mpgpu gcd --make-moduli N [--bits B] [--plant P[,P...]] [--seed S] "
                 "[--threads T] [--quiet] --output FILE",
        .description =
            "Computes the GCD of --count pairs of --bits-bit numbers (default: 10 pairs of 16384\n"
            "bits, as 002 Table 2) with the modular integer GCD of Weber and Brew (002, Fig. 2)\n"
            "and two methods beyond it on the GPU (by default gpu, kary, lehmer and gmp; see\n"
            "--method), checks every result against GMP's mpz_gcd (see --verify), and runs\n"
            "mpz_gcd on one host thread as the paper's baseline. The GPU time is the kernels'\n"
            "(one launch per attempt; a pair that runs short of moduli is retried with twice\n"
            "as many, and answered by GMP, saying so, if M runs out); --include-transfers\n"
            "times whole GCDs, uploads, downloads and the final conversion with GMP included.\n"
            "The moduli are sieved once, when a modular GPU method first runs, and cached in\n"
            "$MPGPU_CACHE (refused when it cannot hold them), else $XDG_CACHE_HOME/mpgpu, else\n"
            "$HOME/.cache/mpgpu, else nowhere; that initialisation is reported apart.\n"
            "The numbers are non-negative; zeros follow GMP: gcd(0, V) = V, gcd(0, 0) = 0.\n"
            "Timing: the bulk methods' pairs are uploaded once and each pass is one launch,\n"
            "timed as mul's (held unless --include-launch); the whole-GPU methods are timed\n"
            "by the library's CUDA events around each of their launches, so their launch\n"
            "latency (microseconds against their milliseconds) is always in.",
        .common = OPT_ALL_COMMON | OPT_INCLUDE_LAUNCH,
        .verify_help = "check each GPU result against GMP's mpz_gcd: all pairs, a sample of about 1000 spread over them (every k-th and the last), or none; a pair that GMP answered because the moduli ran out is no GPU result: it is counted apart (gmp_fallbacks in params and a line under the row), never as checked",
        .threads_help = "CPU threads of --shared-factors (tree-cpu) and --make-moduli (default all; "
                        "0: all); the GMP baseline of pairs runs on one thread, as 002",
        .bits_default = "16384",
        .count_default = "10, as 002 Table 2",
        .options = gcd_options,
        .handle = gcd_handle,
        .ctx = &r.args,
        .methods_help = "  gpu    the modular GCD of 002 Fig. 2 on the GPU, once per --barrier and\n"
                        "         --inverse (rows gpu-BARRIER-INVERSE, e.g. gpu-custom-fermat)\n"
                        "  kary   beyond 002: the k-ary reduction in the same residues, a pivot's\n"
                        "         short vector (x, y) with p | yA - xB instead of Fig. 2's global\n"
                        "         minimum, no grid barrier a step (row gpu-kary; --barrier,\n"
                        "         --inverse, --per-thread and --remainder do not apply)\n"
                        "  lehmer beyond 002: Lehmer's GCD on the numbers themselves in one\n"
                        "         thread block, a 2 x 2 matrix of 32-bit cofactors from the top 63\n"
                        "         bits a step, about 31 bits off each number (row gpu-lehmer;\n"
                        "         no moduli, so --barrier, --inverse, --per-thread, --remainder,\n"
                        "         --L and --all-primes do not apply)\n"
                        "  bulk-lehmer  many pairs at once, one a GPU thread (issue 38): Lehmer's\n"
                        "         GCD with 64-bit leading digits, numbers of up to 8192 bits, in\n"
                        "         batches that fit the GPU's memory (row gpu-bulk-lehmer)\n"
                        "  bulk-binary  the same with Stein's binary GCD (row gpu-bulk-binary)\n"
                        "  auto   bulk-lehmer for at least 4 pairs of up to 4096 bits or 16\n"
                        "         of up to 8192 bits, else lehmer (the crossover measured on\n"
                        "         an H200)\n"
                        "  gmp    GMP mpz_gcd, one pair after another on one host thread (002 "
                        "section 5)\n"
                        "  all    gpu with every barrier and inverse, kary, lehmer, the bulk\n"
                        "         methods (at sizes up to 8192 bits), then gmp\n",
        .examples = "  mpgpu gcd --bits 16384,131072 --count 10\n"
                    "  mpgpu gcd --bits 65536 --gcd-bits 1000 --barrier all --csv gcd.csv\n"
                    "  mpgpu gcd --input pairs.txt --output gcds.txt\n"
                    "  mpgpu gcd --bits 1024,4096 --count 1048576 --method bulk-lehmer,bulk-binary\n"
                    "  mpgpu gcd --make-moduli 10000 --bits 2048 --plant all --output moduli.txt\n"
                    "  mpgpu gcd --shared-factors moduli.txt --output found.txt\n",
    };
    cli_parse(argc, argv, &spec, &r.opt);

    struct gcd_shared_args *shared = &r.args.shared;
    shared->output = r.args.output;
    shared->threads_given = cli_option_given(argc, argv, "threads");
    shared->verify_given = cli_option_given(argc, argv, "verify");
    shared->reps_given = cli_option_given(argc, argv, "reps");
    shared->warmup_given = cli_option_given(argc, argv, "warmup");
    shared->device_given = cli_option_given(argc, argv, "device");
    if (shared->moduli_path || shared->make_count) {
        static const char *const pairs_only[] = {"input", "gcd-bits", "barrier", "inverse",
                                                 "per-thread", "remainder", "L", "all-primes",
                                                 "include-transfers", "include-launch", NULL};
        cli_refuse_options(argc, argv, pairs_only,
                           shared->moduli_path ? "--shared-factors" : "--make-moduli",
                           "which computes no GCDs of pairs (the option applies to those)");
        if (shared->moduli_path && shared->make_count)
            cli_bad_input("--shared-factors and --make-moduli are two commands; give one");
        if (shared->moduli_path) {
            static const char *const drawn_only[] = {"seed", NULL};
            cli_refuse_options(argc, argv, drawn_only, "--shared-factors",
                               "which reads its moduli and draws nothing (--seed applies to --make-moduli)");
        }
        if (shared->make_count) {
            static const char *const unused[] = {"count", "method", "csv", "json", "reps", "warmup",
                                                 "verify", "min-time", "max-noise", "include-launch",
                                                 "checkpoint", "markdown", "device", NULL};
            cli_refuse_options(argc, argv, unused, "--make-moduli",
                               "which writes moduli to --output and measures nothing");
            if (r.opt.n_bits > 1)
                cli_bad_input("--make-moduli makes moduli of one size; accepted: one --bits, not %zu",
                              r.opt.n_bits);
        }
        return shared->make_count ? gcd_make_moduli(&r.opt, shared)
                                  : gcd_shared_factors(&r.opt, shared);
    }
    if (shared->plants)
        cli_bad_input("--plant applies to --make-moduli");
    if (shared->checkpoint)
        cli_bad_input("--checkpoint applies to --shared-factors --method pairs-gpu");
    if (shared->threads_given)
        cli_bad_input("--threads applies to --shared-factors and --make-moduli; the GMP baseline "
                      "of pairs runs on one thread, as 002");

    bool want_gpu = false, want_kary = false, want_lehmer = false, want_gmp = false,
         want_bulk_lehmer = false, want_bulk_binary = false, want_auto = false,
         barriers[GCD_N_BARRIERS] = {false}, inverses[GCD_N_INVERSES] = {false},
         auto_barriers = false;
    const bool explicit_methods = r.opt.n_methods > 0;
    if (!explicit_methods)
        want_gpu = want_kary = want_lehmer = want_gmp = true;
    for (size_t i = 0; i < r.opt.n_methods; i++) {
        const char *m = r.opt.methods[i];
        if (!strcmp(m, "gpu"))
            want_gpu = true;
        else if (!strcmp(m, "kary"))
            want_kary = true;
        else if (!strcmp(m, "lehmer"))
            want_lehmer = true;
        else if (!strcmp(m, "gmp"))
            want_gmp = true;
        else if (!strcmp(m, "bulk-lehmer"))
            want_bulk_lehmer = true;
        else if (!strcmp(m, "bulk-binary"))
            want_bulk_binary = true;
        else if (!strcmp(m, "auto"))
            want_auto = true;
        else if (!strcmp(m, "all"))
            want_gpu = want_kary = want_lehmer = want_gmp = want_bulk_lehmer = want_bulk_binary =
                true;
        else
            cli_bad_input("gcd: unknown method '%s'; accepted: gpu, kary, lehmer, bulk-lehmer, "
                          "bulk-binary, auto, gmp, all", m);
    }
    /* The modular methods need the moduli; Lehmer's and the bulk ones do not. */
    const bool want_bulk = want_bulk_lehmer || want_bulk_binary;
    const bool want_moduli = want_gpu || want_kary,
               any_gpu = want_moduli || want_lehmer || want_bulk || want_auto;
    static const char *const gpu_only[] = {"barrier", "inverse", "per-thread", "remainder", "L",
                                           "all-primes", "include-transfers", "include-launch",
                                           "device", NULL};
    if (!any_gpu)
        cli_refuse_options(argc, argv, gpu_only, "--method gmp",
                           "which runs no GPU method; name one");
    char mode[200]; /* the methods, for the refusals below */
    const size_t n_given = cli_methods_text(&r.opt, "gpu, kary, lehmer, gmp", mode, sizeof mode);
    if (any_gpu && !want_moduli) {
        /* Lehmer's and the bulk methods work on the numbers themselves (they were taken and
         * dropped; without a GPU the run said "no GPU" instead). */
        static const char *const moduli_only[] = {"barrier", "inverse", "per-thread", "remainder",
                                                  "L", "all-primes", NULL};
        cli_refuse_options(argc, argv, moduli_only, mode,
                           n_given > 1 ? "which use no moduli (the option applies to gpu and kary)"
                                       : "which uses no moduli (the option applies to gpu and kary)");
    }
    if (any_gpu && !want_bulk && !want_auto) {
        /* The whole-GPU methods' launches are always in their times (the help's Timing). */
        static const char *const bulk_only[] = {"include-launch", NULL};
        cli_refuse_options(argc, argv, bulk_only, mode,
                           n_given > 1 ? "whose times hold their launches always (the option applies to "
                                         "bulk-lehmer and bulk-binary)"
                                       : "whose times hold its launches always (the option applies to "
                                         "bulk-lehmer and bulk-binary)");
    }
    if (want_kary && !want_gpu) {
        /* The k-ary method has no grid barrier a step and no Fig. 2 inverse. */
        static const char *const fig2_only[] = {"barrier", "inverse", "per-thread", "remainder", NULL};
        cli_refuse_options(argc, argv, fig2_only, "--method kary without gpu",
                           "whose k-ary steps have no grid barrier and no inverse (the option "
                           "applies to gpu)");
    }
    bool all_variants = false;
    for (size_t i = 0; i < r.opt.n_methods; i++)
        all_variants |= !strcmp(r.opt.methods[i], "all");
    if (all_variants && !r.args.barriers)
        r.args.barriers = "all";
    if (all_variants && !r.args.inverses)
        r.args.inverses = "all";
    name_list_parse("--barrier", r.args.barriers ? r.args.barriers : "auto", barrier_names, GCD_N_BARRIERS,
                    "auto", &auto_barriers, barriers);
    name_list_parse("--inverse", r.args.inverses ? r.args.inverses : "fermat", inverse_names, GCD_N_INVERSES,
                    NULL, NULL, inverses);

    unsigned sizes[CLI_MAX_SIZES];
    size_t n_sizes = r.opt.n_bits;
    memcpy(sizes, r.opt.bits_list, n_sizes * sizeof sizes[0]);
    if (!r.opt.bits_set)
        sizes[0] = GCD_DEFAULT_BITS;
    if (r.args.output && n_sizes > 1)
        cli_bad_input("--output writes the GCDs of one size; give one --bits, not %zu", n_sizes);
    if (r.args.input) {
        if (r.opt.bits_set)
            cli_bad_input("--input sets the size from its pairs; drop --bits");
        if (r.args.gcd_bits_set)
            cli_bad_input("--gcd-bits plants factors in random pairs; it does not apply to --input");
        if (cli_option_given(argc, argv, "seed"))
            cli_bad_input("--seed draws random pairs; it does not apply to --input");
        gcd_pairs_read(&r.pairs, r.args.input);
        r.from_input = true;
        r.count = r.pairs.count;
        sizes[0] = r.pairs.bits;
        if (r.opt.count_set && r.opt.count != r.count)
            cli_bad_input("--count %llu differs from the %zu pairs in --input %s; give only one",
                          (unsigned long long)r.opt.count, r.count, r.args.input);
    } else {
        r.count = r.opt.count_set ? (size_t)r.opt.count : GCD_DEFAULT_COUNT;
        for (size_t s = 0; s < n_sizes; s++)
            if (r.args.gcd_bits > sizes[s])
                cli_bad_input("--gcd-bits %llu exceeds --bits %u; accepted: 0..%u",
                              (unsigned long long)r.args.gcd_bits, sizes[s], sizes[s]);
    }

    /* Bad input first, then the outputs, all before any work and before "no GPU" (exit 3);
     * the moduli are sieved only for a modular method that will run. A bulk method named
     * takes its sizes or refuses them; under "all" it runs at the sizes it takes. */
    for (size_t s = 0; s < n_sizes && want_bulk && !all_variants; s++)
        if (mpgpu_gcd_bulk_check("bulk-lehmer", sizes[s]) == MPGPU_ERR_UNSUPPORTED_SIZE) {
            if (r.from_input)
                cli_bad_input("--input %s: a number of %u bits is past the bulk methods' %u "
                              "bits (one pair a GPU thread); accepted: numbers of 1..%u bits",
                              r.args.input, sizes[s], MPGPU_GCD_BULK_MAX_BITS,
                              MPGPU_GCD_BULK_MAX_BITS);
            cli_bad_input("--bits %u: the bulk methods take numbers of up to %u bits (one pair "
                          "a GPU thread); accepted: 1..%u", sizes[s], MPGPU_GCD_BULK_MAX_BITS,
                          MPGPU_GCD_BULK_MAX_BITS);
        }
    if (want_moduli) {
        for (size_t s = 0; s < n_sizes; s++)
            check_size(&r, sizes[s]);
        choose_cache(&r);
    }
    char why[256];
    const bool have_gpu = any_gpu && gpu_open(r.opt.device, why, sizeof why),
               load = have_gpu && want_moduli;
    check_host_memory(&r, sizes, n_sizes, load, want_bulk || want_auto);
    output_file_open(&r.output, "--output", r.args.output, r.opt.csv_path);
    struct bench b;
    bench_open(&b, "gcd", &r.opt, have_gpu, r.opt.device, any_gpu && !have_gpu ? why : NULL,
               want_gmp ? "GPU methods skipped, running the GMP baseline only" : "GPU methods skipped");
    output_file_move_table(&r.output, &b.table);
    int gpu_status = 0;
    if (any_gpu && !have_gpu) {
        if (explicit_methods && !want_gmp)
            return EXIT_GPU_ERROR;
        gpu_status = explicit_methods ? EXIT_GPU_ERROR : 0;
    }
    if (load) {
        char *log = NULL;
        size_t log_len = 0;
        FILE *log_f = open_memstream(&log, &log_len);
        load_moduli(&r, log_f);
        if (log_f)
            fclose(log_f);
        report_moduli(&r, log ? log : "");
        free(log);
    }

    struct bench_case *cases = calloc(n_sizes * (GCD_N_BARRIERS * GCD_N_INVERSES + 6), sizeof *cases);
    size_t n_cases = 0;
    for (size_t s = 0; s < n_sizes; s++) {
        bool run_barrier[GCD_N_BARRIERS];
        memcpy(run_barrier, barriers, sizeof run_barrier);
        if (auto_barriers && load)
            run_barrier[auto_barrier(r.moduli, sizes[s])] = true;
        for (int bi = 0; bi < GCD_N_BARRIERS; bi++)
            for (int ii = 0; ii < GCD_N_INVERSES; ii++)
                if (have_gpu && want_gpu && run_barrier[bi] && inverses[ii])
                    cases[n_cases++] = gpu_case(&r, &variants[bi][ii], sizes[s]);
        if (have_gpu && want_kary)
            cases[n_cases++] = gpu_case(&r, &kary_variant, sizes[s]);
        if (have_gpu && want_lehmer)
            cases[n_cases++] = gpu_case(&r, &lehmer_variant, sizes[s]);
        const bool bulk_size = sizes[s] <= MPGPU_GCD_BULK_MAX_BITS;
        if (have_gpu && want_bulk && !bulk_size && !r.opt.quiet)
            fprintf(stderr, "mpgpu: gcd: the bulk methods skipped at %u bits: past their %u\n",
                    sizes[s], MPGPU_GCD_BULK_MAX_BITS);
        if (have_gpu && want_bulk_lehmer && bulk_size)
            cases[n_cases++] = gpu_case(&r, &bulk_lehmer_variant, sizes[s]);
        if (have_gpu && want_bulk_binary && bulk_size)
            cases[n_cases++] = gpu_case(&r, &bulk_binary_variant, sizes[s]);
        if (have_gpu && want_auto)
            cases[n_cases++] = gpu_case(&r, auto_variant(r.count, sizes[s]), sizes[s]);
        if (want_gmp)
            cases[n_cases++] = (struct bench_case){
                .method = "gmp",
                .bits = sizes[s],
                .count = r.count,
                .throughput_unit = "gcds",
                .timed_region = "cpu",
                .cpu_threads = 1,
            };
    }

    if (r.from_input)
        b.seed = 0;
    int status = bench_run(&b, &gcd_ops, &r, cases, n_cases);
    if (r.output.f && !r.output_written)
        status = output_file_abandon(&r.output, status, "GCDs");
    if (status == 0)
        status = r.output_status;
    gcd_pairs_free(&r.pairs);
    gcd_mpz_array_free(r.expect, r.count);
    free(r.expect_ready);
    mpgpu_gcd_moduli_destroy(r.moduli);
    free(cases);
    return status ? status : gpu_status;
}
