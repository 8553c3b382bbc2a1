/* gpu suite: the modular integer GCD kernel (002, Fig. 2; kernels/gcd_modular.cu) with every
 * barrier (coop, cluster, custom) against mpz_gcd, and against its CPU twin step for step: for
 * the same pair and the same first N_Q, the GPU must make the same number of attempts, the same
 * reduction steps and the same mixed-radix digits as gcd_modular (cpu_ref/gcd_modular_ref.c).
 * Every barrier runs with both inverses (Euclid, Fermat). Cases (issue 10): random pairs, planted common factors of 1, 64, 1000 and N/2 bits, U = V,
 * V | U, V = 1, U much longer than V, one to a few words, all-ones words, zeros and signs, moduli
 * that divide the inputs, the shortage of moduli (retries from 1, 2, 8 moduli, and every N_Q of
 * a sweep against the twin's attempt), M running out (GCD_TOO_LARGE, g untouched), the exact
 * remainder path (--all-primes), grids of a few blocks with several moduli a thread, every register shape, the
 * moduli streamed through device memory, and one
 * Table 2 size (320 Kibit) whose grid has more blocks than a block has threads. Exits 77
 * (skipped) without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_device.h"
#include "gcd_gpu_cases.h"
#include "gcd_modular_ref.h"
#include "gcd_moduli.h"
#include "gpu.h"
#include "test_gpu.h"
#include "test_seed.h"

static const char *method_label(const struct gcd_device *d)
{
    return gcd_barrier_name(d->barrier);
}

/* gcd(a, b) on the GPU from first_nq moduli (0: the formula) against mpz_gcd; with `twin`, also
 * against the CPU twin's attempts, steps and digits. */
static void check_gcd(struct gcd_device *d, const mpz_t a, const mpz_t b, size_t first_nq,
                      bool twin, const char *what)
{
    mpz_t g, e, t;
    mpz_inits(g, e, t, NULL);
    mpz_gcd(e, a, b);
    struct gcd_run run;
    if (!cuda_ok(d, gcd_device_gcd(d, g, a, b, first_nq, &run), what)) {
        mpz_clears(g, e, t, NULL);
        return;
    }
    CHECK(run.status == GCD_OK && mpz_cmp(g, e) == 0,
          "%s %s %s (L=%u %s, %zu and %zu bits, first N_Q %zu, grid limit %u): status %d, %s GMP's",
          gcd_barrier_name(d->barrier), gcd_inverse_name(d->inverse), what, d->M->L,
          gcd_filter_name(d->M->filter),
          mpz_sizeinbase(a, 2), mpz_sizeinbase(b, 2), first_nq, d->grid_limit, (int)run.status,
          mpz_cmp(g, e) ? "differs from" : "equal to");
    retried_runs += run.attempts > 1;
    if (twin) {
        struct gcd_run tr;
        gcd_modular(t, a, b, d->M, GCD_BLOCK_THREADS, first_nq, &tr);
        CHECK(tr.attempts == run.attempts && tr.n_q == run.n_q && tr.steps == run.steps &&
                  tr.digits == run.digits,
              "%s %s (%zu bits): GPU %u attempts, N_Q %zu, %llu steps, %llu digits; twin %u, %zu, "
              "%llu, %llu",
              gcd_barrier_name(d->barrier), what, mpz_sizeinbase(a, 2), run.attempts, run.n_q,
              (unsigned long long)run.steps, (unsigned long long)run.digits, tr.attempts, tr.n_q,
              (unsigned long long)tr.steps, (unsigned long long)tr.digits);
    }
    mpz_clears(g, e, t, NULL);
}

/* Every N_Q from 1 to the formula's: the GPU attempt and the twin's end the same way (the same
 * shortage test, or the same steps, digits and GMP's answer). */
static void check_sweep(struct gcd_device *d, unsigned bits, unsigned common_bits)
{
    mpz_t u, v, g, e, t;
    mpz_inits(u, v, g, e, t, NULL);
    gcd_case_planted(u, v, rng, bits, 3, common_bits);
    mpz_gcd(e, u, v);
    const size_t top = gcd_modular_nq_formula(mpz_sizeinbase(u, 2), d->M->L);
    unsigned ok = 0;
    for (size_t n = 1; n <= top && n <= d->M->count; n++) {
        struct gcd_run run, tr;
        mpz_set_ui(g, 0);
        if (!cuda_ok(d, gcd_device_attempt(d, g, u, v, n, &run), "sweep"))
            break;
        gcd_modular_attempt(t, u, v, d->M, n, &tr);
        CHECK(run.status == tr.status && run.shortage == tr.shortage && run.steps == tr.steps &&
                  run.digits == tr.digits && (run.status != GCD_OK || mpz_cmp(g, e) == 0),
              "%s sweep, %u bits, N_Q = %zu: GPU status %d shortage %d steps %llu digits %llu "
              "(%s GMP's); twin %d %d %llu %llu",
              gcd_barrier_name(d->barrier), bits, n, (int)run.status, (int)run.shortage,
              (unsigned long long)run.steps, (unsigned long long)run.digits,
              mpz_cmp(g, e) ? "differs from" : "equal to", (int)tr.status, (int)tr.shortage,
              (unsigned long long)tr.steps, (unsigned long long)tr.digits);
        ok += run.status == GCD_OK;
    }
    CHECK(ok > 0, "%s sweep, %u bits: no N_Q gave an answer", gcd_barrier_name(d->barrier), bits);
    mpz_clears(u, v, g, e, t, NULL);
}

