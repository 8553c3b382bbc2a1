#include "gcd_shared.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "gpu.h"
#include "hexio.h"
#include "hostmem.h"
#include "interrupt.h"
#include "mpgpu.h"
#include "name_list.h"
#include "output_file.h"
#include "progress.h"
#include "rsa_moduli.h"
#include "shared_factors_pairs.h"
#include "timing.h"

/* --verify's default: every modulus against the all-pairs twin up to this many moduli (each
 * check is a product of all the others modulo one), a spread sample beyond. */
#define VERIFY_ALL_UP_TO 4096u
/* Elements of a spread sample: each costs N modular products. */
#define SAMPLE_MODULI 200u
/* Findings whose partners are checked against pairwise GCDs, with --verify sample. */
#define SAMPLE_FINDINGS 100u
/* Partners the readable report names before "and N more" (--output has them all). */
#define REPORT_PARTNERS 8u
/* --make-moduli's sizes: primes of 32..8192 bits. */
#define MAKE_BITS_MIN 64u
#define MAKE_BITS_MAX 16384u
/* pairs-gpu's tile: T x T pairs a launch (2^20 threads), as its checkpoint records it. */
#define PAIRS_TILE 1024u
/* Seconds between two writes of --checkpoint (and one at Ctrl-C and at the end). */
#define CHECKPOINT_EVERY_S 5.0
#define CHECKPOINT_HEADER "# mpgpu gcd --shared-factors --method pairs-gpu checkpoint 1"

struct shared_run {
    const struct cli_common *opt;
    const char *path, *method;
    size_t n, words;
    uint32_t *moduli, *g;     /* n * words each */
    size_t *lines;            /* the file's line of each modulus */
    int threads;
    mpgpu_shared_factors_report *report;
    double tree_ms, classify_ms;
    /* The trees: when each phase of n steps ended (ms from the start), the product levels up,
     * the remainder levels down, the leaves, as the progress calls see them. */
    double steps_t0, phase_end_ms[2 * 64 + 1];
    unsigned phases;
    mpz_t *N, *expect;        /* for the check: the moduli, the twin's g_i */
    struct output_file output;
    int output_status; /* EXIT_BAD_INPUT when writing --output failed, for the run's status */
    struct progress pg;
    bool uses_gpu; /* tree-gpu or pairs-gpu */
    /* pairs-gpu: --checkpoint, the input's hash, and what a checkpoint read holds: the tiles
     * done (a prefix of the tiles in order) and the pairs (i, j) found in them. */
    bool pairs_gpu;
    const char *checkpoint;
    uint64_t input_hash, tiles, resume_tiles, resumed_from;
    uint32_t *resume_pairs;
    size_t resume_n;
};

/* The moduli of the file: one hexadecimal number a line, each odd and above 1, at most the
 * method's bits; at least two. Exits 2 naming the line and what is accepted. */
static void read_moduli(struct shared_run *r, uint64_t max_bits)
{
    struct hex_lines in;
    char format[96];
    snprintf(format, sizeof format, "'HEX_MODULUS' (%s: at most %llu bits)", r->method,
             (unsigned long long)max_bits);
    hex_lines_open_one(&in, "--shared-factors", r->path, format, max_bits);
    mpz_t *N = NULL;
    size_t cap = 0, n = 0;
    uint64_t widest = 0, bits;
    char *hex;
    while (hex_lines_next_one(&in, &hex, &bits)) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            N = realloc(N, cap * sizeof *N);
            r->lines = realloc(r->lines, cap * sizeof *r->lines);
            if (!N || !r->lines)
                cli_bad_input("--shared-factors %s: the moduli up to line %zu do not fit in host "
                              "memory", r->path, in.line);
        }
        mpz_init_set_str(N[n], hex, 16);
        if (mpz_cmp_ui(N[n], 1) <= 0 || mpz_even_p(N[n]))
            cli_bad_input("--shared-factors %s line %zu: modulus %s is %s; accepted: odd moduli "
                          "greater than 1", r->path, in.line, hex,
                          mpz_sgn(N[n]) == 0 ? "zero" : mpz_cmp_ui(N[n], 1) == 0 ? "one" : "even");
        r->lines[n++] = in.line;
        widest = bits > widest ? bits : widest;
    }
    hex_lines_close(&in);
    if (n < 2)
        cli_bad_input("--shared-factors %s holds %zu moduli; accepted: at least 2, one "
                      "hexadecimal number a line", r->path, n);
    const mpgpu_status st = mpgpu_shared_factors_check(r->method, n, widest);
    if (st != MPGPU_OK) {
        mpgpu_shared_factors_method_info info;
        mpgpu_shared_factors_method_find(r->method, &info);
        cli_bad_input("--shared-factors %s: %zu moduli of up to %llu bits are %llu bits in all; "
                      "accepted by %s: at most %llu", r->path, n, (unsigned long long)widest,
                      (unsigned long long)(n * widest), r->method,
                      (unsigned long long)info.max_total_bits);
    }
    r->n = n;
    r->words = (size_t)(widest + 31) / 32;
    r->moduli = calloc(n * r->words, sizeof *r->moduli);
    r->g = calloc(n * r->words, sizeof *r->g);
    if (!r->moduli || !r->g)
        cli_bad_input("--shared-factors %s: %zu moduli of %llu bits do not fit in host memory",
                      r->path, n, (unsigned long long)widest);
    for (size_t i = 0; i < n; i++)
        mpz_export(r->moduli + i * r->words, NULL, -1, sizeof *r->moduli, 0, 0, N[i]);
    r->N = N;
}

