/*
 * files.h: the files one review reads, each once: the patch's files at
 * the base (as the earlier patches of its series leave them) and, where the patch's hunks fit, after the patch (applied in
 * memory), and any other file the context needs, at the base.
 */
#ifndef FILES_H
#define FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csource/clex.h"
#include "patch/patch.h"
#include "repo/read.h"
#include "repo/repo.h"

/*
 * Of the tree's files, the bytes one patch's review takes in (each time a
 * file is named, though it is read once a run); past them, its other
 * files are left out, and the draft's tree note says so.
 */
#define FILES_MAX_PATCH_BYTES ((size_t)16 << 20)

struct tfile {
	char *path;		/* the path at the base (the new path for the patch's files) */
	char *base;		/* the text at the base, or NULL (new, missing, too large) */
	size_t base_len;
	char *post;		/* after the patch, or NULL: deleted, or the hunks did not fit */
	size_t post_len;
	int32_t patch_file;	/* index into patch->files, or -1 */
	int32_t *delta;		/* per hunk: where it landed minus where its header said */
	struct cdefs defs;	/* of tfile_text(), once scanned */
	struct cdefs enumerators;	/* the names in its top-level enums' lists, each at its line */
	bool scanned;
};

struct tree_files {
	const struct tree *tree;
	const char *commit;	/* the base, or NULL for the work tree */
	const struct patch *const *earlier;	/* of the series, applied first in memory */
	size_t nearlier;
	struct tfile **v;	/* each allocated alone: pointers to them stay valid */
	size_t n, cap;
	size_t budget;		/* of FILES_MAX_PATCH_BYTES, what is left */
	bool capped;		/* a file was left out for it */
};

/* The text context is taken from: after the patch when it fit, else the base. */
static inline const char *tfile_text(const struct tfile *f, size_t *leno)
{
	*leno = f->post ? f->post_len : f->base_len;
	return f->post ? f->post : f->base;
}

/*
 * Applies the hunks of p's file fi to text (NULL: an empty file) into
 * *out, each found nearest to where its header says; delta (or NULL, else
 * one per hunk of p) gets where each landed. False when one does not fit,
 * or when finding them would take more than 16 line comparisons for each
 * line of the file and of the hunks (a file of like lines, a hunk that
 * fits nowhere): linear whatever the input.
 */
bool files_apply(const char *text, size_t len, const struct patch *p, size_t fi,
		 int32_t *delta, struct buf *out);

/* Reads p's files at the base and applies their hunks in memory. */
void files_load_patch(struct tree_files *fs, const struct patch *p);

/* The file at path, read at the base on first use (one git run for all of paths). */
struct tfile *files_get(struct tree_files *fs, const char *path);
void files_prefetch(struct tree_files *fs, const char *const *paths, size_t n);

/* f's definitions (scanned once, with its enumerators into f->enumerators). */
const struct cdefs *files_defs(struct tfile *f);

/*
 * The line in tfile_text(f) that patch line l stands for: after the patch
 * for context and added lines (and a removed line's neighbour), at the base
 * otherwise. 0 when unknown.
 */
uint32_t files_line_of(const struct tfile *f, const struct patch *p, size_t l);

void files_release(struct tree_files *fs);

/* [first, last] lines of text (1-based, inclusive) into out. */
void text_lines(struct buf *out, const char *text, size_t len, uint32_t first, uint32_t last);

#endif
