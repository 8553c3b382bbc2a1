#include "shared_factors_classify.h"

#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Moduli of one g_i > 1, in input order. */
struct group {
    mpz_t value;
    size_t *members, n_members;
    size_t first_share, n_shares; /* its shares, in report.shares */
};

/* A common factor of a group's members with the members of other groups (its own among them
 * when it has two members or more: they share the value itself). */
struct share {
    mpz_t factor;
    size_t first_link, n_links; /* the groups, in report.share_groups */
};

struct mpgpu_shared_factors_report {
    size_t n_findings;
    mpgpu_shared_factors_finding *findings;
    size_t *group_of; /* a finding's group; SIZE_MAX: none (a small factor alone) */
    struct group *groups;
    size_t n_groups;
    struct share *shares;
    size_t n_shares;
    size_t *share_groups;
};

/* A link between groups a <= b whose values have a GCD > 1. */
struct link {
    size_t a, b;
    mpz_t factor;
};

struct sort_key {
    mpz_srcptr value;
    size_t index;
};

static int by_value_then_index(const void *x, const void *y)
{
    const struct sort_key *p = x, *q = y;
    const int c = mpz_cmp(p->value, q->value);
    return c ? c : (p->index > q->index) - (p->index < q->index);
}

static int by_index(const void *x, const void *y)
{
    const size_t p = *(const size_t *)x, q = *(const size_t *)y;
    return (p > q) - (p < q);
}

/* A group's links as (factor, other group), ordered by factor then group. */
struct end {
    mpz_srcptr factor;
    size_t group;
};

static int by_factor_then_group(const void *x, const void *y)
{
    const struct end *p = x, *q = y;
    const int c = mpz_cmp(p->factor, q->factor);
    return c ? c : (p->group > q->group) - (p->group < q->group);
}

static int by_groups(const void *x, const void *y)
{
    const struct link *p = x, *q = y;
    if (p->a != q->a)
        return (p->a > q->a) - (p->a < q->a);
    return (p->b > q->b) - (p->b < q->b);
}

void mpgpu_shared_factors_report_destroy(mpgpu_shared_factors_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->groups && i < r->n_groups; i++) {
        mpz_clear(r->groups[i].value);
        free(r->groups[i].members);
    }
    for (size_t i = 0; r->shares && i < r->n_shares; i++)
        mpz_clear(r->shares[i].factor);
    free(r->groups);
    free(r->shares);
    free(r->share_groups);
    free(r->findings);
    free(r->group_of);
    free(r);
}

/* The smallest prime below MPGPU_SHARED_FACTORS_SMALL_PRIME_LIMIT dividing each N_i (0: none),
 * from its GCD with their product: the smallest divisor > 1 of that GCD is the prime. */
static void small_primes(size_t n, const mpz_t *N, uint32_t *small, int threads)
{
    mpz_t primorial;
    mpz_init(primorial);
    mpz_primorial_ui(primorial, MPGPU_SHARED_FACTORS_SMALL_PRIME_LIMIT - 1);
#pragma omp parallel num_threads(threads)
    {
        mpz_t common;
        mpz_init(common);
#pragma omp for schedule(dynamic, 64)
        for (size_t i = 0; i < n; i++) {
            small[i] = 0;
            mpz_gcd(common, N[i], primorial);
            for (uint32_t d = 2; mpz_cmp_ui(common, 1) > 0 && small[i] == 0; d++)
                if (mpz_divisible_ui_p(common, d))
                    small[i] = d;
        }
        mpz_clear(common);
    }
    mpz_clear(primorial);
}

/* The groups: the moduli with g_i > 1, sorted by g_i then index, cut where g_i changes. */
static mpgpu_status make_groups(mpgpu_shared_factors_report *r, size_t n, const mpz_t *g,
                                size_t *group_of_modulus)
{
    size_t n_affected = 0;
    for (size_t i = 0; i < n; i++)
        n_affected += mpz_cmp_ui(g[i], 1) > 0;
    struct sort_key *keys = malloc((n_affected ? n_affected : 1) * sizeof *keys);
    if (!keys)
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (mpz_cmp_ui(g[i], 1) > 0)
            keys[k++] = (struct sort_key){g[i], i};
    qsort(keys, n_affected, sizeof *keys, by_value_then_index);
    for (size_t i = 0; i < n_affected; i++)
        r->n_groups += i == 0 || mpz_cmp(keys[i].value, keys[i - 1].value) != 0;
    r->groups = calloc(r->n_groups ? r->n_groups : 1, sizeof *r->groups);
    if (!r->groups) {
        free(keys);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < r->n_groups; i++)
        mpz_init(r->groups[i].value);
    for (size_t i = 0, gi = 0; i < n_affected; gi++) {
        size_t end = i + 1;
        while (end < n_affected && mpz_cmp(keys[end].value, keys[i].value) == 0)
            end++;
        struct group *grp = &r->groups[gi];
        mpz_set(grp->value, keys[i].value);
        grp->n_members = end - i;
        grp->members = malloc(grp->n_members * sizeof *grp->members);
        if (!grp->members) {
            free(keys);
            return MPGPU_ERR_OUT_OF_HOST_MEMORY;
        }
        for (size_t m = 0; m < grp->n_members; m++) {
            grp->members[m] = keys[i + m].index;
            group_of_modulus[keys[i + m].index] = gi;
        }
        i = end;
    }
    free(keys);
    return MPGPU_OK;
}

