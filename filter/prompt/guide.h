/*
 * guide.h: the prompt files. "core" is the system prompt; every other file
 * is a guide opening with a trigger header ("key: value" lines up to the
 * first blank line; see prompts/README). Files are looked up name by name
 * in the user's directory, then the .patchreview/ folder of the
 * maintainer's tree (--tree; its tracked files only), then the source tree next to the binary when
 * it runs uninstalled, then the installed set; the first one found wins,
 * and an empty file disables that name. A tree cannot replace core (the
 * answer format), and the review sections of its AGENTS.md come as one
 * more guide, always sent.
 */
#ifndef GUIDE_H
#define GUIDE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "config/config.h"

struct tree;

struct guide {
	char *name;		/* the file name */
	const char *dir;	/* where it was found: one of prompt_files.dirs */
	char *title;
	char *text;		/* after the trigger header, trimmed */
	struct strvec paths;
	struct strvec symbols;
	regex_t *regex;		/* one per regex_text */
	struct strvec regex_text;
	bool always;
	bool series;		/* "series: yes": when the patch is reviewed with its series */
	bool thread;		/* "thread: yes": when the thread already holds comments on it */
	int kernel;		/* "kernel: no" -1: never for a kernel patch; "yes" 1: only for one; 0 */
	bool disabled;		/* an empty file */
};

struct prompt_files {
	char *dirs[4];		/* searched, in precedence order; NULL when unused */
	char *core;		/* the core text, or NULL when no core file exists */
	const char *core_dir;
	struct guide *guides;	/* sorted by name */
	size_t nguides;
	const struct tree *tree;	/* whose .patchreview/ is dirs[GUIDE_DIR_TREE], or NULL */
};

/* The index of the tree's .patchreview/ in prompt_files.dirs. */
#define GUIDE_DIR_TREE 1
/* The name of the guide made of the tree's AGENTS.md review sections. */
#define GUIDE_AGENTS "AGENTS.md"

/*
 * Parses the text of a guide file into g, whose name is set: the trigger
 * header, line by line up to the first blank line, then the guide text,
 * which may not be empty. Returns 0, or -1 with the reason (and the line)
 * in *why; release g either way.
 */
int guide_parse(struct guide *g, const char *text, size_t len, struct buf *why);
void guide_release(struct guide *g);

/*
 * Loads the files for config c and the tree (or NULL), whose .patchreview/
 * and AGENTS.md are read as git tracks them: no untracked file, no link
 * followed. A guide file that does not parse is one warning naming it, and
 * is skipped. Returns 0, or -1 with the reason in *why when there is no
 * core file. Release pf either way.
 */
int prompt_files_load(struct prompt_files *pf, const struct config *c, const struct tree *tree,
		      struct buf *why);
void prompt_files_release(struct prompt_files *pf);

#endif
