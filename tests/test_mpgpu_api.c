/* cpu suite: libmpgpu's calls that need no GPU (mpgpu.h): the version, a message for every
 * status, the method list (ranges, native layouts) against the registry of `mpgpu mul`, the
 * workspace sizes against the kernels' own, "auto" against the tune-table rule on hand-written
 * tables and on every entry of the built-in table (which must hold results/tune_table.csv's
 * rows), the Toom-k calls' k and ranges, and every argument check of the products, transposes,
 * Toom-k and timing calls, which must return its code before any CUDA call (so the same codes
 * come back on a machine without a GPU or driver). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu.h"
#include "mul.h"
#include "test_seed.h"

static void test_version(void)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", MPGPU_VERSION_MAJOR, MPGPU_VERSION_MINOR,
             MPGPU_VERSION_PATCH);
    CHECK(!strcmp(MPGPU_VERSION_STRING, want), "MPGPU_VERSION_STRING %s, macros %s",
          MPGPU_VERSION_STRING, want);
    CHECK(!strcmp(mpgpu_version(), MPGPU_VERSION_STRING), "mpgpu_version() %s, header %s",
          mpgpu_version(), MPGPU_VERSION_STRING);
}

static void test_status_strings(void)
{
    const mpgpu_status all[] = {MPGPU_OK, MPGPU_ERR_BAD_ARGUMENT, MPGPU_ERR_UNKNOWN_METHOD,
                                MPGPU_ERR_UNSUPPORTED_SIZE, MPGPU_ERR_NO_DEVICE,
                                MPGPU_ERR_OUT_OF_DEVICE_MEMORY, MPGPU_ERR_CUDA,
                                MPGPU_ERR_OUT_OF_HOST_MEMORY, MPGPU_ERR_CANCELLED};
    const size_t n = sizeof all / sizeof all[0];
    const char *unknown = mpgpu_status_string((mpgpu_status)(MPGPU_ERR_CANCELLED + 1));
    CHECK(unknown && strstr(unknown, "not an mpgpu_status"), "past the last code: '%s'",
          unknown ? unknown : "(null)");
    CHECK(!strcmp(mpgpu_status_string((mpgpu_status)-1), unknown), "code -1 has its own message");
    for (size_t i = 0; i < n; i++) {
        const char *s = mpgpu_status_string(all[i]);
        CHECK(s && *s && strcmp(s, unknown), "code %d has no message of its own", (int)all[i]);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(s, mpgpu_status_string(all[j])), "codes %d and %d share '%s'",
                  (int)all[j], (int)all[i], s);
    }
}

static void test_methods(void)
{
    size_t n;
    const struct mul_method *reg = mul_methods(&n);
    CHECK(mpgpu_mul_method_count() == n, "%zu methods, the registry has %zu",
          mpgpu_mul_method_count(), n);
    for (size_t i = 0; i < n; i++) {
        mpgpu_mul_method_info info, found;
        CHECK(mpgpu_mul_method_get(i, &info) == MPGPU_OK, "method %zu", i);
        CHECK(!strcmp(info.name, reg[i].name) && info.min_bits == 32 * reg[i].min_words &&
                  info.max_bits == 32 * reg[i].max_words &&
                  info.bits_multiple == 32 * reg[i].words_multiple,
              "method %zu (%s) differs from the registry's", i, info.name);
        CHECK(info.layout == (reg[i].layout == MUL_LAYOUT_WORD_MAJOR ? MPGPU_MUL_WORD_MAJOR
                                                                     : MPGPU_MUL_PRODUCT_MAJOR),
              "method %s: native layout %d differs from the registry's", info.name, (int)info.layout);
        CHECK(mpgpu_mul_method_find(reg[i].name, &found) == MPGPU_OK && !strcmp(found.name, info.name),
              "find %s", reg[i].name);
        CHECK(mpgpu_mul_check(info.name, info.min_bits) == MPGPU_OK &&
                  mpgpu_mul_check(info.name, info.max_bits) == MPGPU_OK,
              "%s: %u and %u bits are its range", info.name, info.min_bits, info.max_bits);
        CHECK(mpgpu_mul_check(info.name, info.max_bits + info.bits_multiple) ==
                  MPGPU_ERR_UNSUPPORTED_SIZE,
              "%s: %u bits is past its range", info.name, info.max_bits + info.bits_multiple);
        CHECK(mpgpu_mul_check(info.name, info.min_bits - 32) == MPGPU_ERR_UNSUPPORTED_SIZE,
              "%s: %u bits is below its range", info.name, info.min_bits - 32);
        if (info.bits_multiple > 32)
            CHECK(mpgpu_mul_check(info.name, info.min_bits + 32) == MPGPU_ERR_UNSUPPORTED_SIZE,
                  "%s: %u bits is no multiple of %u", info.name, info.min_bits + 32,
                  info.bits_multiple);
    }
    mpgpu_mul_method_info info;
    CHECK(mpgpu_mul_method_get(n, &info) == MPGPU_ERR_BAD_ARGUMENT, "index past the end");
    CHECK(mpgpu_mul_method_get(0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL info");
    CHECK(mpgpu_mul_method_find("no-such-method", &info) == MPGPU_ERR_UNKNOWN_METHOD, "unknown");
    CHECK(mpgpu_mul_method_find(NULL, &info) == MPGPU_ERR_BAD_ARGUMENT, "NULL name");
    CHECK(mpgpu_mul_method_find("thread-comba", NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL info");
}

typedef mpgpu_status (*mul_call)(const char *, unsigned, size_t, const uint32_t *,
                                 const uint32_t *, uint32_t *);

static mpgpu_status mul_device_default_stream(const char *method, unsigned bits, size_t count,
                                              const uint32_t *a, const uint32_t *b, uint32_t *c)
{
    return mpgpu_mul_device(method, bits, count, a, b, c, NULL);
}

/* A workspace larger than any case below needs, on cudaMalloc's 256-byte boundary. */
static _Alignas(256) unsigned char big_workspace[1 << 16];

