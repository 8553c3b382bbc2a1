// thread-rowchain-karatsuba: the Karatsuba levels in device memory, above 8192 bits, one level
// per kernel pair (split, then join after the sub-products), until the sub-problems are 256
// words (8192 bits) and fit one thread block (rowchain_block.cu).
//
// A level turns n problems with 2h-word operands into 3n problems with h-word operands
// (q = u n + parent, u = 0 low halves, 1 high halves, 2 |low - high|); the split stores only
// the differences (rowchain_operand_view.cuh). The sub-products are stored word-major, word i
// of problem q's 2h-word product at prod[i * 3n + q], and the join combines them.
//
// A split or join is linear work that only moves memory (GPU.md: about 4.3 TB/s), so it must
// keep enough loads in flight. One thread per problem walking all its words left 2^14 threads
// at 32768 bits, latency-bound: 2.8 ms against 1.36 ms for the sub-products. Here a block is
// 32 problems (the lanes, so every load and store is a whole 128-byte row of the word-major
// layout) times SPLIT_CHUNKS warps, and warp c owns the c-th chunk of every word range. Each
// chunk runs its carry chain from carry-in 0; resolve_chunk_carries then adds the carry-ins,
// which on random data stop at the first word of the next chunk.
#include "rowchain_launch.cuh"

#include <stddef.h>
#include <stdint.h>

#include "rowchain_operand_view.cuh"

namespace rowchain {
namespace {

constexpr unsigned SPLIT_CHUNKS = 8;

// Words [begin, end) of chunk c when `words` words are cut into SPLIT_CHUNKS chunks.
struct chunk_range {
    unsigned begin, end;
};

__device__ __forceinline__ chunk_range chunk_of(unsigned words, unsigned c)
{
    const unsigned size = (words + SPLIT_CHUNKS - 1) / SPLIT_CHUNKS;
    const unsigned begin = min(c * size, words);
    return {begin, min(begin + size, words)};
}

// Chunk threadIdx.y has written S segments, segment k its words r[k] of out (stride `stride`),
// each from carry-in 0, and holds their signed carry-outs; segment k of chunk c is number
// k SPLIT_CHUNKS + c in the carry order. This adds each segment's carry-in, round after round,
// so that a carry running through a whole segment (words all 0 or all ones, the worst case)
// reaches the next one. The last segment's carry-out is dropped: the value is exact modulo the
// words written. `pending` is shared, S SPLIT_CHUNKS x 32.
template <unsigned S>
__device__ void resolve_chunk_carries(uint32_t *out, size_t stride, const chunk_range (&r)[S],
                                      int64_t (&carry_out)[S], int64_t *pending)
{
    constexpr unsigned LAST = S * SPLIT_CHUNKS - 1;
    const unsigned c = threadIdx.y, lane = threadIdx.x;
    for (;;) {
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            const unsigned seg = k * SPLIT_CHUNKS + c;
            if (seg < LAST)
                pending[(seg + 1) * 32 + lane] = carry_out[k];
        }
        __syncthreads();
        int64_t carry[S];
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            const unsigned seg = k * SPLIT_CHUNKS + c;
            carry[k] = seg > 0 ? pending[seg * 32 + lane] : 0;
        }
        __syncthreads(); // every carry-in is read before the next round writes
        bool more = false;
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            for (unsigned i = r[k].begin; i < r[k].end && carry[k] != 0; i++) {
                const int64_t v = (int64_t)out[i * stride] + carry[k];
                out[i * stride] = (uint32_t)v;
                carry[k] = v >> 32;
            }
            carry_out[k] = carry[k];
            more |= k * SPLIT_CHUNKS + c < LAST && carry[k] != 0;
        }
        if (!__syncthreads_or(more))
            return;
    }
}

