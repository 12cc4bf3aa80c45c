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

/*
 * Every built-in rule, by the name the code gives it. rule_id() is the id
 * a finding carries as its source; the table in rules.c has one entry per
 * rule, in this order.
 */
enum rule_id {
	/* the mail and the patch as a whole */
	RULE_SUBJECT_LENGTH, RULE_FORMAT_FLOWED, RULE_CRLF_PART, RULE_CORRUPT_HUNK,
	RULE_SUBJECT_PERIOD, RULE_SUBJECT_PREFIX, RULE_EXEC_BIT,
	/* the commit message */
	RULE_SIGNOFF, RULE_SIGNOFF_AUTHOR, RULE_SIGNOFF_FORM, RULE_DUPLICATE_TRAILER,
	RULE_CODEVELOPER_SIGNOFF, RULE_FIXES_TAG, RULE_EMPTY_MESSAGE,
	RULE_COMMIT_LINE_LENGTH, RULE_COMMIT_REF, RULE_REPORTED_LINK, RULE_STABLE_CC,
	RULE_CHANGE_ID,
	/* added lines */
	RULE_TRAILING_WHITESPACE, RULE_SPACE_BEFORE_TAB, RULE_DOS_LINE_ENDING,
	RULE_NO_FINAL_NEWLINE,
	/* the kernel's coding style, on added lines of .c and .h files */
	RULE_CODE_INDENT, RULE_LONG_LINE, RULE_KEYWORD_SPACE, RULE_FUNCTION_BRACE,
	RULE_C99_COMMENT, RULE_NEW_TYPEDEF, RULE_VOLATILE, RULE_ASSIGN_IN_IF,
	RULE_SIZEOF_PAREN, RULE_SIZEOF_ADDRESS,
	/* kernel code */
	RULE_BUG_ON, RULE_PRINTK_LEVEL, RULE_DEBUG_LEFTOVER, RULE_IF_0,
	RULE_ATTRIBUTE_MACRO, RULE_EXPORT_SYMBOL, RULE_SPELLING, RULE_SPDX_LICENSE,
	/* with a tree (--tree) */
	RULE_SIGNATURE_CALLERS, RULE_REMOVED_SYMBOL, RULE_FIXES_COMMIT, RULE_CHECKPATCH,
	/* a series as a whole, in the cover letter's draft */
	RULE_SERIES_GAP, RULE_SERIES_VERSIONS, RULE_SERIES_AUTHOR, RULE_SERIES_SIGNOFF,
	RULE_SERIES_DIFFSTAT,
	RULE_COUNT
};

/* The rule's id, e.g. "subject-length" for RULE_SUBJECT_LENGTH. */
const char *rule_id(enum rule_id rule);

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

/*
 * Does a built-in rule stand for this checkpatch.pl type? Then checkpatch's
 * report is left out. Not for SPACING, OPEN_BRACE and BAD_SIGN_OFF, of
 * which the rules here take only a part.
 */
bool rules_stand_for(const char *checkpatch_type);

/* Prints the table for --list-checks: id, scope, summary, [checkpatch type]. */
void rules_print(FILE *f);

/*
 * Checks the skip_checks and add_checks settings against the table.
 * Returns 0, or -1 after one line on stderr naming where the bad value
 * was set.
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
