/* cpu suite: libmpgpu's calls that need no GPU (mpgpu.h): the version, a message for every
 * status, the method list against the registry of `mpgpu mul`, and every argument check of
 * mpgpu_mul_device and mpgpu_mul_host, which must return its code before any CUDA call (so the
 * same codes come back on a machine without a GPU or driver). */
#include <stdio.h>
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
                                MPGPU_ERR_OUT_OF_HOST_MEMORY};
    const size_t n = sizeof all / sizeof all[0];
    const char *unknown = mpgpu_status_string((mpgpu_status)(MPGPU_ERR_OUT_OF_HOST_MEMORY + 1));
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
    if (mul == mul_device_default_stream) {
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

int main(void)
{
    seed = test_seed();
    test_version();
    test_status_strings();
    test_methods();
    test_arguments("mpgpu_mul_device", mul_device_default_stream);
    test_arguments("mpgpu_mul_host", mpgpu_mul_host);
    return test_finish("test_mpgpu_api");
}
