/* cpu suite: libmpgpu's batches of variable-length numbers (mpgpu.h, ctt-vs-ctw) without a GPU:
 * the batch calls (the result space each push counts, the layout of the words, every refusal,
 * and that a refused push leaves the batch as it was), the capacities, the device bytes, and
 * every argument check of the plan, upload, run, download and host calls, each of which must
 * return its code before any CUDA call (so the same codes come back on a machine without a GPU
 * or driver). */
#include <stdint.h>
#include <string.h>

#include "ctt.h"
#include "mpgpu.h"
#include "test_seed.h"

/* A batch of two one-word operands (words 1 and 2) and, per `rational`, an add and a mul, or
 * one qadd of 1/2 and 2/1, sealed. */
static void small_batch(mpgpu_ctt_batch *b, int rational)
{
    const uint32_t w[2] = {1, 2};
    uint32_t off1, off2;
    mpgpu_ctt_batch_init(b);
    CHECK(mpgpu_ctt_batch_push_operand(b, w, 1, &off1) == MPGPU_OK &&
              mpgpu_ctt_batch_push_operand(b, w + 1, 1, &off2) == MPGPU_OK,
          "small batch: push the operands");
    if (rational) {
        const mpgpu_ctt_qcomp q = {.op = MPGPU_CTT_QADD, .a_off = off1, .a_len = 1, .b_off = off2,
                                   .b_len = 1, .c_off = off2, .c_len = 1, .d_off = off1,
                                   .d_len = 1};
        CHECK(mpgpu_ctt_batch_push_qcomp(b, &q) == MPGPU_OK, "small batch: push a qadd");
    } else {
        CHECK(mpgpu_ctt_batch_push_comp(b, MPGPU_CTT_ADD, off1, 1, 0, off2, 1, 1) == MPGPU_OK &&
                  mpgpu_ctt_batch_push_comp(b, MPGPU_CTT_MUL, off2, 1, 1, off1, 1, 0) == MPGPU_OK,
              "small batch: push an add and a mul");
    }
    CHECK(mpgpu_ctt_batch_seal(b) == MPGPU_OK, "small batch: seal");
}

