/* progress.c: one self-erasing status line on a terminal's stderr. */
#include <stdio.h>

#include "base/clock.h"
#include "transport/progress.h"

/* Quick answers should not flash a line. */
#define PROGRESS_DELAY 1.0
#define PROGRESS_INTERVAL 0.2

void progress_start(struct progress *p, bool enabled, const char *stage)
{
	*p = (struct progress){
		.enabled = enabled, .start = clock_now(), .stage = stage,
	};
}

void progress_stage(struct progress *p, const char *stage)
{
	p->stage = stage;
	p->last_draw = 0;
	progress_tick(p);
}

void progress_tokens(struct progress *p, long tokens)
{
	p->tokens = tokens;
	progress_tick(p);
}

void progress_tick(struct progress *p)
{
	if (!p->enabled)
		return;
	double now = clock_now(), elapsed = now - p->start;
	if (elapsed < PROGRESS_DELAY || now - p->last_draw < PROGRESS_INTERVAL)
		return;
	p->last_draw = now;
	p->shown = true;
	/* \r and "erase to end of line" redraw in place. */
	if (p->tokens)
		fprintf(stderr, "\r\033[Kpatchreview: %s, %.0f s, %ld tokens",
			p->stage, elapsed, p->tokens);
	else
		fprintf(stderr, "\r\033[Kpatchreview: %s, %.0f s", p->stage, elapsed);
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = false;
}