static int tree_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct shared_run *r = ctx;
    const unsigned max = sizeof r->phase_end_ms / sizeof r->phase_end_ms[0];
    while (r->phases < max && done >= (uint64_t)(r->phases + 1) * r->n)
        r->phase_end_ms[r->phases++] = time_now_ms() - r->steps_t0;
    r->pg.total = total;
    progress_update(&r->pg, done);
    return interrupt_requested();
}

/* FNV-1a (64 bits) of the moduli as the search sees them: their count, width and words. */
static uint64_t moduli_hash(const struct shared_run *r)
{
    uint64_t h = UINT64_C(14695981039346656037);
    const uint64_t head[2] = {r->n, r->words};
    const unsigned char *parts[2] = {(const unsigned char *)head, (const unsigned char *)r->moduli};
    const size_t lens[2] = {sizeof head, r->n * r->words * sizeof *r->moduli};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lens[k]; i++)
            h = (h ^ parts[k][i]) * UINT64_C(1099511628211);
    return h;
}

/* A line of the checkpoint that is not what this command writes: exit 2. */
static _Noreturn void checkpoint_refuse(const struct shared_run *r, size_t line, const char *why)
{
    cli_bad_input("--checkpoint %s line %zu: %s; accepted: a checkpoint that `mpgpu gcd "
                  "--shared-factors --method pairs-gpu` wrote for this input (remove the file to "
                  "start over)", r->checkpoint, line, why);
}

/* The checkpoint's next line into buf (without its newline); false at the end of the file. */
static bool checkpoint_line(FILE *f, char *buf, size_t len, size_t *line)
{
    if (!fgets(buf, (int)len, f))
        return false;
    (*line)++;
    buf[strcspn(buf, "\n")] = '\0';
    return true;
}

/* --checkpoint read when the file exists, before any work: the input's hash, count, width and
 * tile must be this run's; the tiles done at most the run's; every pair i < j < n; "end" last. */
static void checkpoint_read(struct shared_run *r)
{
    struct stat st;
    if (stat(r->checkpoint, &st) == 0 && S_ISDIR(st.st_mode))
        cli_bad_input("--checkpoint %s is a directory; give the path of a file (created when "
                      "absent) in a writable folder", r->checkpoint);
    FILE *f = fopen(r->checkpoint, "r");
    if (!f) {
        if (errno != ENOENT)
            cli_bad_input("--checkpoint %s cannot be read: %s", r->checkpoint, strerror(errno));
        return;
    }
    char buf[256];
    size_t line = 0, n = 0, words = 0, m = 0;
    unsigned long long hash = 0, done = 0, total = 0;
    unsigned tile = 0;
    int end = 0;
    if (!checkpoint_line(f, buf, sizeof buf, &line) || strcmp(buf, CHECKPOINT_HEADER) != 0)
        checkpoint_refuse(r, line ? line : 1, "not a pairs-gpu checkpoint (its first line)");
    if (!checkpoint_line(f, buf, sizeof buf, &line) ||
        sscanf(buf, "input %16llx moduli %zu words %zu tile %u%n", &hash, &n, &words, &tile,
               &end) != 4 || buf[end])
        checkpoint_refuse(r, line, "expected 'input HASH moduli N words W tile T'");
    if (hash != r->input_hash || n != r->n || words != r->words)
        cli_bad_input("--checkpoint %s was written for another input (%zu moduli of %zu words, "
                      "hash %016llx); --shared-factors %s has %zu of %zu words, hash %016llx: "
                      "give another file, or remove it to start over", r->checkpoint, n, words,
                      hash, r->path, r->n, r->words, (unsigned long long)r->input_hash);
    if (tile != PAIRS_TILE)
        checkpoint_refuse(r, line, "a tile other than this version's 1024");
    end = 0;
    if (!checkpoint_line(f, buf, sizeof buf, &line) ||
        sscanf(buf, "tiles %llu of %llu%n", &done, &total, &end) != 2 || buf[end] ||
        total != r->tiles || done > total)
        checkpoint_refuse(r, line, "expected 'tiles DONE of TOTAL' with this input's total");
    end = 0;
    if (!checkpoint_line(f, buf, sizeof buf, &line) || sscanf(buf, "pairs %zu%n", &m, &end) != 1 ||
        buf[end] || m > (size_t)done * PAIRS_TILE * PAIRS_TILE)
        checkpoint_refuse(r, line, "expected 'pairs M', at most the pairs of the tiles done");
    uint32_t *pairs = malloc((2 * m + 1) * sizeof *pairs);
    if (!pairs)
        cli_bad_input("--checkpoint %s: %zu pairs do not fit in host memory", r->checkpoint, m);
    for (size_t k = 0; k < m; k++) {
        unsigned long long i = 0, j = 0;
        end = 0;
        if (!checkpoint_line(f, buf, sizeof buf, &line) ||
            sscanf(buf, "%llu %llu%n", &i, &j, &end) != 2 || buf[end] || i >= j || j >= r->n)
            checkpoint_refuse(r, line, "expected a pair 'I J' of moduli, I < J < N");
        pairs[2 * k] = (uint32_t)i;
        pairs[2 * k + 1] = (uint32_t)j;
    }
    if (!checkpoint_line(f, buf, sizeof buf, &line) || strcmp(buf, "end") != 0)
        checkpoint_refuse(r, line + 1, "expected 'end' after the pairs (a cut file)");
    fclose(f);
    r->resume_tiles = done;
    r->resume_pairs = pairs;
    r->resume_n = m;
}

