// toom-k, k = 2..9: bulk Toom-k multiplication on sum-rotate, the two-kernel design of 000
// section 3.3.2, with the points and exact interpolation of toom_points.h (toom_points_gen.c
// says why those points) and the same steps as the reference twin cpu_ref/toom_ref.c.
//
//  kernel 1 (toom_points_kernel): 2k-1 warps per product, one per point x_i. The warp
//    evaluates A(x_i) and B(x_i) from the k pieces of s = ceil(w/k) words (signs apart,
//    magnitudes written as S-word operands, S = s rounded up to 32 words), multiplies them with
//    sumrotate_mul_warp (Comba over 1024-bit blocks, 000 section 3.3.2), adds the linear
//    correction for a word beyond S (only when s is a multiple of 32), and stores V_i = |A||B|
//    and the sign.
//  kernel 2 (toom_interpolate_kernel): one thread per product (000 section 3.3.2: "one thread
//    computes the values of C_0, ..., C_4 in serial and then the final result"). It streams
//    the point products low word first, forms every C_m = (sum_i M[m][i] V_i) / (2^e d) with
//    compile-time constants and a 2-adic exact division, then recombines
//    C = sum_m C_m 2^(32 s m).
//
// Layouts. Kernel 1 works on one product per warp, so it reads the operands product-major
// (coalesced along the warp) and writes V_i product-major; kernel 2 works on one product per
// thread, so it reads and writes word-major (word j of 32 products per warp access). A tiled
// transpose (layout_transpose.cu) sits between them and after kernel 2, so every global access
// of the two kernels is coalesced (000 section 3.3.2: "all the data stored in the global memory
// is arranged so that the memory access can be performed with coalesced access").
#include "layout_transpose.h"
#include "mp_helpers.cuh"
#include "mul.h"
#include "ptx_carry.cuh"
#include "sumrotate.cuh"
#include "toom_points.h"
#include "toom_plan.h"

