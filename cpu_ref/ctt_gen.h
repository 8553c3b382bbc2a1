/* Random batches of `mpgpu ctt-vs-ctw` and its tests (003 5.2), built with the library's
 * mpgpu_ctt_batch_* calls (mpgpu.h). */
#ifndef MPGPU_CTT_GEN_H
#define MPGPU_CTT_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a random batch is drawn: `count` computations of `op`; every operand's length drawn from
 * a normal distribution of mean `mean_words` and deviation `sigma_words` (003 5.2), rounded and
 * clamped to 1..max_words; words from the seeded generator (random_words.h), the top word never
 * zero (so no denominator is zero); signs random when signed_operands, else all operands
 * non-negative (as 003). A rational computation's four integers are drawn alike, the signs of
 * its numerators only. */
struct ctt_gen {
    uint64_t seed;
    mpgpu_ctt_op op;
    size_t count;
    double mean_words, sigma_words;
    uint32_t max_words;
    bool signed_operands;
};

/* A random batch as g says, sealed: 0, or -1 when memory runs out or the batch would pass 2^32
 * words. watch (loop_watch.h; NULL: none) sees the computations generated and may stop it:
 * then LOOP_STOPPED. On anything but 0, b is freed. */
struct loop_watch;
int ctt_batch_generate(mpgpu_ctt_batch *b, const struct ctt_gen *g, const struct loop_watch *watch);
/* One length drawn as ctt_gen says, for operand `stream` of the batch. */
uint32_t ctt_draw_length(uint64_t seed, uint64_t stream, double mean, double sigma, uint32_t max);

#ifdef __cplusplus
}
#endif

#endif
