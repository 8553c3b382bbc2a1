/* `mpgpu toom --count-ops`: 000 Table 3.2 measured on an instrumented CPU model. School
 * (000 Algorithm 1), Comba (000 Algorithm 2) and Toom-2..9 (cpu_ref/toom_ref.c, the same steps
 * as the GPU) multiply one pair of seeded random w-word operands and count word
 * multiplications, multiplications by small constants, and memory word reads and writes; each
 * product is checked against GMP. Next to them: the paper's formulas, as printed. */
#ifndef MPGPU_TOOM_OPCOUNT_H
#define MPGPU_TOOM_OPCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "toom_ref.h"

#define OPCOUNT_ROWS 10 /* School, Comba, Toom-2 .. Toom-9 */

struct opcount_row {
    char method[16];
    struct toom_op_counts ours;
    bool product_ok;    /* the model's product equals GMP's */
    double paper_mults, paper_reads, paper_writes; /* 000 Table 3.2 at this w */
};

/* Fills rows[0 .. OPCOUNT_ROWS) for w-word operands (w >= 9, so every Toom-k has k words).
 * Returns 0, or -1 when memory runs out. */
int opcount_table(unsigned w, uint64_t seed, struct opcount_row rows[OPCOUNT_ROWS]);

/* The paper's Table 3.2 formula of one row as text, e.g. "5/9 w^2 + 44/3 w + 21". */
const char *opcount_paper_formula(unsigned row, unsigned column);

#endif
