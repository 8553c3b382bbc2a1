/* gpu suite: every mapping of `mpgpu ctt-vs-ctw` (thread, warp, auto) and every op (add, sub,
 * mul, and qadd, qsub, qmul, qdiv on rationals, 003 4.4) against GMP, on batches in 003's layout: equal lengths from one word up (one, a warp's
 * 32 and one past it, 512, and lengths that auto sends to a block), lengths on both sides of
 * the tile bin's end at 4096 words, mixed lengths (sigma up to the mean, so one batch spans
 * several of auto's bins; 1201 products around 200 words, enough on an H200 for auto's narrow
 * mappings of the middle lengths, where smaller batches send them to the block), signed
 * operands, all-ones words, one
 * word against the maximum length, and x - x (both operands at one offset: a zero-length
 * result). Rationals get the same random batches (each of the four integers drawn alike) and
 * all-ones integers of those lengths in every place, zero numerators, and x - x for qsub (F1 and
 * F2 at one offset). Counts are prime, so the last warp and block are partial. Besides each
 * value, the result regions the mapping reserved must be disjoint and packed (003 Algorithm
 * 3.2). Each batch checked is one check. And an operand changed on the device is caught by the
 * check, which takes operands from the host. The batches run through libmpgpu's calls on device
 * buffers (mpgpu_ctt_upload, _run_device, _download), as `mpgpu ctt-vs-ctw` runs them. Exits 77
 * (skipped) without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctt.h"
#include "ctt_batch.h"
#include "ctt_gen.h"
#include "ctt_gmp.h"
#include "ctt_rational.h"
#include "gpu.h"
#include "mpgpu.h"
#include "test_gpu.h"
#include "test_seed.h"

static const char *const mapping_names[] = {"thread", "warp", "auto"};
static const char *const op_names[MPGPU_CTT_N_OPS] = {"add", "sub", "mul", "qadd", "qsub", "qmul", "qdiv"};

static int cmp_u64(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Runs b with mapping m on the device, its result space poisoned so that a word no mapping
 * writes shows up in the check, and with operand word `changed_at` (UINT64_MAX: none) set to
 * `changed` on the device after the upload; the memory block and descriptors as the mapping
 * left them go to mem and comps. */
static mpgpu_status device_run(const struct mpgpu_ctt_batch *b, enum ctt_mapping m,
                               uint64_t changed_at, uint32_t changed, uint32_t *mem, void *comps)
{
    const uint64_t total = b->operand_words + b->result_words;
    cudaStream_t stream = NULL;
    uint32_t *d_mem = NULL;
    void *d_comps = NULL;
    mpgpu_ctt_plan *plan = NULL;
    mpgpu_status st = MPGPU_ERR_CUDA;
    if (cudaStreamCreate(&stream) == cudaSuccess && cudaMalloc((void **)&d_mem, total * 4) == cudaSuccess &&
        cudaMalloc(&d_comps, b->count * ctt_comp_bytes(b)) == cudaSuccess)
        st = mpgpu_ctt_plan_create(&plan, b, (mpgpu_ctt_mapping)m);
    if (st == MPGPU_OK)
        st = mpgpu_ctt_upload(b, d_mem, d_comps, stream);
    if (st == MPGPU_OK &&
        (cudaMemsetAsync(d_mem + b->operand_words, 0xa5, b->result_words * 4, stream) != cudaSuccess ||
         (changed_at != UINT64_MAX &&
          cudaMemcpyAsync(d_mem + changed_at, &changed, 4, cudaMemcpyHostToDevice, stream) != cudaSuccess)))
        st = MPGPU_ERR_CUDA;
    if (st == MPGPU_OK)
        st = mpgpu_ctt_run_device(plan, d_mem, d_comps, stream);
    if (st == MPGPU_OK)
        st = mpgpu_ctt_download(plan, d_mem, d_comps, mem, comps, stream);
    if (st == MPGPU_OK && cudaStreamSynchronize(stream) != cudaSuccess)
        st = MPGPU_ERR_CUDA;
    if (stream)
        cudaStreamSynchronize(stream);
    mpgpu_ctt_plan_destroy(plan);
    cudaFree(d_mem);
    cudaFree(d_comps);
    if (stream)
        cudaStreamDestroy(stream);
    return st;
}

