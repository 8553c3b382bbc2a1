/* Statistics of a case's timed repetitions: the median, min, max and noise of the samples, the
 * rule that says when an adaptive run has repeated enough (--min-time, --max-noise), and the
 * Mann-Whitney U test that `mpgpu compare` runs on two sets of samples. No CUDA, no I/O: the
 * cpu suite checks every function here on samples with known answers (tests/test_stats.c). */
#ifndef MPGPU_STATS_H
#define MPGPU_STATS_H

#include <stdbool.h>

/* A row whose noise is above this many percent gets a warning line on stderr. */
#define STATS_NOISY_PCT 5.0

/* The most repetitions an adaptive run takes (or --reps, when that is more). */
#define STATS_MAX_REPS 1000u
/* How long --max-noise without --min-time repeats at most, in seconds of timed work: nvbench's
 * default timeout. */
#define STATS_NOISE_TIMEOUT_S 15.0

struct sample_stats {
    unsigned n;
    double median_ms, min_ms, max_ms, mean_ms;
    /* The noise: the relative standard deviation (sample standard deviation over the mean), in
     * percent, as nvbench reports it. NaN with fewer than 2 samples. */
    double noise_pct;
};

/* Fills st from samples_ms[0, n), n >= 1; the samples are left in their order. */
void stats_of(const double *samples_ms, unsigned n, struct sample_stats *st);

/* When the repetitions of a case stop. Without min_time_ms and max_noise_pct (both 0) after
 * exactly min_reps, as mpgpu always did. Otherwise after at least min_reps, once the timed work
 * reaches min_time_ms or the noise is below max_noise_pct, whichever comes first; and at the
 * latest at max_reps, or (--max-noise alone) after STATS_NOISE_TIMEOUT_S of timed work. */
struct stop_rule {
    unsigned min_reps;
    unsigned max_reps;     /* the cap: max(min_reps, STATS_MAX_REPS) when adaptive */
    double min_time_ms;    /* 0: not asked for */
    double max_noise_pct;  /* 0: not asked for */
};

/* The rule for --reps, --min-time (seconds, 0: none) and --max-noise (percent, 0: none). */
struct stop_rule stop_rule_for(unsigned reps, double min_time_s, double max_noise_pct);
bool stop_rule_adaptive(const struct stop_rule *rule);

/* Why repetitions stopped, for the row's note. */
enum stop_reason {
    STOP_MORE,       /* not yet: repeat */
    STOP_REPS,       /* the fixed number of repetitions */
    STOP_MIN_TIME,   /* --min-time of timed work reached */
    STOP_NOISE,      /* the noise fell below --max-noise */
    STOP_CAP,        /* the cap (repetitions, or the timeout of --max-noise) */
};

/* Whether to stop after samples_ms[0, n) (n >= 0), whose sum is total_ms. */
enum stop_reason stop_rule_check(const struct stop_rule *rule, const double *samples_ms, unsigned n,
                                 double total_ms);

/* The two-sided p-value of the Mann-Whitney U test between a[0, na) and b[0, nb) (normal
 * approximation with the correction for ties and for continuity); 1 when every value is equal.
 * Meaningful from about 5 samples a side; with fewer it returns NaN. */
double mann_whitney_p(const double *a, unsigned na, const double *b, unsigned nb);

#endif
