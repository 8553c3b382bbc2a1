/* libmpgpu's fixed-precision arithmetic (mpgpu.h) over the launchers of `mpgpu fixed`
 * (fixed_device.h): the operations' shapes, the Montgomery constants of a modulus, the device
 * layouts (004 sections 2.4 and 3.4) and the kernel launch. */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fixed_device.h"
#include "fixed_resources.h"
#include "mpgpu_internal.h"

/* mpgpu.h's operations and implementations are the kernels' (fixed_ops.h), number for number. */
_Static_assert(MPGPU_FIXED_ADD == (int)FIXED_ADD && MPGPU_FIXED_SUB == (int)FIXED_SUB &&
                   MPGPU_FIXED_ADDM == (int)FIXED_ADDM && MPGPU_FIXED_SUBM == (int)FIXED_SUBM &&
                   MPGPU_FIXED_MUL == (int)FIXED_MUL &&
                   MPGPU_FIXED_KARATSUBA == (int)FIXED_KARATSUBA &&
                   MPGPU_FIXED_MONTRED == (int)FIXED_MONTRED &&
                   MPGPU_FIXED_MONTMUL == (int)FIXED_MONTMUL &&
                   MPGPU_FIXED_POWM == (int)FIXED_POWM && MPGPU_FIXED_N_OPS == (int)FIXED_N_OPS,
               "mpgpu_fixed_op differs from enum fixed_op");
_Static_assert(MPGPU_FIXED_IMPL_PTX == (int)FIXED_IMPL_PTX &&
                   MPGPU_FIXED_IMPL_C == (int)FIXED_IMPL_C &&
                   MPGPU_FIXED_IMPL_FP64 == (int)FIXED_IMPL_FP64 &&
                   MPGPU_FIXED_IMPL_HYBRID == (int)FIXED_IMPL_HYBRID &&
                   MPGPU_FIXED_N_IMPLS == (int)FIXED_N_IMPLS,
               "mpgpu_fixed_impl differs from enum fixed_impl");
_Static_assert(MPGPU_FIXED_MAX_WORDS == FIXED_MAX_WORDS, "the largest precision differs");

static const char *const op_summaries[FIXED_N_OPS] = {
    "a + b mod 2^(32n), two's complement in the operand width",
    "a - b mod 2^(32n)",
    "a + b mod m, branch-free",
    "a - b mod m, branch-free",
    "a * b in full (2n words), schoolbook in column order",
    "a * b in full (2n words), one Karatsuba level",
    "T R^-1 mod m of a 2n-word T < m R, R = 2^(32n) (Montgomery reduction)",
    "a b R^-1 mod m (Montgomery multiplication)",
    "a^b mod m, square and multiply over the exponent's bits in Montgomery form",
};

size_t mpgpu_fixed_bits_count(void)
{
    size_t n;
    fixed_built_bits(&n);
    return n;
}

mpgpu_status mpgpu_fixed_bits_get(size_t index, unsigned *bits)
{
    size_t n;
    const unsigned *built = fixed_built_bits(&n);
    if (!bits || index >= n)
        return MPGPU_ERR_BAD_ARGUMENT;
    *bits = built[index];
    return MPGPU_OK;
}

