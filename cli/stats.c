#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_of(const double *samples_ms, unsigned n, struct sample_stats *st)
{
    memset(st, 0, sizeof *st);
    st->n = n;
    st->noise_pct = NAN;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        abort(); /* at most STATS_MAX_REPS or --reps doubles, which the samples already hold */
    memcpy(sorted, samples_ms, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    st->min_ms = sorted[0];
    st->max_ms = sorted[n - 1];
    st->median_ms = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    free(sorted);
    double sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += samples_ms[i];
    st->mean_ms = sum / n;
    if (n < 2 || st->mean_ms <= 0)
        return;
    double squares = 0;
    for (unsigned i = 0; i < n; i++)
        squares += (samples_ms[i] - st->mean_ms) * (samples_ms[i] - st->mean_ms);
    st->noise_pct = 100.0 * sqrt(squares / (n - 1)) / st->mean_ms;
}

struct stop_rule stop_rule_for(unsigned reps, double min_time_s, double max_noise_pct)
{
    struct stop_rule rule = {.min_reps = reps, .max_reps = reps, .min_time_ms = min_time_s * 1e3,
                             .max_noise_pct = max_noise_pct};
    if (stop_rule_adaptive(&rule) && rule.max_reps < STATS_MAX_REPS)
        rule.max_reps = STATS_MAX_REPS;
    return rule;
}

bool stop_rule_adaptive(const struct stop_rule *rule)
{
    return rule->min_time_ms > 0 || rule->max_noise_pct > 0;
}

enum stop_reason stop_rule_check(const struct stop_rule *rule, const double *samples_ms, unsigned n,
                                 double total_ms)
{
    if (n < rule->min_reps)
        return STOP_MORE;
    if (!stop_rule_adaptive(rule))
        return STOP_REPS;
    if (rule->min_time_ms > 0 && total_ms >= rule->min_time_ms)
        return STOP_MIN_TIME;
    if (rule->max_noise_pct > 0 && n >= 2) {
        struct sample_stats st;
        stats_of(samples_ms, n, &st);
        if (st.noise_pct < rule->max_noise_pct)
            return STOP_NOISE;
    }
    if (n >= rule->max_reps)
        return STOP_CAP;
    if (rule->min_time_ms <= 0 && total_ms >= STATS_NOISE_TIMEOUT_S * 1e3)
        return STOP_CAP;
    return STOP_MORE;
}

/* A value and the side it came from, for ranking both samples together. */
struct ranked {
    double v;
    bool from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
    return cmp_double(&((const struct ranked *)x)->v, &((const struct ranked *)y)->v);
}

double mann_whitney_p(const double *a, unsigned na, const double *b, unsigned nb)
{
    if (na < 5 || nb < 5)
        return NAN;
    const unsigned n = na + nb;
    struct ranked *all = malloc(n * sizeof *all);
    if (!all)
        return NAN;
    for (unsigned i = 0; i < na; i++)
        all[i] = (struct ranked){a[i], true};
    for (unsigned i = 0; i < nb; i++)
        all[na + i] = (struct ranked){b[i], false};
    qsort(all, n, sizeof *all, cmp_ranked);
    /* Ties share the mean of their ranks; sum (t^3 - t) over the groups corrects the variance. */
    double rank_sum_a = 0, ties = 0;
    for (unsigned i = 0; i < n;) {
        unsigned j = i;
        while (j < n && all[j].v == all[i].v)
            j++;
        const double t = j - i, mean_rank = 0.5 * (i + 1 + j);
        for (unsigned k = i; k < j; k++)
            rank_sum_a += all[k].from_a ? mean_rank : 0;
        ties += t * t * t - t;
        i = j;
    }
    free(all);
    const double u = rank_sum_a - 0.5 * na * (na + 1.0);
    const double mu = 0.5 * na * nb;
    const double var = na * (double)nb / 12.0 * ((n + 1.0) - ties / ((double)n * (n - 1.0)));
    if (var <= 0)
        return 1.0;
    const double dev = fabs(u - mu) - 0.5;
    const double z = (dev > 0 ? dev : 0) / sqrt(var);
    return erfc(z / sqrt(2.0));
}
