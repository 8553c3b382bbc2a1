#include "toom_opcount.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "random_words.h"

/* 000 Table 3.2, as printed: each entry is a2 w^2 + a1 w + a0 with rational a2, a1. The Toom-9
 * write count reads 188/3 w in the text; docs/errata.md discusses it (the other rows suggest
 * 188/9). Columns: multiplications, memory reads, memory writes. */
struct paper_term {
    long a2_num, a2_den, a1_num, a1_den, a0;
    const char *text;
};

static const struct paper_term paper[OPCOUNT_ROWS][3] = {
    {{1, 1, 0, 1, 0, "w^2"}, {2, 1, 0, 1, 0, "2w^2"}, {1, 1, 1, 1, 0, "w^2 + w"}},
    {{1, 1, 0, 1, 0, "w^2"}, {2, 1, 0, 1, -2, "2w^2 - 2"}, {0, 1, 2, 1, 0, "2w"}},
    {{3, 4, 0, 1, 0, "3/4 w^2"}, {3, 2, 17, 2, -2, "3/2 w^2 + 17/2 w - 2"},
     {0, 1, 15, 2, 4, "15/2 w + 4"}},
    {{5, 9, 44, 3, 21, "5/9 w^2 + 44/3 w + 21"}, {10, 9, 82, 3, 32, "10/9 w^2 + 82/3 w + 32"},
     {0, 1, 44, 3, 36, "44/3 w + 36"}},
    {{7, 16, 26, 1, 55, "7/16 w^2 + 26w + 55"}, {7, 8, 41, 1, 76, "7/8 w^2 + 41w + 76"},
     {0, 1, 17, 1, 60, "17w + 60"}},
    {{9, 25, 188, 5, 105, "9/25 w^2 + 188/5 w + 105"}, {18, 25, 54, 1, 136, "18/25 w^2 + 54w + 136"},
     {0, 1, 92, 5, 84, "92/5 w + 84"}},
    {{11, 36, 148, 3, 171, "11/36 w^2 + 148/3 w + 171"},
     {11, 18, 200, 3, 212, "11/18 w^2 + 200/3 w + 212"}, {0, 1, 58, 3, 108, "58/3 w + 108"}},
    {{13, 49, 428, 7, 253, "13/49 w^2 + 428/7 w + 253"},
     {26, 49, 554, 7, 304, "26/49 w^2 + 554/7 w + 304"}, {0, 1, 20, 1, 132, "20w + 132"}},
    {{15, 64, 73, 1, 351, "15/64 w^2 + 73w + 351"}, {15, 32, 183, 2, 412, "15/32 w^2 + 183/2 w + 412"},
     {0, 1, 41, 2, 156, "41/2 w + 156"}},
    {{17, 81, 764, 9, 465, "17/81 w^2 + 764/9 w + 465"},
     {34, 81, 934, 9, 536, "34/81 w^2 + 934/9 w + 536"}, {0, 1, 188, 3, 180, "188/3 w + 180"}},
};

const char *opcount_paper_formula(unsigned row, unsigned column)
{
    return paper[row][column].text;
}

static double paper_value(const struct paper_term *t, unsigned w)
{
    double x = w;
    return (double)t->a2_num / t->a2_den * x * x + (double)t->a1_num / t->a1_den * x + t->a0;
}

/* 000 Algorithm 1 with the registers a row keeps: b_j is read once per row, c_{i+j} is read
 * except in row 0, whose partial products go to memory that holds nothing yet. */
static void school_counted(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                           struct toom_op_counts *ops)
{
    for (unsigned j = 0; j < w; j++) {
        const uint64_t bj = b[j];
        uint64_t u = 0;
        ops->reads++;
        for (unsigned i = 0; i < w; i++) {
            uint64_t ci = j ? c[i + j] : 0;
            ops->reads += j ? 2 : 1;
            uint64_t uv = a[i] * bj + ci + u;
            ops->word_mults++;
            c[i + j] = (uint32_t)uv;
            ops->writes++;
            u = uv >> 32;
        }
        c[w + j] = (uint32_t)u;
        ops->writes++;
    }
}

/* 000 Algorithm 2: both operand words of every word product are read; the column sum
 * {t, u, v} stays in registers and each product word is written once. */
static void comba_counted(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                          struct toom_op_counts *ops)
{
    uint64_t uv = 0, t = 0; /* {t, u, v}: t counts the carries out of {u, v} */
    for (unsigned i = 0; i + 1 < 2 * w; i++) {
        unsigned j_lo = i < w ? 0 : i - w + 1, j_hi = i < w ? i : w - 1;
        for (unsigned j = j_lo; j <= j_hi; j++) {
            uint64_t p = (uint64_t)a[j] * b[i - j];
            ops->reads += 2;
            ops->word_mults++;
            uv += p;
            t += uv < p;
        }
        c[i] = (uint32_t)uv;
        ops->writes++;
        uv = uv >> 32 | t << 32;
        t = 0;
    }
    c[2 * w - 1] = (uint32_t)uv;
    ops->writes++;
}

int opcount_table(unsigned w, uint64_t seed, struct opcount_row rows[OPCOUNT_ROWS])
{
    uint32_t *a = malloc(w * sizeof *a), *b = malloc(w * sizeof *b);
    uint32_t *c = malloc(2 * (size_t)w * sizeof *c), *e = malloc(2 * (size_t)w * sizeof *e);
    if (!a || !b || !c || !e) {
        free(a), free(b), free(c), free(e);
        return -1;
    }
    random_words(seed, 0, a, w);
    random_words(seed, 1, b, w);
    gmp_mul_words(e, a, b, w);
    int status = 0;
    for (unsigned r = 0; r < OPCOUNT_ROWS; r++) {
        struct opcount_row *row = &rows[r];
        memset(row, 0, sizeof *row);
        memset(c, 0, 2 * (size_t)w * sizeof *c);
        if (r == 0) {
            snprintf(row->method, sizeof row->method, "School");
            school_counted(c, a, b, w, &row->ours);
        } else if (r == 1) {
            snprintf(row->method, sizeof row->method, "Comba");
            comba_counted(c, a, b, w, &row->ours);
        } else {
            snprintf(row->method, sizeof row->method, "Toom-%u", r);
            if (toom_ref_mul(c, a, b, w, r, &row->ours) != 0)
                status = -1;
        }
        row->product_ok = !memcmp(c, e, 2 * (size_t)w * sizeof *c);
        row->paper_mults = paper_value(&paper[r][0], w);
        row->paper_reads = paper_value(&paper[r][1], w);
        row->paper_writes = paper_value(&paper[r][2], w);
    }
    free(a), free(b), free(c), free(e);
    return status;
}
