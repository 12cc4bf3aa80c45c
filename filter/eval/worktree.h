/*
 * worktree.h: patchreview eval --tree. Each review slot has a detached git
 * work tree of the repository under evaluation, checked out at the parent
 * of the case it reviews, so the review reads the code as the patch's
 * author had it. There are at most --jobs of them, under the run directory,
 * reused from case to case and removed at the end of the run.
 */
#ifndef EVAL_WORKTREE_H
#define EVAL_WORKTREE_H

#include <stddef.h>

/* "RUNDIR/trees/SLOT", absolute; caller frees. */
char *worktree_path(const char *run_dir, size_t slot);

/*
 * Puts the work tree at path at the parent of commit sha: adds it to repo
 * when it is not there yet, else checks the parent out in it, discarding
 * anything changed there. Hooks are off. Returns 0, or -1 after one line
 * on stderr.
 */
int worktree_at_parent(const char *repo, const char *path, const char *sha);

/* Removes the work tree at path from repo, when there is one. */
void worktree_remove(const char *repo, const char *path);

#endif
