/* Progress of a long pass on stderr, with the rate and the time left: a redrawn bar when stderr
 * is a terminal, else (a log, a pipe) one line every few seconds, so a run is never silent for
 * minutes. A pass that will take long also says so once, as soon as its rate is measured. */
#ifndef MPGPU_PROGRESS_H
#define MPGPU_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

enum progress_mode { PROGRESS_OFF, PROGRESS_BAR, PROGRESS_LINES };

/* OFF with --quiet, BAR on a terminal, LINES otherwise. */
enum progress_mode progress_mode_for(bool quiet);

struct progress {
    enum progress_mode mode;
    bool drawn, announced;
    const char *label;
    const char *unit;
    uint64_t total;
    double t0_ms, last_draw_ms;
};

void progress_begin(struct progress *p, enum progress_mode mode, const char *label, const char *unit,
                    uint64_t total);
/* done of total finished so far. */
void progress_update(struct progress *p, uint64_t done);
/* Clears the bar. */
void progress_end(struct progress *p);

/* "2:03", "1:02:03", "3.5 days" or "2.1e+05 years"; "--:--" when unknown. */
void progress_format_duration(char *out, unsigned long len, double seconds);

#endif
