/*
 * status.c: what each exit status of a review means, one line each, for
 * --help, --list-exit-codes and the docs generated from them.
 */
#include "status.h"

static const struct {
	enum exit_status status;
	const char *meaning;
} statuses[] = {
	{ EXIT_REVIEWED, "draft written, the patch was reviewed" },
	{ EXIT_NO_PATCH, "draft written, nothing reviewed: no patch, or a pull request" },
	{ EXIT_USAGE, "bad option or configuration; nothing was read" },
	{ EXIT_NO_DRAFT, "no draft: empty, unreadable or oversized input, or a write error" },
	{ EXIT_MODEL_FAILED, "--strict and the model review failed; the draft was written" },
	{ EXIT_FINDINGS, "--fail-on and a finding that severe; the draft was written" },
};

void status_print(FILE *f, const char *indent)
{
	for (size_t i = 0; i < sizeof(statuses) / sizeof(*statuses); i++)
		fprintf(f, "%s%d  %s\n", indent, (int)statuses[i].status, statuses[i].meaning);
}
