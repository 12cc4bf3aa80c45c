/*
 * review.h: the reviewer interface. A reviewer reads the mail and the patch
 * and appends findings; the draft writer decides where they go.
 */
#ifndef REVIEW_H
#define REVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "mail.h"
#include "patch.h"

enum severity {
	SEVERITY_NIT,
	SEVERITY_WARNING,
	SEVERITY_ERROR,
};

/* A finding about the whole patch rather than one line. */
#define FINDING_WHOLE SIZE_MAX

struct finding {
	size_t line;		/* index into patch->lines, or FINDING_WHOLE */
	enum severity severity;
	const char *source;	/* static: check name or "model" */
	char *text;		/* plain UTF-8, may hold newlines */
};

struct review {
	struct finding *findings;
	size_t nfindings, cap;
	char **notes;		/* bracketed lines for the top of the draft */
	size_t nnotes;
	char **summary;		/* paragraphs for the end of the draft */
	size_t nsummary;
	char *disclosure;	/* e.g. "Assisted-by: patchreview (model)", or NULL */
	int model_failed;	/* the model reviewer ran and failed */
};

struct review_input {
	const struct mail *mail;
	const struct patch *patch;
	const struct config *config;
};

struct reviewer {
	const char *name;
	/* Appends to *r. Returns 0, or -1 when the reviewer itself failed. */
	int (*run)(const struct review_input *in, struct review *r);
};

void review_init(struct review *r);
void review_release(struct review *r);

void review_add(struct review *r, size_t line, enum severity sev,
		const char *source, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void review_note(struct review *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void review_summary(struct review *r, const char *text);

const char *severity_name(enum severity sev);

/* The built-in checks: need no network and no model. */
extern const struct reviewer check_form;	/* subject, mail damage, hunks */
extern const struct reviewer check_message;	/* sign-off, trailers */
extern const struct reviewer check_whitespace;	/* added lines */

/* Runs the built-in checks, then the model when one is configured. */
void review_run(const struct review_input *in, struct review *r);

#endif