static mpgpu_status mul_device_workspace_product_major(const char *method, unsigned bits,
                                                       size_t count, const uint32_t *a,
                                                       const uint32_t *b, uint32_t *c)
{
    return mpgpu_mul_device_workspace(method, bits, count, MPGPU_MUL_PRODUCT_MAJOR, a, b, c,
                                      big_workspace, sizeof big_workspace, NULL);
}

/* The pointers are never dereferenced: every case fails its checks, or has count 0. */
static void test_arguments(const char *name, mul_call mul)
{
    static uint32_t a[64], b[64], c[128];
    const struct {
        const char *what;
        const char *method;
        unsigned bits;
        size_t count;
        const uint32_t *a, *b;
        uint32_t *c;
        mpgpu_status want;
    } cases[] = {
        {"NULL method", NULL, 1024, 1, a, b, c, MPGPU_ERR_BAD_ARGUMENT},
        {"unknown method", "thread-combo", 1024, 1, a, b, c, MPGPU_ERR_UNKNOWN_METHOD},
        {"empty method", "", 1024, 1, a, b, c, MPGPU_ERR_UNKNOWN_METHOD},
        {"bits 0", "thread-comba", 0, 1, a, b, c, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits 32, below the least", "thread-comba", 32, 1, a, b, c, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits no multiple of 32", "thread-comba", 1000, 1, a, b, c, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits past the most", "thread-comba", 32 * MUL_MAX_WORDS + 32, 1, a, b, c,
         MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits no multiple of 128", "thread-karatsuba2", 1056, 1, a, b, c,
         MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits past warp-tensor-toeplitz's 8192", "warp-tensor-toeplitz", 8224, 1, a, b, c,
         MPGPU_ERR_UNSUPPORTED_SIZE},
        {"NULL a", "thread-comba", 1024, 1, NULL, b, c, MPGPU_ERR_BAD_ARGUMENT},
        {"NULL b", "thread-comba", 1024, 1, a, NULL, c, MPGPU_ERR_BAD_ARGUMENT},
        {"NULL c", "thread-comba", 1024, 1, a, b, NULL, MPGPU_ERR_BAD_ARGUMENT},
        {"c overlaps a", "thread-comba", 1024, 1, a, b, a + 16, MPGPU_ERR_BAD_ARGUMENT},
        {"c overlaps b", "thread-comba", 1024, 1, a, b, (uint32_t *)b + 31, MPGPU_ERR_BAD_ARGUMENT},
        {"count overflows the buffer size", "thread-comba", 1024, SIZE_MAX / 64, a, b, c,
         MPGPU_ERR_BAD_ARGUMENT},
        {"count 0, NULL buffers", "thread-comba", 1024, 0, NULL, NULL, NULL, MPGPU_OK},
        {"count 0, unknown method", "thread-combo", 1024, 0, NULL, NULL, NULL,
         MPGPU_ERR_UNKNOWN_METHOD},
        {"count 0, bits out of range", "thread-comba", 1 << 20, 0, NULL, NULL, NULL,
         MPGPU_ERR_UNSUPPORTED_SIZE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpgpu_status got = mul(cases[i].method, cases[i].bits, cases[i].count, cases[i].a,
                               cases[i].b, cases[i].c);
        CHECK(got == cases[i].want, "%s, %s: status %d (%s), want %d", name, cases[i].what,
              (int)got, mpgpu_status_string(got), (int)cases[i].want);
    }
    if (mul != mpgpu_mul_host) {
        /* Device buffers must be 16-byte aligned; host ones need only uint32_t's alignment. */
        static _Alignas(16) uint32_t aligned[4 * 32 + 4];
        const uint32_t *ok_a = aligned, *ok_b = aligned + 32;
        uint32_t *ok_c = aligned + 64;
        CHECK(mul("thread-comba", 1024, 1, ok_a + 1, ok_b, ok_c) == MPGPU_ERR_BAD_ARGUMENT,
              "%s: a not on a 16-byte boundary", name);
        CHECK(mul("thread-comba", 1024, 1, ok_a, ok_b + 2, ok_c) == MPGPU_ERR_BAD_ARGUMENT,
              "%s: b not on a 16-byte boundary", name);
        CHECK(mul("warp-tensor-toeplitz", 1024, 1, ok_a, ok_b, ok_c + 1) == MPGPU_ERR_BAD_ARGUMENT,
              "%s: c not on a 16-byte boundary", name);
    }
    /* No CUDA call was made, so none failed. */
    mpgpu_error_info info;
    mpgpu_last_error(&info);
    CHECK(info.cuda_error == 0 && !strcmp(info.cuda_call, ""), "%s: a CUDA failure was recorded",
          name);
}

/* The workspace a method needs: its kernels' scratch in its native layout, and room for the
 * transposed operands and products (two operands and a product, each on a 256-byte boundary)
 * off it; never less for more products. */
static void test_workspace_sizes(void)
{
    size_t n;
    const struct mul_method *reg = mul_methods(&n);
    const size_t counts[] = {0, 1, 257, 10240, (size_t)1 << 21};
    for (size_t i = 0; i < n; i++) {
        const unsigned words = reg[i].min_words < 32 ? 32 : reg[i].min_words, bits = 32 * words;
        const mpgpu_mul_layout native =
            reg[i].layout == MUL_LAYOUT_WORD_MAJOR ? MPGPU_MUL_WORD_MAJOR : MPGPU_MUL_PRODUCT_MAJOR;
        const mpgpu_mul_layout other =
            native == MPGPU_MUL_WORD_MAJOR ? MPGPU_MUL_PRODUCT_MAJOR : MPGPU_MUL_WORD_MAJOR;
        size_t last = 0;
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            const size_t count = counts[k], op = count * words * sizeof(uint32_t);
            const size_t scratch = reg[i].scratch_bytes && count ? reg[i].scratch_bytes(words, count) : 0;
            const size_t staging = 2 * ((op + 255) / 256 * 256) + (2 * op + 255) / 256 * 256;
            size_t at_native = 1, at_other = 1;
            CHECK(mpgpu_mul_workspace_bytes(reg[i].name, bits, count, native, &at_native) == MPGPU_OK &&
                      at_native == scratch,
                  "%s, %u bits, %zu products, native layout: %zu bytes, the kernels need %zu",
                  reg[i].name, bits, count, at_native, scratch);
            CHECK(mpgpu_mul_workspace_bytes(reg[i].name, bits, count, other, &at_other) == MPGPU_OK &&
                      at_other == staging + scratch,
                  "%s, %u bits, %zu products, other layout: %zu bytes, want %zu", reg[i].name,
                  bits, count, at_other, staging + scratch);
            CHECK(at_other >= last, "%s: the workspace shrinks at %zu products", reg[i].name, count);
            last = at_other;
        }
    }
    size_t bytes = 7;
    const struct {
        const char *what, *method;
        unsigned bits;
        size_t count;
        int layout;
        size_t *bytes;
        mpgpu_status want;
    } cases[] = {
        {"NULL bytes", "thread-comba", 1024, 1, MPGPU_MUL_PRODUCT_MAJOR, NULL, MPGPU_ERR_BAD_ARGUMENT},
        {"layout 2", "thread-comba", 1024, 1, 2, &bytes, MPGPU_ERR_BAD_ARGUMENT},
        {"layout -1", "thread-comba", 1024, 1, -1, &bytes, MPGPU_ERR_BAD_ARGUMENT},
        {"NULL method", NULL, 1024, 1, MPGPU_MUL_PRODUCT_MAJOR, &bytes, MPGPU_ERR_BAD_ARGUMENT},
        {"unknown method", "thread-combo", 1024, 1, MPGPU_MUL_PRODUCT_MAJOR, &bytes,
         MPGPU_ERR_UNKNOWN_METHOD},
        {"bits no multiple of 32", "thread-comba", 1000, 1, MPGPU_MUL_PRODUCT_MAJOR, &bytes,
         MPGPU_ERR_UNSUPPORTED_SIZE},
        {"count overflows", "thread-comba", 1024, SIZE_MAX / 64, MPGPU_MUL_PRODUCT_MAJOR, &bytes,
         MPGPU_ERR_BAD_ARGUMENT},
        {"auto, bits out of range", "auto", 32, 1, MPGPU_MUL_PRODUCT_MAJOR, &bytes,
         MPGPU_ERR_UNSUPPORTED_SIZE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpgpu_status got = mpgpu_mul_workspace_bytes(cases[i].method, cases[i].bits, cases[i].count,
                                                    (mpgpu_mul_layout)cases[i].layout, cases[i].bytes);
        CHECK(got == cases[i].want, "mpgpu_mul_workspace_bytes, %s: status %d, want %d",
              cases[i].what, (int)got, (int)cases[i].want);
    }
}

/* mpgpu_mul_device_workspace's own checks: the layout and the workspace. The buffers are never
 * dereferenced: every case fails its checks. */
static void test_workspace_arguments(void)
{
    /* a, b, c (one 1024-bit product) and the workspace, each on a 256-byte boundary. */
    static _Alignas(256) unsigned char mem[4096];
    const uint32_t *a = (const uint32_t *)mem, *b = (const uint32_t *)(mem + 256);
    uint32_t *c = (uint32_t *)(mem + 512);
    unsigned char *ws = mem + 1024;
    const size_t ws_room = sizeof mem - 1024 - 256;
    size_t need = 0; /* thread-karatsuba's scratch for one 1024-bit product */
    CHECK(mpgpu_mul_workspace_bytes("thread-karatsuba", 1024, 1, MPGPU_MUL_WORD_MAJOR, &need) ==
              MPGPU_OK && need >= 256 && need <= ws_room,
          "thread-karatsuba needs %zu bytes of workspace", need);
    const struct {
        const char *what;
        int layout;
        void *workspace;
        size_t bytes;
    } cases[] = {
        {"layout 2", 2, ws, ws_room},
        {"NULL workspace", MPGPU_MUL_WORD_MAJOR, NULL, need},
        {"workspace one byte short", MPGPU_MUL_WORD_MAJOR, ws, need - 1},
        {"workspace of 0 bytes", MPGPU_MUL_WORD_MAJOR, ws, 0},
        {"workspace not on a 256-byte boundary", MPGPU_MUL_WORD_MAJOR, ws + 16, need},
        {"workspace overlaps a and b", MPGPU_MUL_WORD_MAJOR, mem, need},
        {"workspace overlaps c", MPGPU_MUL_WORD_MAJOR, mem + 512, need},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpgpu_status got = mpgpu_mul_device_workspace(
            "thread-karatsuba", 1024, 1, (mpgpu_mul_layout)cases[i].layout, a, b, c,
            cases[i].workspace, cases[i].bytes, NULL);
        CHECK(got == MPGPU_ERR_BAD_ARGUMENT, "mpgpu_mul_device_workspace, %s: status %d",
              cases[i].what, (int)got);
    }
    CHECK(mpgpu_mul_device_workspace("thread-karatsuba", 1024, 0, MPGPU_MUL_WORD_MAJOR, NULL, NULL,
                                     NULL, NULL, 0, NULL) == MPGPU_OK,
          "mpgpu_mul_device_workspace: count 0 needs no buffers");
}

static void test_transpose_arguments(void)
{
    static _Alignas(16) uint32_t src[64], dst[64];
    const struct {
        const char *what;
        unsigned words;
        size_t count;
        int from;
        const uint32_t *src;
        uint32_t *dst;
        mpgpu_status want;
    } cases[] = {
        {"NULL src", 4, 4, MPGPU_MUL_PRODUCT_MAJOR, NULL, dst, MPGPU_ERR_BAD_ARGUMENT},
        {"NULL dst", 4, 4, MPGPU_MUL_WORD_MAJOR, src, NULL, MPGPU_ERR_BAD_ARGUMENT},
        {"words 0", 0, 4, MPGPU_MUL_PRODUCT_MAJOR, src, dst, MPGPU_ERR_BAD_ARGUMENT},
        {"layout 2", 4, 4, 2, src, dst, MPGPU_ERR_BAD_ARGUMENT},
        {"in place", 4, 4, MPGPU_MUL_PRODUCT_MAJOR, src, (uint32_t *)src, MPGPU_ERR_BAD_ARGUMENT},
        {"overlapping", 4, 4, MPGPU_MUL_PRODUCT_MAJOR, src, (uint32_t *)src + 15,
         MPGPU_ERR_BAD_ARGUMENT},
        {"size past SIZE_MAX", 1024, SIZE_MAX / 1024, MPGPU_MUL_PRODUCT_MAJOR, src, dst,
         MPGPU_ERR_BAD_ARGUMENT},
        {"count 0", 4, 0, MPGPU_MUL_WORD_MAJOR, src, dst, MPGPU_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpgpu_status got = mpgpu_mul_transpose(cases[i].words, cases[i].count,
                                               (mpgpu_mul_layout)cases[i].from, cases[i].src,
                                               cases[i].dst, NULL);
        CHECK(got == cases[i].want, "mpgpu_mul_transpose, %s: status %d, want %d", cases[i].what,
              (int)got, (int)cases[i].want);
    }
}

/* auto on `table` for (bits, count) must pick `method` (NULL: none, MPGPU_ERR_UNSUPPORTED_SIZE)
 * from the entry (want_bits, want_count). */
static void expect_pick(const mpgpu_mul_tune_entry *table, size_t n, unsigned bits,
                        uint64_t count, const char *method, unsigned want_bits,
                        uint64_t want_count)
{
    mpgpu_mul_auto_choice ch;
    mpgpu_status st = mpgpu_mul_auto_pick(table, n, bits, count, &ch);
    const int ok = method ? st == MPGPU_OK && ch.method && !strcmp(ch.method, method)
                          : st == MPGPU_ERR_UNSUPPORTED_SIZE && !ch.method;
    CHECK(ok && ch.bits == want_bits && ch.count == want_count,
          "auto at %u bits x %llu: status %d, %s from (%u, %llu); want %s from (%u, %llu)", bits,
          (unsigned long long)count, (int)st, ch.method ? ch.method : "none", ch.bits,
          (unsigned long long)ch.count, method ? method : "none", want_bits,
          (unsigned long long)want_count);
}

/* The rule of mpgpu.h on tables of the caller's (those of tests/test_tune_pick.c, which checks
 * the same rule through `mpgpu mul`'s reading of table files). */
static void test_auto_rule(void)
{
    const mpgpu_mul_tune_entry two_counts[] = {
        {4096, 1048576, "thread-rowchain-karatsuba", 2.45},
        {1024, 10240, "thread-rowchain-karatsuba", 0.0127},
        {1024, 1048576, "thread-rowchain-karatsuba", 0.222},
        {4096, 10240, "warp-tensor-toeplitz", 0.0238},
        {1024, 10240, "sumrotate-shuffle", 0.0120},
        {1024, 1048576, "sumrotate-shuffle", 0.496},
        {4096, 10240, "thread-rowchain-karatsuba", 0.0420},
        {4096, 1048576, "warp-tensor-toeplitz", 2.60},
        {4096, 10240, "no-such-method", 0.001},
    };
    const size_t n = sizeof two_counts / sizeof two_counts[0];
    expect_pick(two_counts, n, 1024, 10240, "sumrotate-shuffle", 1024, 10240);
    expect_pick(two_counts, n, 1024, 1048576, "thread-rowchain-karatsuba", 1024, 1048576);
    expect_pick(two_counts, n, 4096, 10240, "warp-tensor-toeplitz", 4096, 10240);
    expect_pick(two_counts, n, 1024, 103621, "sumrotate-shuffle", 1024, 10240);
    expect_pick(two_counts, n, 1024, 103622, "thread-rowchain-karatsuba", 1024, 1048576);
    expect_pick(two_counts, n, 1056, 10240, "warp-tensor-toeplitz", 4096, 10240);
    expect_pick(two_counts, n, 64, 1, "sumrotate-shuffle", 1024, 10240);
    expect_pick(two_counts, n, 8224, 10240, "thread-rowchain-karatsuba", 4096, 10240);
    /* A tie in log scale goes to the larger count. */
    const mpgpu_mul_tune_entry tie[] = {
        {1024, 100000, "thread-rowchain-karatsuba", 1.0}, {1024, 100000, "sumrotate-shuffle", 2.0},
        {1024, 1000, "sumrotate-shuffle", 1.0}, {1024, 1000, "thread-rowchain-karatsuba", 2.0}};
    expect_pick(tie, 4, 1024, 10000, "thread-rowchain-karatsuba", 1024, 100000);
    expect_pick(tie, 4, 1024, 9999, "sumrotate-shuffle", 1024, 1000);
    /* No method at the chosen entry takes 1056 bits: none, the entry named. */
    const mpgpu_mul_tune_entry only_64[] = {{2048, 10240, "thread-karatsuba", 0.05},
                                            {2048, 1048576, "sumrotate-shuffle", 0.9}};
    expect_pick(only_64, 2, 1056, 10240, NULL, 2048, 10240);
    expect_pick(only_64, 2, 1056, 1048576, "sumrotate-shuffle", 2048, 1048576);
    expect_pick(only_64, 0, 1024, 10240, NULL, 0, 0); /* a table of no rows */

    mpgpu_mul_auto_choice ch;
    const mpgpu_mul_tune_entry no_name[] = {{1024, 10240, NULL, 1.0}};
    const mpgpu_mul_tune_entry no_count[] = {{1024, 0, "thread-comba", 1.0}};
    const struct {
        const char *what;
        const mpgpu_mul_tune_entry *table;
        size_t n;
        unsigned bits;
        uint64_t count;
        mpgpu_mul_auto_choice *choice;
        mpgpu_status want;
    } cases[] = {
        {"NULL choice", two_counts, n, 1024, 1, NULL, MPGPU_ERR_BAD_ARGUMENT},
        {"count 0", two_counts, n, 1024, 0, &ch, MPGPU_ERR_BAD_ARGUMENT},
        {"NULL table of rows", NULL, 3, 1024, 1, &ch, MPGPU_ERR_BAD_ARGUMENT},
        {"a row without a method", no_name, 1, 1024, 1, &ch, MPGPU_ERR_BAD_ARGUMENT},
        {"a row of count 0", no_count, 1, 1024, 1, &ch, MPGPU_ERR_BAD_ARGUMENT},
        {"bits 32", two_counts, n, 32, 1, &ch, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits 1000", two_counts, n, 1000, 1, &ch, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits 65568", NULL, 0, 65568, 1, &ch, MPGPU_ERR_UNSUPPORTED_SIZE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpgpu_status got = mpgpu_mul_auto_pick(cases[i].table, cases[i].n, cases[i].bits,
                                               cases[i].count, cases[i].choice);
        CHECK(got == cases[i].want, "mpgpu_mul_auto_pick, %s: status %d, want %d", cases[i].what,
              (int)got, (int)cases[i].want);
    }
}

/* The fastest row of `rows` at (size, count) whose method takes `bits`, found apart from the
 * library's rule: the auto choice at an entry must be it. */
static const char *fastest_at(const mpgpu_mul_tune_entry *rows, size_t n, unsigned size,
                              uint64_t count, unsigned bits)
{
    const char *best = NULL;
    double best_ms = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mul_method *m = mul_method_find(rows[i].method);
        if (rows[i].bits == size && rows[i].count == count && m &&
            mul_method_supports(m, bits / 32) && (!best || rows[i].median_ms < best_ms)) {
            best = m->name;
            best_ms = rows[i].median_ms;
        }
    }
    return best;
}

/* The built-in table holds results/tune_table.csv's rows (the file is read from the source
 * tree), and auto resolves from it: at every measured entry the fastest method there; in
 * mpgpu_mul_check, _workspace_bytes and _device for "auto". */
static void test_auto_builtin(void)
{
    const mpgpu_mul_tune_entry *rows;
    size_t n;
    const char *gpu;
    mpgpu_mul_tune_builtin(&rows, &n, &gpu);
    CHECK(n > 0 && gpu && *gpu, "the built-in table: %zu rows, gpu '%s'", n, gpu ? gpu : "(null)");
    FILE *f = fopen(MPGPU_SOURCE_ROOT "/results/tune_table.csv", "r");
    CHECK(f != NULL, "cannot read %s", MPGPU_SOURCE_ROOT "/results/tune_table.csv");
    size_t row = 0;
    char line[256], gpu_line[256] = "";
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "# gpu: ", 7))
            snprintf(gpu_line, sizeof gpu_line, "%s", line + 7);
        if (line[0] == '#' || !strncmp(line, "bits,", 5) || line[0] == '\n')
            continue;
        unsigned bits;
        unsigned long long count;
        char method[64];
        double ms;
        const int fields = sscanf(line, "%u,%llu,%63[^,],%lf", &bits, &count, method, &ms);
        CHECK(fields == 4 && row < n && rows[row].bits == bits && rows[row].count == count &&
                  !strcmp(rows[row].method, method) && rows[row].median_ms == ms,
              "built-in row %zu differs from the file's line '%s'", row, line);
        row++;
    }
    if (f)
        fclose(f);
    CHECK(row == n, "the file has %zu rows, the built-in table %zu", row, n);
    CHECK(!strncmp(gpu_line, gpu, strlen(gpu)) && gpu_line[strlen(gpu)] == ',',
          "the file's gpu line '%s', the built-in table's gpu '%s'", gpu_line, gpu);
    for (size_t i = 0; i < n; i++) {
        mpgpu_mul_auto_choice ch;
        const mpgpu_status st = mpgpu_mul_auto_pick(NULL, 0, rows[i].bits, rows[i].count, &ch);
        const char *want = fastest_at(rows, n, rows[i].bits, rows[i].count, rows[i].bits);
        CHECK(st == MPGPU_OK && want && !strcmp(ch.method, want) && ch.bits == rows[i].bits &&
                  ch.count == rows[i].count,
              "auto at the built-in entry (%u bits, %llu): %s, want %s", rows[i].bits,
              (unsigned long long)rows[i].count, st == MPGPU_OK ? ch.method : "none",
              want ? want : "none");
    }
    for (unsigned bits = 64; bits <= 65536; bits += 32)
        CHECK(mpgpu_mul_check("auto", bits) == MPGPU_OK, "auto does not take %u bits", bits);
    CHECK(mpgpu_mul_check("auto", 32) == MPGPU_ERR_UNSUPPORTED_SIZE, "auto takes 32 bits");
    CHECK(mpgpu_mul_check("auto", 1000) == MPGPU_ERR_UNSUPPORTED_SIZE, "auto takes 1000 bits");
    CHECK(mpgpu_mul_check("auto", 65568) == MPGPU_ERR_UNSUPPORTED_SIZE, "auto takes 65568 bits");
    mpgpu_mul_method_info info;
    CHECK(mpgpu_mul_method_find("auto", &info) == MPGPU_ERR_UNKNOWN_METHOD,
          "auto is a name for a choice, not a method");
    /* "auto" sizes its workspace as the method it picks. */
    mpgpu_mul_auto_choice ch;
    size_t via_auto = 1, via_name = 2;
    CHECK(mpgpu_mul_auto_pick(NULL, 0, 4096, 1 << 20, &ch) == MPGPU_OK &&
              mpgpu_mul_workspace_bytes("auto", 4096, 1 << 20, MPGPU_MUL_PRODUCT_MAJOR, &via_auto) ==
                  MPGPU_OK &&
              mpgpu_mul_workspace_bytes(ch.method, 4096, 1 << 20, MPGPU_MUL_PRODUCT_MAJOR,
                                       &via_name) == MPGPU_OK &&
              via_auto == via_name,
          "auto's workspace at 4096 bits x 2^20: %zu bytes, %s's %zu", via_auto,
          ch.method ? ch.method : "none", via_name);
    CHECK(mpgpu_mul_device("auto", 1024, 0, NULL, NULL, NULL, NULL) == MPGPU_OK,
          "auto, count 0: nothing to do");
    CHECK(mpgpu_mul_device("auto", 1000, 0, NULL, NULL, NULL, NULL) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "auto, 1000 bits");
    CHECK(mpgpu_mul_host("auto", 1024, 1, NULL, NULL, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "auto, NULL buffers");
}