/* --checkpoint written whole: a temporary file, renamed over the old one. Exits 2 when it
 * cannot be (checked up front, so only a disk that filled up since). */
static void checkpoint_write(const struct shared_run *r, uint64_t done, const uint32_t *pairs,
                             size_t n)
{
    struct file_replace out;
    int err = file_replace_open(&out, r->checkpoint);
    if (!err) {
        FILE *f = out.f;
        fprintf(f, "%s\ninput %016llx moduli %zu words %zu tile %u\ntiles %llu of %llu\npairs %zu\n",
                CHECKPOINT_HEADER, (unsigned long long)r->input_hash, r->n, r->words, PAIRS_TILE,
                (unsigned long long)done, (unsigned long long)r->tiles, n);
        for (size_t k = 0; k < n; k++)
            fprintf(f, "%u %u\n", pairs[2 * k], pairs[2 * k + 1]);
        fputs("end\n", f);
        err = file_replace_commit(&out);
    }
    if (err) {
        fprintf(stderr, "mpgpu: --checkpoint %s cannot be written: %s\n", r->checkpoint,
                strerror(err));
        exit(EXIT_BAD_INPUT);
    }
}

/* pairs-gpu tile by tile, from the checkpoint's tiles on: progress a tile, Ctrl-C after a tile
 * (the checkpoint then written), the checkpoint every few seconds; then g from the pairs. */