/* Runs b with mapping m and checks every result and the packing of the result space. */
static void run_and_check(const struct mpgpu_ctt_batch *b, enum ctt_mapping m, const char *what)
{
    const uint64_t total = b->operand_words + b->result_words;
    uint32_t *mem = malloc(total * 4);
    struct mpgpu_ctt_comp *comps = b->rational ? NULL : malloc(b->count * sizeof *comps);
    struct mpgpu_ctt_qcomp *qcomps = b->rational ? malloc(b->count * sizeof *qcomps) : NULL;
    const mpgpu_status st =
        device_run(b, m, UINT64_MAX, 0, mem, b->rational ? (void *)qcomps : (void *)comps);
    if (st != MPGPU_OK) {
        mpgpu_error_info e;
        mpgpu_last_error(&e);
        check_outcome(false);
        printf("FAIL %s, %s: %s (CUDA call %s: %s)\n", mapping_names[m], what,
               mpgpu_status_string(st), e.cuda_call, e.cuda_error_string);
        cudaGetLastError();
    } else {
        size_t first = 0;
        const uint64_t bad = ctt_verify(b, mem, b->rational ? (void *)qcomps : (void *)comps, 8,
                                        false, &first);
        /* Disjoint and packed: regions sorted by offset (offset * 2^32 + size keys) tile the
         * result space. */
        uint64_t *keys = malloc(b->count * sizeof *keys);
        for (size_t i = 0; i < b->count; i++)
            keys[i] = b->rational ? (uint64_t)qcomps[i].x_off << 32 | ctt_q_capacity(&qcomps[i])
                                  : (uint64_t)comps[i].r_off << 32 | ctt_result_capacity(&comps[i]);
        qsort(keys, b->count, sizeof *keys, cmp_u64);
        uint64_t at = b->operand_words;
        for (size_t i = 0; i < b->count && at != UINT64_MAX; i++)
            at = (keys[i] >> 32) == at ? at + (uint32_t)keys[i] : UINT64_MAX;
        free(keys);
        if (check_outcome(bad == 0 && at == total)) {
            printf("ok   %-6s %s: %zu computations\n", mapping_names[m], what, b->count);
        } else {
            printf("FAIL %s, %s: %llu of %zu differ from GMP", mapping_names[m], what,
                   (unsigned long long)bad, b->count);
            if (bad && b->rational)
                printf(", first computation %zu (lengths %u/%u, %u/%u; x_len %u, y_len %u)", first,
                       qcomps[first].a_len, qcomps[first].b_len, qcomps[first].c_len,
                       qcomps[first].d_len, qcomps[first].x_len, qcomps[first].y_len);
            else if (bad)
                printf(", first computation %zu (a_len %u, b_len %u, r_len %u)", first,
                       comps[first].a_len, comps[first].b_len, comps[first].r_len);
            if (at != total)
                printf("; result regions not disjoint and packed");
            printf(" (seed %llu)\n", (unsigned long long)seed);
        }
    }
    free(mem);
    free(comps);
    free(qcomps);
}

static void random_batches(enum ctt_mapping m, mpgpu_ctt_op op)
{
    static const struct { double mean, sigma; size_t count; bool sign; } shapes[] = {
        {1, 0, 1031, false},   {2, 0, 1031, true},   {31, 0, 1031, false}, {32, 0, 257, false},
        {33, 0, 257, true},    {512, 0, 67, false},  {600, 0, 37, false},  {1100, 0, 37, false},
        {2048, 0, 11, true},   {4000, 100, 13, false},
        {64, 64, 1031, false}, {8, 8, 4099, true},   {600, 400, 131, true},
        {200, 60, 1201, false},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const struct ctt_gen g = {.seed = seed + s, .op = op, .count = shapes[s].count,
                                  .mean_words = shapes[s].mean, .sigma_words = shapes[s].sigma,
                                  .max_words = CTT_MAX_WORDS, .signed_operands = shapes[s].sign};
        struct mpgpu_ctt_batch b;
        if (ctt_batch_generate(&b, &g, NULL) != 0) {
            CHECK(false, "generate");
            continue;
        }
        char what[128];
        snprintf(what, sizeof what, "%s, words %g sigma %g%s", op_names[op], g.mean_words,
                 g.sigma_words, g.signed_operands ? ", signed" : "");
        run_and_check(&b, m, what);
        mpgpu_ctt_batch_free(&b);
    }
}