/* M runs out: GCD_TOO_LARGE after the same attempts as the twin, g untouched. */
static void check_too_large(struct gcd_device *d)
{
    mpz_t a, b, g;
    mpz_inits(a, b, g, NULL);
    const unsigned sizes[] = {30000, 30000};
    const size_t first[] = {0, 1000};
    for (int i = 0; i < 2; i++) {
        gcd_case_bits(a, rng, sizes[i]);
        gcd_case_bits(b, rng, sizes[i] - 1000);
        mpz_set_ui(g, 7);
        struct gcd_run run, tr;
        if (!cuda_ok(d, gcd_device_gcd(d, g, a, b, first[i], &run), "too large"))
            break;
        gcd_modular(g, a, b, d->M, GCD_BLOCK_THREADS, first[i], &tr);
        CHECK(run.status == GCD_TOO_LARGE && tr.status == GCD_TOO_LARGE &&
                  run.attempts == tr.attempts && mpz_cmp_ui(g, 7) == 0,
              "%s: %u bits with %llu moduli from N_Q %zu: status %d after %u attempts (twin %d "
              "after %u)",
              gcd_barrier_name(d->barrier), sizes[i], (unsigned long long)d->M->count, first[i],
              (int)run.status, run.attempts, (int)tr.status, tr.attempts);
    }
    mpz_clears(a, b, g, NULL);
}

static bool open_device(struct gcd_device *d, const struct gcd_moduli *M, enum gcd_barrier b,
                        enum gcd_inverse inv)
{
    cudaError_t err = gcd_device_open(d, M, b, inv);
    if (err == cudaErrorNotSupported) {
        NOT_APPLICABLE("%s: %s", gcd_barrier_name(b), d->failed_call);
        gcd_device_close(d);
        return false;
    }
    if (!cuda_ok(d, err, "open")) {
        gcd_device_close(d);
        return false;
    }
    return true;
}

int main(void)
{
    struct gcd_test_moduli m;
    const int start = gcd_gpu_start(&m);
    if (start != 0)
        return start;

    for (int v = 0; v < GCD_N_BARRIERS * GCD_N_INVERSES; v++) {
        const enum gcd_barrier barrier = (enum gcd_barrier)(v / GCD_N_INVERSES);
        const enum gcd_inverse inv = (enum gcd_inverse)(v % GCD_N_INVERSES);
        struct gcd_device d;
        const int before = checks, failed_before = failures;
        if (!open_device(&d, &m.cheap32, barrier, inv))
            continue;
        printf("%s %s: up to %u blocks on %u SMs\n", gcd_barrier_name(barrier),
               gcd_inverse_name(inv), d.max_grid, d.sm_count);
        check_cases(&d, 8192);
        check_sweep(&d, 256, 1);
        check_sweep(&d, 300, 100);
        /* A few blocks, several moduli a thread, a partly filled last block. */
        d.grid_limit = 3;
        check_cases(&d, 4096);
        check_large(&d, 65536, 1000);
        /* Every register shape, and the moduli streamed through device memory (one block
         * cannot hold 2560 moduli in registers). */
        d.grid_limit = 0;
        for (unsigned k = 2; k <= 8; k *= 2) {
            d.min_per_thread = k;
            check_large(&d, 16384, 64);
        }
        d.min_per_thread = 0;
        d.grid_limit = 1;
        check_cases(&d, 8192);
        check_large(&d, 8192, 64);
        CHECK(!gcd_shapes[d.last.shape].resident, "%s %s: one block, 8192 bits: not streaming",
              gcd_barrier_name(barrier), gcd_inverse_name(inv));
        d.grid_limit = 0;
        /* Every remainder by %, the paper's baseline (002 section 3.1). */
        d.percent = true;
        check_cases(&d, 2048);
        d.percent = false;
        check_large(&d, 65536, 32768);
        check_large(&d, 320 * 1024, 64);
        gcd_device_close(&d);

        /* The exact remainder path, and M running out. */
        if (open_device(&d, &m.all16, barrier, inv)) {
            check_cases(&d, 1024);
            check_sweep(&d, 256, 20);
            check_too_large(&d);
            gcd_device_close(&d);
        }
        if (open_device(&d, &m.cheap16, barrier, inv)) {
            check_cases(&d, 512);
            gcd_device_close(&d);
        }
        printf("%s %s: %d checks, %d failures\n", gcd_barrier_name(barrier), gcd_inverse_name(inv),
               checks - before, failures - failed_before);
    }
    return gcd_gpu_finish(&m, "test_gcd_gpu");
}
