/* Host driver of the modular GCD kernel (kernels/gcd_device.h): buffers, the moduli on the
 * device, one attempt per launch, and the retry policy of the CPU twin around it. */
#include "gcd_device.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_try.h"

#define TRY(d, call) CUDA_TRY(d, call, #call)

const char *gcd_barrier_name(enum gcd_barrier b)
{
    return b == GCD_BARRIER_COOP ? "coop" : b == GCD_BARRIER_CLUSTER ? "cluster" : "custom";
}

const char *gcd_inverse_name(enum gcd_inverse i)
{
    return i == GCD_INVERSE_EUCLID ? "euclid" : "fermat";
}

/* Per modulus: q, u, v (4 bytes each), m (8), active (1), a digit (8). */
#define BYTES_PER_MODULUS 29u

uint64_t gcd_device_bytes(size_t n, size_t words)
{
    return (uint64_t)n * BYTES_PER_MODULUS + 2 * sizeof(uint32_t) * (uint64_t)words;
}

cudaError_t gcd_device_open(struct gcd_device *d, const struct gcd_moduli *M,
                            enum gcd_barrier barrier, enum gcd_inverse inverse)
{
    memset(d, 0, sizeof *d);
    d->M = M;
    d->barrier = barrier;
    d->inverse = inverse;
    int dev = 0, sms = 0;
    TRY(d, cudaGetDevice(&dev));
    TRY(d, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    d->sm_count = (unsigned)sms;
    /* The largest grid of any plan: the streaming kernel's, all its blocks resident. */
    const char *why = NULL;
    const unsigned streaming = GCD_SHAPES - 1;
    cudaError_t err = gcd_modular_max_grid(barrier, streaming, gcd_shapes[streaming].max_block,
                                           &d->max_grid, &why);
    if (err != cudaSuccess) {
        d->failed_call = why;
        return err;
    }
    if (d->max_grid < d->sm_count && barrier != GCD_BARRIER_CLUSTER)
        d->max_grid = d->sm_count;
    TRY(d, cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    TRY(d, cudaEventCreate(&d->start));
    TRY(d, cudaEventCreate(&d->stop));
    /* The exchange's rows: 2 (coop) or 4 (custom) words a block. */
    TRY(d, cudaMalloc((void **)&d->d_slots, 4 * (size_t)d->max_grid * sizeof *d->d_slots));
    TRY(d, cudaMalloc((void **)&d->d_result, sizeof *d->d_result));
    TRY(d, cudaMallocHost((void **)&d->h_result, sizeof *d->h_result));
    return cudaSuccess;
}

static void free_moduli_buffers(struct gcd_device *d)
{
    cudaFree(d->d_q);
    cudaFree(d->d_u);
    cudaFree(d->d_v);
    cudaFree(d->d_m);
    cudaFree(d->d_active);
    cudaFree(d->d_digit_p);
    cudaFree(d->d_digit_g);
    cudaFreeHost(d->h_digit_p);
    cudaFreeHost(d->h_digit_g);
    d->d_q = d->d_u = d->d_v = d->d_digit_p = d->h_digit_p = NULL;
    d->d_m = NULL;
    d->d_active = NULL;
    d->d_digit_g = d->h_digit_g = NULL;
    d->cap = 0;
}

static void free_word_buffers(struct gcd_device *d)
{
    cudaFree(d->d_uw);
    cudaFree(d->d_vw);
    free(d->h_uw);
    free(d->h_vw);
    d->d_uw = d->d_vw = d->h_uw = d->h_vw = NULL;
    d->words_cap = 0;
}

void gcd_device_close(struct gcd_device *d)
{
    free_moduli_buffers(d);
    free_word_buffers(d);
    cudaFree(d->d_slots);
    cudaFree(d->d_result);
    cudaFreeHost(d->h_result);
    if (d->start)
        cudaEventDestroy(d->start);
    if (d->stop)
        cudaEventDestroy(d->stop);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    memset(d, 0, sizeof *d);
}

/* Buffers for n moduli, and the largest `cap` moduli of M on the device; grown by doubling, so
 * a retry with twice the moduli reallocates at most once. */
static cudaError_t ensure_moduli(struct gcd_device *d, size_t n)
{
    if (n <= d->cap)
        return cudaSuccess;
    if (n > d->M->count) {
        d->failed_call = "gcd_device_attempt (more moduli asked for than M holds)";
        return cudaErrorInvalidValue;
    }
    size_t cap = 2 * d->cap > n ? 2 * d->cap : n;
    if (cap > d->M->count)
        cap = (size_t)d->M->count;
    free_moduli_buffers(d);
    TRY(d, cudaMalloc((void **)&d->d_q, cap * sizeof *d->d_q));
    TRY(d, cudaMalloc((void **)&d->d_u, cap * sizeof *d->d_u));
    TRY(d, cudaMalloc((void **)&d->d_v, cap * sizeof *d->d_v));
    TRY(d, cudaMalloc((void **)&d->d_m, cap * sizeof *d->d_m));
    TRY(d, cudaMalloc((void **)&d->d_active, cap));
    TRY(d, cudaMalloc((void **)&d->d_digit_p, cap * sizeof *d->d_digit_p));
    TRY(d, cudaMalloc((void **)&d->d_digit_g, cap * sizeof *d->d_digit_g));
    TRY(d, cudaMallocHost((void **)&d->h_digit_p, cap * sizeof *d->h_digit_p));
    TRY(d, cudaMallocHost((void **)&d->h_digit_g, cap * sizeof *d->h_digit_g));
    TRY(d, cudaMemcpyAsync(d->d_q, d->M->q, cap * sizeof *d->d_q, cudaMemcpyHostToDevice,
                           d->stream));
    TRY(d, cudaStreamSynchronize(d->stream));
    d->cap = cap;
    return cudaSuccess;
}

static cudaError_t ensure_words(struct gcd_device *d, size_t words)
{
    if (words <= d->words_cap)
        return cudaSuccess;
    free_word_buffers(d);
    TRY(d, cudaMalloc((void **)&d->d_uw, words * sizeof *d->d_uw));
    TRY(d, cudaMalloc((void **)&d->d_vw, words * sizeof *d->d_vw));
    d->h_uw = malloc(words * sizeof *d->h_uw);
    d->h_vw = malloc(words * sizeof *d->h_vw);
    if (!d->h_uw || !d->h_vw) {
        d->failed_call = "malloc (host words of U and V)";
        return cudaErrorMemoryAllocation;
    }
    d->words_cap = words;
    return cudaSuccess;
}

/* The kernel for n moduli (002 section 4 sizes the grid to the GPU; here the blocks are sized
 * to the moduli too). A step's cost is one inverse chain per modulus, issued on the SMs that
 * hold moduli: so the moduli are spread over as many SMs as the barrier reaches, one block
 * each (every SM of the GPU for coop and custom, at most 16 for a cluster), with the fewest
 * moduli a thread that fit in registers, at least min_per_thread; blocks of one SM are alike
 * in size, so that no SM holds a third block while others hold two. Beyond the registers, the
 * moduli stream through device memory on every resident block. */
static cudaError_t plan(struct gcd_device *d, size_t n, struct gcd_launch *out)
{
    unsigned target = d->barrier == GCD_BARRIER_CLUSTER ? GCD_MAX_CLUSTER : d->sm_count;
    if (d->grid_limit && d->grid_limit < target)
        target = d->grid_limit;
    for (unsigned s = 0; s < GCD_SHAPES; s++) {
        const struct gcd_shape *sh = &gcd_shapes[s];
        if (sh->resident && sh->per_thread < d->min_per_thread)
            continue;
        for (;;) {
            const size_t per_block = (size_t)target * sh->per_thread;
            size_t block = (n + per_block - 1) / per_block;
            block = (block + 31) / 32 * 32;
            if (sh->resident && block > sh->max_block)
                break;
            if (block > sh->max_block)
                block = sh->max_block;
            size_t per_thread = sh->per_thread;
            if (!sh->resident) {
                const size_t threads = (size_t)target * block;
                per_thread = (n + threads - 1) / threads;
                per_thread = (per_thread + sh->per_thread - 1) / sh->per_thread * sh->per_thread;
            }
            const size_t chunk = per_thread * block;
            const unsigned grid = (unsigned)((n + chunk - 1) / chunk);
            unsigned max_grid = 0;
            const char *why = NULL;
            cudaError_t err = gcd_modular_max_grid(d->barrier, s, (unsigned)block, &max_grid, &why);
            if (err != cudaSuccess) {
                d->failed_call = why;
                return err;
            }
            if (d->grid_limit && d->grid_limit < max_grid)
                max_grid = d->grid_limit;
            if (max_grid > d->max_grid)
                max_grid = d->max_grid;
            if (grid <= max_grid) {
                /* Streaming: every resident block, fewer moduli a thread. */
                if (!sh->resident && target < max_grid) {
                    target = max_grid;
                    continue;
                }
                *out = (struct gcd_launch){s, (unsigned)block, grid, (uint32_t)chunk};
                return cudaSuccess;
            }
            if (max_grid == 0 || max_grid >= target)
                break;
            target = max_grid;
        }
    }
    d->failed_call = "gcd_device_attempt (no grid of the GCD kernel holds the moduli)";
    return cudaErrorInvalidConfiguration;
}

cudaError_t gcd_device_attempt(struct gcd_device *d, mpz_t g, const mpz_t u, const mpz_t v,
                               size_t n_q, struct gcd_run *run)
{
    const size_t n_u = mpz_sizeinbase(u, 2), n_v = mpz_sizeinbase(v, 2);
    cudaError_t err;
    if ((err = ensure_moduli(d, n_q)) != cudaSuccess || (err = ensure_words(d, (n_u + 31) / 32)) !=
        cudaSuccess)
        return err;
    size_t uw_n = 0, vw_n = 0;
    mpz_export(d->h_uw, &uw_n, -1, sizeof *d->h_uw, 0, 0, u);
    mpz_export(d->h_vw, &vw_n, -1, sizeof *d->h_vw, 0, 0, v);
    TRY(d, cudaMemcpyAsync(d->d_uw, d->h_uw, uw_n * sizeof *d->h_uw, cudaMemcpyHostToDevice, d->stream));
    TRY(d, cudaMemcpyAsync(d->d_vw, d->h_vw, vw_n * sizeof *d->h_vw, cudaMemcpyHostToDevice, d->stream));

    struct gcd_launch L;
    if ((err = plan(d, n_q, &L)) != cudaSuccess)
        return err;
    const struct gcd_kernel_params p = {
        .q = d->d_q, .m = d->d_m, .u = d->d_u, .v = d->d_v, .active = d->d_active,
        .uw = d->d_uw, .vw = d->d_vw, .uw_n = (uint32_t)uw_n, .vw_n = (uint32_t)vw_n,
        .n = (uint32_t)n_q, .chunk = L.chunk, .L = d->M->L,
        .cheap = d->M->filter == GCD_FILTER_CHEAP, .inverse = d->inverse, .percent = d->percent,
        .n_u = (int64_t)n_u, .n_v = (int64_t)n_v, .slots = d->d_slots,
        .digit_p = d->d_digit_p, .digit_g = d->d_digit_g, .result = d->d_result,
    };
    if (d->barrier == GCD_BARRIER_CUSTOM)
        TRY(d, cudaMemsetAsync(d->d_slots, 0, 4 * (size_t)L.grid * sizeof *d->d_slots, d->stream));
    TRY(d, cudaEventRecord(d->start, d->stream));
    if ((err = gcd_modular_launch(d->barrier, L.shape, &p, L.grid, L.block, d->stream)) != cudaSuccess) {
        d->failed_call = "gcd_modular_kernel launch";
        return err;
    }
    TRY(d, cudaEventRecord(d->stop, d->stream));
    TRY(d, cudaMemcpyAsync(d->h_result, d->d_result, sizeof *d->h_result, cudaMemcpyDeviceToHost,
                           d->stream));
    if ((err = cudaStreamSynchronize(d->stream)) != cudaSuccess) {
        d->failed_call = "gcd_modular_kernel (cudaStreamSynchronize)";
        return err;
    }
    float ms = 0;
    TRY(d, cudaEventElapsedTime(&ms, d->start, d->stop));
    d->kernel_ms += ms;
    d->last = L;

    const struct gcd_kernel_result r = *d->h_result;
    run->n_q = n_q;
    run->steps = r.steps;
    run->digits = 0;
    run->shortage = (enum gcd_shortage)r.shortage;
    run->status = r.shortage == GCD_SHORT_NONE ? GCD_OK : GCD_SHORTAGE;
    if (run->status != GCD_OK)
        return cudaSuccess;
    if (r.digits > n_q) {
        d->failed_call = "gcd_modular_kernel (reported more digits than moduli)";
        return cudaErrorUnknown;
    }
    run->digits = r.digits;
    const size_t k = (size_t)r.digits;
    TRY(d, cudaMemcpyAsync(d->h_digit_p, d->d_digit_p, k * sizeof *d->h_digit_p,
                           cudaMemcpyDeviceToHost, d->stream));
    TRY(d, cudaMemcpyAsync(d->h_digit_g, d->d_digit_g, k * sizeof *d->h_digit_g,
                           cudaMemcpyDeviceToHost, d->stream));
    TRY(d, cudaStreamSynchronize(d->stream));
    /* Fig. 2 line 29 on the host, with GMP (002 section 3). */
    gcd_mixed_radix_to_mpz(g, d->h_digit_p, d->h_digit_g, k);
    return cudaSuccess;
}

cudaError_t gcd_device_gcd(struct gcd_device *d, mpz_t g, const mpz_t a, const mpz_t b,
                           size_t first_nq, struct gcd_run *run)
{
    *run = (struct gcd_run){.status = GCD_OK};
    mpz_t u, v;
    mpz_inits(u, v, NULL);
    cudaError_t err = cudaSuccess;
    if (!gcd_modular_prepare(u, v, g, a, b)) {
        const uint64_t available = d->M->count;
        size_t n = first_nq < available ? first_nq : (size_t)available;
        if (first_nq == 0 && gcd_modular_nq(mpz_sizeinbase(u, 2), d->M->L, GCD_BLOCK_THREADS,
                                            available, &n) != GCD_OK)
            n = 0;
        while (n != 0) {
            run->attempts++;
            if ((err = gcd_device_attempt(d, g, u, v, n, run)) != cudaSuccess)
                break;
            if (run->status == GCD_OK)
                break;
            run->shortages++;
            n = gcd_modular_retry_nq(n, GCD_BLOCK_THREADS, available);
        }
        if (err == cudaSuccess && n == 0)
            run->status = GCD_TOO_LARGE;
    }
    mpz_clears(u, v, NULL);
    return err;
}