static void test_building(void)
{
    mpgpu_ctt_batch b;
    mpgpu_ctt_batch_init(&b);
    CHECK(b.count == 0 && b.operand_words == 0 && b.result_words == 0 && !b.words && b.sealed,
          "an initialized batch is empty, with nothing to seal");
    uint32_t w[40], off = 99;
    for (uint32_t i = 0; i < 40; i++)
        w[i] = 0x1000u + i;
    CHECK(mpgpu_ctt_batch_push_operand(&b, w, 33, &off) == MPGPU_OK && off == 0, "push 33 words");
    CHECK(mpgpu_ctt_batch_push_operand(&b, w + 33, 7, &off) == MPGPU_OK && off == 33,
          "push 7 words: offset %u, want 33", off);
    CHECK(b.operand_words == 40 && !memcmp(b.words, w, sizeof w), "the operands side by side");
    /* The capacities: a sum of magnitudes max + 1, a difference max, a product the sum. */
    const struct {
        mpgpu_ctt_op op;
        int a_neg, b_neg;
        uint32_t want;
    } caps[] = {{MPGPU_CTT_ADD, 0, 0, 34}, {MPGPU_CTT_ADD, 0, 1, 33}, {MPGPU_CTT_SUB, 0, 0, 33},
                {MPGPU_CTT_SUB, 1, 0, 34}, {MPGPU_CTT_MUL, 1, 1, 40}};
    uint64_t result_words = 0;
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        CHECK(mpgpu_ctt_batch_push_comp(&b, caps[i].op, 0, 33, caps[i].a_neg, 33, 7,
                                        caps[i].b_neg) == MPGPU_OK,
              "push comp %zu", i);
        result_words += caps[i].want;
        CHECK(mpgpu_ctt_capacity(&b.comps[i]) == caps[i].want && b.result_words == result_words,
              "comp %zu: capacity %u, want %u; result words %llu, want %llu", i,
              mpgpu_ctt_capacity(&b.comps[i]), caps[i].want, (unsigned long long)b.result_words,
              (unsigned long long)result_words);
    }
    CHECK(mpgpu_ctt_capacity(NULL) == 0 && mpgpu_ctt_qcapacity(NULL) == 0, "NULL capacities");
    CHECK(b.comps[3].a_neg == 1 && b.comps[3].b_neg == 0 && b.comps[3].op == MPGPU_CTT_SUB,
          "the descriptor keeps op and signs");

    /* Refusals, each leaving the batch as it was. */
    const mpgpu_ctt_batch before = b;
    uint32_t big[1] = {1};
    const struct {
        const char *what;
        mpgpu_status got, want;
    } refusals[] = {
        {"push_operand NULL batch", mpgpu_ctt_batch_push_operand(NULL, w, 1, &off),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_operand NULL words", mpgpu_ctt_batch_push_operand(&b, NULL, 1, &off),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_operand NULL offset", mpgpu_ctt_batch_push_operand(&b, w, 1, NULL),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_operand length 0", mpgpu_ctt_batch_push_operand(&b, w, 0, &off),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_operand length past the most",
         mpgpu_ctt_batch_push_operand(&b, big, MPGPU_CTT_MAX_WORDS + 1, &off),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_comp NULL batch", mpgpu_ctt_batch_push_comp(NULL, MPGPU_CTT_ADD, 0, 1, 0, 0, 1, 0),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_comp rational op", mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_QADD, 0, 1, 0, 0, 1, 0),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_comp op out of range",
         mpgpu_ctt_batch_push_comp(&b, (mpgpu_ctt_op)MPGPU_CTT_N_OPS, 0, 1, 0, 0, 1, 0),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_comp a past the operands", mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_ADD, 34, 7, 0, 0, 1, 0),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_comp b past the operands", mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_ADD, 0, 1, 0, 40, 1, 0),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_comp a of length 0", mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_ADD, 0, 0, 0, 0, 1, 0),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_comp offset wrapping past 2^32",
         mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_ADD, UINT32_MAX, 2, 0, 0, 1, 0),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_qcomp onto an integer batch",
         mpgpu_ctt_batch_push_qcomp(&b, &(mpgpu_ctt_qcomp){.op = MPGPU_CTT_QMUL, .a_len = 1,
                                                            .b_len = 1, .c_len = 1, .d_len = 1}),
         MPGPU_ERR_BAD_ARGUMENT},
        {"push_qcomp NULL", mpgpu_ctt_batch_push_qcomp(&b, NULL), MPGPU_ERR_BAD_ARGUMENT},
        {"seal NULL", mpgpu_ctt_batch_seal(NULL), MPGPU_ERR_BAD_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        CHECK(refusals[i].got == refusals[i].want, "%s: status %d (%s), want %d", refusals[i].what,
              (int)refusals[i].got, mpgpu_status_string(refusals[i].got), (int)refusals[i].want);
    CHECK(!memcmp(&before, &b, sizeof b), "a refused push changed the batch");
    CHECK(!ctt_batch_sealed(&b) && mpgpu_ctt_batch_seal(&b) == MPGPU_OK && ctt_batch_sealed(&b),
          "seal makes room for the result space");
    mpgpu_ctt_batch_free(&b);
    CHECK(b.count == 0 && !b.words && !b.comps, "free empties the batch");
    mpgpu_ctt_batch_free(NULL);

    /* Rational: capacities (x, y and qadd's temporaries), zero divisors, no integer pushes. */
    small_batch(&b, 1);
    CHECK(b.rational && b.count == 1 && mpgpu_ctt_qcapacity(&b.qcomps[0]) == 3 + 2 + 2 + 2 &&
              b.result_words == 9,
          "qadd of one-word integers: capacity %u, want 9", mpgpu_ctt_qcapacity(&b.qcomps[0]));
    const uint32_t zero = 0;
    uint32_t zoff;
    CHECK(mpgpu_ctt_batch_push_operand(&b, &zero, 1, &zoff) == MPGPU_OK, "push a zero");
    for (int op = MPGPU_CTT_QADD; op <= MPGPU_CTT_QDIV; op++) {
        mpgpu_ctt_qcomp q = {.op = (uint8_t)op, .a_len = 1, .b_off = zoff, .b_len = 1, .c_len = 1,
                             .d_len = 1};
        CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) == MPGPU_ERR_BAD_ARGUMENT, "op %d: zero b", op);
        q.b_off = 0, q.d_off = zoff;
        CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) == MPGPU_ERR_BAD_ARGUMENT, "op %d: zero d", op);
        q.d_off = 0, q.c_off = zoff;
        CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) ==
                  (op == MPGPU_CTT_QDIV ? MPGPU_ERR_BAD_ARGUMENT : MPGPU_OK),
              "op %d: zero c", op);
        q.c_off = 0, q.op = MPGPU_CTT_MUL;
        CHECK(mpgpu_ctt_batch_push_qcomp(&b, &q) == MPGPU_ERR_BAD_ARGUMENT, "integer op in a qcomp");
    }
    CHECK(b.count == 4, "the refused rational pushes appended: %zu computations", b.count);
    CHECK(mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_ADD, 0, 1, 0, 0, 1, 0) == MPGPU_ERR_BAD_ARGUMENT,
          "an integer computation joined a rational batch");
    mpgpu_ctt_batch_free(&b);
}

