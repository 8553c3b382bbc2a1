/* cpu suite: the rule by which `mpgpu mul --method auto` picks a method from the tune table
 * (cli/tune_table.h), on hand-written tables read through $MPGPU_TUNE_TABLE as mpgpu reads them:
 * the size (the smallest measured size >= the request, else the largest), the count class (the
 * measured count nearest the request in log scale, of two equally near the larger), the method
 * (the fastest there that supports the size); counts measured at some sizes only; a table of one
 * count, as `mpgpu tune` wrote before --count took a list; rows in any order; and the tables and
 * requests it refuses, with the entry named. The tables name no GPU, so no device is queried. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_seed.h"
#include "tune_table.h"

static char path[64];

/* Makes `rows` (a whole CSV file) the table --method auto reads. */
static void use_table(const char *rows)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(rows, f) == EOF || fclose(f) != 0) {
        printf("cannot write %s\n", path);
        exit(1);
    }
}

/* --method auto for `count` products of `bits`-bit operands must pick `method` from the entry
 * (want_bits, want_count). */
static void expect_pick(unsigned bits, uint64_t count, const char *method, unsigned want_bits,
                        uint64_t want_count)
{
    struct tune_pick p = {0};
    char why[512] = "";
    const bool ok = tune_table_pick(bits / 32, count, 0, &p, why, sizeof why);
    CHECK(ok && p.method && !strcmp(p.method, method) && p.bits == want_bits &&
              p.count == want_count && p.for_bits == bits,
          "%u bits x %llu: got %s from (%u bits, %llu), want %s from (%u bits, %llu)%s%s", bits,
          (unsigned long long)count, ok && p.method ? p.method : "nothing", p.bits,
          (unsigned long long)p.count, method, want_bits, (unsigned long long)want_count,
          ok ? "" : ": ", why);
}

/* --method auto must refuse, the reason containing `needle`. */
static void expect_refusal(unsigned bits, uint64_t count, const char *needle)
{
    struct tune_pick p = {0};
    char why[512] = "";
    const bool ok = tune_table_pick(bits / 32, count, 0, &p, why, sizeof why);
    CHECK(!ok && strstr(why, needle), "%u bits x %llu: %s, reason '%s', want a refusal with '%s'",
          bits, (unsigned long long)count, ok ? "picked" : "refused", why, needle);
}

