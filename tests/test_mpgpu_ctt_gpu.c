/* gpu suite: libmpgpu's batches of variable-length numbers (mpgpu.h, ctt-vs-ctw) against GMP.
 * Every mapping and every op, on seeded random batches (equal short lengths, lengths spread
 * over several of auto's bins, long ones; signed operands) and on worst cases (all-ones
 * operands from one word to the longest, each sign, and x - x at one offset): through
 * mpgpu_ctt_run_host, and through mpgpu_ctt_upload / _run_device / _download on a stream of the
 * caller's and on the legacy default stream, the plan run twice (its counters must be reset
 * between runs). The device's result space is poisoned first on the same stream, so a result
 * the call never wrote, or one read before the stream reached it, is caught; the check takes
 * the operands and descriptors from the host's own copy of the batch (ctt_verify). Each batch
 * checked is one check. Exits 77 without a GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctt_gen.h"
#include "ctt_gmp.h"
#include "mpgpu.h"
#include "test_seed.h"
#define TEST_PROGRAM "test_mpgpu_ctt_gpu"
#include "test_mpgpu_cuda.h"

static const char *const mapping_names[] = {"thread", "warp", "auto"};
static const char *const op_names[MPGPU_CTT_N_OPS] = {"add",  "sub",  "mul", "qadd",
                                                       "qsub", "qmul", "qdiv"};

static size_t comp_bytes(const mpgpu_ctt_batch *b)
{
    return b->rational ? sizeof(mpgpu_ctt_qcomp) : sizeof(mpgpu_ctt_comp);
}

/* One check: the results in mem and comps (as a call left them) against GMP's, from b. */
static void judge(const mpgpu_ctt_batch *b, mpgpu_status st, const uint32_t *mem, const void *comps,
                  const char *how, mpgpu_ctt_mapping m, const char *what)
{
    if (st != MPGPU_OK) {
        mpgpu_error_info e;
        mpgpu_last_error(&e);
        CHECK(false, "%s %s, %s: %s (CUDA call '%s': %s)", how, mapping_names[m], what,
              mpgpu_status_string(st), e.cuda_call, e.cuda_error_string);
        return;
    }
    size_t first = 0;
    const uint64_t bad = ctt_verify(b, mem, comps, 8, false, &first);
    CHECK(bad == 0, "%s %s, %s: %llu of %zu computations differ from GMP, first %zu", how,
          mapping_names[m], what, (unsigned long long)bad, b->count, first);
}

/* mpgpu_ctt_run_host on a copy of b (the copy gets the results; b stays as built). */
static void check_host(const mpgpu_ctt_batch *b, mpgpu_ctt_mapping m, const char *what)
{
    const uint64_t words = b->operand_words + b->result_words;
    mpgpu_ctt_batch run = *b;
    run.words = malloc(words * 4);
    void *comps = malloc(b->count * comp_bytes(b));
    memcpy(run.words, b->words, words * 4);
    memcpy(comps, b->rational ? (void *)b->qcomps : (void *)b->comps, b->count * comp_bytes(b));
    run.comps = b->rational ? NULL : comps;
    run.qcomps = b->rational ? comps : NULL;
    run.cap_words = words;
    const mpgpu_status st = mpgpu_ctt_run_host(&run, m);
    judge(b, st, run.words, comps, "host", m, what);
    free(run.words);
    free(comps);
}

/* The device calls on `stream`: the plan made once and run twice, each run on a freshly
 * uploaded and poisoned memory block, each checked. */
static void check_device(const mpgpu_ctt_batch *b, mpgpu_ctt_mapping m, cudaStream_t stream,
                         const char *what)
{
    const uint64_t words = b->operand_words + b->result_words;
    uint32_t *d_mem, *mem = malloc(words * 4);
    void *d_comps, *comps = malloc(b->count * comp_bytes(b));
    CUDA_OK(cudaMalloc((void **)&d_mem, words * 4));
    CUDA_OK(cudaMalloc(&d_comps, b->count * comp_bytes(b)));
    mpgpu_ctt_plan *plan = NULL;
    mpgpu_status st = mpgpu_ctt_plan_create(&plan, b, m);
    for (int run = 0; run < 2; run++) {
        if (st == MPGPU_OK)
            st = mpgpu_ctt_upload(b, d_mem, d_comps, stream);
        if (st == MPGPU_OK) {
            CUDA_OK(cudaMemsetAsync(d_mem + b->operand_words, 0xa5, b->result_words * 4, stream));
            st = mpgpu_ctt_run_device(plan, d_mem, d_comps, stream);
        }
        if (st == MPGPU_OK)
            st = mpgpu_ctt_download(plan, d_mem, d_comps, mem, comps, stream);
        CUDA_OK(cudaStreamSynchronize(stream));
        char how[48];
        snprintf(how, sizeof how, "device (%s stream, run %d)", stream ? "own" : "default", run + 1);
        judge(b, st, mem, comps, how, m, what);
    }
    mpgpu_ctt_plan_destroy(plan);
    CUDA_OK(cudaFree(d_mem));
    CUDA_OK(cudaFree(d_comps));
    free(mem);
    free(comps);
}

