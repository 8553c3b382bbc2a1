/* A one-line progress bar on stderr with the rate and the time left, for long ranges. Drawn only
 * when enabled (stderr is a terminal and --quiet was not given), at most a few times a second. */
#ifndef MPGPU_PROGRESS_H
#define MPGPU_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress {
    bool enabled, drawn;
    const char *label;
    const char *unit;
    uint64_t total;
    double t0_ms, last_draw_ms;
};

void progress_begin(struct progress *p, bool enabled, const char *label, const char *unit, uint64_t total);
/* done of total finished so far. */
void progress_update(struct progress *p, uint64_t done);
/* Clears the line. */
void progress_end(struct progress *p);

#endif
