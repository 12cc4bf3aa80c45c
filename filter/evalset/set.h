/*
 * set.h: the evaluation set of a repository, kept in the run directory.
 * Bug cases are commits that a later Fixes: trailer names; clean cases are
 * commits of similar size and age that none names. Each case is its
 * git format-patch mail (cases/NAME.eml), a bug case also has its truth
 * (cases/NAME.truth); set.tsv lists them and what the set was built from,
 * so that a later run with the same parameters takes the set as it is.
 */
#ifndef EVALSET_SET_H
#define EVALSET_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "evalset/history.h"

enum case_kind { CASE_BUG, CASE_CLEAN };

struct eval_case {
	char name[32];		/* case00, case01...: in an order that tells nothing */
	char sha[SHA_HEX + 1];
	enum case_kind kind;
	char *subject;
};

struct set_params {
	const char *repo;
	const char *since;	/* a git date, or NULL */
	long count;		/* bug cases wanted */
	long clean;		/* clean cases wanted */
	size_t max_mail;	/* larger mails are left out */
};

struct eval_set {
	char *dir;		/* the run directory */
	char *repo;		/* absolute */
	char *head;		/* HEAD when the set was built: later history ends there */
	char *since;
	long count, clean;
	struct eval_case *cases;
	size_t ncases;
};

/*
 * Takes the set in dir when it was built from the same parameters, or
 * builds it there. Returns 0; -1 after one line on stderr.
 */
int set_open(struct eval_set *s, const char *dir, const struct set_params *p);
void set_release(struct eval_set *s);

/* "dir/cases/NAME.ext"; caller frees. */
char *set_case_path(const struct eval_set *s, const struct eval_case *k, const char *ext);

#endif