/* Every pair of groups whose values have a GCD > 1, and each group of two members or more with
 * itself; ordered by (a, b) whatever the threads did. */
static mpgpu_status make_links(const mpgpu_shared_factors_report *r, int threads,
                               struct link **out, size_t *n_out)
{
    const size_t m = r->n_groups;
    struct link *links = NULL;
    size_t n_links = 0, cap = 0;
    bool short_of_memory = false;
#pragma omp parallel num_threads(threads)
    {
        struct link *mine = NULL;
        size_t n_mine = 0, cap_mine = 0;
        mpz_t h;
        mpz_init(h);
#pragma omp for schedule(dynamic, 1)
        for (size_t a = 0; a < m; a++) {
            for (size_t b = a; b < m && !short_of_memory; b++) {
                if (b == a && r->groups[a].n_members < 2)
                    continue;
                mpz_gcd(h, r->groups[a].value, r->groups[b].value);
                if (mpz_cmp_ui(h, 1) <= 0)
                    continue;
                if (n_mine == cap_mine) {
                    cap_mine = cap_mine ? 2 * cap_mine : 16;
                    struct link *grown = realloc(mine, cap_mine * sizeof *mine);
                    if (!grown) {
                        short_of_memory = true;
                        break;
                    }
                    mine = grown;
                }
                mine[n_mine].a = a;
                mine[n_mine].b = b;
                mpz_init_set(mine[n_mine].factor, h);
                n_mine++;
            }
        }
#pragma omp critical(shared_factors_links)
        {
            if (n_links + n_mine > cap) {
                size_t cap2 = cap ? cap : 16;
                while (cap2 < n_links + n_mine)
                    cap2 *= 2;
                struct link *grown = realloc(links, cap2 * sizeof *links);
                if (grown) {
                    links = grown;
                    cap = cap2;
                } else {
                    short_of_memory = true;
                }
            }
            for (size_t i = 0; i < n_mine; i++) {
                if (n_links < cap)
                    links[n_links++] = mine[i];
                else
                    mpz_clear(mine[i].factor);
            }
        }
        free(mine);
        mpz_clear(h);
    }
    if (n_links)
        qsort(links, n_links, sizeof *links, by_groups);
    *out = links;
    *n_out = n_links;
    return short_of_memory ? MPGPU_ERR_OUT_OF_HOST_MEMORY : MPGPU_OK;
}