int main(void)
{
    seed = test_seed(); /* the tables are fixed; the seed is only printed */
    snprintf(path, sizeof path, "/tmp/mpgpu_test_tune_pick_%ld.csv", (long)getpid());
    setenv("MPGPU_TUNE_TABLE", path, 1);

    /* Two count classes, the fastest method differing between them at each size (as at 1024
     * bits on the H200: sum-rotate at 10240 products, row chains at 2^20); rows out of order. */
    use_table("# mpgpu tune: median kernel time per method, size and count, fastest first\n"
              "bits,count,method,median_ms\n"
              "4096,1048576,thread-rowchain-karatsuba,2.45\n"
              "1024,10240,thread-rowchain-karatsuba,0.0127\n"
              "1024,1048576,thread-rowchain-karatsuba,0.222\n"
              "4096,10240,warp-tensor-toeplitz,0.0238\n"
              "1024,10240,sumrotate-shuffle,0.0120\n"
              "1024,1048576,sumrotate-shuffle,0.496\n"
              "4096,10240,thread-rowchain-karatsuba,0.0420\n"
              "4096,1048576,warp-tensor-toeplitz,2.60\n");
    expect_pick(1024, 10240, "sumrotate-shuffle", 1024, 10240);
    expect_pick(1024, 1048576, "thread-rowchain-karatsuba", 1024, 1048576);
    expect_pick(4096, 10240, "warp-tensor-toeplitz", 4096, 10240);
    expect_pick(4096, 1048576, "thread-rowchain-karatsuba", 4096, 1048576);
    /* Counts beyond the measured ones take the nearest class. */
    expect_pick(1024, 1, "sumrotate-shuffle", 1024, 10240);
    expect_pick(1024, UINT64_C(1) << 40, "thread-rowchain-karatsuba", 1024, 1048576);
    /* The classes meet at the geometric mean of 10240 and 2^20, 103621.6. */
    expect_pick(1024, 103621, "sumrotate-shuffle", 1024, 10240);
    expect_pick(1024, 103622, "thread-rowchain-karatsuba", 1024, 1048576);
    /* Sizes between, below and above the measured ones. */
    expect_pick(1056, 10240, "warp-tensor-toeplitz", 4096, 10240);
    expect_pick(64, 1048576, "thread-rowchain-karatsuba", 1024, 1048576);
    expect_pick(512, 20000, "sumrotate-shuffle", 1024, 10240);
    /* 8192 bits: the largest size, 4096, decides; warp-tensor-toeplitz covers 8192 bits. */
    expect_pick(8192, 10240, "warp-tensor-toeplitz", 4096, 10240);
    /* 8224 bits is past warp-tensor-toeplitz's 8192: the next fastest at that entry. */
    expect_pick(8224, 10240, "thread-rowchain-karatsuba", 4096, 10240);

    /* A tie in log scale (10000 is 10x from 1000 and from 100000) goes to the larger count. */
    use_table("bits,count,method,median_ms\n"
              "1024,100000,thread-rowchain-karatsuba,1.0\n"
              "1024,100000,sumrotate-shuffle,2.0\n"
              "1024,1000,sumrotate-shuffle,1.0\n"
              "1024,1000,thread-rowchain-karatsuba,2.0\n");
    expect_pick(1024, 10000, "thread-rowchain-karatsuba", 1024, 100000);
    expect_pick(1024, 9999, "sumrotate-shuffle", 1024, 1000);
    expect_pick(1024, 10001, "thread-rowchain-karatsuba", 1024, 100000);

    /* Counts missing at some sizes: each size's own measured counts decide, and the size step
     * looks at every count's sizes. */
    use_table("bits,count,method,median_ms\n"
              "1024,10240,sumrotate-shuffle,0.0120\n"
              "1024,10240,thread-rowchain-karatsuba,0.0127\n"
              "1024,1048576,thread-rowchain-karatsuba,0.222\n"
              "1024,1048576,sumrotate-shuffle,0.496\n"
              "2048,1048576,sumrotate-shuffle,0.9\n"
              "2048,1048576,thread-rowchain-karatsuba,1.0\n"
              "4096,10240,thread-rowchain-karatsuba,0.0420\n"
              "4096,10240,sumrotate-shuffle,0.0874\n");
    expect_pick(2048, 10240, "sumrotate-shuffle", 2048, 1048576);
    expect_pick(1536, 10240, "sumrotate-shuffle", 2048, 1048576);
    expect_pick(4096, 1048576, "thread-rowchain-karatsuba", 4096, 10240);
    expect_pick(1024, 1048576, "thread-rowchain-karatsuba", 1024, 1048576);

    /* A table of one count (the committed one's format before counts): the size alone decides,
     * whatever the count; unknown method names are passed over. */
    use_table("# mpgpu tune: median kernel time per method and size, fastest first\n"
              "# commit: 64cdecbbda57\n# date: 2026-11-22T03:41:22Z\n"
              "bits,count,method,median_ms\n"
              "1024,10240,no-such-method,0.001\n"
              "1024,10240,sumrotate-shuffle,0.011968\n"
              "1024,10240,thread-rowchain-karatsuba,0.012704\n"
              "2048,10240,thread-rowchain-karatsuba,0.020256\n"
              "2048,10240,sumrotate-shuffle,0.028896\n");
    expect_pick(1024, 1, "sumrotate-shuffle", 1024, 10240);
    expect_pick(1024, 1048576, "sumrotate-shuffle", 1024, 10240);
    expect_pick(1056, 1048576, "thread-rowchain-karatsuba", 2048, 10240);
    expect_pick(65536, 10240, "thread-rowchain-karatsuba", 2048, 10240);

    /* At the chosen entry no method supports the size: refused, naming the entry, even where
     * another count at that size has one (the rule picks the entry first). thread-karatsuba
     * takes multiples of 64 bits only; 1056 bits is not one. */
    use_table("bits,count,method,median_ms\n"
              "2048,10240,thread-karatsuba,0.05\n"
              "2048,1048576,sumrotate-shuffle,0.9\n");
    expect_refusal(1056, 10240, "has no method for 1056 bits at its entry of 2048 bits, 10240 products");
    expect_pick(1056, 1048576, "sumrotate-shuffle", 2048, 1048576);
    expect_pick(2048, 10240, "thread-karatsuba", 2048, 10240);

    /* Tables it refuses. */
    use_table("bits,count,method,median_ms\n");
    expect_refusal(1024, 10240, "has no method for 1024 bits: it has no rows");
    use_table("bits,count,method,median_ms\n1024,0,sumrotate-shuffle,1.0\n");
    expect_refusal(1024, 10240, "line 2, is not 'bits,count,method,median_ms' (a size, a count of at least 1, "
                                "a method and a time in ms above 0)");
    use_table("bits,count,method,median_ms\n1024,10240,sumrotate-shuffle,0\n");
    expect_refusal(1024, 10240, "line 2, is not 'bits,count,method,median_ms' (a size");
    use_table("bits,count,method,median_ms\n1024,10240,sumrotate-shuffle,nan\n");
    expect_refusal(1024, 10240, "line 2, is not 'bits,count,method,median_ms' (a size");
    use_table("bits,count,method,median_ms\n1024,10240,sumrotate-shuffle\n");
    expect_refusal(1024, 10240, "line 2, is not 'bits,count,method,median_ms'");
    remove(path);
    expect_refusal(1024, 10240, "(from $MPGPU_TUNE_TABLE): No such file or directory");

    return test_finish("test_tune_pick");
}
