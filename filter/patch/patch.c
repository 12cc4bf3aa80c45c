/* patch.c: the patch model: releasing it, and what its lines say of themselves. */
#include <stdlib.h>
#include <string.h>

#include "patch/patch.h"

void patch_release(struct patch *p)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		free(p->files[i].old_path);
		free(p->files[i].new_path);
		free(p->files[i].old_mode);
		free(p->files[i].new_mode);
		free(p->files[i].old_blob);
	}
	for (size_t i = 0; i < p->ntrailers; i++) {
		free(p->trailers[i].key);
		free(p->trailers[i].value);
	}
	free(p->files);
	free(p->hunks);
	free(p->trailers);
	free(p->lines);
	free(p->inbody_from);
	free(p->base_commit);
	strvec_clear(&p->prerequisite_ids);
	strvec_clear(&p->prerequisite_msgids);
	free(p->text);
	subject_release(&p->subject);
	memset(p, 0, sizeof(*p));
}

size_t patch_footer(const struct patch *p)
{
	/* In a patch, "-- " in the commit message is text; git's signature follows the diff. */
	for (size_t i = patch_has_diff(p) ? p->diff_begin : 0; i < p->nlines; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->kind != LINE_MESSAGE && l->kind != LINE_NOTES && l->kind != LINE_OTHER)
			continue;
		bool sig = l->len == 3 && !memcmp(l->text, "-- ", 3);
		bool rule = l->len >= 5 && strspn(l->text, "_") == l->len;
		if (sig || rule)
			return i;
	}
	return p->nlines;
}

const char *patch_file_path(const struct patch_file *f)
{
	return f->new_path ? f->new_path : f->old_path;
}

void patch_cut_note(struct buf *out, unsigned cut)
{
	if (cut == PATCH_CUT_LINES)
		buf_addf(out, "the mail text has more than %d lines; the rest was not read",
			 PATCH_MAX_LINES);
	else if (cut == PATCH_CUT_FILES)
		buf_addf(out, "the patch changes more than %d files; the rest was not read",
			 PATCH_MAX_FILES);
	else if (cut == PATCH_CUT_HUNKS)
		buf_addf(out, "the patch has more than %d hunks; the rest was not read",
			 PATCH_MAX_HUNKS);
}
