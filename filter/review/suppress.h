/*
 * suppress.h: known findings a maintainer has seen and does not want again,
 * kept in a plain-text file that built-in rules and the model's dismissed
 * findings share. One entry a line, blank-separated fields:
 *
 *     RULE FIELD=VALUE... [# note]
 *
 * RULE is a rule id ("trailing-whitespace", "model") or "*" for any. Every
 * field must match for the entry to apply:
 *
 *     file=GLOB   the finding is on a line of this file (fnmatch, '*' spans '/')
 *     line=N      ... on line N of the new file (of the old one for a removed line)
 *     msgid=ID    the mail's Message-ID, with or without <>
 *     fp=HEX      the finding's fingerprint (review/fingerprint.h): what
 *                 patchreview dismiss and learn write
 *     list=ADDR   the mail went to this list (List-Post, To or Cc)
 *
 * A blank, '%', '#' or a control byte in a value is written %XX (%20,
 * %25, %23). '#' starts a comment. An entry with no field, or a field
 * this version does not know, is skipped with one warning: it would
 * otherwise hide more than was meant. This file reads and writes the
 * format; patchreview dismiss and learn append with suppress_format().
 */
#ifndef SUPPRESS_H
#define SUPPRESS_H

#include <stddef.h>

#include "base/buf.h"

#include "review/review.h"

/* The rule of an entry that matches a finding of any rule. */
#define SUPPRESS_ANY_RULE "*"
/* The longest line suppress_format() writes, comment and all, without its newline. */
#define SUPPRESS_LINE_MAX 600

struct suppress_entry {
	char *rule;		/* id, or SUPPRESS_ANY_RULE */
	char *file;		/* glob, or NULL */
	char *msgid;		/* without <>, or NULL */
	char *fp;		/* fingerprint, or NULL */
	char *list;		/* a list address the mail went to, or NULL */
	unsigned long line;	/* 0 when not given */
};

struct suppress_list {
	struct suppress_entry *v;
	size_t n;
	char *path;		/* where it was read from, for messages */
};

/*
 * Reads the list named by the dismissed setting (default
 * ${XDG_DATA_HOME:-~/.local/share}/patchreview/dismissed; "none" for no
 * list). A missing file is an empty list. Bad lines are warned about and
 * skipped; the review goes on either way.
 */
void suppress_load(struct suppress_list *l, const struct config *c);
void suppress_release(struct suppress_list *l);

/* The file's path (the setting, or the default); NULL without HOME. Caller frees. */
char *suppress_path(const struct config *c);

/*
 * Appends e as one line of the file, newline included, escaped so that it
 * reads back as e: "RULE file=... line=N msgid=... fp=... list=...", the
 * fields e has, then " # " and comment made one safe line, cut so that
 * the line stays within SUPPRESS_LINE_MAX bytes. comment may be NULL.
 */
void suppress_format(struct buf *out, const struct suppress_entry *e, const char *comment);

/*
 * Drops r->findings[from..] that an entry matches; with show_dismissed,
 * keeps a line on each in r->dismissed. Returns how many it dropped.
 */
size_t suppress_apply(const struct suppress_list *l, const struct review_input *in,
		      struct review *r, size_t from);

#endif