/* The op and a precision any build may have; arithmetic only. */
static mpgpu_status check_shape(mpgpu_fixed_op op, unsigned bits)
{
    if ((unsigned)op >= FIXED_N_OPS)
        return MPGPU_ERR_UNKNOWN_METHOD;
    if (bits < MPGPU_FIXED_MIN_BITS || bits > MPGPU_FIXED_MAX_BITS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    return MPGPU_OK;
}

mpgpu_status mpgpu_fixed_op_get(mpgpu_fixed_op op, unsigned bits, mpgpu_fixed_op_info *info)
{
    if (!info)
        return MPGPU_ERR_BAD_ARGUMENT;
    mpgpu_status st = check_shape(op, bits);
    if (st != MPGPU_OK)
        return st;
    const enum fixed_op o = (enum fixed_op)op;
    const unsigned n = fixed_words(bits);
    info->name = fixed_op_names[o];
    info->summary = op_summaries[o];
    info->modular = fixed_op_modular(o);
    info->montgomery = fixed_op_montgomery(o);
    info->words = n;
    info->a_words = fixed_a_words(o, n);
    info->b_words = fixed_b_words(o, n);
    info->r_words = fixed_r_words(o, n);
    return MPGPU_OK;
}

mpgpu_status mpgpu_fixed_op_find(const char *name, mpgpu_fixed_op *op)
{
    if (!name || !op)
        return MPGPU_ERR_BAD_ARGUMENT;
    for (int o = 0; o < FIXED_N_OPS; o++)
        if (!strcmp(name, fixed_op_names[o])) {
            *op = (mpgpu_fixed_op)o;
            return MPGPU_OK;
        }
    return MPGPU_ERR_UNKNOWN_METHOD;
}

mpgpu_status mpgpu_fixed_check(mpgpu_fixed_op op, unsigned bits)
{
    if ((unsigned)op >= FIXED_N_OPS)
        return MPGPU_ERR_UNKNOWN_METHOD;
    return fixed_launcher(bits) ? MPGPU_OK : MPGPU_ERR_UNSUPPORTED_SIZE;
}

mpgpu_status mpgpu_fixed_impl_check(mpgpu_fixed_op op, mpgpu_fixed_impl impl)
{
    if ((unsigned)impl >= FIXED_N_IMPLS)
        return MPGPU_ERR_BAD_ARGUMENT;
    if ((unsigned)op >= FIXED_N_OPS || !fixed_impl_has((enum fixed_impl)impl, (enum fixed_op)op))
        return MPGPU_ERR_UNKNOWN_METHOD;
    return MPGPU_OK;
}

/* 1 if x (n + 1 words) < m (n words). */
static int below_modulus(const uint32_t *x, const uint32_t *m, unsigned n)
{
    if (x[n])
        return 0;
    for (unsigned j = n; j-- > 0;)
        if (x[j] != m[j])
            return x[j] < m[j];
    return 0;
}

/* x (n + 1 words) -= m (n words), x >= m. */
static void subtract_modulus(uint32_t *x, const uint32_t *m, unsigned n)
{
    uint32_t borrow = 0;
    for (unsigned j = 0; j < n; j++) {
        const uint64_t d = (uint64_t)x[j] - m[j] - borrow;
        x[j] = (uint32_t)d;
        borrow = (uint32_t)(d >> 63);
    }
    x[n] -= borrow;
}

/* R^2 mod m, R = 2^(32n), by doubling 1 64n times: no division, no GMP; m >= 3. */
static void montgomery_r2(const uint32_t *m, unsigned n, uint32_t *r2)
{
    uint32_t x[MPGPU_FIXED_MAX_WORDS + 1] = {1};
    for (unsigned k = 0; k < 64 * n; k++) {
        uint32_t carry = 0;
        for (unsigned j = 0; j <= n; j++) {
            const uint32_t top = x[j] >> 31;
            x[j] = x[j] << 1 | carry;
            carry = top;
        }
        if (!below_modulus(x, m, n))
            subtract_modulus(x, m, n);
    }
    memcpy(r2, x, n * sizeof(uint32_t));
}

mpgpu_status mpgpu_fixed_modulus_set(mpgpu_fixed_modulus *mod, unsigned bits, const uint32_t *m)
{
    if (!mod || !m)
        return MPGPU_ERR_BAD_ARGUMENT;
    if (bits < MPGPU_FIXED_MIN_BITS || bits > MPGPU_FIXED_MAX_BITS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    const unsigned n = fixed_words(bits);
    if (bits % 32 && m[n - 1] >> (bits % 32))
        return MPGPU_ERR_BAD_ARGUMENT; /* not below 2^bits */
    int at_least_3 = m[0] >= 3;
    for (unsigned j = 1; j < n && !at_least_3; j++)
        at_least_3 = m[j] != 0;
    if (!at_least_3)
        return MPGPU_ERR_BAD_ARGUMENT;
    memset(mod, 0, sizeof *mod);
    mod->bits = bits;
    memcpy(mod->m, m, n * sizeof(uint32_t));
    montgomery_r2(m, n, mod->r2);
    mod->m_inv = m[0] & 1 ? fixed_neg_inv(m[0]) : 0;
    return MPGPU_OK;
}

mpgpu_fixed_options mpgpu_fixed_default_options(void)
{
    const mpgpu_fixed_options o = {.impl = MPGPU_FIXED_IMPL_PTX, .global_mem = 0,
                                   .interleaved = 0, .coalesced = 1, .chain = 1, .grid = 0,
                                   .block = 256};
    return o;
}

/* A call's shape and layout in words, from checked arguments. */
struct shape {
    enum fixed_op op;
    unsigned aw, bw, rw;      /* an element's words (fixed_ops.h) */
    int interleaved;          /* a and b in one device array (never for montred) */
    size_t a_total, b_total, r_total; /* the device arrays' words */
    mpgpu_fixed_options opts;
};

static int is_flag(int x) { return x == 0 || x == 1; }

static mpgpu_status check_layout(mpgpu_fixed_op op, unsigned bits, size_t count,
                                 const mpgpu_fixed_options *opts, struct shape *s)
{
    mpgpu_status st = check_shape(op, bits);
    if (st != MPGPU_OK)
        return st;
    s->opts = opts ? *opts : mpgpu_fixed_default_options();
    const mpgpu_fixed_options *o = &s->opts;
    if ((unsigned)o->impl >= FIXED_N_IMPLS || !is_flag(o->global_mem) || !is_flag(o->interleaved) || !is_flag(o->coalesced) ||
        o->chain == 0 || o->grid > 0x7fffffffu || o->block == 0 || o->block > 1024)
        return MPGPU_ERR_BAD_ARGUMENT;
    s->op = (enum fixed_op)op;
    const unsigned n = fixed_words(bits);
    s->aw = fixed_a_words(s->op, n);
    s->bw = fixed_b_words(s->op, n);
    s->rw = fixed_r_words(s->op, n);
    if (count > SIZE_MAX / sizeof(uint32_t) / (s->aw + s->bw + s->rw))
        return MPGPU_ERR_BAD_ARGUMENT;
    s->interleaved = o->interleaved && s->bw > 0;
    s->a_total = (size_t)(s->interleaved ? s->aw + s->bw : s->aw) * count;
    s->b_total = s->interleaved ? 0 : (size_t)s->bw * count;
    s->r_total = (size_t)s->rw * count;
    return MPGPU_OK;
}

mpgpu_status mpgpu_fixed_layout_words(mpgpu_fixed_op op, unsigned bits, size_t count,
                                      const mpgpu_fixed_options *opts, size_t *a_words,
                                      size_t *b_words, size_t *r_words)
{
    struct shape s;
    mpgpu_status st = check_layout(op, bits, count, opts, &s);
    if (st != MPGPU_OK)
        return st;
    if (a_words)
        *a_words = s.a_total;
    if (b_words)
        *b_words = s.b_total;
    if (r_words)
        *r_words = s.r_total;
    return MPGPU_OK;
}

/* Index of word j of element p in an array of `words`-word numbers, as the kernels compute it
 * (fixed_kernels.cu's Layout::index). */
static size_t index_of(int coalesced, size_t count, unsigned words, unsigned j, size_t p,
                       unsigned step)
{
    return (coalesced ? (size_t)j * count + p : p * words + j) * step;
}

/* a, b element-major into packed_a, packed_b (b's words at packed_a + 1 when interleaved). */
static void pack(const struct shape *s, size_t count, const uint32_t *a, const uint32_t *b,
                 uint32_t *packed_a, uint32_t *packed_b)
{
    const long n = (long)count;
    const unsigned step = s->interleaved ? 2 : 1;
    const int coalesced = s->opts.coalesced;
    uint32_t *sb = s->interleaved ? packed_a + 1 : packed_b;
    for (long p = 0; p < n; p++) {
        for (unsigned j = 0; j < s->aw; j++)
            packed_a[index_of(coalesced, count, s->aw, j, (size_t)p, step)] = a[(size_t)p * s->aw + j];
        for (unsigned j = 0; j < s->bw; j++)
            sb[index_of(coalesced, count, s->bw, j, (size_t)p, step)] = b[(size_t)p * s->bw + j];
    }
}

static void unpack(const struct shape *s, size_t count, const uint32_t *packed_r, uint32_t *r)
{
    const long n = (long)count;
    for (long p = 0; p < n; p++)
        for (unsigned j = 0; j < s->rw; j++)
            r[(size_t)p * s->rw + j] = packed_r[index_of(s->opts.coalesced, count, s->rw, j, (size_t)p, 1)];
}

#define BYTES(words) ((words) * sizeof(uint32_t))

mpgpu_status mpgpu_fixed_pack(mpgpu_fixed_op op, unsigned bits, size_t count,
                              const mpgpu_fixed_options *opts, const uint32_t *a,
                              const uint32_t *b, uint32_t *packed_a, uint32_t *packed_b)
{
    struct shape s;
    mpgpu_status st = check_layout(op, bits, count, opts, &s);
    if (st != MPGPU_OK || count == 0)
        return st;
    const size_t a_in = (size_t)s.aw * count, b_in = (size_t)s.bw * count;
    if (!a || !packed_a || (s.bw && !b) || (s.b_total ? !packed_b : packed_b != NULL))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (libmpgpu_overlap(packed_a, BYTES(s.a_total), a, BYTES(a_in)) ||
        libmpgpu_overlap(packed_a, BYTES(s.a_total), b, BYTES(b_in)) ||
        libmpgpu_overlap(packed_b, BYTES(s.b_total), a, BYTES(a_in)) ||
        libmpgpu_overlap(packed_b, BYTES(s.b_total), b, BYTES(b_in)) ||
        libmpgpu_overlap(packed_a, BYTES(s.a_total), packed_b, BYTES(s.b_total)))
        return MPGPU_ERR_BAD_ARGUMENT;
    pack(&s, count, a, b, packed_a, packed_b);
    return MPGPU_OK;
}

mpgpu_status mpgpu_fixed_unpack(mpgpu_fixed_op op, unsigned bits, size_t count,
                                const mpgpu_fixed_options *opts, const uint32_t *packed_r,
                                uint32_t *r)
{
    struct shape s;
    mpgpu_status st = check_layout(op, bits, count, opts, &s);
    if (st != MPGPU_OK || count == 0)
        return st;
    if (!packed_r || !r || libmpgpu_overlap(r, BYTES(s.r_total), packed_r, BYTES(s.r_total)))
        return MPGPU_ERR_BAD_ARGUMENT;
    unpack(&s, count, packed_r, r);
    return MPGPU_OK;
}

/* What mpgpu_fixed_device, _device_moduli and _host check alike: the op built at bits, the
 * options, the modulus (none to check when `moduli_each`: they are on the device), and
 * (count > 0) the three arrays of a_len, b_len and r_len words. */
static mpgpu_status check_call(mpgpu_fixed_op op, unsigned bits, size_t count,
                               const mpgpu_fixed_options *opts, const mpgpu_fixed_modulus *mod,
                               int moduli_each, const uint32_t *a, const uint32_t *b,
                               const uint32_t *r, int device, struct shape *s)
{
    mpgpu_status st = mpgpu_fixed_check(op, bits);
    if (st != MPGPU_OK)
        return st;
    st = check_layout(op, bits, count, opts, s);
    if (st != MPGPU_OK)
        return st;
    st = mpgpu_fixed_impl_check(op, s->opts.impl);
    if (st != MPGPU_OK)
        return st;
    if (fixed_op_modular(s->op) && !moduli_each &&
        (!mod || mod->bits != bits || (fixed_op_montgomery(s->op) && !(mod->m[0] & 1))))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (count == 0)
        return MPGPU_OK;
    /* The device arrays are in the layout's sizes (no d_b where d_a holds both operands, or
     * for montred), the host ones element-major (b ignored for montred). */
    const size_t a_len = device ? s->a_total : (size_t)s->aw * count;
    const size_t b_len = device ? s->b_total : (size_t)s->bw * count;
    if (!a || !r || (b_len ? !b : device && b != NULL))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (((uintptr_t)a | (uintptr_t)b | (uintptr_t)r) % sizeof(uint32_t))
        return MPGPU_ERR_BAD_ARGUMENT;
    if (libmpgpu_overlap(r, BYTES(s->r_total), a, BYTES(a_len)) ||
        libmpgpu_overlap(r, BYTES(s->r_total), b, BYTES(b_len)))
        return MPGPU_ERR_BAD_ARGUMENT;
    return MPGPU_OK;
}

/* The launch of checked arguments (count > 0): one modulus for all (mod), or one per element
 * (d_m, mod NULL). */
static mpgpu_status launch(const struct shape *s, unsigned bits, size_t count,
                           const mpgpu_fixed_modulus *mod, const uint32_t *d_m,
                           const uint32_t *d_a, const uint32_t *d_b, uint32_t *d_r,
                           cudaStream_t stream)
{
    static const uint32_t no_r2[FIXED_MAX_WORDS];
    const int modular = fixed_op_modular(s->op) && mod;
    struct fixed_config cfg = {
        .bits = bits, .op = s->op, .impl = (enum fixed_impl)s->opts.impl,
        .global_mem = s->opts.global_mem, .interleaved = s->interleaved,
        .coalesced = s->opts.coalesced, .chain = s->opts.chain, .grid = s->opts.grid,
        .block = s->opts.block,
    };
    if (modular)
        memcpy(cfg.m, mod->m, sizeof cfg.m);
    const struct fixed_launch x = {&cfg, d_a, s->interleaved ? d_a + 1 : d_b, d_r, count,
                                   modular ? mod->m_inv : 0, modular ? mod->r2 : no_r2, d_m,
                                   stream};
    const cudaError_t err = fixed_launcher(bits)(&x);
    if (err != cudaSuccess)
        return libmpgpu_cuda_failure(
            err, "the fixed kernel launch (too many threads per block for its registers?)");
    return MPGPU_OK;
}

mpgpu_status mpgpu_fixed_device(mpgpu_fixed_op op, unsigned bits, size_t count,
                                const mpgpu_fixed_options *opts, const mpgpu_fixed_modulus *mod,
                                const uint32_t *d_a, const uint32_t *d_b, uint32_t *d_r,
                                mpgpu_stream stream)
{
    struct shape s;
    mpgpu_status st = check_call(op, bits, count, opts, mod, 0, d_a, d_b, d_r, 1, &s);
    if (st != MPGPU_OK || count == 0)
        return st;
    return launch(&s, bits, count, mod, NULL, d_a, d_b, d_r, stream);
}

mpgpu_status mpgpu_fixed_pack_moduli(unsigned bits, size_t count, const mpgpu_fixed_options *opts,
                                     const uint32_t *m, uint32_t *packed_m)
{
    struct shape s; /* the moduli are laid out as montmul's n-word results */
    mpgpu_status st = check_layout(MPGPU_FIXED_MONTMUL, bits, count, opts, &s);
    if (st != MPGPU_OK || count == 0)
        return st;
    if (!m || !packed_m || libmpgpu_overlap(packed_m, BYTES(s.r_total), m, BYTES(s.r_total)))
        return MPGPU_ERR_BAD_ARGUMENT;
    const long n = (long)count;
    for (long p = 0; p < n; p++)
        for (unsigned j = 0; j < s.rw; j++)
            packed_m[index_of(s.opts.coalesced, count, s.rw, j, (size_t)p, 1)] = m[(size_t)p * s.rw + j];
    return MPGPU_OK;
}

mpgpu_status mpgpu_fixed_device_moduli(mpgpu_fixed_op op, unsigned bits, size_t count,
                                       const mpgpu_fixed_options *opts, const uint32_t *d_m,
                                       const uint32_t *d_a, const uint32_t *d_b, uint32_t *d_r,
                                       mpgpu_stream stream)
{
    if ((unsigned)op < FIXED_N_OPS && !fixed_op_modular((enum fixed_op)op))
        return MPGPU_ERR_UNKNOWN_METHOD;
    struct shape s;
    mpgpu_status st = check_call(op, bits, count, opts, NULL, 1, d_a, d_b, d_r, 1, &s);
    if (st != MPGPU_OK || count == 0)
        return st;
    if (!d_m || (uintptr_t)d_m % sizeof(uint32_t) ||
        libmpgpu_overlap(d_r, BYTES(s.r_total), d_m, BYTES((size_t)fixed_words(bits) * count)))
        return MPGPU_ERR_BAD_ARGUMENT;
    return launch(&s, bits, count, NULL, d_m, d_a, d_b, d_r, stream);
}

/* What mpgpu_fixed_host holds; the caller frees it. */
struct host_run {
    uint32_t *stage; /* host, in the device layout */
    cudaStream_t stream;
    uint32_t *d_ab, *d_r; /* d_a, then d_b */
};

static mpgpu_status host_run(struct host_run *h, const struct shape *s, unsigned bits,
                             size_t count, const mpgpu_fixed_modulus *mod, const uint32_t *a,
                             const uint32_t *b, uint32_t *r)
{
    const size_t ab = s->a_total + s->b_total;
    h->stage = malloc(BYTES(ab > s->r_total ? ab : s->r_total));
    if (!h->stage)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    pack(s, count, a, b, h->stage, s->b_total ? h->stage + s->a_total : NULL);
    LIBMPGPU_TRY(cudaStreamCreateWithFlags(&h->stream, cudaStreamNonBlocking));
    LIBMPGPU_TRY(cudaMalloc((void **)&h->d_ab, BYTES(ab)));
    LIBMPGPU_TRY(cudaMalloc((void **)&h->d_r, BYTES(s->r_total)));
    LIBMPGPU_TRY(cudaMemcpyAsync(h->d_ab, h->stage, BYTES(ab), cudaMemcpyHostToDevice, h->stream));
    mpgpu_status st = launch(s, bits, count, mod, NULL, h->d_ab, s->b_total ? h->d_ab + s->a_total : NULL,
                             h->d_r, h->stream);
    if (st != MPGPU_OK)
        return st;
    LIBMPGPU_TRY(cudaMemcpyAsync(h->stage, h->d_r, BYTES(s->r_total), cudaMemcpyDeviceToHost, h->stream));
    LIBMPGPU_TRY(cudaStreamSynchronize(h->stream));
    unpack(s, count, h->stage, r);
    return MPGPU_OK;
}

mpgpu_status mpgpu_fixed_host(mpgpu_fixed_op op, unsigned bits, size_t count,
                              const mpgpu_fixed_options *opts, const mpgpu_fixed_modulus *mod,
                              const uint32_t *a, const uint32_t *b, uint32_t *r)
{
    struct shape s;
    mpgpu_status st = check_call(op, bits, count, opts, mod, 0, a, b, r, 0, &s);
    if (st != MPGPU_OK || count == 0)
        return st;
    struct host_run h = {0};
    st = host_run(&h, &s, bits, count, mod, a, b, r);
    /* On an error the stream may still hold a copy into the staging buffer: it ends first. */
    if (h.stream)
        cudaStreamSynchronize(h.stream);
    cudaFree(h.d_ab);
    cudaFree(h.d_r);
    if (h.stream)
        cudaStreamDestroy(h.stream);
    free(h.stage);
    return st;
}

size_t mpgpu_fixed_resources_count(void)
{
    return sizeof fixed_resources / sizeof fixed_resources[0];
}

mpgpu_status mpgpu_fixed_resources_get(size_t index, mpgpu_fixed_resources *info)
{
    if (!info || index >= mpgpu_fixed_resources_count())
        return MPGPU_ERR_BAD_ARGUMENT;
    *info = fixed_resources[index];
    return MPGPU_OK;
}
