/* Progress of a long pass on stderr, with the rate and the time left: a redrawn bar when stderr
 * is a terminal, else (a log, a pipe) one line every few seconds, so a run is never silent for
 * minutes. A pass that will take long also says so once, as soon as its rate is measured. */
#ifndef MPGPU_PROGRESS_H
#define MPGPU_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "loop_watch.h"

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

/* A phase of work outside the GPU's kernels that can take minutes at large --count: generating
 * operands, converting them for GMP, a pass of the GMP baseline. It shows progress as above (and
 * says so when it will take longer than ANNOUNCE_S) and stops at Ctrl-C, through the watch its
 * loops take (cpu_ref/loop_watch.h). */
struct progress_phase {
    struct progress pg;
    char label[160];
    struct loop_watch watch;
};

/* Starts a phase of total items (counted in unit), its label from the printf format (what it
 * does: "mul gmp at 65536 bits: converting the operands to GMP limbs"); with quiet, silent but
 * still stopped by Ctrl-C. Returns the watch to hand its loops. */
const struct loop_watch *progress_phase_begin(struct progress_phase *ph, bool quiet, const char *unit,
                                              uint64_t total, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The phase as a library call's progress function (mpgpu_progress_fn, ctx: the phase, begun with
 * any total: the call's is taken): nonzero, asking the call to stop, after Ctrl-C. A call of done
 * 0 (the work starts, its memory allocated) starts the clock of the phase's rate again. */
int progress_phase_call(void *ctx, uint64_t done, uint64_t total);
/* Clears the bar. */
void progress_phase_end(struct progress_phase *ph);

/* "2:03", "1:02:03", "3.5 days" or "2.1e+05 years"; "--:--" when unknown. */
void progress_format_duration(char *out, unsigned long len, double seconds);

#endif
