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

/* Per modulus: q, u, v (4 bytes each), m (8), active (1), a digit (8); and for the k-ary
 * method two log entries (16 each), two answers (8 each) and a common factor (4). */
#define BYTES_PER_MODULUS (29u + 2 * 16u + 2 * 8u + 4u)

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
    cudaFree(d->d_log);
    cudaFree(d->d_acks);
    cudaFree(d->d_common);
    cudaFreeHost(d->h_common);
    d->d_log = NULL;
    d->d_acks = NULL;
    d->d_common = d->h_common = NULL;
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
    cudaFree(d->d_kary);
    cudaFreeHost(d->h_kary);
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
    if (d->algorithm == GCD_ALGORITHM_KARY) {
        TRY(d, cudaMalloc((void **)&d->d_log, 4 * (2 * cap + 2) * sizeof *d->d_log));
        TRY(d, cudaMalloc((void **)&d->d_acks, (2 * cap + 2) * sizeof *d->d_acks));
        TRY(d, cudaMalloc((void **)&d->d_common, cap * sizeof *d->d_common));
        TRY(d, cudaMallocHost((void **)&d->h_common, cap * sizeof *d->h_common));
    }
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

/* An attempt's buffers for n_q moduli, and U and V on the device as 32-bit words. */
static cudaError_t upload_pair(struct gcd_device *d, const mpz_t u, const mpz_t v, size_t n_q,
                               size_t *uw_n, size_t *vw_n)
{
    cudaError_t err;
    if ((err = ensure_moduli(d, n_q)) != cudaSuccess ||
        (err = ensure_words(d, (mpz_sizeinbase(u, 2) + 31) / 32)) != cudaSuccess)
        return err;
    *uw_n = *vw_n = 0;
    mpz_export(d->h_uw, uw_n, -1, sizeof *d->h_uw, 0, 0, u);
    mpz_export(d->h_vw, vw_n, -1, sizeof *d->h_vw, 0, 0, v);
    TRY(d, cudaMemcpyAsync(d->d_uw, d->h_uw, *uw_n * sizeof *d->h_uw, cudaMemcpyHostToDevice, d->stream));
    TRY(d, cudaMemcpyAsync(d->d_vw, d->h_vw, *vw_n * sizeof *d->h_vw, cudaMemcpyHostToDevice, d->stream));
    return cudaSuccess;
}

/* After a launch between the start event and now: the stop event, the kernel's result struct
 * (`bytes` from d_result to h_result), its time added to kernel_ms, the launch remembered. */
static cudaError_t finish_launch(struct gcd_device *d, const char *sync_call, void *h_result,
                                 const void *d_result, size_t bytes, struct gcd_launch L)
{
    cudaError_t err;
    TRY(d, cudaEventRecord(d->stop, d->stream));
    TRY(d, cudaMemcpyAsync(h_result, d_result, bytes, cudaMemcpyDeviceToHost, d->stream));
    if ((err = cudaStreamSynchronize(d->stream)) != cudaSuccess) {
        d->failed_call = sync_call;
        return err;
    }
    float ms = 0;
    TRY(d, cudaEventElapsedTime(&ms, d->start, d->stop));
    d->kernel_ms += ms;
    d->last = L;
    return cudaSuccess;
}

/* The first k mixed-radix digits to the host (the caller synchronises). */
static cudaError_t fetch_digits(struct gcd_device *d, size_t k)
{
    TRY(d, cudaMemcpyAsync(d->h_digit_p, d->d_digit_p, k * sizeof *d->h_digit_p,
                           cudaMemcpyDeviceToHost, d->stream));
    TRY(d, cudaMemcpyAsync(d->h_digit_g, d->d_digit_g, k * sizeof *d->h_digit_g,
                           cudaMemcpyDeviceToHost, d->stream));
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
    size_t uw_n = 0, vw_n = 0;
    cudaError_t err = upload_pair(d, u, v, n_q, &uw_n, &vw_n);
    if (err != cudaSuccess)
        return err;

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
    if ((err = finish_launch(d, "gcd_modular_kernel (cudaStreamSynchronize)", d->h_result,
                             d->d_result, sizeof *d->h_result, L)) != cudaSuccess)
        return err;

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
    if ((err = fetch_digits(d, k)) != cudaSuccess)
        return err;
    TRY(d, cudaStreamSynchronize(d->stream));
    /* Fig. 2 line 29 on the host, with GMP (002 section 3). */
    gcd_mixed_radix_to_mpz(g, d->h_digit_p, d->h_digit_g, k);
    return cudaSuccess;
}