static void check_all_ways(const mpgpu_ctt_batch *b, cudaStream_t stream, const char *what)
{
    for (int m = MPGPU_CTT_THREAD; m <= MPGPU_CTT_AUTO; m++) {
        check_host(b, (mpgpu_ctt_mapping)m, what);
        check_device(b, (mpgpu_ctt_mapping)m, stream, what);
        check_device(b, (mpgpu_ctt_mapping)m, NULL, what);
    }
}

/* Seeded random batches of op; prime counts, so the last warp and block are partial. */
static void random_batches(mpgpu_ctt_op op, cudaStream_t stream)
{
    static const struct {
        double mean, sigma;
        size_t count;
        bool sign;
    } shapes[] = {{1, 0, 1031, false}, {8, 8, 2053, true}, {33, 0, 257, true},
                  {200, 150, 131, false}, {1500, 300, 13, true}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const struct ctt_gen g = {.seed = seed + 31 * s + op, .op = op, .count = shapes[s].count,
                                  .mean_words = shapes[s].mean, .sigma_words = shapes[s].sigma,
                                  .max_words = MPGPU_CTT_MAX_WORDS,
                                  .signed_operands = shapes[s].sign};
        mpgpu_ctt_batch b;
        if (ctt_batch_generate(&b, &g, NULL) != 0) {
            CHECK(false, "generate %s", op_names[op]);
            continue;
        }
        char what[96];
        snprintf(what, sizeof what, "%s, words %g sigma %g%s", op_names[op], g.mean_words,
                 g.sigma_words, g.signed_operands ? ", signed" : "");
        check_all_ways(&b, stream, what);
        mpgpu_ctt_batch_free(&b);
    }
}

/* All-ones operands of one word to the longest against each other (a carry or borrow through
 * every word), each sign, and x - x, x + (-x) at one offset; products of the longest operand
 * with more than a word are left out (one thread takes seconds over one). Rationals: P/Q op Q/P
 * and P/Q op P/Q at one offset for the same lengths. */
static void worst_cases(mpgpu_ctt_op op, cudaStream_t stream)
{
    static const uint32_t lens[] = {1, 32, 33, 1500, MPGPU_CTT_MAX_WORDS};
    enum { N = sizeof lens / sizeof lens[0] };
    uint32_t *ones = malloc(MPGPU_CTT_MAX_WORDS * sizeof *ones), off[N];
    for (uint32_t i = 0; i < MPGPU_CTT_MAX_WORDS; i++)
        ones[i] = 0xffffffffu;
    mpgpu_ctt_batch b;
    mpgpu_ctt_batch_init(&b);
    bool ok = true;
    for (int i = 0; i < N; i++)
        ok &= mpgpu_ctt_batch_push_operand(&b, ones, lens[i], &off[i]) == MPGPU_OK;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            const bool slow = (lens[i] == MPGPU_CTT_MAX_WORDS || lens[j] == MPGPU_CTT_MAX_WORDS) &&
                              lens[i] + lens[j] > MPGPU_CTT_MAX_WORDS + 1;
            for (int s = 0; s < 4; s++) {
                if (!MPGPU_CTT_OP_IS_RATIONAL(op)) {
                    if (!(op == MPGPU_CTT_MUL && slow))
                        ok &= mpgpu_ctt_batch_push_comp(&b, op, off[i], lens[i], s & 1, off[j],
                                                        lens[j], s >> 1) == MPGPU_OK;
                    if (i == j && i + 1 < N) /* x - x, x + (-x), -x - (-x) at one offset */
                        ok &= mpgpu_ctt_batch_push_comp(&b, op, off[i], lens[i], s & 1, off[i],
                                                        lens[i], (s & 1) ^ (op == MPGPU_CTT_ADD)) ==
                              MPGPU_OK;
                } else if (!slow && lens[i] < MPGPU_CTT_MAX_WORDS && lens[j] < MPGPU_CTT_MAX_WORDS) {
                    const mpgpu_ctt_qcomp q = {.op = (uint8_t)op, .a_off = off[i], .a_len = lens[i],
                                               .a_neg = s & 1, .b_off = off[j], .b_len = lens[j],
                                               .c_off = s < 2 ? off[j] : off[i],
                                               .c_len = s < 2 ? lens[j] : lens[i], .c_neg = s >> 1,
                                               .d_off = s < 2 ? off[i] : off[j],
                                               .d_len = s < 2 ? lens[i] : lens[j]};
                    ok &= mpgpu_ctt_batch_push_qcomp(&b, &q) == MPGPU_OK;
                }
            }
        }
    ok &= mpgpu_ctt_batch_seal(&b) == MPGPU_OK;
    CHECK(ok, "%s: building the worst cases", op_names[op]);
    char what[96];
    snprintf(what, sizeof what, "%s, all-ones words, one word to the longest, x - x", op_names[op]);
    check_all_ways(&b, stream, what);
    mpgpu_ctt_batch_free(&b);
    free(ones);
}

int main(void)
{
    seed = test_seed();
    if (test_cuda_skip())
        return 77;
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int op = 0; op < MPGPU_CTT_N_OPS; op++) {
        random_batches((mpgpu_ctt_op)op, stream);
        worst_cases((mpgpu_ctt_op)op, stream);
    }
    CUDA_OK(cudaStreamDestroy(stream));
    return test_finish("test_mpgpu_ctt_gpu");
}
