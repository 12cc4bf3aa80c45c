/*
 * status.h: the exit statuses of a review, in one table that main.c
 * returns from, --help and --list-exit-codes print, and the docs are
 * generated from (doc/patchreview.md).
 */
#ifndef STATUS_H
#define STATUS_H

#include <stdio.h>

enum exit_status {
	EXIT_REVIEWED = 0,	/* draft written, patch reviewed */
	EXIT_NO_PATCH = 1,	/* draft written, but the mail holds no patch */
	EXIT_USAGE = 2,		/* bad option or configuration; nothing read */
	EXIT_NO_DRAFT = 3,	/* no draft: unreadable input or a write error */
	EXIT_MODEL_FAILED = 4,	/* --strict and the model review failed */
	EXIT_FINDINGS = 5,	/* --fail-on and a finding at or above it */
};

/* Prints one line a status, "INDENT<status>  <meaning>", in the order of the enum. */
void status_print(FILE *f, const char *indent);

#endif
