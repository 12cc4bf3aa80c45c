/*
 * record.h: what patchreview said in each draft, kept by the Message-ID
 * of the mail it answers (the draft's In-Reply-To), so that the reply the
 * maintainer sent can later be compared with it (patchreview learn).
 *
 * ${XDG_DATA_HOME:-~/.local/share}/patchreview/drafts/<hash of the id>:
 *
 *     msgid <the id>
 *     FINGERPRINT<TAB>SOURCE<TAB>FILE<TAB>the comment on one line
 *
 * FILE is "-" for a finding about the whole patch. A record is removed
 * once learned from, so a Sent folder can be read again and again.
 */
#ifndef RECORD_H
#define RECORD_H

#include <stddef.h>

#include "config/config.h"
#include "mail/mail.h"
#include "patch/patch.h"
#include "review/review.h"

/* Of a comment, at most this much is kept. */
#define RECORD_TEXT_MAX 400

struct record_finding {
	char *fp, *source, *file, *text;
};

struct record {
	char *path;
	struct record_finding *v;
	size_t n;
};

/* Keeps r's findings on the mail m (nothing without findings or a Message-ID). */
void record_write(const struct mail *m, const struct patch *p, const struct review *r,
		  const struct config *c);

/* The record of the draft answering msgid. Returns 0, or -1 when there is none. */
int record_read(struct record *rec, const char *msgid);
void record_release(struct record *rec);

/* A mail's name in the learn files: 16 hex digits of a hash of its Message-ID. */
#define RECORD_KEY_LEN 16
void record_key(const char *msgid, char out[RECORD_KEY_LEN + 1]);

/* The directory under XDG_DATA_HOME where patchreview keeps what it learns, with leaf. */
char *learn_path(const char *leaf);

#endif