static mpgpu_status pairs_gpu_gcds(struct shared_run *r)
{
    mpgpu_shared_pairs *p = NULL;
    mpgpu_status st = mpgpu_shared_pairs_create(r->n, r->moduli, r->words, PAIRS_TILE, &p);
    if (st != MPGPU_OK)
        return st;
    /* Every pass starts from the checkpoint read: its pairs copied, for the loop to grow. */
    size_t n = r->resume_n, cap = r->resume_n;
    uint32_t *all = n ? malloc(2 * n * sizeof *all) : NULL;
    if (n && !all) {
        mpgpu_shared_pairs_destroy(p);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    if (n)
        memcpy(all, r->resume_pairs, 2 * n * sizeof *all);
    r->pg.total = r->tiles;
    progress_update(&r->pg, r->resume_tiles);
    r->resumed_from = r->resume_tiles;
    double saved_ms = time_now_ms();
    uint64_t k = r->resume_tiles;
    for (; k < r->tiles && st == MPGPU_OK; k++) {
        if (interrupt_requested()) {
            st = MPGPU_ERR_CANCELLED;
            break;
        }
        st = mpgpu_shared_pairs_run_tile(p, k, &all, &n, &cap);
        if (st != MPGPU_OK)
            break;
        progress_update(&r->pg, k + 1);
        if (r->checkpoint && time_now_ms() - saved_ms >= 1000 * CHECKPOINT_EVERY_S) {
            checkpoint_write(r, k + 1, all, n);
            saved_ms = time_now_ms();
        }
    }
    mpgpu_shared_pairs_destroy(p);
    if (r->checkpoint && (st == MPGPU_OK || st == MPGPU_ERR_CANCELLED))
        checkpoint_write(r, k, all, n);
    if (st == MPGPU_OK)
        st = mpgpu_shared_factors_g_from_pairs(r->n, r->moduli, r->words, n, all, r->g);
    free(all);
    return st;
}

static int shared_pass(void *ctx, struct bench_case *c, unsigned pass_index, bool warmup,
                       double *ms)
{
    (void)pass_index;
    (void)warmup;
    struct shared_run *r = ctx;
    mpgpu_shared_factors_report_destroy(r->report);
    r->report = NULL;
    char label[96];
    snprintf(label, sizeof label, "gcd %s: %zu moduli", c->method, r->n);
    progress_begin(&r->pg, progress_mode_for(r->opt->quiet), label,
                   r->pairs_gpu ? "tiles" : "steps", 1);
    const mpgpu_shared_factors_options o = {r->method, r->threads, tree_progress, r};
    const double t0 = time_now_ms();
    r->steps_t0 = t0;
    r->phases = 0;
    mpgpu_status st = r->pairs_gpu ? pairs_gpu_gcds(r)
                                   : mpgpu_shared_factors_gcds(&o, r->n, r->moduli, r->words, r->g);
    const double t1 = time_now_ms();
    progress_end(&r->pg);
    if (st == MPGPU_ERR_CANCELLED)
        return BENCH_STOPPED;
    if (st == MPGPU_OK)
        st = mpgpu_shared_factors_classify(r->n, r->moduli, r->words, r->g, r->threads,
                                           &r->report);
    if (st != MPGPU_OK) {
        mpgpu_error_info info;
        mpgpu_last_error(&info);
        if (st == MPGPU_ERR_CUDA || st == MPGPU_ERR_NO_DEVICE ||
            st == MPGPU_ERR_OUT_OF_DEVICE_MEMORY)
            gpu_fail(info.cuda_call, (cudaError_t)info.cuda_error);
        fprintf(stderr, "mpgpu: gcd %s: %s\n", c->method, mpgpu_status_string(st));
        return st == MPGPU_ERR_OUT_OF_HOST_MEMORY ? EXIT_BAD_INPUT : EXIT_GPU_ERROR;
    }
    r->tree_ms = t1 - t0;
    r->classify_ms = time_now_ms() - t1;
    *ms = r->tree_ms + r->classify_ms;
    return 0;
}

static int shared_check_begin(void *ctx, struct bench_case *c, struct bench_check_spec *spec)
{
    (void)c;
    struct shared_run *r = ctx;
    if (!r->expect) {
        r->expect = malloc(r->n * sizeof *r->expect);
        if (!r->expect)
            cli_bad_input("--shared-factors %s: out of host memory for the check", r->path);
        for (size_t i = 0; i < r->n; i++)
            mpz_init(r->expect[i]);
    }
    spec->elements = r->n;
    spec->element = "modulus";
    spec->element_plural = "moduli";
    spec->reference = "the all-pairs twin";
    spec->threads = omp_get_num_procs();
    spec->sample = SAMPLE_MODULI;
    return 0;
}

static enum bench_ref shared_reference(const void *ctx, const struct bench_case *c, uint64_t i,
                                       void *scratch)
{
    (void)c;
    (void)scratch;
    const struct shared_run *r = ctx;
    shared_factors_pairs_g(r->n, (const mpz_t *)r->N, i, r->expect[i]);
    return BENCH_REF_READY;
}

static bool shared_compare(const void *ctx, const struct bench_case *c, uint64_t i,
                           const void *scratch)
{
    (void)c;
    (void)scratch;
    const struct shared_run *r = ctx;
    mpz_t got;
    mpz_init(got);
    mpz_import(got, r->words, -1, sizeof *r->g, 0, 0, r->g + i * r->words);
    const bool same = mpz_cmp(got, r->expect[i]) == 0;
    mpz_clear(got);
    return same;
}

static void name_modulus(const void *ctx, const struct bench_case *c, uint64_t i, char *out,
                         size_t len)
{
    (void)c;
    const struct shared_run *r = ctx;
    snprintf(out, len, "modulus %llu (line %zu)", (unsigned long long)i, r->lines[i]);
}

/* Whether finding k's partners and common factors are the twin's: every j with gcd(N_i, N_j)
 * > 1, with that GCD. */
static bool finding_matches(const struct shared_run *r, size_t k, size_t *partners,
                            size_t *twin, mpz_t *common, uint32_t *factor)
{
    mpgpu_shared_factors_finding f;
    mpgpu_shared_factors_report_get(r->report, k, &f);
    const size_t n_twin = shared_factors_pairs_partners(r->n, (const mpz_t *)r->N, f.index,
                                                        twin, common);
    if (n_twin != f.partners)
        return false;
    mpz_t x;
    mpz_init(x);
    bool ok = true;
    for (size_t s = 0; s < f.shares && ok; s++) {
        size_t words, n;
        mpgpu_shared_factors_report_share(r->report, k, s, factor, r->words, &words, partners, &n);
        mpz_import(x, words, -1, sizeof *factor, 0, 0, factor);
        for (size_t p = 0; p < n && ok; p++) {
            size_t at = 0;
            while (at < n_twin && twin[at] != partners[p])
                at++;
            ok = at < n_twin && mpz_cmp(common[at], x) == 0;
        }
    }
    mpz_clear(x);
    return ok;
}

static void write_output(struct shared_run *r);

/* After the g_i: the findings' partners against pairwise GCDs (all of them with --verify all,
 * a spread sample of SAMPLE_FINDINGS otherwise), then --output. */
static void shared_check_end(void *ctx, struct bench_case *c, struct bench_check *out)
{
    (void)c;
    struct shared_run *r = ctx;
    const size_t findings = mpgpu_shared_factors_report_count(r->report);
    if (r->opt->verify != VERIFY_NONE && findings) {
        uint64_t bad = 0, first = UINT64_MAX, looked = 0;
#pragma omp parallel num_threads(omp_get_num_procs()) reduction(+ : bad, looked)
        {
            size_t *partners = malloc(r->n * sizeof *partners), *twin = malloc(r->n * sizeof *twin);
            uint32_t *factor = malloc(r->words * sizeof *factor);
            mpz_t *common = malloc(r->n * sizeof *common);
            for (size_t i = 0; i < r->n; i++)
                mpz_init(common[i]);
#pragma omp for schedule(dynamic, 1)
            for (size_t k = 0; k < findings; k++) {
                if (interrupt_requested() ||
                    (r->opt->verify == VERIFY_SAMPLE && !bench_sample_takes(k, findings, SAMPLE_FINDINGS)))
                    continue;
                looked++;
                if (!finding_matches(r, k, partners, twin, common, factor)) {
                    bad++;
#pragma omp critical(shared_first_bad)
                    first = k < first ? k : first;
                }
            }
            for (size_t i = 0; i < r->n; i++)
                mpz_clear(common[i]);
            free(common);
            free(factor);
            free(twin);
            free(partners);
        }
        out->checked += looked;
        out->mismatches += bad;
        if (bad) {
            mpgpu_shared_factors_finding f;
            mpgpu_shared_factors_report_get(r->report, first, &f);
            snprintf(out->first_bad, sizeof out->first_bad,
                     "first bad: the partners of modulus %zu (line %zu)", f.index, r->lines[f.index]);
        }
    }
    if (out->mismatches == 0)
        write_output(r);
}

static unsigned kind_count(const struct shared_run *r, unsigned kind)
{
    unsigned n = 0;
    mpgpu_shared_factors_finding f;
    for (size_t k = 0; k < mpgpu_shared_factors_report_count(r->report); k++)
        n += mpgpu_shared_factors_report_get(r->report, k, &f) == MPGPU_OK && (f.kinds & kind);
    return n;
}

static void shared_describe(void *ctx, const struct bench_case *c, char *params, size_t len)
{
    (void)c;
    const struct shared_run *r = ctx;
    /* The trees' phases (docs/shared-factors.md): whole milliseconds, '/' between them. */
    char phases[2 * 64 * 8 + 16] = "";
    if (!r->pairs_gpu && r->phases) {
        size_t at = (size_t)snprintf(phases, sizeof phases, ";phases_ms=");
        for (unsigned k = 0; k < r->phases && at < sizeof phases; k++)
            at += (size_t)snprintf(phases + at, sizeof phases - at, "%s%.0f", k ? "/" : "",
                                   r->phase_end_ms[k] - (k ? r->phase_end_ms[k - 1] : 0));
    }
    snprintf(params, len,
             "threads=%d;found=%zu;shared=%u;both=%u;duplicate=%u;small=%u;tree_ms=%.3f;"
             "classify_ms=%.3f;resumed_tiles=%llu%s;input=%s",
             r->threads, mpgpu_shared_factors_report_count(r->report),
             kind_count(r, MPGPU_SHARED_PRIME), kind_count(r, MPGPU_SHARED_ALL),
             kind_count(r, MPGPU_SHARED_DUPLICATE), kind_count(r, MPGPU_SHARED_SMALL), r->tree_ms,
             r->classify_ms, (unsigned long long)r->resumed_from, phases, r->path);
}

/* The kinds as --output and the report name them. */
static void kind_names(unsigned kinds, char *out, size_t len)
{
    static const struct {
        unsigned kind;
        const char *name;
    } names[] = {{MPGPU_SHARED_PRIME, "shared"}, {MPGPU_SHARED_ALL, "both"},
                 {MPGPU_SHARED_DUPLICATE, "duplicate"}, {MPGPU_SHARED_SMALL, "small"}};
    out[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (kinds & names[i].kind)
            snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "," : "",
                     names[i].name);
}

/* One finding: its line, kinds, g_i, N_i / g_i, small prime, and per share the factor and the
 * partners' lines. `brief`: numbers shortened and partners cut at REPORT_PARTNERS, for the
 * readable report. */
static void print_finding(const struct shared_run *r, size_t k, FILE *f, bool brief,
                          size_t *partners, uint32_t *factor, mpz_t g, mpz_t x)
{
    mpgpu_shared_factors_finding fi;
    mpgpu_shared_factors_report_get(r->report, k, &fi);
    char kinds[64];
    kind_names(fi.kinds, kinds, sizeof kinds);
    mpz_import(g, r->words, -1, sizeof *r->g, 0, 0, r->g + fi.index * r->words);
    mpz_divexact(x, r->N[fi.index], g);
    if (brief) {
        fprintf(f, "# line %zu: %s", r->lines[fi.index], kinds);
        if (fi.small_prime)
            fprintf(f, ", divisible by %u", fi.small_prime);
        if (mpz_cmp_ui(g, 1) > 0 && mpz_cmp_ui(x, 1) > 0)
            fprintf(f, ", factored: %zu-bit gcd times a %zu-bit cofactor",
                    mpz_sizeinbase(g, 2), mpz_sizeinbase(x, 2));
    } else {
        gmp_fprintf(f, "%zu %s %Zx %Zx %u", r->lines[fi.index], kinds, g, x, fi.small_prime);
    }
    for (size_t s = 0; s < fi.shares; s++) {
        size_t words, n;
        mpgpu_shared_factors_report_share(r->report, k, s, factor, r->words, &words, partners, &n);
        mpz_import(x, words, -1, sizeof *factor, 0, 0, factor);
        if (brief)
            fprintf(f, "; a %zu-bit factor with line(s)", mpz_sizeinbase(x, 2));
        else
            gmp_fprintf(f, " %Zx:", x);
        for (size_t p = 0; p < n && (!brief || p < REPORT_PARTNERS); p++)
            fprintf(f, "%s%zu", p ? (brief ? ", " : ",") : brief ? " " : "", r->lines[partners[p]]);
        if (brief && n > REPORT_PARTNERS)
            fprintf(f, " and %zu more", n - REPORT_PARTNERS);
    }
    fputc('\n', f);
}

static void print_findings(const struct shared_run *r, FILE *f, bool brief)
{
    size_t *partners = malloc(r->n * sizeof *partners);
    uint32_t *factor = malloc(r->words * sizeof *factor);
    if (!partners || !factor)
        cli_bad_input("--shared-factors %s: out of host memory for the report", r->path);
    mpz_t g, x;
    mpz_inits(g, x, NULL);
    for (size_t k = 0; k < mpgpu_shared_factors_report_count(r->report); k++)
        print_finding(r, k, f, brief, partners, factor, g, x);
    mpz_clears(g, x, NULL);
    free(partners);
    free(factor);
}

static void write_output(struct shared_run *r)
{
    FILE *f = r->output.f;
    if (!f)
        return;
    fprintf(f, "# mpgpu gcd --shared-factors %s --method %s: %zu moduli, %zu reported\n"
               "# LINE KINDS GCD COFACTOR SMALL_PRIME FACTOR:LINE,LINE,... (one field a factor "
               "shared; hex; docs/shared-factors.md)\n",
            r->path, r->method, r->n, mpgpu_shared_factors_report_count(r->report));
    print_findings(r, f, false);
    r->output_status = output_file_commit(&r->output);
    r->output.f = NULL; /* written: stdout too, which the commit leaves open */
}

static void shared_summary(void *ctx, const struct bench_case *c, FILE *out)
{
    (void)c;
    const struct shared_run *r = ctx;
    fprintf(out, "# %zu of %zu moduli share a factor with another or have a prime factor below "
                 "%u%s\n", mpgpu_shared_factors_report_count(r->report), r->n,
            MPGPU_SHARED_FACTORS_SMALL_PRIME_LIMIT,
            mpgpu_shared_factors_report_count(r->report) ? ":" : "");
    print_findings(r, out, true);
}

static const struct bench_ops shared_ops = {
    .pass = shared_pass,
    .check_begin = shared_check_begin,
    .reference = shared_reference,
    .compare = shared_compare,
    .name_element = name_modulus,
    .check_end = shared_check_end,
    .describe = shared_describe,
    .summary = shared_summary,
};

int gcd_shared_factors(struct cli_common *opt, const struct gcd_shared_args *a)
{
    struct shared_run r = {.opt = opt, .path = a->moduli_path, .checkpoint = a->checkpoint};
    if (opt->n_methods > 1)
        cli_bad_input("--shared-factors runs one method; give one --method, not %zu",
                      opt->n_methods);
    r.method = opt->n_methods ? opt->methods[0] : "tree-cpu";
    mpgpu_shared_factors_method_info info;
    if (mpgpu_shared_factors_method_find(r.method, &info) != MPGPU_OK) {
        char accepted[256] = "";
        for (size_t k = 0; mpgpu_shared_factors_method_get(k, &info) == MPGPU_OK; k++)
            snprintf(accepted + strlen(accepted), sizeof accepted - strlen(accepted), "%s%s",
                     k ? ", " : "", info.name);
        cli_bad_input("gcd --shared-factors: unknown method '%s'; accepted: %s", r.method,
                      accepted);
    }
    r.uses_gpu = info.uses_gpu;
    r.pairs_gpu = !strcmp(r.method, "pairs-gpu");
    if (r.checkpoint && !r.pairs_gpu)
        cli_bad_input("--checkpoint applies to --method pairs-gpu; %s runs in one go", r.method);
    /* Every pass would resume from the one checkpoint read (as collatz --checkpoint refuses). */
    const char *repeat = cli_repeat_option(opt);
    if (r.checkpoint && repeat)
        cli_bad_input("%s is not accepted with --checkpoint, whose run is one pass, the checkpoint following it",
                      repeat);
    if (a->device_given && !r.uses_gpu)
        cli_bad_input("--device is not accepted with --shared-factors --method %s, which runs no "
                      "GPU method; name tree-gpu or pairs-gpu", r.method);
    if (opt->bits_set || opt->count_set)
        cli_bad_input("--shared-factors takes the moduli and their sizes from its file; drop "
                      "--bits and --count");
    r.threads = a->threads_given ? opt->threads : 0;
    if (r.threads == 0)
        r.threads = omp_get_num_procs();
    read_moduli(&r, info.max_bits);
    if (!a->verify_given)
        opt->verify = r.n <= VERIFY_ALL_UP_TO ? VERIFY_ALL : VERIFY_SAMPLE;
    uint64_t bytes = 0, widest = (uint64_t)r.words * 32;
    mpgpu_shared_factors_host_bytes(r.method, r.n, widest, &bytes);
    char what[256];
    snprintf(what, sizeof what, "gcd --shared-factors (%zu moduli of up to %llu bits, %s)", r.n,
             (unsigned long long)widest, r.method);
    hostmem_require_lower(bytes + 3 * (uint64_t)r.n * (widest / 8 + 32), what,
                          "fewer moduli in the file");
    if (r.pairs_gpu) {
        const uint64_t rows = (r.n + PAIRS_TILE - 1) / PAIRS_TILE;
        r.tiles = rows * (rows + 1) / 2;
        r.input_hash = moduli_hash(&r);
    }
    if (r.checkpoint) {
        checkpoint_read(&r);
        /* Writable before any work: the temporary file it is written through. */
        struct file_replace probe;
        const int err = file_replace_open(&probe, r.checkpoint);
        if (err)
            cli_bad_input("--checkpoint %s cannot be written: %s", r.checkpoint, strerror(err));
        file_replace_discard(&probe);
    }
    output_file_open(&r.output, "--output", a->output, opt->csv_path);
    char why[256];
    const bool have_gpu = r.uses_gpu && gpu_open(opt->device, why, sizeof why);
    struct bench b;
    char instead[160];
    snprintf(instead, sizeof instead, "--method %s needs one (tree-cpu runs on the host)", r.method);
    bench_open(&b, "gcd", opt, have_gpu, opt->device, r.uses_gpu && !have_gpu ? why : NULL, instead);
    output_file_move_table(&r.output, &b.table);
    /* An --output's temporary file goes at exit, with nothing said of it. */
    if (r.uses_gpu && !have_gpu)
        return EXIT_GPU_ERROR;
    if (r.uses_gpu) {
        uint64_t need = 0;
        size_t free_b = 0, total_b = 0;
        mpgpu_shared_factors_device_bytes(r.method, r.n, widest, &need);
        GPU_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (need > free_b) {
            fprintf(stderr,
                    "mpgpu: gcd --shared-factors %s: %zu moduli of up to %llu bits take %.2f "
                    "GiB of GPU memory with %s, the GPU has %.2f GiB free; accepted: fewer "
                    "moduli, or --method tree-cpu\n",
                    r.path, r.n, (unsigned long long)widest, need / 1073741824.0, r.method,
                    free_b / 1073741824.0);
            return EXIT_BAD_INPUT;
        }
    }
    /* One search is the measurement: a run of 10^6 moduli takes minutes. */
    b.reps = a->reps_given ? opt->reps : 1;
    b.warmup = a->warmup_given ? opt->warmup : 0;
    b.seed = 0;
    struct bench_case c = {
        .method = r.method,
        .bits = (unsigned)(mpz_sizeinbase(r.N[0], 2)),
        .count = r.n,
        .throughput_unit = "moduli",
        .timed_region = r.pairs_gpu ? "kernels+transfers" : r.uses_gpu ? "cpu+gpu" : "cpu",
        .cpu_threads = r.pairs_gpu ? 1 : r.threads,
    };
    for (size_t i = 1; i < r.n; i++)
        if (mpz_sizeinbase(r.N[i], 2) > c.bits)
            c.bits = (unsigned)mpz_sizeinbase(r.N[i], 2);
    int status = bench_run(&b, &shared_ops, &r, &c, 1);
    if (r.output.f)
        status = output_file_abandon(&r.output, status, "findings");
    if (status == 0)
        status = r.output_status;
    mpgpu_shared_factors_report_destroy(r.report);
    for (size_t i = 0; i < r.n; i++) {
        mpz_clear(r.N[i]);
        if (r.expect)
            mpz_clear(r.expect[i]);
    }
    free(r.N);
    free(r.expect);
    free(r.moduli);
    free(r.g);
    free(r.lines);
    free(r.resume_pairs);
    return status;
}

/* --plant's list: names of rsa_plant_names, "all" or "none". */
static unsigned parse_plants(const char *list)
{
    if (!list)
        return 0;
    bool planted[RSA_PLANT_KINDS] = {false}, none = false;
    name_list_parse("--plant", list, rsa_plant_names, RSA_PLANT_KINDS, "none", &none, planted);
    unsigned plants = 0;
    for (unsigned k = 0; k < RSA_PLANT_KINDS; k++)
        plants |= (unsigned)planted[k] << k;
    if (none && plants)
        cli_bad_input("--plant '%s' names none and kinds to plant; accepted: none alone, or kinds", list);
    return plants;
}

int gcd_make_moduli(const struct cli_common *opt, const struct gcd_shared_args *a)
{
    const unsigned plants = parse_plants(a->plants);
    const unsigned bits = opt->bits_set ? opt->bits : 2048;
    if (bits < MAKE_BITS_MIN || bits > MAKE_BITS_MAX || bits % 2)
        cli_bad_input("--make-moduli --bits %u is not accepted; accepted: an even number in "
                      "%u..%u (two primes of half the size each)", bits, MAKE_BITS_MIN,
                      MAKE_BITS_MAX);
    if (a->make_count < 2 || a->make_count < rsa_plant_moduli(plants))
        cli_bad_input("--make-moduli %llu is not accepted; accepted: at least %u (%s)",
                      (unsigned long long)a->make_count,
                      rsa_plant_moduli(plants) > 2 ? rsa_plant_moduli(plants) : 2,
                      rsa_plant_moduli(plants) > 2 ? "the moduli --plant's relations take" : "two moduli");
    if (!a->output || !strcmp(a->output, "-"))
        cli_bad_input("--make-moduli writes its moduli to --output FILE; give one (not '-': "
                      "stdout says what was planted)");
    const size_t n = (size_t)a->make_count;
    char what[160];
    snprintf(what, sizeof what, "gcd --make-moduli %zu --bits %u", n, bits);
    hostmem_require_lower((uint64_t)n * ((bits + 63) / 64 * 8 + 32), what, "--make-moduli");
    struct output_file out;
    output_file_open(&out, "--output", a->output, NULL);
    interrupt_install();
    mpz_t *N = malloc(n * sizeof *N);
    if (!N)
        cli_bad_input("%s: out of host memory", what);
    for (size_t i = 0; i < n; i++)
        mpz_init(N[i]);
    struct rsa_planted planted[RSA_PLANT_KINDS];
    size_t n_planted = 0;
    /* Finding the primes is the slow part: every core unless --threads says otherwise. */
    const int threads =
        a->threads_given && opt->threads > 0 ? opt->threads : omp_get_num_procs();
    struct progress_phase ph;
    const struct loop_watch *watch = progress_phase_begin(
        &ph, opt->quiet, "moduli", n, "gcd --make-moduli: %zu moduli of %u bits", n, bits);
    const int rc = rsa_moduli_make(N, n, bits, opt->seed, plants, threads, watch, planted,
                                   &n_planted);
    progress_phase_end(&ph);
    int status = 0;
    if (rc == LOOP_STOPPED) {
        status = output_file_abandon(&out, EXIT_INTERRUPTED, "moduli");
    } else {
        for (size_t i = 0; i < n; i++)
            gmp_fprintf(out.f, "%Zx\n", N[i]);
        fprintf(out.f, "# mpgpu gcd --make-moduli %zu --bits %u --seed %llu --plant %s\n", n, bits,
                (unsigned long long)opt->seed, a->plants ? a->plants : "none");
        /* What was planted goes to the file, and to stdout unless --quiet (the file keeps it). */
        FILE *said = opt->quiet ? NULL : stdout;
        for (size_t p = 0; p < n_planted; p++) {
            fprintf(out.f, "# planted %s: lines", rsa_plant_names[__builtin_ctz(planted[p].kind)]);
            if (said)
                fprintf(said, "planted %s: lines", rsa_plant_names[__builtin_ctz(planted[p].kind)]);
            for (unsigned m = 0; m < planted[p].count; m++) {
                fprintf(out.f, " %zu", planted[p].index[m] + 1);
                if (said)
                    fprintf(said, " %zu", planted[p].index[m] + 1);
            }
            fputc('\n', out.f);
            if (said)
                fputc('\n', said);
        }
        status = output_file_commit(&out);
        if (status == 0 && said)
            printf("%zu moduli of %u bits (seed %llu) in %s, one a line from line 1\n", n, bits,
                   (unsigned long long)opt->seed, a->output);
    }
    for (size_t i = 0; i < n; i++)
        mpz_clear(N[i]);
    free(N);
    return status;
}
