/*
 * tree.h: reviewing with the maintainer's git work tree (--tree, tree =).
 * The one entry to tree/. For a patch it finds the base to read (the
 * mail's base-commit when the tree has it, else the work tree), checks
 * whether the patch applies there, and gathers the code around the
 * change: the changed functions whole, after the patch; the definitions
 * the added lines use; the callers of functions whose signature or
 * results change. It finds what only a tree shows (callers left behind,
 * removed names still used) and, when the user trusts the tree's code,
 * runs its checkpatch.pl. The tree is only read: nothing is written into
 * it or its git directory.
 */
#ifndef TREE_H
#define TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "code/outcome.h"
#include "patch/patch.h"

struct tree;

/*
 * Opens the git work tree at dir (or the one dir is in). Returns NULL
 * after one line on stderr when it is not one.
 */
struct tree *tree_open(const char *dir, bool quiet);
void tree_close(struct tree *t);

/* The absolute path of the work tree. */
const char *tree_top(const struct tree *t);


/* Where a patch stands in its series. */
struct tree_series_place {
	const struct patch *facts;	/* whose base-commit: speaks for the series, or NULL */
	/*
	 * The patches before it, in order: first the series' prerequisites
	 * found among the messages on hand (prereq/prereq.h), nprereqs of
	 * them, then the series' own.
	 */
	const struct patch *const *earlier;
	size_t nearlier;
	size_t nprereqs;
	const char *prereqs_from;	/* where they were found, e.g. "the list folder" */
	const char *prereqs_missing;	/* those not found, named; or NULL */
	const struct patch *const *all;	/* the whole series, whose base is guessed once */
	size_t nall;
};

/*
 * Reviews p against t into *tr. place (NULL for a lone patch): p takes the
 * series' base when it names none, is checked on top of the earlier
 * patches, and its files are read as they leave them; when those do not
 * apply, p is checked against the base alone and the note says so.
 * want_context: also gather the context items (only the model uses them).
 * Never fails: what cannot be had is left out, and the note says what was
 * used.
 */
void tree_review_patch(struct tree *t, const struct patch *p,
		       const struct tree_series_place *place, bool want_context,
		       struct tree_review *tr);
void tree_review_release(struct tree_review *tr);

/*
 * For the verify pass: the definitions, found in the tree, of the
 * identifiers in text (a finding's quote and comment) about file path,
 * appended to out as "title\ncode\n" blocks, up to budget bytes.
 */
void tree_definitions(const struct tree_review *tr, const char *path, const char *text,
		      size_t budget, struct buf *out);

/*
 * The subject of the commit id (7 to 64 hex digits) names in the tree, into
 * *subject. Returns 1 when the tree has that commit, 0 when it has not (or
 * the id is ambiguous), -1 with the reason in *why when git could not be run.
 */
int tree_commit_subject(const struct tree_review *tr, const char *id, struct buf *subject,
			struct buf *why);

/* One report of the tree's scripts/checkpatch.pl. */
struct checkpatch_report {
	unsigned long line;	/* 1-based line of the text checkpatch was given */
	char level;		/* 'E'rror, 'W'arning, 'C'heck */
	char *type;		/* e.g. "LONG_LINE" */
	char *message;
};

/* The tree's checkpatch.pl runs of one run take this many seconds in all. */
#define CHECKPATCH_SECONDS 60.0

/* One run of the tree's checkpatch.pl over the mails of a series, in the background. */
struct checkpatch_job;

/*
 * Starts the tree's scripts/checkpatch.pl, when it is there and
 * executable, on the n mails texts[k] (as git format-patch writes them;
 * an empty one is left out), all in one run of it, in the background.
 * Returns the job for tree_checkpatch_finish(); or NULL, with nothing in
 * *why when the tree has no checkpatch.pl (or no mail was given), else
 * the reason (it could not be started, or the run's time for it is spent).
 */
struct checkpatch_job *tree_checkpatch_start(struct tree *t, const struct buf *texts, size_t n,
					     struct buf *why);

/*
 * Waits for the job, up to what is left of CHECKPATCH_SECONDS this run
 * (then kills it), and frees it. The reports on mail k go into v[k] and
 * nv[k] (v and nv with room for the n mails; free each with
 * checkpatch_reports_free). Returns 0, or -1 with the reason in *why and
 * no reports.
 */
int tree_checkpatch_finish(struct checkpatch_job *j, struct checkpatch_report **v, size_t *nv,
			   struct buf *why);
void checkpatch_reports_free(struct checkpatch_report *v, size_t n);

/*
 * The review notes the tree keeps for AI tools: the sections of its
 * AGENTS.md whose heading mentions review, or NULL. Caller frees.
 */
char *tree_agents_notes(const struct tree *t);

/*
 * The tree's own files beside the code (.patchreview/ guides), read as
 * git tracks them in the work tree (repo/tracked.h): the names of the
 * tracked files directly in the folder dir into *names; and one file's
 * text, up to max bytes (0, or -1 with errno: ENOENT, EFBIG).
 */
void tree_list_tracked(const struct tree *t, const char *dir, struct strvec *names);
int tree_read_tracked(const struct tree *t, const char *path, size_t max, struct buf *out);

#endif