cudaError_t gcd_device_open_kary(struct gcd_device *d, const struct gcd_moduli *M)
{
    memset(d, 0, sizeof *d);
    d->M = M;
    d->algorithm = GCD_ALGORITHM_KARY;
    int dev = 0, sms = 0, coop = 0;
    TRY(d, cudaGetDevice(&dev));
    TRY(d, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    TRY(d, cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop) {
        d->failed_call = "this GPU cannot launch cooperative kernels";
        return cudaErrorNotSupported;
    }
    d->sm_count = (unsigned)sms;
    TRY(d, cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    TRY(d, cudaEventCreate(&d->start));
    TRY(d, cudaEventCreate(&d->stop));
    TRY(d, cudaMalloc((void **)&d->d_kary, sizeof *d->d_kary));
    TRY(d, cudaMallocHost((void **)&d->h_kary, sizeof *d->h_kary));
    return cudaSuccess;
}

/* The k-ary kernel for n moduli: the fewest moduli a thread, so that the producer's own update
 * is short, and the warps spread over every SM, one block an SM, so that few warps share the
 * producer's scheduler. Every block must be resident (the warps wait on each other). */
static cudaError_t plan_kary(struct gcd_device *d, size_t n, struct gcd_launch *out)
{
    for (unsigned s = 0; s < GCD_KARY_SHAPES; s++) {
        if (gcd_kary_shapes[s].per_thread < d->min_per_thread)
            continue;
        const size_t group = 32 * (size_t)gcd_kary_shapes[s].per_thread;
        const size_t warps = (n + group - 1) / group;
        size_t per_block = (warps + d->sm_count - 1) / d->sm_count;
        if (32 * per_block > gcd_kary_shapes[s].max_block)
            per_block = gcd_kary_shapes[s].max_block / 32;
        const unsigned block = (unsigned)(32 * per_block);
        const unsigned grid = (unsigned)((warps + per_block - 1) / per_block);
        unsigned max_grid = 0;
        cudaError_t err = gcd_kary_max_grid(s, block, &max_grid);
        if (err != cudaSuccess) {
            d->failed_call = "cudaOccupancyMaxActiveBlocksPerMultiprocessor (k-ary kernel)";
            return err;
        }
        if (grid > max_grid)
            continue;
        if (grid > d->max_grid) {
            cudaFree(d->d_slots);
            d->d_slots = NULL;
            d->max_grid = 0;
            TRY(d, cudaMalloc((void **)&d->d_slots, 2 * (size_t)grid * sizeof *d->d_slots));
            d->max_grid = grid;
        }
        *out = (struct gcd_launch){s, block, grid, (uint32_t)(group * per_block)};
        return cudaSuccess;
    }
    d->failed_call = "gcd_device_attempt (no grid of the k-ary kernel holds the moduli)";
    return cudaErrorInvalidConfiguration;
}

static cudaError_t kary_attempt(struct gcd_device *d, mpz_t g, const mpz_t u, const mpz_t v,
                                size_t n_q, struct gcd_run *run)
{
    const size_t n_u = mpz_sizeinbase(u, 2), n_v = mpz_sizeinbase(v, 2);
    size_t uw_n = 0, vw_n = 0;
    cudaError_t err = upload_pair(d, u, v, n_q, &uw_n, &vw_n);
    if (err != cudaSuccess)
        return err;
    struct gcd_launch L;
    if ((err = plan_kary(d, n_q, &L)) == cudaErrorInvalidConfiguration) {
        run->status = GCD_TOO_LARGE; /* more moduli than the registers of the GPU hold */
        return cudaSuccess;
    }
    if (err != cudaSuccess)
        return err;
    const struct gcd_kary_params p = {
        .q = d->d_q, .uw = d->d_uw, .vw = d->d_vw, .uw_n = (uint32_t)uw_n, .vw_n = (uint32_t)vw_n,
        .n = (uint32_t)n_q, .L = d->M->L, .cheap = d->M->filter == GCD_FILTER_CHEAP,
        .alpha = (int64_t)n_u, .beta = (int64_t)n_v, .log = d->d_log, .acks = d->d_acks,
        .common = d->d_common, .slots = d->d_slots,
        .digit_p = d->d_digit_p, .digit_g = d->d_digit_g, .result = d->d_kary,
    };
    TRY(d, gcd_kary_clear_log(d->d_log, 2 * n_q + 2, d->stream));
    TRY(d, cudaMemsetAsync(d->d_acks, 0, (2 * n_q + 2) * sizeof *d->d_acks, d->stream));
    TRY(d, cudaEventRecord(d->start, d->stream));
    if ((err = gcd_kary_launch(L.shape, &p, L.grid, L.block, d->stream)) != cudaSuccess) {
        d->failed_call = "gcd_kary_kernel launch";
        return err;
    }
    if ((err = finish_launch(d, "gcd_kary_kernel (cudaStreamSynchronize)", d->h_kary, d->d_kary,
                             sizeof *d->h_kary, L)) != cudaSuccess)
        return err;

    const struct gcd_kary_result r = *d->h_kary;
    run->n_q = n_q;
    run->steps = r.steps;
    run->digits = 0;
    d->kary_stats.consumed += r.consumed;
    d->kary_stats.checks += r.entries - r.steps - 1;
    d->kary_stats.commons += r.commons;
    run->shortage = r.kind == GCD_KARY_SHORT ? GCD_SHORT_BOUND : GCD_SHORT_NONE;
    run->status = run->shortage == GCD_SHORT_NONE ? GCD_OK : GCD_SHORTAGE;
    if (run->status != GCD_OK)
        return cudaSuccess;
    if (r.digits > n_q || r.commons > n_q || (r.kind != GCD_KARY_DONE_A && r.kind != GCD_KARY_DONE_B)) {
        d->failed_call = "gcd_kary_kernel (reported an impossible result)";
        return cudaErrorUnknown;
    }
    run->digits = r.digits;
    const size_t k = (size_t)r.digits;
    if ((err = fetch_digits(d, k)) != cudaSuccess)
        return err;
    TRY(d, cudaMemcpyAsync(d->h_common, d->d_common, r.commons * sizeof *d->h_common,
                           cudaMemcpyDeviceToHost, d->stream));
    TRY(d, cudaStreamSynchronize(d->stream));
    /* The result on the host with GMP: the digits, the common factors, the spurious ones out. */
    mpz_t h;
    mpz_init(h);
    gcd_mixed_radix_to_mpz(h, d->h_digit_p, d->h_digit_g, k);
    for (uint32_t i = 0; i < r.commons; i++)
        mpz_mul_ui(h, h, d->h_common[i]);
    d->kary_stats.spurious_bits += gcd_kary_clean(g, h, u, v);
    mpz_clear(h);
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
        const bool kary = d->algorithm == GCD_ALGORITHM_KARY;
        const size_t round = kary ? GCD_KARY_ROUND : GCD_BLOCK_THREADS;
        size_t n = first_nq < available ? first_nq : (size_t)available;
        if (first_nq == 0 &&
            (kary ? gcd_kary_nq(mpz_sizeinbase(u, 2), mpz_sizeinbase(v, 2), d->M->L, round,
                                available, &n)
                  : gcd_modular_nq(mpz_sizeinbase(u, 2), d->M->L, round, available, &n)) != GCD_OK)
            n = 0;
        while (n != 0) {
            run->attempts++;
            if ((err = kary ? kary_attempt(d, g, u, v, n, run)
                            : gcd_device_attempt(d, g, u, v, n, run)) != cudaSuccess)
                break;
            if (run->status == GCD_OK || run->status == GCD_TOO_LARGE)
                break;
            run->shortages++;
            n = gcd_modular_retry_nq(n, round, available);
        }
        if (err == cudaSuccess && n == 0)
            run->status = GCD_TOO_LARGE;
    }
    mpz_clears(u, v, NULL);
    return err;
}