namespace {

constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr unsigned POINTS_WARPS_PER_BLOCK = 4;
constexpr unsigned INTERP_THREADS = 128;
// Products per pass through the four launches: keeps the transposes' grids within their
// limits (layout_transpose.cu: columns along gridDim.y) and bounds the scratch.
constexpr size_t CHUNK_PRODUCTS = size_t(1) << 20;

// The tables of toom_points.h as compile-time functions, so that after unrolling every
// interpolation constant is an immediate and zero constants cost nothing.
template <int K> struct Tables;
#define TOOM_DEVICE_TABLES(K)                                                               \
    template <> struct Tables<K> {                                                          \
        __host__ __device__ static constexpr int64_t matrix(int m, int i)                   \
        {                                                                                   \
            constexpr int64_t t[2 * K - 1][2 * K - 1] = TOOM##K##_INTERP_MATRIX;            \
            return t[m][i];                                                                 \
        }                                                                                   \
        __host__ __device__ static constexpr int shift(int m)                               \
        {                                                                                   \
            constexpr int t[2 * K - 1] = TOOM##K##_INTERP_SHIFT;                            \
            return t[m];                                                                    \
        }                                                                                   \
        __host__ __device__ static constexpr uint64_t odd(int m)                            \
        {                                                                                   \
            constexpr uint64_t t[2 * K - 1] = TOOM##K##_INTERP_ODD;                         \
            return t[m];                                                                    \
        }                                                                                   \
        __host__ __device__ static constexpr uint32_t odd_inv(int m)                        \
        {                                                                                   \
            constexpr uint32_t t[2 * K - 1] = TOOM##K##_INTERP_ODD_INV;                     \
            return t[m];                                                                    \
        }                                                                                   \
        /* Whether row m needs its constants split in 24-bit limbs (row_sums_fit_64).  */  \
        __host__ __device__ static constexpr bool split_limbs(int m)                        \
        {                                                                                   \
            uint64_t pos = 0, neg = 0;                                                      \
            for (int i = 0; i < 2 * K - 1; i++) {                                           \
                int64_t c = matrix(m, i);                                                   \
                (c < 0 ? neg : pos) += c < 0 ? (uint64_t)-c : (uint64_t)c;                  \
            }                                                                               \
            return pos >= (uint64_t(1) << 32) || neg >= (uint64_t(1) << 32);                \
        }                                                                                   \
        /* Every constant below 2^48: two 24-bit limbs hold it. */                         \
        __host__ __device__ static constexpr bool limbs_hold_all()                          \
        {                                                                                   \
            for (int m = 0; m < 2 * K - 1; m++)                                             \
                for (int i = 0; i < 2 * K - 1; i++)                                         \
                    if (matrix(m, i) >= (int64_t(1) << 48) || -matrix(m, i) >= (int64_t(1) << 48)) \
                        return false;                                                       \
            return true;                                                                    \
        }                                                                                   \
    };                                                                                      \
    __constant__ int32_t eval_weight_k##K[2 * K - 1][K] = TOOM##K##_EVAL_WEIGHT;
TOOM_DEVICE_TABLES(2)
TOOM_DEVICE_TABLES(3)
TOOM_DEVICE_TABLES(4)
TOOM_DEVICE_TABLES(5)
TOOM_DEVICE_TABLES(6)
TOOM_DEVICE_TABLES(7)
TOOM_DEVICE_TABLES(8)
TOOM_DEVICE_TABLES(9)

// Evaluation weight of piece j at point i. The point differs from warp to warp, so the weight
// is read from constant memory (one broadcast read per warp).
template <int K> __device__ __forceinline__ int32_t eval_weight(unsigned i, int j);
#define TOOM_EVAL_WEIGHT_OF(K)                                                              \
    template <> __device__ __forceinline__ int32_t eval_weight<K>(unsigned i, int j)        \
    {                                                                                       \
        return eval_weight_k##K[i][j];                                                      \
    }
TOOM_EVAL_WEIGHT_OF(2)
TOOM_EVAL_WEIGHT_OF(3)
TOOM_EVAL_WEIGHT_OF(4)
TOOM_EVAL_WEIGHT_OF(5)
TOOM_EVAL_WEIGHT_OF(6)
TOOM_EVAL_WEIGHT_OF(7)
TOOM_EVAL_WEIGHT_OF(8)
TOOM_EVAL_WEIGHT_OF(9)

// Sizes of one product, as toom_layout_of computes them on the host.
struct Dims {
    unsigned w;      // operand words
    unsigned s;      // piece words
    unsigned S;      // sub-product words (s rounded up to 32)
    unsigned vs;     // stride of a point product: 2S + 4 words (the 2S product, two words of
                     // correction, two of padding so the transpose moves whole 16-byte groups)
    unsigned L;      // words of a point product that kernel 2 reads: 2s + 2
    unsigned cw;     // words of a coefficient C_m: 2s + 1
    size_t count;    // products in this pass
};

// ---- kernel 1 helpers: multiword arithmetic across the 32 lanes of a warp -------------------

// x + y + carry over one 32-word chunk, word `lane` in each lane; carry (0 or 1, the same in
// every lane) comes in at lane 0 and goes out of lane 31. Lane l generates a carry (g) or
// propagates one (p, sum all ones), and mp::lookahead_carries finds the carries into the lanes.
__device__ __forceinline__ uint32_t warp_add(uint32_t x, uint32_t y, uint32_t &carry)
{
    const unsigned lane = threadIdx.x % 32;
    uint32_t s = x + y;
    uint32_t g = __ballot_sync(FULL_MASK, s < x);
    uint32_t p = __ballot_sync(FULL_MASK, s == 0xffffffffu);
    const uint64_t carries = mp::lookahead_carries(g, g | p, carry);
    carry = (uint32_t)(carries >> 32);
    return s + (((uint32_t)carries >> lane) & 1);
}

// Word `lane` of a chunk of a sum whose lanes hold 64-bit terms: the low halves at their own
// word, the high halves one word up (the top lane's high half goes to the next chunk through
// hi_prev). carry is the chunk carry of warp_add.
__device__ __forceinline__ uint32_t warp_resolve(uint64_t term, uint32_t &hi_prev, uint32_t &carry)
{
    const unsigned lane = threadIdx.x % 32;
    uint32_t hi = (uint32_t)(term >> 32);
    uint32_t hi_below = __shfl_up_sync(FULL_MASK, hi, 1);
    if (lane == 0)
        hi_below = hi_prev;
    hi_prev = __shfl_sync(FULL_MASK, hi, 31);
    return warp_add((uint32_t)term, hi_below, carry);
}

// e[0 .. S) and the returned word S = |X(x_i)| = |sum_j weight_ij X_j|, X_j the pieces of x;
// negative = X(x_i) < 0. Positive and negative weights are summed apart (E, O) and E - O is
// formed as E + ~O + 1, chunk by chunk; a negative result is negated in place afterwards. The
// weights' magnitudes sum below 2^17 (toom_points.h), so each lane's 64-bit sums cannot
// overflow and the value has S + 1 words.
template <int K>
__device__ uint32_t evaluate(const uint32_t *x, uint32_t *e, unsigned i, const Dims &d,
                             bool &negative)
{
    const unsigned lane = threadIdx.x % 32;
    bool has_negative = false; // the same in every lane: O and E - O only when it is set
#pragma unroll
    for (int j = 0; j < K; j++)
        has_negative |= eval_weight<K>(i, j) < 0;
    uint32_t hi_pos = 0, hi_neg = 0, carry_pos = 0, carry_neg = 0, carry_diff = 1;
    for (unsigned t0 = 0; t0 < d.S; t0 += 32) {
        const unsigned t = t0 + lane;
        uint64_t pos = 0, neg = 0;
#pragma unroll
        for (int j = 0; j < K; j++) {
            const int32_t wt = eval_weight<K>(i, j);
            if (wt == 0)
                continue;
            const unsigned start = j * d.s;
            const unsigned len = start >= d.w ? 0 : min(d.w - start, d.s);
            const uint32_t word = t < len ? x[start + t] : 0;
            if (wt > 0)
                pos += (uint64_t)(uint32_t)wt * word;
            else
                neg += (uint64_t)(uint32_t)(-wt) * word;
        }
        uint32_t pw = warp_resolve(pos, hi_pos, carry_pos);
        if (has_negative) {
            uint32_t nw = warp_resolve(neg, hi_neg, carry_neg);
            pw = warp_add(pw, ~nw, carry_diff);
        }
        e[t] = pw;
    }
    uint32_t top = (hi_pos + carry_pos) + ~(hi_neg + carry_neg) + carry_diff;
    negative = (int32_t)top < 0;
    if (negative) {
        uint32_t carry = 1;
        for (unsigned t0 = 0; t0 < d.S; t0 += 32)
            e[t0 + lane] = warp_add(~e[t0 + lane], 0, carry);
        top = ~top + carry;
    }
    return top;
}

// v[S .. 2S + 2) += (ha * eb[0 .. S) + hb * ea[0 .. S)) and v[2S ..] += ha * hb: the linear
// correction for the words S of the point values, (ha X + a)(hb X + b) = ab + (ha b + hb a) X
// + ha hb X^2 with X = 2^(32 S) (000 Table 3.2's linear terms). ha, hb < 2^17.
__device__ void add_correction(uint32_t *v, const uint32_t *ea, const uint32_t *eb,
                               uint32_t ha, uint32_t hb, unsigned S)
{
    const unsigned lane = threadIdx.x % 32;
    uint32_t hi_prev = 0, carry_lo = 0, carry_hi = 0;
    for (unsigned t0 = 0; t0 < S; t0 += 32) {
        const unsigned t = t0 + lane;
        uint64_t term = (uint64_t)ha * eb[t] + (uint64_t)hb * ea[t];
        uint32_t hi = (uint32_t)(term >> 32);
        uint32_t hi_below = __shfl_up_sync(FULL_MASK, hi, 1);
        if (lane == 0)
            hi_below = hi_prev;
        hi_prev = __shfl_sync(FULL_MASK, hi, 31);
        uint32_t x = warp_add(v[S + t], (uint32_t)term, carry_lo);
        v[S + t] = warp_add(x, hi_below, carry_hi);
    }
    uint64_t top = (uint64_t)ha * hb + hi_prev + carry_lo + carry_hi;
    if (lane < 2)
        v[2 * S + lane] = (uint32_t)(top >> (32 * lane));
}

// Kernel 1: warp (p, i) computes the point product V_i of product p. Slot i * count + p of
// ea, eb (S words), v (vs words) and sign (one word: 0 or all ones).
template <int K>
__global__ void __launch_bounds__(POINTS_WARPS_PER_BLOCK * 32)
    toom_points_kernel(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                       uint32_t *ea, uint32_t *eb, uint32_t *v, uint32_t *sign, Dims d)
{
    constexpr unsigned P = 2 * K - 1;
    const unsigned lane = threadIdx.x % 32;
    const size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (warp >= d.count * P)
        return;
    // the 2k-1 warps of one product are neighbours, so its operands are read from L2 once
    const unsigned i = (unsigned)(warp % P);
    const size_t p = warp / P, slot = i * d.count + p;
    uint32_t *ea_p = ea + slot * d.S, *eb_p = eb + slot * d.S, *v_p = v + slot * d.vs;
    bool neg_a, neg_b;
    const uint32_t ha = evaluate<K>(a + p * d.w, ea_p, i, d, neg_a);
    const uint32_t hb = evaluate<K>(b + p * d.w, eb_p, i, d, neg_b);
    sumrotate_mul_warp<true>(ea_p, eb_p, v_p, d.S);
    if (ha | hb)
        add_correction(v_p, ea_p, eb_p, ha, hb, d.S);
    else if (lane < 2)
        v_p[2 * d.S + lane] = 0;
    if (lane >= 2 && lane < 4)
        v_p[2 * d.S + lane] = 0;
    if (lane == 0)
        sign[slot] = neg_a != neg_b ? FULL_MASK : 0;
}

// ---- kernel 2 helpers: one thread's signed three-word accumulator ---------------------------

// A signed 96-bit accumulator {w2, w1, w0}, two's complement. For k <= 9 its magnitude stays
// below (sum_i |M[m][i]| + d) 2^32 < 2^82 (toom_points_gen.c), so three words never overflow.
// The row sums below enter it through mp::add_shifted and mp::sub_shifted, shift 0 or 24 (the
// limbs of a split row).
using Acc = mp::u96;

// One step of the 2-adic exact division by the odd constant d (as GMP's mpn_divexact_1):
// q = w0 * d^-1 mod 2^32 makes the low word of acc - q d zero; returns q and leaves
// (acc - q d) / 2^32 in acc.
__device__ __forceinline__ uint32_t divexact_step(Acc &acc, uint64_t d, uint32_t d_inv)
{
    const uint32_t sign_ext = (uint32_t)((int32_t)acc.w2 >> 31);
    if (d == 1) {
        const uint32_t q = acc.w0;
        acc.w0 = acc.w1;
        acc.w1 = acc.w2;
        acc.w2 = sign_ext;
        return q;
    }
    const uint32_t q = acc.w0 * d_inv;
    const uint32_t d_lo = (uint32_t)d, d_hi = (uint32_t)(d >> 32);
    // low word: q * d_lo = w0 mod 2^32 exactly, so no borrow leaves it
    acc.w0 = ptx::sub_cc(acc.w1, __umulhi(q, d_lo));
    acc.w1 = ptx::subc_cc(acc.w2, 0);
    acc.w2 = ptx::subc(sign_ext, 0);
    if (d_hi != 0) {
        acc.w0 = ptx::sub_cc(acc.w0, q * d_hi);
        acc.w1 = ptx::subc_cc(acc.w1, __umulhi(q, d_hi));
        acc.w2 = ptx::subc(acc.w2, 0);
    }
    return q;
}

// Kernel 2: thread p interpolates and recombines product p. vt is the word-major transpose of
// kernel 1's point products: word j of V_i at vt[(j * P + i) * count + p]. coef receives C_m
// word-major, word j at coef[(m * cw + j) * count + p]; out receives the product word-major.
template <int K>
__global__ void __launch_bounds__(INTERP_THREADS)
    toom_interpolate_kernel(const uint32_t *__restrict__ vt, const uint32_t *__restrict__ sign,
                            uint32_t *coef, uint32_t *__restrict__ out, Dims d)
{
    constexpr int P = 2 * K - 1;
    static_assert(Tables<K>::limbs_hold_all(), "an interpolation constant needs more than 48 bits");
    const size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= d.count)
        return;
    const size_t n = d.count;
    uint32_t neg_mask[P], neg_carry[P], prev_q[P];
    Acc acc[P];
#pragma unroll
    for (int i = 0; i < P; i++) {
        neg_mask[i] = sign[i * n + p];
        neg_carry[i] = neg_mask[i] & 1;
        prev_q[i] = 0;
        acc[i] = Acc{0, 0, 0};
    }
    // C_m: the signed V_i enter as two's complement mod 2^(32L) (negated on the fly: ~v + 1);
    // output word j - 1 of C_m depends only on input words <= j, and 2^e C_m < 2^(32L)
    // (cpu_ref/toom_ref.c). With few products per SM one thread has little else to hide the
    // load latency behind, so the words of step j + 1 are loaded before step j computes.
    uint32_t next[P];
#pragma unroll
    for (int i = 0; i < P; i++)
        next[i] = vt[(size_t)i * n + p];
    for (unsigned j = 0; j < d.L; j++) {
        uint32_t v[P];
#pragma unroll
        for (int i = 0; i < P; i++) {
            const uint32_t raw = next[i];
            v[i] = (raw ^ neg_mask[i]) + neg_carry[i];
            neg_carry[i] &= raw == 0;
        }
        if (j + 1 < d.L) {
#pragma unroll
            for (int i = 0; i < P; i++)
                next[i] = vt[((size_t)(j + 1) * P + i) * n + p];
        }
        // Row m's sum for this word, sum_i M[m][i] v_i, in plain 64-bit multiply-adds
        // (IMAD.WIDE with the constant as an immediate) kept apart by sign: no carry flag, so
        // the 2k-1 rows run side by side. A row whose positive or negative constants sum to
        // 2^32 or more (8 rows of Toom-8, 15 of Toom-9) splits them in 24-bit limbs so that no
        // sum can overflow (17 terms below 2^56 each).
#pragma unroll
        for (int m = 0; m < P; m++) {
            const bool split = Tables<K>::split_limbs(m);
            uint64_t pos_lo = 0, neg_lo = 0, pos_hi = 0, neg_hi = 0;
#pragma unroll
            for (int i = 0; i < P; i++) {
                const int64_t c = Tables<K>::matrix(m, i);
                const uint64_t mag = c < 0 ? (uint64_t)-c : (uint64_t)c;
                const uint32_t lo = split ? (uint32_t)(mag & 0xffffffu) : (uint32_t)mag;
                const uint32_t hi = split ? (uint32_t)(mag >> 24) : 0;
                if (c > 0 && lo)
                    pos_lo += (uint64_t)lo * v[i];
                if (c < 0 && lo)
                    neg_lo += (uint64_t)lo * v[i];
                if (c > 0 && hi)
                    pos_hi += (uint64_t)hi * v[i];
                if (c < 0 && hi)
                    neg_hi += (uint64_t)hi * v[i];
            }
            mp::add_shifted<0>(acc[m], pos_lo);
            mp::sub_shifted<0>(acc[m], neg_lo);
            if (split) {
                mp::add_shifted<24>(acc[m], pos_hi);
                mp::sub_shifted<24>(acc[m], neg_hi);
            }
            const uint32_t q = divexact_step(acc[m], Tables<K>::odd(m), Tables<K>::odd_inv(m));
            const int e = Tables<K>::shift(m);
            if (j > 0)
                coef[((size_t)m * d.cw + j - 1) * n + p] =
                    e ? (prev_q[m] >> e) | (q << (32 - e)) : prev_q[m];
            prev_q[m] = q;
        }
    }
    // C = sum_m C_m 2^(32 s m), segment by segment: words m s .. m s + s - 1 (the last segment
    // up to 2w) get C_m[jj], C_{m-1}[jj + s] and, at jj = 0, C_{m-2}[2s]. The loads do not
    // depend on the carry, so the unrolled loop keeps several in flight.
    const uint32_t *cm = coef + p;
    const size_t row = n; // distance between consecutive words of one coefficient
    uint64_t carry = 0;
    for (unsigned m = 0; m < (unsigned)P && m * d.s < 2 * d.w; m++) {
        const unsigned base = m * d.s;
        const unsigned len = min(m + 1 == (unsigned)P ? d.cw : d.s, 2 * d.w - base);
        const uint32_t *c0 = cm + (size_t)m * d.cw * row;
        const uint32_t *c1 = m >= 1 ? cm + ((size_t)(m - 1) * d.cw + d.s) * row : nullptr;
        if (m >= 2)
            carry += cm[((size_t)(m - 2) * d.cw + 2 * d.s) * row];
#pragma unroll 4
        for (unsigned jj = 0; jj < len; jj++) {
            uint64_t sum = carry + c0[(size_t)jj * row];
            if (m >= 1 && jj + d.s < d.cw)
                sum += c1[(size_t)jj * row];
            out[(size_t)(base + jj) * n + p] = (uint32_t)sum;
            carry = sum >> 32;
        }
    }
}

