/* The growable lists the Collatz passes hand back (mpgpu.h: starting values that overflowed the
 * fixed-width path, and (n, delay) pairs that may be delay records): how the library, its CPU
 * twins and the command line grow, sort and compare them. */
#ifndef MPGPU_COLLATZ_LIST_H
#define MPGPU_COLLATZ_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu.h"

/* Returns 0, or -1 when memory is short. */
static inline int collatz_list_push(struct mpgpu_collatz_list *l, uint64_t x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        uint64_t *v = (uint64_t *)realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

static inline int collatz_list_append(struct mpgpu_collatz_list *l, const uint64_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (collatz_list_push(l, x[i]) != 0)
            return -1;
    return 0;
}

static inline int collatz_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static inline void collatz_list_sort(struct mpgpu_collatz_list *l)
{
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, collatz_u64_cmp);
}

static inline void collatz_list_free(struct mpgpu_collatz_list *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

static inline int collatz_pairs_push(struct mpgpu_collatz_pairs *l, uint64_t n, uint32_t delay)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        struct mpgpu_collatz_pair *v = (struct mpgpu_collatz_pair *)realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (struct mpgpu_collatz_pair){n, delay};
    return 0;
}

static inline int collatz_pair_cmp(const void *a, const void *b)
{
    const struct mpgpu_collatz_pair *x = (const struct mpgpu_collatz_pair *)a, *y = (const struct mpgpu_collatz_pair *)b;
    return (x->n > y->n) - (x->n < y->n);
}

static inline void collatz_pairs_sort(struct mpgpu_collatz_pairs *l)
{
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, collatz_pair_cmp);
}

/* The same pairs in the same order (records of two runs of one range). */
static inline bool collatz_pairs_equal(const struct mpgpu_collatz_pairs *x, const struct mpgpu_collatz_pairs *y)
{
    if (x->n != y->n)
        return false;
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].n != y->v[i].n || x->v[i].delay != y->v[i].delay)
            return false;
    return true;
}

static inline void collatz_pairs_free(struct mpgpu_collatz_pairs *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

#endif
