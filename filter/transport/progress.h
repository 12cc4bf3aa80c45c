/*
 * progress.h: the one-line progress display on stderr while a model
 * answers. Drawn only when enabled (stderr is a terminal and not --quiet),
 * and only once a second has passed, so quick answers leave no trace.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdbool.h>

struct progress {
	bool enabled;
	bool shown;		/* a line is on the screen and must be erased */
	double start;		/* monotonic seconds */
	double last_draw;
	const char *stage;	/* static text, e.g. "waiting for the model" */
	long tokens;		/* text pieces received so far */
};

void progress_start(struct progress *p, bool enabled, const char *stage);
void progress_stage(struct progress *p, const char *stage);
void progress_tokens(struct progress *p, long tokens);
/* Redraws the line when it is due; cheap to call often. */
void progress_tick(struct progress *p);
/* Erases the line, if one was drawn. */
void progress_done(struct progress *p);

#endif
