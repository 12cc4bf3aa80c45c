/* place.c: where each finding is, in reading order, and the JSON printer of the formats. */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/text.h"
#include "output/output.h"
#include "output/place.h"

/* The names --format json gives enum line_kind. */
static const char *const kind_names[] = {
	[LINE_MESSAGE] = "message",
	[LINE_TRAILER] = "trailer",
	[LINE_SEPARATOR] = "separator",
	[LINE_NOTES] = "notes",
	[LINE_DIFFSTAT] = "diffstat",
	[LINE_FILE_HEADER] = "file-header",
	[LINE_HUNK_HEADER] = "hunk-header",
	[LINE_CONTEXT] = "context",
	[LINE_ADDED] = "added",
	[LINE_REMOVED] = "removed",
	[LINE_NO_NEWLINE] = "no-newline",
	[LINE_OTHER] = "other",
};

void output_print_json(FILE *out, cJSON *root, bool pretty)
{
	char *text = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
	if (!text)
		die_nomem();
	fputs(text, out);
	fputc('\n', out);
	cJSON_free(text);
	cJSON_Delete(root);
}

static int by_place(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	size_t lx = x->finding->line, ly = y->finding->line;
	if (lx != ly)	/* FINDING_WHOLE sorts first */
		return lx == FINDING_WHOLE ? -1 : ly == FINDING_WHOLE ? 1 : lx < ly ? -1 : 1;
	return x->finding < y->finding ? -1 : x->finding > y->finding;
}

struct placed *place_findings(const struct output_patch *op, size_t *no)
{
	const struct review *r = op->review;
	const struct patch *p = op->patch;
	struct placed *v = xcalloc(r->nfindings + 1, sizeof(*v));
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct finding *f = &r->findings[i];
		struct placed *pl = &v[i];
		pl->finding = f;
		if (f->line == FINDING_WHOLE || f->line >= p->nlines)
			continue;
		const struct patch_line *l = &p->lines[f->line];
		pl->line = l;
		pl->kind = kind_names[l->kind];
		if (l->file >= 0)
			pl->file = patch_file_path(&p->files[l->file]);
		if (l->kind == LINE_ADDED || l->kind == LINE_CONTEXT)
			pl->new_no = l->new_no;
		if (l->kind == LINE_REMOVED || l->kind == LINE_CONTEXT)
			pl->old_no = l->old_no;
	}
	qsort(v, r->nfindings, sizeof(*v), by_place);
	*no = r->nfindings;
	return v;
}

void place_where(struct buf *out, const struct placed *f)
{
	if (f->file) {
		text_clean(out, f->file, strlen(f->file), TEXT_ONE_LINE);
		if (f->new_no)
			buf_addf(out, ":%lu", f->new_no);
	} else if (f->line) {
		unsigned k = f->line->kind;
		buf_addstr(out, k == LINE_MESSAGE || k == LINE_TRAILER ? "commit message" : "notes");
	}
}

bool place_is_model(const struct placed *f)
{
	return !strcmp(f->finding->source, FINDING_MODEL);
}
