/*
 * rules.h: every built-in rule by its id. A finding's source is its rule's
 * id; the id is what skip_checks, add_checks, the suppression list and the
 * JSON output name, so ids never change once released.
 */
#ifndef RULES_H
#define RULES_H

#include <stdbool.h>
#include <stdio.h>

#include "review/review.h"

enum rule_scope {
	SCOPE_ANY,		/* every project */
	SCOPE_KERNEL,		/* profile = kernel only, unless add_checks names it */
};

struct rule {
	const char *id;
	enum rule_scope scope;
	const char *checkpatch;	/* the checkpatch.pl type it stands for, or NULL */
	const char *summary;	/* one line, for --list-checks */
};

enum profile {
	PROFILE_GENERIC,
	PROFILE_KERNEL,
};

/* The rule with this id, or NULL. */
const struct rule *rule_find(const char *id);

/*
 * Does a built-in rule stand for this checkpatch.pl type? Then checkpatch's
 * report is left out. Not for SPACING, OPEN_BRACE and BAD_SIGN_OFF, of
 * which the rules here take only a part.
 */
bool rules_stand_for(const char *checkpatch_type);

/* Prints the table for --list-checks: id, scope, summary, [checkpatch type]. */
void rules_print(FILE *f);

/*
 * Checks the profile, skip_checks and add_checks settings against the
 * table. Returns 0, or -1 after one line on stderr naming where the bad
 * value was set.
 */
int rules_check_config(const struct config *c);

/*
 * The profile for this mail: the configured one, or for "auto" (and when
 * unset) kernel when the patch touches paths only the kernel has or the
 * mail went to a kernel list, generic otherwise.
 */
enum profile rules_profile(const struct review_input *in);

/* Does a rule of this id apply here (profile, skip_checks, add_checks)? */
bool rule_enabled(const struct review_input *in, enum profile profile, const char *id);

/*
 * Should the kernel-only families run at all: the profile is kernel, or
 * add_checks turns one of their rules on.
 */
bool rules_want_kernel(const struct review_input *in);

#endif