/* Each group's shares: its links' ends sorted by factor, one share per distinct factor. */
static mpgpu_status make_shares(mpgpu_shared_factors_report *r, const struct link *links,
                                size_t n_links)
{
    size_t *degree = calloc(r->n_groups + 1, sizeof *degree);
    /* Each link is an end of both its groups (a self-link one end of its group). */
    const size_t n_ends = 2 * n_links;
    struct end *ends = malloc((n_ends ? n_ends : 1) * sizeof *ends);
    r->shares = calloc(n_ends ? n_ends : 1, sizeof *r->shares);
    r->share_groups = malloc((n_ends ? n_ends : 1) * sizeof *r->share_groups);
    if (!degree || !ends || !r->shares || !r->share_groups) {
        free(degree);
        free(ends);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    for (size_t l = 0; l < n_links; l++) {
        degree[links[l].a]++;
        degree[links[l].b] += links[l].b != links[l].a;
    }
    size_t *start = calloc(r->n_groups + 1, sizeof *start);
    if (!start) {
        free(degree);
        free(ends);
        return MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    for (size_t gi = 0; gi < r->n_groups; gi++)
        start[gi + 1] = start[gi] + degree[gi];
    memset(degree, 0, (r->n_groups + 1) * sizeof *degree);
    for (size_t l = 0; l < n_links; l++) {
        const size_t a = links[l].a, b = links[l].b;
        ends[start[a] + degree[a]++] = (struct end){links[l].factor, b};
        if (b != a)
            ends[start[b] + degree[b]++] = (struct end){links[l].factor, a};
    }
    size_t n_link_slots = 0;
    for (size_t gi = 0; gi < r->n_groups; gi++) {
        struct end *e = ends + start[gi];
        const size_t n_e = start[gi + 1] - start[gi];
        qsort(e, n_e, sizeof *e, by_factor_then_group);
        struct group *grp = &r->groups[gi];
        grp->first_share = r->n_shares;
        for (size_t i = 0; i < n_e; i++) {
            if (i == 0 || mpz_cmp(e[i].factor, e[i - 1].factor) != 0) {
                struct share *sh = &r->shares[r->n_shares++];
                mpz_init_set(sh->factor, e[i].factor);
                sh->first_link = n_link_slots;
                grp->n_shares++;
            }
            r->share_groups[n_link_slots++] = e[i].group;
            r->shares[r->n_shares - 1].n_links++;
        }
    }
    free(start);
    free(degree);
    free(ends);
    return MPGPU_OK;
}

static void make_findings(mpgpu_shared_factors_report *r, size_t n, const mpz_t *N,
                          const mpz_t *g, const uint32_t *small, const size_t *group_of_modulus)
{
    for (size_t i = 0; i < n; i++) {
        const bool shares = mpz_cmp_ui(g[i], 1) > 0;
        if (!shares && !small[i])
            continue;
        mpgpu_shared_factors_finding *f = &r->findings[r->n_findings];
        *f = (mpgpu_shared_factors_finding){.index = i, .small_prime = small[i]};
        f->kinds = small[i] ? MPGPU_SHARED_SMALL : 0;
        r->group_of[r->n_findings++] = shares ? group_of_modulus[i] : SIZE_MAX;
        if (!shares)
            continue;
        const struct group *grp = &r->groups[group_of_modulus[i]];
        f->shares = grp->n_shares;
        for (size_t s = 0; s < grp->n_shares; s++) {
            const struct share *sh = &r->shares[grp->first_share + s];
            for (size_t l = 0; l < sh->n_links; l++) {
                const struct group *other = &r->groups[r->share_groups[sh->first_link + l]];
                f->partners += other->n_members - (other == grp);
            }
        }
        if (mpz_cmp(g[i], N[i]) != 0) {
            f->kinds |= MPGPU_SHARED_PRIME;
            continue;
        }
        /* g_i = N_i: a duplicate when another member of its group is N_i itself (a member
         * whose modulus is a multiple of N_i is not). */
        bool duplicate = false;
        for (size_t m = 0; m < grp->n_members && !duplicate; m++)
            duplicate = grp->members[m] != i && mpz_cmp(N[grp->members[m]], N[i]) == 0;
        f->kinds |= duplicate ? MPGPU_SHARED_DUPLICATE : MPGPU_SHARED_ALL;
    }
}

mpgpu_status shared_factors_classify(size_t n, const mpz_t *N, const mpz_t *g, int threads,
                                     mpgpu_shared_factors_report **report)
{
    *report = NULL;
    mpgpu_shared_factors_report *r = calloc(1, sizeof *r);
    uint32_t *small = malloc(n * sizeof *small);
    size_t *group_of_modulus = malloc(n * sizeof *group_of_modulus);
    struct link *links = NULL;
    size_t n_links = 0;
    mpgpu_status st = r && small && group_of_modulus ? MPGPU_OK : MPGPU_ERR_OUT_OF_HOST_MEMORY;
    if (st == MPGPU_OK) {
        small_primes(n, N, small, threads);
        st = make_groups(r, n, g, group_of_modulus);
    }
    if (st == MPGPU_OK)
        st = make_links(r, threads, &links, &n_links);
    if (st == MPGPU_OK)
        st = make_shares(r, links, n_links);
    if (st == MPGPU_OK) {
        r->findings = malloc(n * sizeof *r->findings);
        r->group_of = malloc(n * sizeof *r->group_of);
        if (!r->findings || !r->group_of)
            st = MPGPU_ERR_OUT_OF_HOST_MEMORY;
    }
    if (st == MPGPU_OK)
        make_findings(r, n, N, g, small, group_of_modulus);
    for (size_t l = 0; l < n_links; l++)
        mpz_clear(links[l].factor);
    free(links);
    free(small);
    free(group_of_modulus);
    if (st != MPGPU_OK) {
        mpgpu_shared_factors_report_destroy(r);
        return st;
    }
    *report = r;
    return MPGPU_OK;
}

size_t mpgpu_shared_factors_report_count(const mpgpu_shared_factors_report *r)
{
    return r ? r->n_findings : 0;
}

mpgpu_status mpgpu_shared_factors_report_get(const mpgpu_shared_factors_report *r, size_t k,
                                             mpgpu_shared_factors_finding *finding)
{
    if (!r || !finding || k >= r->n_findings)
        return MPGPU_ERR_BAD_ARGUMENT;
    *finding = r->findings[k];
    return MPGPU_OK;
}

void shared_factors_share(const mpgpu_shared_factors_report *r, size_t k, size_t s,
                          mpz_srcptr *factor, size_t *partners, size_t *n_partners)
{
    const size_t self = r->findings[k].index;
    const struct group *grp = &r->groups[r->group_of[k]];
    const struct share *sh = &r->shares[grp->first_share + s];
    *factor = sh->factor;
    size_t n = 0;
    for (size_t l = 0; l < sh->n_links; l++) {
        const struct group *other = &r->groups[r->share_groups[sh->first_link + l]];
        for (size_t m = 0; m < other->n_members; m++)
            if (other->members[m] != self)
                partners[n++] = other->members[m];
    }
    qsort(partners, n, sizeof *partners, by_index);
    *n_partners = n;
}