/* Whether a product is one a single thread would take seconds over: a maximal operand times
 * more than one word. */
static bool slow_product(uint32_t na, uint32_t nb)
{
    return (na == CTT_MAX_WORDS || nb == CTT_MAX_WORDS) && na + nb > CTT_MAX_WORDS + 1;
}

/* 1500: auto's block bin of add and sub, ending a 256-word chunk short (the carry out of the
 * top word is then not the chunk's). */
static const uint32_t edge_lens[] = {1, 32, 33, 700, 1500, CTT_MAX_WORDS};
#define N_EDGE (sizeof edge_lens / sizeof edge_lens[0])

/* All-ones operands of the edge lengths against each other (a carry or borrow through every
 * word), each sign, and x - x / x + (-x) at one offset. */
static void edge_batch(enum ctt_mapping m, mpgpu_ctt_op op)
{
    const uint32_t *lens = edge_lens;
    const size_t n = N_EDGE;
    struct mpgpu_ctt_batch b;
    mpgpu_ctt_batch_init(&b);
    uint32_t *ones = malloc(CTT_MAX_WORDS * sizeof *ones);
    for (uint32_t i = 0; i < CTT_MAX_WORDS; i++)
        ones[i] = 0xffffffffu;
    uint32_t off[N_EDGE];
    for (size_t i = 0; i < n; i++)
        mpgpu_ctt_batch_push_operand(&b, ones, lens[i], &off[i]);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            /* One thread multiplying a maximal operand by more than one word takes seconds. */
            if (op == MPGPU_CTT_MUL && slow_product(lens[i], lens[j]))
                continue;
            for (int s = 0; s < 4; s++)
                mpgpu_ctt_batch_push_comp(&b, op, off[i], lens[i], s & 1, off[j], lens[j], s >> 1);
        }
    for (size_t i = 0; i + 1 < n; i++) /* x - x, x + (-x), -x - (-x) */
        for (int s = 0; s < 2; s++)
            mpgpu_ctt_batch_push_comp(&b, op, off[i], lens[i], s, off[i], lens[i], op == MPGPU_CTT_ADD ? !s : s);
    mpgpu_ctt_batch_seal(&b);
    char what[64];
    snprintf(what, sizeof what, "%s, all-ones words, one word to maximum length, x - x",
             op_names[op]);
    run_and_check(&b, m, what);
    free(ones);
    mpgpu_ctt_batch_free(&b);
}

/* Rationals of all-ones integers of the edge lengths, P and Q, in every place: P/Q op Q/P,
 * P/P op Q/Q, P/Q op P/Q at one offset (x - x for qsub, x + (-x) for qadd), and zero numerators
 * (one word and 33 zero words), each numerator sign; qdiv's zero divisors are left out (the
 * batch refuses them: test_ctt_cpu). */
