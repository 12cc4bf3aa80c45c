/*
 * series.h: many messages in, patch series out. The messages of an mbox
 * (or of a client's pipe) are sorted into series by their subject prefix
 * ("[PATCH v3 2/7]") and their threading headers; replies, duplicates and
 * older versions are set aside, each series is put in order, and its
 * cover letter, missing patches and base are found.
 */
#ifndef SERIES_H
#define SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "mail/mail.h"
#include "patch/patch.h"

enum series_role {
	SERIES_PATCH,		/* a patch, to be reviewed */
	SERIES_COVER,		/* a cover letter ("0/n") */
	SERIES_REPLY,		/* an answer ("Re: ..."): not reviewed */
	SERIES_DUPLICATE,	/* a message seen before, or a second n/m */
	SERIES_OLDER,		/* of a version older than the one reviewed */
	SERIES_NOT_PATCH,	/* no diff, and no cover letter either */
};

struct series_msg {
	struct mail *mail;	/* borrowed */
	struct patch patch;	/* parsed from the mail's text, owned */
	enum series_role role;
	size_t series;		/* which series, while grouping; then its index in set->v */
	unsigned long long digest;	/* of subject and text, to spot copies; 0 when alone */
};

struct series {
	struct series_msg *cover;	/* NULL when the input has none */
	struct series_msg **patches;	/* in index order */
	size_t npatches;
	unsigned total;		/* "n/m": m; 0 for a lone patch */
	unsigned version;	/* the cover letter's, else the first patch's */
	unsigned *missing;	/* indices in 1..total the input lacks */
	size_t nmissing;
	char *title;		/* the cover letter's title, else the first patch's */
	/*
	 * The message whose base-commit: and prerequisites speak for the
	 * series (patch/facts.h): the cover letter when it states them, else
	 * the first patch when it does; NULL when neither does.
	 */
	const struct patch *facts;
	struct strvec older;	/* versions set aside, e.g. "v1" */
};

struct series_set {
	struct series_msg *msgs;	/* one per input message, in input order */
	size_t nmsgs;
	struct series *v;	/* in the order their first message came */
	size_t n;
};

/*
 * Sorts the n messages into series: mails[i], parsed into patches[i]
 * (patch/parse.h), which moves into set->msgs and is left empty. Says on
 * stderr, one line per kind, what it set aside. A series with a missing
 * patch is kept as far as it goes. set->n is 0 when no message is a patch
 * or a cover letter. A lone message is a series of one when it has a diff
 * and asks for no pull, whatever its subject says ("Re:", "0/3"), with
 * nothing of its series missing.
 */
void series_group(struct series_set *set, struct mail *mails, struct patch *patches, size_t n);
void series_set_release(struct series_set *set);

/* The missing patches into out: "3/7", "3/7 and 5/7", or "12 of the 28 patches". */
void series_list_missing(const struct series *s, struct buf *out);

/* "3/7", or "" for a lone patch; at most 24 bytes with the NUL. */
void series_label(const struct series *s, const struct series_msg *m, char label[24]);

#endif