/* A batch that would pass 2^32 words is refused with MPGPU_ERR_UNSUPPORTED_SIZE before any
 * allocation: 2^18 products of the longest operands with themselves need 2^32 result words. */
static void test_size_limit(void)
{
    static uint32_t w[MPGPU_CTT_MAX_WORDS];
    mpgpu_ctt_batch b;
    uint32_t off;
    mpgpu_ctt_batch_init(&b);
    CHECK(mpgpu_ctt_batch_push_operand(&b, w, MPGPU_CTT_MAX_WORDS, &off) == MPGPU_OK, "push");
    mpgpu_status st = MPGPU_OK;
    size_t pushed = 0;
    while (st == MPGPU_OK && pushed < (1u << 18)) {
        st = mpgpu_ctt_batch_push_comp(&b, MPGPU_CTT_MUL, off, MPGPU_CTT_MAX_WORDS, 0, off,
                                       MPGPU_CTT_MAX_WORDS, 0);
        pushed += st == MPGPU_OK;
    }
    CHECK(st == MPGPU_ERR_UNSUPPORTED_SIZE && b.operand_words + b.result_words < UINT64_C(1) << 32,
          "after %zu products: status %d, want %d", pushed, (int)st, (int)MPGPU_ERR_UNSUPPORTED_SIZE);
    mpgpu_ctt_batch_free(&b);
}

