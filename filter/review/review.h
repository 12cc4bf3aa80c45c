/*
 * review.h: the reviewer interface. A reviewer reads the mail and the patch
 * and appends findings to a review; the draft writer decides where they go.
 */
#ifndef REVIEW_H
#define REVIEW_H

#include <stdbool.h>

#include "base/strvec.h"
#include "config/config.h"
#include "mail/mail.h"
#include "patch/patch.h"
#include "review/finding.h"

/* What the model review cost; patchreview eval reports it. */
struct review_cost {
	long prompt_tokens, completion_tokens;
	double seconds;		/* wall time of the model review */
	bool cached;		/* from the cache: the tokens are what it cost once */
	bool estimated;		/* answered from files: tokens estimated from bytes */
};

/*
 * A model finding a filter kept out of the draft: patchreview eval shows
 * each one with its judge hint, so that a filter is judged on a replay.
 */
struct filtered_finding {
	struct finding finding;	/* its source is the filter: "min_confidence", "verify"... */
	double confidence;
};

struct review {
	struct finding *findings;
	size_t nfindings, cap;
	struct filtered_finding *filtered;
	size_t nfiltered, filtered_cap;
	struct strvec notes;	/* bracketed lines for the top of the draft */
	struct strvec summary;	/* paragraphs for the end of the draft */
	struct strvec less_sure;	/* model findings below min_confidence, listed last */
	struct strvec dismissed;	/* with show_dismissed: the findings the list left out */
	struct strvec preexisting;	/* model findings on untouched code (preexisting = section) */
	char *disclosure;	/* e.g. "Assisted-by: patchreview (model)", or NULL */
	bool model_failed;	/* the model reviewer ran and failed */
	bool model_deferred;	/* a request went to --requests-out, unanswered */
	bool model_ran;		/* the model reviewer was configured and tried */
	struct review_cost cost;
};

struct tree_review;
struct thread;
struct c_text;

struct review_input {
	const struct mail *mail;
	const struct patch *patch;
	const struct config *config;
	const struct tree_review *tree;	/* with --tree: what the tree says (tree/tree.h), or NULL */
	/* The series around the patch, as text for the model (series/context.h), or NULL. */
	const char *series;
	/* What the thread already said (thread/thread.h), or NULL. */
	const struct thread *thread;
	/*
	 * The patch's C lines, scanned once for every check that reads them
	 * (checks/ctext.h): reviewers_run_all() sets it for the checks.
	 */
	struct c_text *c_text;
};

/* Runs every reviewer on one mail (reviewers_run); patchreview eval takes it from main.c. */
typedef void review_fn(const struct review_input *in, struct review *r);

struct reviewer {
	const char *name;
	/*
	 * Appends to *r. Never fails as a whole: what a reviewer cannot do
	 * (checkpatch.pl that does not run) becomes a note in r.
	 */
	void (*run)(const struct review_input *in, struct review *r);
};

void review_init(struct review *r);
void review_release(struct review *r);

void review_add(struct review *r, size_t line, enum severity sev,
		const char *source, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Records a model finding that filter (a static name) kept out of the draft. */
void review_filtered(struct review *r, size_t line, enum severity sev, const char *filter,
		     double confidence, const char *text);
void review_note(struct review *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void review_summary(struct review *r, const char *text);
/* Each limit the mail or its patch went past: a note, and the same line on stderr. */
void review_note_cuts(struct review *r, const struct mail *m, const struct patch *p);

/* The messages of the input skipped past a limit (mail_list.skipped): a note each. */
void review_note_skipped(struct review *r, const struct strvec *skipped);

/* A line on a dismissed finding (fingerprint fp) for r->dismissed. */
void review_dismissed(struct review *r, const struct patch *p, const struct finding *f,
		      const char *fp);

/* The most severe finding's severity, or -1 when there is none. */
int review_worst(const struct review *r);

#endif
