/* subject.h: the "[RFC PATCH net-next v3 2/7]" prefixes of a subject. */
#ifndef SUBJECT_H
#define SUBJECT_H

#include <stdbool.h>

struct subject_prefix {
	bool is_patch;		/* [PATCH], [RFC], [PATCH v2 1/3] ... */
	bool is_pull;		/* [GIT PULL], [PULL] */
	bool is_rfc;
	bool is_reply;		/* "Re: " (or "Aw: ") before the title: an answer, not a patch */
	unsigned version;	/* 1 when not given */
	unsigned index, total;	/* "2/7" or "2 of 7"; 0 when not given */
	char *tags;		/* other words in the brackets, e.g. "net-next" */
	char *title;		/* the subject after all prefixes */
};

/* Splits a subject into its [PATCH ...] prefix and title. */
void subject_parse(struct subject_prefix *s, const char *subject);
void subject_release(struct subject_prefix *s);

/*
 * What a reply's "Re: " goes in front of: subject without its reply
 * prefixes ("Re:", "Aw:", "Sv:", "答复:"...) and without the list tags
 * among them ("[list] Re: [list] Re: [PATCH] x" gives "[PATCH] x"); the
 * [PATCH ...] prefix stays. Points into subject.
 */
const char *subject_reply_base(const char *subject);

#endif