static void test_device_bytes(void)
{
    mpgpu_ctt_batch b;
    small_batch(&b, 0);
    uint64_t bytes = 0;
    for (int m = MPGPU_CTT_THREAD; m <= MPGPU_CTT_AUTO; m++) {
        CHECK(mpgpu_ctt_device_bytes(&b, (mpgpu_ctt_mapping)m, &bytes) == MPGPU_OK &&
                  bytes == ctt_device_bytes(&b, (enum ctt_mapping)m),
              "mapping %d: %llu device bytes", m, (unsigned long long)bytes);
        CHECK(bytes >= (b.operand_words + b.result_words) * 4 + b.count * sizeof(mpgpu_ctt_comp),
              "mapping %d: the memory block and descriptors counted", m);
    }
    CHECK(mpgpu_ctt_device_bytes(NULL, MPGPU_CTT_THREAD, &bytes) == MPGPU_ERR_BAD_ARGUMENT, "NULL batch");
    CHECK(mpgpu_ctt_device_bytes(&b, (mpgpu_ctt_mapping)3, &bytes) == MPGPU_ERR_BAD_ARGUMENT, "mapping 3");
    CHECK(mpgpu_ctt_device_bytes(&b, MPGPU_CTT_WARP, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL bytes");
    mpgpu_ctt_batch_free(&b);
}

/* The GPU calls' argument checks, none of which may reach CUDA: a plan is only made from a
 * struct that is filled by hand here (never run), so the checks of the run, upload and
 * download calls are reached without a device. */
static void test_gpu_call_arguments(void)
{
    mpgpu_ctt_batch b, unsealed;
    small_batch(&b, 0);
    mpgpu_ctt_batch_init(&unsealed);
    const uint32_t one = 1;
    uint32_t off;
    mpgpu_ctt_batch_push_operand(&unsealed, &one, 1, &off);
    mpgpu_ctt_batch_push_comp(&unsealed, MPGPU_CTT_ADD, off, 1, 0, off, 1, 0);
    mpgpu_ctt_plan *plan = NULL;
    CHECK(mpgpu_ctt_plan_create(NULL, &b, MPGPU_CTT_THREAD) == MPGPU_ERR_BAD_ARGUMENT, "plan: NULL out");
    CHECK(mpgpu_ctt_plan_create(&plan, NULL, MPGPU_CTT_THREAD) == MPGPU_ERR_BAD_ARGUMENT, "plan: NULL batch");
    CHECK(mpgpu_ctt_plan_create(&plan, &unsealed, MPGPU_CTT_THREAD) == MPGPU_ERR_BAD_ARGUMENT,
          "plan: unsealed batch");
    CHECK(mpgpu_ctt_plan_create(&plan, &b, (mpgpu_ctt_mapping)-1) == MPGPU_ERR_BAD_ARGUMENT,
          "plan: mapping -1");
    CHECK(mpgpu_ctt_plan_create(&plan, &b, (mpgpu_ctt_mapping)3) == MPGPU_ERR_BAD_ARGUMENT,
          "plan: mapping 3");
    mpgpu_ctt_plan_destroy(NULL);
    CHECK(mpgpu_ctt_run_host(NULL, MPGPU_CTT_AUTO) == MPGPU_ERR_BAD_ARGUMENT, "host: NULL batch");
    CHECK(mpgpu_ctt_run_host(&unsealed, MPGPU_CTT_AUTO) == MPGPU_ERR_BAD_ARGUMENT, "host: unsealed");
    CHECK(mpgpu_ctt_run_host(&b, (mpgpu_ctt_mapping)7) == MPGPU_ERR_BAD_ARGUMENT, "host: mapping 7");
    mpgpu_ctt_batch empty;
    mpgpu_ctt_batch_init(&empty);
    CHECK(mpgpu_ctt_run_host(&empty, MPGPU_CTT_WARP) == MPGPU_OK, "host: an empty batch does nothing");

    /* A plan as ctt_plan_open would leave it for b, filled by hand. */
    struct mpgpu_ctt_plan p;
    memset(&p, 0, sizeof p);
    p.mapping = CTT_MAP_AUTO;
    p.operand_words = b.operand_words;
    p.total_words = b.operand_words + b.result_words;
    p.count = b.count;
    p.comp_bytes = sizeof(mpgpu_ctt_comp);
    p.bin[CTT_BIN_THREAD] = 1;
    p.bin[CTT_BIN_BLOCK] = 1;
    size_t counts[MPGPU_CTT_N_BINS];
    CHECK(mpgpu_ctt_plan_bins(&p, counts) == MPGPU_OK && counts[MPGPU_CTT_BIN_THREAD] == 1 &&
              counts[MPGPU_CTT_BIN_BLOCK] == 1 && counts[MPGPU_CTT_BIN_WARP] == 0,
          "bins of auto");
    p.mapping = CTT_MAP_WARP;
    CHECK(mpgpu_ctt_plan_bins(&p, counts) == MPGPU_OK && counts[MPGPU_CTT_BIN_WARP] == b.count &&
              counts[MPGPU_CTT_BIN_THREAD] == 0,
          "bins of warp: all in the warp's");
    CHECK(mpgpu_ctt_plan_bins(NULL, counts) == MPGPU_ERR_BAD_ARGUMENT, "bins: NULL plan");
    CHECK(mpgpu_ctt_plan_bins(&p, NULL) == MPGPU_ERR_BAD_ARGUMENT, "bins: NULL counts");

    static uint32_t mem[64], host_mem[64];
    static mpgpu_ctt_comp comps[4], host_comps[4];
    const size_t mem_bytes = p.total_words * 4;
    const struct {
        const char *what;
        mpgpu_status got;
    } cases[] = {
        {"upload: NULL batch", mpgpu_ctt_upload(NULL, mem, comps, NULL)},
        {"upload: unsealed batch", mpgpu_ctt_upload(&unsealed, mem, comps, NULL)},
        {"upload: NULL memory block", mpgpu_ctt_upload(&b, NULL, comps, NULL)},
        {"upload: NULL descriptors", mpgpu_ctt_upload(&b, mem, NULL, NULL)},
        {"upload: misaligned block", mpgpu_ctt_upload(&b, (uint32_t *)((char *)mem + 2), comps, NULL)},
        {"upload: descriptors overlap the block",
         mpgpu_ctt_upload(&b, mem, (char *)mem + mem_bytes - 4, NULL)},
        {"run: NULL plan", mpgpu_ctt_run_device(NULL, mem, comps, NULL)},
        {"run: NULL memory block", mpgpu_ctt_run_device(&p, NULL, comps, NULL)},
        {"run: NULL descriptors", mpgpu_ctt_run_device(&p, mem, NULL, NULL)},
        {"run: misaligned descriptors", mpgpu_ctt_run_device(&p, mem, (char *)comps + 1, NULL)},
        {"run: block overlaps the descriptors",
         mpgpu_ctt_run_device(&p, (uint32_t *)comps, comps, NULL)},
        {"download: NULL plan", mpgpu_ctt_download(NULL, mem, comps, host_mem, host_comps, NULL)},
        {"download: NULL device block", mpgpu_ctt_download(&p, NULL, comps, host_mem, host_comps, NULL)},
        {"download: NULL host block", mpgpu_ctt_download(&p, mem, comps, NULL, host_comps, NULL)},
        {"download: NULL host descriptors", mpgpu_ctt_download(&p, mem, comps, host_mem, NULL, NULL)},
        {"download: host block overlaps its descriptors",
         mpgpu_ctt_download(&p, mem, comps, host_mem, (char *)host_mem + 4, NULL)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(cases[i].got == MPGPU_ERR_BAD_ARGUMENT, "%s: status %d (%s), want %d", cases[i].what,
              (int)cases[i].got, mpgpu_status_string(cases[i].got), (int)MPGPU_ERR_BAD_ARGUMENT);
    /* A plan of no computations runs nothing (and so needs no device). */
    struct mpgpu_ctt_plan none;
    memset(&none, 0, sizeof none);
    CHECK(mpgpu_ctt_run_device(&none, NULL, NULL, NULL) == MPGPU_OK, "run: an empty plan");
    mpgpu_ctt_batch_free(&b);
    mpgpu_ctt_batch_free(&unsealed);
}

int main(void)
{
    seed = test_seed();
    test_building();
    test_size_limit();
    test_device_bytes();
    test_gpu_call_arguments();
    return test_finish("test_mpgpu_ctt_api");
}
