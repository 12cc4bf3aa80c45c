/*
 * out.h: consume_out, each series' review written where a list-wide
 * reviewer or a maintainer reads it, never sent. A directory gets one
 * file a series, named by the series (its key's first 16 hex digits), so
 * a series reviewed again (it grew, or its review failed) replaces its
 * file and a rerun makes no second one: KEY.mbox, the drafts as an mbox
 * (consume_format draft), or KEY.json (--format json). Each file is
 * written under a temporary name and renamed when whole. "maildir:PATH"
 * delivers each draft into the Maildir as new/patchreview-KEY.NNNN (NNNN
 * its number in the series), replacing the draft of that name still in
 * new/; one a mail client moved to cur/ stays there.
 */
#ifndef CONSUME_OUT_H
#define CONSUME_OUT_H

#include "config/config.h"
#include "run/run.h"

struct consume_out {
	char *tmp;		/* the file being written (a directory's), or NULL */
	char *path;		/* what it becomes */
	char *name;		/* a Maildir's drafts' name, or NULL */
	char *dir;		/* the directory or Maildir, ~ expanded */
	int saved;		/* stdout before, or -1 */
};

/*
 * In the review's process: sends job's output where c->consume_out says,
 * for the series key (stdout becomes the temporary file of a directory).
 * Returns 0, 1 when there is no consume_out (job unchanged), or -1 after
 * a line on stderr.
 */
int consume_out_open(struct consume_out *o, const struct config *c, const char *key,
		     struct run_job *job);

/* The file renamed into place (commit), or removed. Returns 0 or -1 (a line on stderr). */
int consume_out_close(struct consume_out *o, bool commit);

#endif
