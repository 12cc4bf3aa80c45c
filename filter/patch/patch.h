/*
 * patch.h: the patch model: the text of a mail split into commit message,
 * trailers, notes, diffstat and a unified diff of files and hunks. Knows
 * nothing of MIME. patch/parse.h builds it.
 */
#ifndef PATCH_H
#define PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/str.h"
#include "base/strvec.h"
#include "patch/subject.h"

enum line_kind {
	LINE_MESSAGE,		/* commit message (or the whole text if no diff) */
	LINE_TRAILER,		/* "Signed-off-by: ..." and friends */
	LINE_SEPARATOR,		/* the "---" ending the commit message */
	LINE_NOTES,		/* text after "---" that is not the diffstat */
	LINE_DIFFSTAT,		/* " file | 3 +-" and the summary line */
	LINE_FILE_HEADER,	/* diff --git, index, ---/+++, mode, rename... */
	LINE_HUNK_HEADER,	/* "@@ -a,b +c,d @@ func" */
	LINE_CONTEXT,
	LINE_ADDED,
	LINE_REMOVED,
	LINE_NO_NEWLINE,	/* "\ No newline at end of file" */
	LINE_OTHER,		/* anything else after the diff started */
};

struct patch_line {
	const char *text;	/* NUL-terminated, without the newline */
	uint32_t len;
	uint32_t new_no;	/* new-side line number for context/added lines */
	uint32_t old_no;	/* old-side line number for context/removed lines */
	int32_t file;		/* index into files, or -1 */
	int32_t hunk;		/* index into hunks, or -1 */
	uint8_t kind;		/* enum line_kind */
};

enum {
	FILE_NEW = 1 << 0,
	FILE_DELETED = 1 << 1,
	FILE_RENAMED = 1 << 2,
	FILE_COPIED = 1 << 3,
	FILE_MODE = 1 << 4,
	FILE_BINARY = 1 << 5,
};

struct patch_file {
	char *old_path;		/* without "a/", or NULL for /dev/null */
	char *new_path;		/* without "b/", or NULL for /dev/null */
	char *old_mode, *new_mode;
	char *old_blob;		/* the blob an "index <old>..<new>" line names before the patch, or NULL */
	unsigned flags;
	size_t first_line, end_line;	/* [first, end) in lines */
};

struct patch_hunk {
	size_t header_line, end_line;	/* [header, end) in lines */
	int32_t file;
	uint32_t old_start, old_count, new_start, new_count;
	const char *func;	/* the text after the closing "@@", or "" */
};

struct trailer {
	char *key;		/* as written, e.g. "Signed-off-by" */
	char *value;		/* trimmed; of the first line only */
	size_t line;
};

/*
 * How much of a text is read: lines, files and hunks. Past a limit the rest
 * of the text is neither reviewed nor quoted, and cuts says so.
 */
#define PATCH_MAX_LINES 2000000
#define PATCH_MAX_FILES 10000
#define PATCH_MAX_HUNKS 100000

enum patch_cut {
	PATCH_CUT_LINES = 1 << 0,
	PATCH_CUT_FILES = 1 << 1,
	PATCH_CUT_HUNKS = 1 << 2,
};

/* Appends the sentence for one enum patch_cut bit, for the draft's note and stderr. */
void patch_cut_note(struct buf *out, unsigned cut);

struct patch {
	char *text;		/* owned; lines point into it */
	struct patch_line *lines;
	size_t nlines;
	size_t message_end;	/* lines [0, message_end) are the commit message */
	size_t separator;	/* index of the "---" line, or SIZE_MAX */
	size_t diff_begin;	/* first line of the first file, or nlines */
	struct patch_file *files;
	size_t nfiles;
	struct patch_hunk *hunks;
	size_t nhunks;
	struct trailer *trailers;
	size_t ntrailers;
	struct subject_prefix subject;
	char *inbody_from;	/* "Name <addr>" of a "From:" line opening the body */
	unsigned cuts;		/* enum patch_cut: the limits the text went past */
	/* What the mail states of itself (patch/facts.h); only well-formed values. */
	bool pull_request;	/* it asks to pull ("[GIT PULL]"), not to apply a patch */
	char *base_commit;	/* "base-commit:": 7 to 64 hex digits, lower case; or NULL */
	struct strvec prerequisite_ids;	/* "prerequisite-patch-id:": 40 hex digits each */
	struct strvec prerequisite_msgids;	/* "prerequisite-message-id:": without <> */
};

void patch_release(struct patch *p);

static inline bool patch_line_starts(const struct patch_line *l, const char *prefix)
{
	return starts_with(l->text, prefix);
}

static inline bool patch_line_is_blank(const struct patch_line *l)
{
	return strspn(l->text, " \t\r") == l->len;
}

static inline bool patch_has_diff(const struct patch *p)
{
	return p->nfiles > 0;
}

/*
 * Where the sender's signature ("-- ") or a mailing list's footer (a rule
 * of underscores) begins: after the diff in a patch, anywhere in other
 * mail. The first line not to quote; nlines when there is none.
 */
size_t patch_footer(const struct patch *p);

/* The path a reviewer means: the new path, or the old one for deletions. */
const char *patch_file_path(const struct patch_file *f);

#endif