// |low - high| of both operands of each problem q of level `level` (n of them, 2h words per
// operand) into diff (h words of a, then of b, word-major), and subtract[q] = 1 when both
// differences have the same sign.
__global__ void __launch_bounds__(32 * SPLIT_CHUNKS)
    karatsuba_split_kernel(const level_chain chain, unsigned level, size_t n, unsigned h,
                           uint32_t *__restrict__ diff, unsigned char *__restrict__ subtract)
{
    __shared__ int64_t pending[2 * SPLIT_CHUNKS * 32];
    __shared__ int order[SPLIT_CHUNKS][2][32];
    const unsigned c = threadIdx.y, lane = threadIdx.x;
    const size_t q = (size_t)blockIdx.x * 32 + lane;
    const operand_view v = q < n ? view_of(chain, level, q) : operand_view{};
    const chunk_range r = chunk_of(h, c);
    // Both operands at once, so that twice the loads are in flight: the kernel waits on memory
    // (one operand after the other took 0.150 ms against 0.119 on an H200, 16384 bits x 2^16).
    auto word = [&](unsigned operand, unsigned i) {
        return i < v.valid ? (operand ? v.b : v.a)[i * v.stride] : 0u;
    };
    // Which half is larger: the top differing word of the top chunk that has one.
    int cmp[2] = {0, 0};
    for (unsigned i = r.end; i-- > r.begin && (cmp[0] == 0 || cmp[1] == 0);) {
#pragma unroll
        for (unsigned operand = 0; operand < 2; operand++) {
            const uint32_t lo = word(operand, i), hi = word(operand, h + i);
            if (cmp[operand] == 0)
                cmp[operand] = lo < hi ? -1 : lo > hi;
        }
    }
    order[c][0][lane] = cmp[0];
    order[c][1][lane] = cmp[1];
    __syncthreads();
    bool smaller[2];
#pragma unroll
    for (unsigned operand = 0; operand < 2; operand++) {
        int top = 0;
        for (unsigned k = SPLIT_CHUNKS; k-- > 0 && top == 0;)
            top = order[k][operand][lane];
        smaller[operand] = top < 0;
    }

    // Operand b's difference follows a's (h words on), so the two form one chain of 2
    // SPLIT_CHUNKS chunks for resolve_chunk_carries: the borrow out of a's top is exactly 0.
    uint32_t *out = diff + q;
    uint32_t borrow[2] = {0, 0};
#pragma unroll 8
    for (unsigned i = r.begin; i < r.end; i++) {
#pragma unroll
        for (unsigned operand = 0; operand < 2; operand++) {
            const uint32_t lo = word(operand, i), hi = word(operand, h + i);
            const uint64_t d = smaller[operand] ? (uint64_t)hi - lo - borrow[operand]
                                                : (uint64_t)lo - hi - borrow[operand];
            if (q < n)
                out[(operand * h + i) * n] = (uint32_t)d;
            borrow[operand] = (uint32_t)(d >> 63);
        }
    }
    // Each chunk of the difference started without the borrow from below (a lane past n has
    // only zeros, so it never carries and never touches memory).
    const chunk_range ranges[2] = {r, {h + r.begin, h + r.end}};
    int64_t carries[2] = {-(int64_t)borrow[0], -(int64_t)borrow[1]};
    resolve_chunk_carries<2>(out, n, ranges, carries, pending);
    if (q < n && c == 0)
        subtract[q] = smaller[0] == smaller[1];
}

// Z = L + (L + H - s M) X^h + H X^2h for parent q from its three sub-products (2h words each);
// the first `out_words` words of Z go to c (word-major, n problems). As in recombine_level,
// one pass over j in [0, h) reads each word of L, H and M once and writes Z's columns j,
// h + j, 2h + j and 3h + j: column j is L's word, the other three are column sums with their
// own carries (streams 0, 1, 2). Chunk threadIdx.y takes its chunk of j for all streams.
__global__ void __launch_bounds__(32 * SPLIT_CHUNKS)
    karatsuba_join_kernel(const uint32_t *__restrict__ sub,
                          const unsigned char *__restrict__ subtract, size_t n, unsigned h,
                          uint32_t *__restrict__ c, unsigned out_words)
{
    __shared__ int64_t pending[3 * SPLIT_CHUNKS * 32];
    const size_t q = (size_t)blockIdx.x * 32 + threadIdx.x;
    const bool live = q < n;
    const chunk_range r = live ? chunk_of(h, threadIdx.y) : chunk_range{0, 0};
    const size_t n3 = 3 * n;
    const uint32_t *L = sub + q, *H = sub + n + q, *M = sub + 2 * n + q;
    uint32_t *z = c + q;
    const int64_t flip = live && subtract[q] ? -1 : 1; // s: M is subtracted
    int64_t acc[3] = {0, 0, 0};
    // Columns beyond out_words are not written (the top level's product has 2 w words).
    auto put = [&](unsigned col, int64_t v) {
        if (col < out_words)
            z[col * n] = (uint32_t)v;
    };
#pragma unroll 4
    for (unsigned j = r.begin; j < r.end; j++) {
        const uint32_t l0 = L[j * n3], l1 = L[(h + j) * n3], h0 = H[j * n3],
                       h1 = H[(h + j) * n3], m0 = M[j * n3], m1 = M[(h + j) * n3];
        const int64_t middle = (int64_t)l1 + h0;
        put(j, l0);
        acc[0] += middle + l0 + flip * m0;
        acc[1] += middle + h1 + flip * m1;
        acc[2] += h1;
        put(h + j, acc[0]);
        put(2 * h + j, acc[1]);
        put(3 * h + j, acc[2]);
#pragma unroll
        for (unsigned k = 0; k < 3; k++)
            acc[k] >>= 32;
    }
    auto clip = [&](unsigned from) {
        return chunk_range{min(from + r.begin, out_words), min(from + r.end, out_words)};
    };
    const chunk_range ranges[3] = {clip(h), clip(2 * h), clip(3 * h)};
    resolve_chunk_carries<3>(z, n, ranges, acc, pending);
}

unsigned level_blocks(size_t problems)
{
    return (unsigned)((problems + 31) / 32);
}

} // namespace

cudaError_t split_launch(const level_chain &chain, unsigned level, size_t n, unsigned h,
                         uint32_t *diff, unsigned char *subtract, cudaStream_t stream)
{
    karatsuba_split_kernel<<<level_blocks(n), dim3(32, SPLIT_CHUNKS), 0, stream>>>(
        chain, level, n, h, diff, subtract);
    return cudaGetLastError();
}

cudaError_t join_launch(const uint32_t *sub, const unsigned char *subtract, size_t n, unsigned h,
                        uint32_t *c, unsigned out_words, cudaStream_t stream)
{
    karatsuba_join_kernel<<<level_blocks(n), dim3(32, SPLIT_CHUNKS), 0, stream>>>(
        sub, subtract, n, h, c, out_words);
    return cudaGetLastError();
}

} // namespace rowchain