static void test_toom(void)
{
    CHECK(mpgpu_toom_k_min() == 2 && mpgpu_toom_k_max() == 9, "Toom-k built for k = %u..%u",
          mpgpu_toom_k_min(), mpgpu_toom_k_max());
    for (unsigned k = mpgpu_toom_k_min(); k <= mpgpu_toom_k_max(); k++) {
        const char *name = NULL;
        char want[16];
        snprintf(want, sizeof want, "toom-%u", k);
        mpgpu_mul_method_info info;
        CHECK(mpgpu_toom_method(k, &name) == MPGPU_OK && name && !strcmp(name, want) &&
                  mpgpu_mul_method_find(name, &info) == MPGPU_OK && info.min_bits == 32 * k &&
                  info.max_bits == 65536 && info.bits_multiple == 32,
              "Toom-%u: method %s", k, name ? name : "(none)");
        CHECK(mpgpu_toom_check(k, 32 * k) == MPGPU_OK && mpgpu_toom_check(k, 65536) == MPGPU_OK,
              "Toom-%u: %u and 65536 bits are its range", k, 32 * k);
        CHECK(mpgpu_toom_check(k, 32 * k - 32) == MPGPU_ERR_UNSUPPORTED_SIZE &&
                  mpgpu_toom_check(k, 65568) == MPGPU_ERR_UNSUPPORTED_SIZE &&
                  mpgpu_toom_check(k, 32 * k + 16) == MPGPU_ERR_UNSUPPORTED_SIZE,
              "Toom-%u: sizes out of its range", k);
    }
    const char *name;
    CHECK(mpgpu_toom_method(1, &name) == MPGPU_ERR_BAD_ARGUMENT &&
              mpgpu_toom_method(10, &name) == MPGPU_ERR_BAD_ARGUMENT &&
              mpgpu_toom_method(3, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "mpgpu_toom_method: k 1, k 10, NULL method");
    CHECK(mpgpu_toom_check(1, 1024) == MPGPU_ERR_BAD_ARGUMENT &&
              mpgpu_toom_check(10, 1024) == MPGPU_ERR_BAD_ARGUMENT,
          "mpgpu_toom_check: k 1, k 10");
    static _Alignas(16) uint32_t a[64], b[64], c[128];
    const struct {
        const char *what;
        unsigned k, bits;
        size_t count;
        const uint32_t *a;
        mpgpu_status want;
    } cases[] = {
        {"k 1", 1, 1024, 1, a, MPGPU_ERR_BAD_ARGUMENT},
        {"k 10", 10, 1024, 1, a, MPGPU_ERR_BAD_ARGUMENT},
        {"bits below 32 k", 9, 256, 1, a, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits no multiple of 32", 3, 1000, 1, a, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"NULL a", 3, 1024, 1, NULL, MPGPU_ERR_BAD_ARGUMENT},
        {"count 0", 3, 1024, 0, NULL, MPGPU_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpgpu_status dev = mpgpu_toom_device(cases[i].k, cases[i].bits, cases[i].count, cases[i].a,
                                             b, c, NULL);
        mpgpu_status host = mpgpu_toom_host(cases[i].k, cases[i].bits, cases[i].count, cases[i].a,
                                            b, c);
        CHECK(dev == cases[i].want && host == cases[i].want,
              "Toom %s: device %d, host %d, want %d", cases[i].what, (int)dev, (int)host,
              (int)cases[i].want);
    }
}

static void test_timing_arguments(void)
{
    static int flags[2];
    CHECK(mpgpu_timing_hold_stream(NULL, 1000, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL flags");
    CHECK(mpgpu_timing_hold_stream(flags, 0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "timeout 0");
    /* None of the calls above reached CUDA, so none failed there. */
    mpgpu_error_info info;
    mpgpu_last_error(&info);
    CHECK(info.cuda_error == 0 && !strcmp(info.cuda_call, ""), "a CUDA failure was recorded");
}

int main(void)
{
    seed = test_seed();
    test_version();
    test_status_strings();
    test_methods();
    test_arguments("mpgpu_mul_device", mul_device_default_stream);
    test_arguments("mpgpu_mul_host", mpgpu_mul_host);
    test_arguments("mpgpu_mul_device_workspace", mul_device_workspace_product_major);
    test_workspace_sizes();
    test_workspace_arguments();
    test_transpose_arguments();
    test_auto_rule();
    test_auto_builtin();
    test_toom();
    test_timing_arguments();
    return test_finish("test_mpgpu_api");
}
