/*
 * out.h: where drafts go. One draft goes to stdout as it is, several go
 * to stdout as an mbox; --maildir delivers each into the Maildir, and
 * --output-dir writes each to DIR/NNNN-<subject>.eml. Every file write is
 * atomic, and an existing file is never replaced.
 */
#ifndef DRAFT_OUT_H
#define DRAFT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "config/config.h"
#include "mail/mail.h"
#include "patch/patch.h"
#include "review/review.h"

/* Where drafts go: stdout when neither is set. The strings are not owned. */
struct draft_place {
	const char *maildir;	/* deliver each into this Maildir */
	bool fresh_maildir;	/* first move the drafts already there into <maildir>-old */
	const char *output_dir;	/* write each to DIR/NNNN-<subject>.eml */
	const char *name;	/* with maildir: each draft new/NAME.NNNN, replacing one so named */
};

/* The place the settings name (maildir, --fresh-maildir, --output-dir). */
struct draft_place draft_place_of(const struct config *c);

struct draft_out {
	const struct config *config;
	struct draft_place place;
	bool mbox;		/* on stdout, each draft after a "From " line */
	bool archived;		/* fresh_maildir: the earlier drafts were moved */
	time_t first;		/* the first draft's Date; a second later each */
	size_t numbered;	/* drafts made, written or not */
	size_t written;
	char *path;		/* the file the last draft went to, or NULL (stdout) */
};

/*
 * Drafts for config c into place, count of them (their Dates end at the
 * time of the last); several make stdout an mbox.
 */
void draft_out_init(struct draft_out *o, const struct config *c, const struct draft_place *place,
		    size_t count, bool several);

/*
 * Writes one draft (see draft_write()); number is its NNNN in
 * --output-dir. Returns 0, or -1 after one line on stderr. The draft's
 * learning record is the caller's (learn/record.h).
 */
int draft_out_write(struct draft_out *o, unsigned number, const struct mail *m,
		    const struct patch *p, const struct review *r, bool reviewed);
void draft_out_release(struct draft_out *o);

#endif