static void rational_edge_batch(enum ctt_mapping m, mpgpu_ctt_op op)
{
    struct mpgpu_ctt_batch b;
    mpgpu_ctt_batch_init(&b);
    uint32_t *ones = malloc(CTT_MAX_WORDS * sizeof *ones), zeros[33] = {0};
    for (uint32_t i = 0; i < CTT_MAX_WORDS; i++)
        ones[i] = 0xffffffffu;
    uint32_t off[N_EDGE + 2], len[N_EDGE + 2];
    const size_t z1 = N_EDGE, z33 = N_EDGE + 1;
    for (size_t i = 0; i < N_EDGE; i++)
        mpgpu_ctt_batch_push_operand(&b, ones, len[i] = edge_lens[i], &off[i]);
    mpgpu_ctt_batch_push_operand(&b, zeros, len[z1] = 1, &off[z1]);
    mpgpu_ctt_batch_push_operand(&b, zeros, len[z33] = 33, &off[z33]);
    for (size_t i = 0; i < N_EDGE; i++)
        for (size_t j = 0; j < N_EDGE; j++) {
            const size_t quads[][4] = {{i, j, j, i}, {i, i, j, j}, {i, j, i, j}, {z1, j, z33, i},
                                       {z33, i, z1, j}, {i, j, z33, i}};
            for (size_t t = 0; t < sizeof quads / sizeof quads[0]; t++)
                for (int sg = 0; sg < 4; sg++) {
                    const size_t *u = quads[t];
                    const struct mpgpu_ctt_qcomp q = {
                        .op = (uint8_t)op, .a_off = off[u[0]], .a_len = len[u[0]],
                        .a_neg = sg & 1, .b_off = off[u[1]], .b_len = len[u[1]],
                        .c_off = off[u[2]], .c_len = len[u[2]], .c_neg = sg >> 1,
                        .d_off = off[u[3]], .d_len = len[u[3]]};
                    struct mpgpu_ctt_comp s[CTT_Q_MAX_STEPS];
                    const unsigned n = ctt_q_steps(&q, s);
                    bool slow = false;
                    for (unsigned k = 0; k < n; k++)
                        slow |= s[k].op == MPGPU_CTT_MUL && slow_product(s[k].a_len, s[k].b_len);
                    if (!slow && !(op == MPGPU_CTT_QDIV && u[2] >= z1))
                        CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) == 0, "push");
                }
        }
    mpgpu_ctt_batch_seal(&b);
    char what[96];
    snprintf(what, sizeof what, "%s, all-ones words, one word to maximum length, zero numerators, "
             "x - x", op_names[op]);
    run_and_check(&b, m, what);
    free(ones);
    mpgpu_ctt_batch_free(&b);
}

/* A mapping that changes an operand on the device computes, and writes, the result of the
 * changed operand; the check takes the operands from the host's batch, so it is caught
 * (issue 36). Stood in for by changing one operand word on the device before the launch. */
static void operand_changed_on_device(enum ctt_mapping m, mpgpu_ctt_op op)
{
    const struct ctt_gen g = {.seed = seed + 77, .op = op, .count = 257, .mean_words = 40,
                              .sigma_words = 8, .max_words = CTT_MAX_WORDS};
    struct mpgpu_ctt_batch b;
    if (ctt_batch_generate(&b, &g, NULL) != 0) {
        CHECK(false, "generate");
        return;
    }
    const size_t victim = 100 + seed % 100;
    const uint32_t a_off = b.rational ? b.qcomps[victim].a_off : b.comps[victim].a_off;
    const uint32_t changed = b.words[a_off] ^ 0x100;
    const size_t comp_bytes = b.rational ? sizeof(struct mpgpu_ctt_qcomp) : sizeof(struct mpgpu_ctt_comp);
    uint32_t *mem = malloc((b.operand_words + b.result_words) * 4);
    void *comps = malloc(b.count * comp_bytes);
    const mpgpu_status st = device_run(&b, m, a_off, changed, mem, comps);
    size_t first = 0;
    const uint64_t bad = st == MPGPU_OK ? ctt_verify(&b, mem, comps, 8, false, &first) : 0;
    CHECK(st == MPGPU_OK && bad == 1 && first == victim && mem[a_off] == changed,
          "%s %s: operand word %u changed on the device: %s, %llu bad (want 1), first %zu "
          "(want %zu)", mapping_names[m], op_names[op], a_off, mpgpu_status_string(st),
          (unsigned long long)bad, first, victim);
    free(mem);
    free(comps);
    mpgpu_ctt_batch_free(&b);
}

int main(void)
{
    seed = test_seed();
    if (test_gpu_open() != 0)
        return 77;
    for (int m = CTT_MAP_THREAD; m <= CTT_MAP_AUTO; m++)
        for (int op = MPGPU_CTT_ADD; op < MPGPU_CTT_N_OPS; op++) {
            random_batches((enum ctt_mapping)m, (mpgpu_ctt_op)op);
            if (ctt_op_rational(op))
                rational_edge_batch((enum ctt_mapping)m, (mpgpu_ctt_op)op);
            else
                edge_batch((enum ctt_mapping)m, (mpgpu_ctt_op)op);
        }
    for (int m = CTT_MAP_THREAD; m <= CTT_MAP_AUTO; m++) {
        operand_changed_on_device((enum ctt_mapping)m, MPGPU_CTT_MUL);
        operand_changed_on_device((enum ctt_mapping)m, MPGPU_CTT_QADD);
    }
    return test_finish("test_ctt_gpu");
}
