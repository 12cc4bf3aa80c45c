/*
 * output.h: the review in a form other programs read: JSON (our own,
 * versioned), the JSON list of b4's review check commands, and the lines
 * of b4's prep and am check commands. The reply draft stays in draft/.
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "mail/mail.h"
#include "patch/patch.h"
#include "review/review.h"

enum output_format {
	OUTPUT_DRAFT,		/* the reply draft (draft/), the default */
	OUTPUT_JSON,		/* --format json: every finding, "format": 1 */
	OUTPUT_B4_CHECK,	/* --format b4-check: b4 review's check commands */
	OUTPUT_LINES,		/* --format lines: b4 prep --check, b4 am --check */
};

/* The version of --format json; raised only when a consumer could misread. */
#define OUTPUT_JSON_FORMAT 1

/* One reviewed mail. A series review will hand over several. */
struct output_patch {
	const struct mail *mail;
	const struct patch *patch;
	const struct review *review;
	bool reviewed;		/* the mail held a patch and it was reviewed */
	const char *draft_path;	/* where the draft was delivered, or NULL */
};

/* The format called name. Returns 0, or -1 for an unknown name. */
int output_format_parse(const char *name, enum output_format *fmto);

#endif
