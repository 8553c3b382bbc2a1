#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "interrupt.h"
#include "timing.h"

#define BAR_WIDTH 30
#define BAR_REDRAW_MS 200.0
#define LINE_EVERY_MS 10000.0
/* A pass predicted to last longer than this says so when its rate is first measured. */
#define ANNOUNCE_S 10.0
/* The rate is trusted after this much of the pass. */
#define CALIBRATE_MS 1000.0

enum progress_mode progress_mode_for(bool quiet)
{
    if (quiet)
        return PROGRESS_OFF;
    return isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_LINES;
}

void progress_begin(struct progress *p, enum progress_mode mode, const char *label, const char *unit,
                    uint64_t total)
{
    p->mode = mode;
    p->drawn = p->announced = false;
    p->label = label;
    p->unit = unit;
    p->total = total;
    p->t0_ms = time_now_ms();
    p->last_draw_ms = p->t0_ms;
}

void progress_format_duration(char *out, unsigned long len, double s)
{
    if (s < 0 || s != s)
        snprintf(out, len, "--:--");
    else if (s >= 365.25 * 86400)
        snprintf(out, len, "%.3g years", s / (365.25 * 86400));
    else if (s >= 2 * 86400)
        snprintf(out, len, "%.1f days", s / 86400);
    else if (s >= 3600)
        snprintf(out, len, "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60) % 60, (int)s % 60);
    else
        snprintf(out, len, "%d:%02d", (int)(s / 60), (int)s % 60);
}

void progress_update(struct progress *p, uint64_t done)
{
    if (p->mode == PROGRESS_OFF || done == 0)
        return;
    const double now = time_now_ms();
    const double elapsed_s = (now - p->t0_ms) * 1e-3;
    const double rate = elapsed_s > 0 ? (double)done / elapsed_s : 0;
    const double left_s = rate > 0 ? (double)(p->total - done) / rate : -1;
    char eta[32];
    progress_format_duration(eta, sizeof eta, left_s);
    if (!p->announced && (now - p->t0_ms >= CALIBRATE_MS || done == p->total)) {
        p->announced = true;
        if (left_s > ANNOUNCE_S) {
            if (p->drawn)
                fputc('\n', stderr);
            fprintf(stderr, "mpgpu: %s: about %s more at %.3g %s/s (measured over the first %.1f s)\n",
                    p->label, eta, rate, p->unit, elapsed_s);
            p->drawn = false;
        }
    }
    const double frac = p->total ? (double)done / (double)p->total : 1.0;
    if (p->mode == PROGRESS_LINES) {
        if (now - p->last_draw_ms < LINE_EVERY_MS || done == p->total)
            return;
        p->last_draw_ms = now;
        fprintf(stderr, "mpgpu: %s: %5.1f%%, %.3g %s/s, %s left\n", p->label, 100 * frac, rate, p->unit, eta);
        return;
    }
    if (now - p->last_draw_ms < BAR_REDRAW_MS && done < p->total)
        return;
    p->last_draw_ms = now;
    char bar[BAR_WIDTH + 1];
    int fill = (int)(frac * BAR_WIDTH);
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    fprintf(stderr, "\r%s [%s] %5.1f%%  %.3g %s/s  ETA %s ", p->label, bar, 100 * frac, rate, p->unit, eta);
    fflush(stderr);
    p->drawn = true;
}

void progress_end(struct progress *p)
{
    if (p->mode == PROGRESS_BAR && p->drawn)
        fprintf(stderr, "\r%*s\r", 100, "");
    p->drawn = false;
}

/* The watch's tick: progress, and a stop at Ctrl-C. The loops count done items in steps, so the
 * count can pass the total near the end: it is held below, where the bar redraws at its pace. */
static bool phase_tick(void *ctx, uint64_t done)
{
    struct progress_phase *ph = ctx;
    progress_update(&ph->pg, done < ph->pg.total ? done : ph->pg.total - 1);
    return !interrupt_requested();
}

const struct loop_watch *progress_phase_begin(struct progress_phase *ph, bool quiet, const char *unit,
                                              uint64_t total, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ph->label, sizeof ph->label, fmt, ap);
    va_end(ap);
    progress_begin(&ph->pg, progress_mode_for(quiet), ph->label, unit, total);
    ph->watch = (struct loop_watch){phase_tick, ph};
    return &ph->watch;
}

int progress_phase_call(void *ctx, uint64_t done, uint64_t total)
{
    struct progress_phase *ph = ctx;
    ph->pg.total = total;
    if (done == 0) {
        ph->pg.t0_ms = ph->pg.last_draw_ms = time_now_ms();
        return interrupt_requested();
    }
    return !phase_tick(ph, done);
}

void progress_phase_end(struct progress_phase *ph)
{
    progress_end(&ph->pg);
}
