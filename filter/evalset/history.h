/*
 * history.h: what the evaluation set is drawn from in a repository's
 * history: the commits that later Fixes: trailers name, the facts of a
 * commit (parents, date, subject), and a sample of the other commits.
 * Samples are taken in commit id order: ids are uniform hashes, so that is
 * a fair, repeatable sample that stays put as the history grows.
 */
#ifndef EVALSET_HISTORY_H
#define EVALSET_HISTORY_H

#include <stddef.h>

#include "base/strvec.h"

#define SHA_HEX 40

/* A commit named by a Fixes: trailer, and the commit whose trailer it is. */
struct fix_pair {
	char bug[SHA_HEX + 1], fix[SHA_HEX + 1];
};

struct fix_pairs {
	struct fix_pair *v;	/* sorted by bug, then fix */
	size_t n;
};

struct commit_info {
	char sha[SHA_HEX + 1];
	int parents;
	long long time;		/* committer date, seconds since the epoch */
	char *subject;		/* one line, tabs as spaces */
};

struct commit_infos {
	struct commit_info *v;	/* in git's order */
	size_t n, cap;
};

/*
 * The Fixes: trailers of the commits reachable from HEAD (since since, a
 * git date, when not NULL), their commit ids resolved; ids that do not
 * name one commit are left out. scratch is a file path it may use.
 * Returns 0, or -1 after one line on stderr.
 */
int history_fixes(const char *repo, const char *since, const char *scratch,
		  struct fix_pairs *out);
void fix_pairs_release(struct fix_pairs *p);

/* The facts of the commits shas. Returns 0, or -1 after one line on stderr. */
int history_infos(const char *repo, const struct strvec *shas, const char *scratch,
		  struct commit_infos *out);
/* The facts of sha, or NULL when git did not give them. */
const struct commit_info *commit_infos_find(const struct commit_infos *c, const char *sha);
void commit_infos_release(struct commit_infos *c);

/*
 * Up to max commits with one parent reachable from HEAD, committed in
 * [from, to] (seconds; 0 for no bound), other than those in the sorted
 * exclude, with the smallest ids, into *out in id order. Returns 0 or -1.
 */
int history_sample(const char *repo, long long from, long long to,
		   const struct fix_pairs *exclude, size_t max, struct strvec *out);

#endif
