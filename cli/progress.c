#include "progress.h"

#include <stdio.h>

#include "timing.h"

#define BAR_WIDTH 30
#define REDRAW_MS 200.0

void progress_begin(struct progress *p, bool enabled, const char *label, const char *unit, uint64_t total)
{
    p->enabled = enabled;
    p->drawn = false;
    p->label = label;
    p->unit = unit;
    p->total = total;
    p->t0_ms = time_now_ms();
    p->last_draw_ms = p->t0_ms;
}

static void format_duration(char *out, size_t len, double s)
{
    if (s < 0 || s > 1e9)
        snprintf(out, len, "--:--");
    else if (s >= 3600)
        snprintf(out, len, "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60) % 60, (int)s % 60);
    else
        snprintf(out, len, "%d:%02d", (int)(s / 60), (int)s % 60);
}

void progress_update(struct progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    double now = time_now_ms();
    if (now - p->last_draw_ms < REDRAW_MS && done < p->total)
        return;
    p->last_draw_ms = now;
    double frac = p->total ? (double)done / (double)p->total : 1.0;
    double elapsed_s = (now - p->t0_ms) * 1e-3;
    double rate = elapsed_s > 0 ? (double)done / elapsed_s : 0;
    char bar[BAR_WIDTH + 1], eta[32];
    int fill = (int)(frac * BAR_WIDTH);
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    format_duration(eta, sizeof eta, rate > 0 ? (double)(p->total - done) / rate : -1);
    fprintf(stderr, "\r%s [%s] %5.1f%%  %.3g %s/s  ETA %s ", p->label, bar, 100 * frac, rate, p->unit, eta);
    fflush(stderr);
    p->drawn = true;
}

void progress_end(struct progress *p)
{
    if (p->drawn)
        fprintf(stderr, "\r%*s\r", 100, "");
    p->drawn = false;
}
