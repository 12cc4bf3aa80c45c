/* run_series.h: the review stage and the drafts for an input of many messages. */
#ifndef RUN_SERIES_H
#define RUN_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "mail/mail.h"
#include "output/output.h"

struct run_series_result {
	size_t reviewed;	/* patches reviewed */
	bool write_failed;	/* a draft could not be written */
	bool model_failed;	/* the model review of some patch failed */
	bool deferred;		/* --requests-out wrote requests; no drafts */
	bool explain_failed;	/* --explain-prompt could not load the prompts */
	int worst;		/* the most severe finding (enum severity), or -1 */
};

/*
 * Sorts the n mails into series (series/series.h; their texts are taken),
 * reviews every patch with its series in view, and writes the drafts: the
 * cover letter's with the series-level checks and a summary, then one per
 * patch, or the reviews in format, for all series at once. With tree
 * (--tree), each patch is also read against it. The replies among the
 * mails and in src (--thread, or NULL) say what the thread already said
 * (thread/thread.h). With no patch among them,
 * a plain reply draft to the first. The messages skipped past a limit
 * (skipped, or NULL) are noted in the first draft.
 */
struct tree;
struct thread_source;
void run_series(struct mail *mails, size_t n, const struct strvec *skipped,
		const struct config *c,
		enum output_format format, struct tree *tree, const struct thread_source *src,
		struct run_series_result *res);

#endif