template <int K>
size_t scratch_words_per_product(unsigned words)
{
    const struct toom_layout t = toom_layout_of(words, K);
    const size_t vs = 2 * (size_t)t.sub_words + 4;
    // ea + eb (later the word-major product), v (later the coefficients), its transpose, signs
    return (size_t)t.points * (2 * (size_t)t.sub_words + 2 * vs + 1);
}

template <int K>
size_t scratch_bytes(unsigned words, size_t count)
{
    return scratch_words_per_product<K>(words) * (count < CHUNK_PRODUCTS ? count : CHUNK_PRODUCTS) *
           sizeof(uint32_t);
}

template <int K>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, void *scratch, cudaStream_t stream)
{
    constexpr unsigned P = 2 * K - 1;
    const struct toom_layout t = toom_layout_of(words, K);
    const size_t chunk = count < CHUNK_PRODUCTS ? count : CHUNK_PRODUCTS;
    uint32_t *ea = (uint32_t *)scratch;
    uint32_t *eb = ea + P * chunk * t.sub_words;
    uint32_t *v = eb + P * chunk * t.sub_words;
    const size_t vs = 2 * (size_t)t.sub_words + 4;
    uint32_t *vt = v + P * chunk * vs;
    uint32_t *sign = vt + P * chunk * vs;
    uint32_t *coef = v, *out = ea; // both reuse buffers that are dead by then
    for (size_t done = 0; done < count; done += chunk) {
        Dims d{words, t.piece, t.sub_words, (unsigned)vs, t.value_words, t.coef_words,
               count - done < chunk ? count - done : chunk};
        const size_t warps = d.count * P;
        toom_points_kernel<K><<<(unsigned)((warps + POINTS_WARPS_PER_BLOCK - 1) / POINTS_WARPS_PER_BLOCK),
                                POINTS_WARPS_PER_BLOCK * 32, 0, stream>>>(
            a + done * words, b + done * words, ea, eb, v, sign, d);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess)
            return err;
        if ((err = layout_transpose(v, vt, P * d.count, vs, stream)) != cudaSuccess)
            return err;
        toom_interpolate_kernel<K><<<(unsigned)((d.count + INTERP_THREADS - 1) / INTERP_THREADS),
                                     INTERP_THREADS, 0, stream>>>(vt, sign, coef, out, d);
        if ((err = cudaGetLastError()) != cudaSuccess)
            return err;
        if ((err = layout_transpose(out, c + done * 2 * words, 2 * (size_t)words, d.count,
                                    stream)) != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}

} // namespace

#define TOOM_METHOD(K)                                                                      \
    extern "C" cudaError_t mul_toom##K##_launch(const uint32_t *a, const uint32_t *b,       \
                                                uint32_t *c, unsigned words, size_t count,  \
                                                void *scratch, cudaStream_t stream)         \
    {                                                                                       \
        return launch<K>(a, b, c, words, count, scratch, stream);                           \
    }                                                                                       \
    extern "C" size_t mul_toom##K##_scratch_bytes(unsigned words, size_t count)             \
    {                                                                                       \
        return scratch_bytes<K>(words, count);                                              \
    }
TOOM_METHOD(2)
TOOM_METHOD(3)
TOOM_METHOD(4)
TOOM_METHOD(5)
TOOM_METHOD(6)
TOOM_METHOD(7)
TOOM_METHOD(8)
TOOM_METHOD(9)
