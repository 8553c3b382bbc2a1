#include "collatz_chunks.h"

#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "random_words.h"

int collatz_chunks_init(struct collatz_chunks *k, size_t result_size, size_t workers)
{
    memset(k, 0, sizeof *k);
    k->result_size = result_size;
    k->workers = workers;
    k->per_worker = calloc(workers ? workers : 1, sizeof *k->per_worker);
    k->checked = calloc(workers ? workers : 1, sizeof *k->checked);
    k->differ = calloc(workers ? workers : 1, sizeof *k->differ);
    if (!k->per_worker || !k->checked || !k->differ) {
        collatz_chunks_free(k);
        return -1;
    }
    return 0;
}

void collatz_chunks_free(struct collatz_chunks *k)
{
    free(k->place);
    free(k->results);
    free(k->order);
    free(k->per_worker);
    free(k->checked);
    free(k->differ);
    memset(k, 0, sizeof *k);
}

void collatz_chunks_clear(struct collatz_chunks *k)
{
    k->n = 0;
}

int collatz_chunks_add(struct collatz_chunks *k, uint64_t first, uint64_t last, uint32_t worker,
                       const void *result)
{
    if (k->n == k->cap) {
        const size_t cap = k->cap ? 2 * k->cap : 64;
        struct collatz_chunk_place *place = realloc(k->place, cap * sizeof *place);
        if (place)
            k->place = place;
        unsigned char *results = realloc(k->results, cap * k->result_size);
        if (results)
            k->results = results;
        size_t *order = realloc(k->order, cap * sizeof *order);
        if (order)
            k->order = order;
        if (!place || !results || !order)
            return -1;
        k->cap = cap;
    }
    k->place[k->n] = (struct collatz_chunk_place){first, last, worker};
    memcpy(k->results + k->n * k->result_size, result, k->result_size);
    k->n++;
    return 0;
}

uint64_t collatz_chunks_order(struct collatz_chunks *k, uint64_t budget)
{
    const size_t n = k->n;
    memset(k->per_worker, 0, k->workers * sizeof *k->per_worker);
    memset(k->checked, 0, k->workers * sizeof *k->checked);
    memset(k->differ, 0, k->workers * sizeof *k->differ);
    uint64_t active = 0;
    for (size_t i = 0; i < n; i++) {
        active += k->per_worker[k->place[i].worker]++ == 0;
        k->order[i] = i;
    }
    const uint64_t sample = budget > active ? budget : active > 0 ? active : 1;
    if (sample >= n)
        return sample;
    /* `checked` counts, for now, each worker's chunks among those the sample takes. A worker it
     * misses swaps its chunk nearest to a taken element of a worker taken twice or more (there
     * is one: the sample takes at least `active` elements) into that element's place; the first
     * and the last chunk of the pass (the partial ones) stay where they are when it can be. */
    uint64_t *taken = k->checked;
    for (size_t e = 0; e < n; e++)
        taken[k->place[e].worker] += bench_sample_takes(e, n, sample);
    for (size_t w = 0; w < k->workers; w++) {
        if (k->per_worker[w] == 0 || taken[w] > 0)
            continue;
        size_t e = 1;
        while (e < n - 1 && (!bench_sample_takes(e, n, sample) || taken[k->place[k->order[e]].worker] < 2))
            e++;
        if (e == n - 1 && taken[k->place[k->order[0]].worker] >= 2)
            e = 0;
        size_t q = n;
        for (size_t j = 0; j < n; j++)
            if (k->place[k->order[j]].worker == w && (q == n || (j > e ? j - e : e - j) < (q > e ? q - e : e - q)))
                q = j;
        taken[k->place[k->order[e]].worker]--;
        taken[w]++;
        const size_t swap = k->order[e];
        k->order[e] = k->order[q];
        k->order[q] = swap;
    }
    memset(k->checked, 0, k->workers * sizeof *k->checked);
    return sample;
}

uint64_t collatz_chunks_hash(const uint64_t *v, size_t n)
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++)
        h += splitmix64(v[i]);
    return h;
}

uint64_t collatz_chunks_pair_hash(uint64_t n, uint32_t delay)
{
    return splitmix64(splitmix64(n) ^ delay);
}
