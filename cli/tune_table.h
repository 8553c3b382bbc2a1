/* The table `mpgpu tune` writes and `mpgpu mul --method auto` reads: for each measured operand
 * size, every GPU method's median kernel time, fastest first (as GMP's tuneup writes its
 * thresholds from measurements, STYLE.md).
 *
 * File format (CSV, '#' lines are comments naming the device, commit and date):
 *     bits,count,method,median_ms
 * `--method auto` reads $MPGPU_TUNE_TABLE, else the copy `meson install` puts in
 * <datadir>/mpgpu/tune_table.csv, else the committed results/tune_table.csv, which the build
 * embeds in the binary (cli/meson.build). */
#ifndef MPGPU_TUNE_TABLE_H
#define MPGPU_TUNE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "mul.h"
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
const char *tune_table_path(void);

/* Writes the entries (any order; they are sorted by bits, then time). Returns 0, or -1 with a
 * message on stderr. */
int tune_table_write(const char *path, const struct run_env *env, struct tune_entry *e, size_t n);

/* The method `--method auto` runs for `words`-word operands: among the measured sizes, the
 * smallest at least as large as words * 32 bits (else the largest), and there the fastest
 * method that supports `words`. NULL when the table cannot be read or has no such method; the
 * reason goes to why. When the table was measured on another GPU than CUDA device `device`,
 * one note on stderr says so (once per run). */
const struct mul_method *tune_table_pick(unsigned words, int device, char *why, size_t why_len);

#endif
