/* The table `mpgpu tune` writes and `mpgpu mul --method auto` reads: for each measured operand
 * size and count of products, every GPU method's median kernel time, fastest first (as GMP's
 * tuneup writes its thresholds from measurements, STYLE.md).
 *
 * File format (CSV, '#' lines are comments naming the device, commit and date):
 *     bits,count,method,median_ms
 * one row per (bits, count, method), count >= 1. `--method auto` reads $MPGPU_TUNE_TABLE, else
 * the copy `meson install` puts in <datadir>/mpgpu/tune_table.csv, else it takes libmpgpu's
 * built-in table (the committed results/tune_table.csv, embedded when the library is built).
 * Reading and writing the files is the command line's; the choice is the library's
 * (mpgpu_mul_auto_pick). */
#ifndef MPGPU_TUNE_TABLE_H
#define MPGPU_TUNE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

#define TUNE_TABLE_DEFAULT_PATH "results/tune_table.csv"

struct tune_entry {
    unsigned bits;
    uint64_t count;
    char method[64];
    double median_ms;
};

/* The file `mpgpu tune` writes without --table: $MPGPU_TUNE_TABLE, else
 * TUNE_TABLE_DEFAULT_PATH (relative to the current folder). */
/* The installed table --method auto reads when $MPGPU_TUNE_TABLE is not set. */
const char *tune_table_installed_path(void);
const char *tune_table_path(void);

/* Writes the entries (any order; they are sorted by bits, count, then time). Returns 0, or -1
 * with a message on stderr. */
int tune_table_write(const char *path, const struct run_env *env, struct tune_entry *e, size_t n);

/* --method auto's choice for one size: the method, and the table entry (measured size and
 * count) at which it is the fastest method that supports that size. */
struct tune_pick {
    unsigned for_bits; /* the size asked for */
    const char *method; /* the method's name (libmpgpu's static storage) */
    unsigned bits;
    uint64_t count;
};

/* The method `--method auto` runs for `count` products of `words`-word operands, by
 * mpgpu_mul_auto_pick's rule (mpgpu.h):
 *   1. the size: among the measured sizes, the smallest at least words * 32 bits, else the
 *      largest;
 *   2. the count class: among the counts measured at that size, the one nearest `count` in log
 *      scale, i.e. with the smallest ratio max(c, count) / min(c, count); of two at the same
 *      ratio, the larger, so that the rows' order never decides;
 *   3. at that size and count, the fastest method that supports `words`.
 * A table with one count per size (as `mpgpu tune` wrote before --count took a list) picks by
 * size alone. Returns false when the table cannot be read or step 3 finds no method, the reason
 * in why. When the table was measured on another GPU than CUDA device `device`, one note on
 * stderr says so (once per run). */
bool tune_table_pick(unsigned words, uint64_t count, int device, struct tune_pick *out, char *why,
                     size_t why_len);

#endif
