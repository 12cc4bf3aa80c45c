/*
 * run.h: the driver: every stage, in order, for one mail or for an mbox
 * of many; a single mail is a series of one. main.c reads the options and
 * turns what happened into the exit status; a caller at delivery time
 * hands over the messages of a series and where their drafts go.
 */
#ifndef RUN_H
#define RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "draft/out.h"
#include "mail/mail.h"
#include "output/output.h"

struct tree;
struct thread_source;

/* What to run on, and where the results go. */
struct run_job {
	struct mail *mails;	/* the messages (their texts are taken), or NULL: read stdin */
	size_t nmails;
	const struct config *config;
	struct tree *tree;	/* the maintainer's tree (--tree), opened; or NULL */
	const struct thread_source *thread;	/* the thread's replies (--thread), or NULL */
	enum output_format format;	/* on stdout: the drafts, or json, b4-check, lines */
	struct draft_place drafts;	/* where the drafts go instead of stdout */
	bool review_only;	/* review (filling the cache), write nothing: consume's */
	bool mbox;		/* drafts on stdout as an mbox, even one: consume_out's file */
};

/* What happened, for the exit status. */
struct run_result {
	bool unreadable;	/* the input could not be read; nothing was written */
	size_t reviewed;	/* patches reviewed */
	bool write_failed;	/* a draft or the --format output could not be written */
	bool model_failed;	/* the model review of some patch failed */
	bool deferred;		/* --requests-out wrote requests instead; no drafts */
	bool explain_failed;	/* --explain-prompt could not load the prompts */
	int worst;		/* the most severe finding written (enum severity), or -1 */
	long tokens_sent;	/* estimated tokens sent to the model */
};

/* A job on stdin for config c, the drafts where its settings put them. */
void run_job_init(struct run_job *job, const struct config *c, enum output_format format);

/*
 * Runs the stages: reads the messages (stdin unless job names them),
 * parses each (patch/), sorts them into series (series/), collects what
 * the thread said, reads each patch against the tree, decides what is not
 * reviewed (no patch, a pull request, b4's "skip"), reviews the rest
 * (run/reviewers.h), and writes the drafts, each series' cover letter
 * first, with the learning record of each reviewed patch (learn/), then
 * the --format output. One mail of a series that patchreview consume
 * reviewed (state/state.h) is answered with that series in view: the
 * series is read from the state and only this mail's draft is written. With --explain-prompt, each patch's prompt on
 * stdout instead. With no patch at all, a plain reply to the first
 * message. Says on stderr what it left out; never fails as a whole.
 */
void run_review(const struct run_job *job, struct run_result *res);

#endif
