/* parts.c: cutting a large patch into parts: whole files, hunks, pieces of hunks. */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "prompt/fence.h"
#include "prompt/parts.h"

static size_t write_lines(const struct patch *p, size_t begin, size_t end, struct buf *b)
{
	size_t n = 0;
	for (size_t i = begin; i < end; i++) {
		if (b)
			prompt_add_fenced(b, p->lines[i].text, p->lines[i].len);
		n += prompt_fenced_bytes(p->lines[i].text, p->lines[i].len);
	}
	return n;
}

/* A piece's own hunk header, "@@ -a,b +c,d @@ func". */
static size_t write_piece_header(const struct patch *p, int32_t hunk, const uint32_t at[4],
				 struct buf *b)
{
	const char *func = p->hunks[hunk].func;
	struct buf line = BUF_INIT;
	buf_addf(&line, "@@ -%u,%u +%u,%u @@%s%s", at[0], at[1], at[2], at[3],
		 *func ? " " : "", func);
	size_t n = prompt_fenced_bytes(line.data, line.len);
	if (b)
		prompt_add_fenced(b, line.data, line.len);
	buf_release(&line);
	return n;
}

/* Where file f's header ends: at its first hunk's header, or at its end. */
static size_t header_end(const struct patch *p, size_t f)
{
	size_t i = p->files[f].first_line;
	while (i < p->files[f].end_line && p->lines[i].kind != LINE_HUNK_HEADER)
		i++;
	return i;
}

/* Writes unit u (to b, or only counts it when b is NULL); first: it opens a part. */
static size_t write_unit(const struct prompt_parts *pp, const struct diff_unit *u, bool first,
			 struct buf *b)
{
	const struct patch *p = pp->patch;
	const struct patch_file *f = &p->files[u->file];
	size_t n = 0;
	/* A part that opens inside a file, and a file's first piece, repeat its header. */
	if ((first || u->file_start) && u->begin != f->first_line)
		n += write_lines(p, f->first_line, header_end(p, (size_t)u->file), b);
	if (u->hunk >= 0) {
		uint32_t at[4] = { u->old_start, u->old_count, u->new_start, u->new_count };
		n += write_piece_header(p, u->hunk, at, b);
	}
	return n + write_lines(p, u->begin, u->end, b);
}

static struct diff_unit *add_unit(struct prompt_parts *pp, size_t *cap)
{
	if (pp->nunits == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		pp->units = xrealloc(pp->units, *cap * sizeof(*pp->units));
	}
	struct diff_unit *u = &pp->units[pp->nunits++];
	*u = (struct diff_unit){ .hunk = -1 };
	return u;
}

/* Where a piece may end well: after a context line, with what it holds so far. */
struct cut {
	size_t line, bytes;
	uint32_t old_no, new_no;
};

/*
 * Hunk h's lines [begin, end) in pieces of at most budget bytes with
 * their header, each ended after its last context line when that keeps
 * at least half of it; a line larger than budget is a piece alone.
 */
static void cut_hunk(struct prompt_parts *pp, size_t *cap, size_t h, size_t begin, size_t end,
		     bool file_start, size_t budget)
{
	const struct patch *p = pp->patch;
	uint32_t widest[4] = { UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX };
	size_t f = (size_t)p->hunks[h].file;
	size_t fixed = write_piece_header(p, (int32_t)h, widest, NULL) +
		write_lines(p, p->files[f].first_line, header_end(p, f), NULL);
	size_t room = budget > fixed ? budget - fixed : 0;
	struct cut at = { begin, 0, p->hunks[h].old_start, p->hunks[h].new_start };
	while (at.line < end) {
		struct cut start = at, good = { 0 };
		at.bytes = 0;
		for (; at.line < end; at.line++) {
			const struct patch_line *l = &p->lines[at.line];
			size_t bytes = prompt_fenced_bytes(l->text, l->len);
			if (at.bytes + bytes > room && at.line > start.line)
				break;
			at.bytes += bytes;
			at.old_no += l->kind == LINE_CONTEXT || l->kind == LINE_REMOVED;
			at.new_no += l->kind == LINE_CONTEXT || l->kind == LINE_ADDED;
			if (l->kind == LINE_CONTEXT)
				good = (struct cut){ at.line + 1, at.bytes, at.old_no, at.new_no };
		}
		if (at.line < end && good.line > start.line && good.bytes >= room / 2)
			at = good;
		struct diff_unit *u = add_unit(pp, cap);
		*u = (struct diff_unit){
			.begin = start.line, .end = at.line, .file = (int32_t)f, .hunk = (int32_t)h,
			.old_start = start.old_no, .old_count = at.old_no - start.old_no,
			.new_start = start.new_no, .new_count = at.new_no - start.new_no,
			.file_start = file_start && start.line == begin,
		};
	}
}

/* File f's units: the file whole when it has no hunks, else each hunk, or its pieces. */
static void cut_file(struct prompt_parts *pp, size_t *cap, size_t f, size_t budget)
{
	const struct patch *p = pp->patch;
	const struct patch_file *file = &p->files[f];
	size_t first = header_end(p, f);
	if (first == file->end_line) {
		struct diff_unit *u = add_unit(pp, cap);
		*u = (struct diff_unit){ file->first_line, file->end_line, (int32_t)f, -1, 0, 0, 0, 0,
					 true };
		return;
	}
	for (size_t h = (size_t)p->lines[first].hunk; h < p->nhunks && p->hunks[h].file == (int32_t)f;
	     h++) {
		bool opens = h == (size_t)p->lines[first].hunk;
		size_t begin = opens ? file->first_line : p->hunks[h].header_line;
		size_t end = h + 1 < p->nhunks && p->hunks[h + 1].file == (int32_t)f ?
			p->hunks[h + 1].header_line : file->end_line;
		struct diff_unit whole = { begin, end, (int32_t)f, -1, 0, 0, 0, 0, opens };
		if (write_unit(pp, &whole, true, NULL) <= budget)
			*add_unit(pp, cap) = whole;
		else
			cut_hunk(pp, cap, h, p->hunks[h].header_line + 1, end, opens, budget);
	}
}

void prompt_parts_cut(struct prompt_parts *pp, const struct patch *p, size_t budget)
{
	size_t cap = 0, vcap = 0;
	*pp = (struct prompt_parts){ .patch = p };
	for (size_t f = 0; f < p->nfiles; f++)
		cut_file(pp, &cap, f, budget);
	for (size_t u = 0; u < pp->nunits; u++) {
		const struct diff_unit *d = &pp->units[u];
		struct prompt_part *last = pp->n ? &pp->v[pp->n - 1] : NULL;
		size_t more = write_unit(pp, d, false, NULL);
		if (last && !last->too_large && last->bytes + more <= budget) {
			last->end_unit = u + 1;
			last->bytes += more;
			continue;
		}
		if (pp->n == vcap) {
			vcap = vcap ? vcap * 2 : 8;
			pp->v = xrealloc(pp->v, vcap * sizeof(*pp->v));
		}
		size_t bytes = write_unit(pp, d, true, NULL);
		pp->v[pp->n++] = (struct prompt_part){
			.first_unit = u, .end_unit = u + 1, .bytes = bytes, .too_large = bytes > budget,
		};
	}
	for (size_t k = 0; k < pp->n; k++) {
		pp->v[k].index = k + 1;
		pp->v[k].count = pp->n;
	}
}

void prompt_parts_release(struct prompt_parts *pp)
{
	free(pp->units);
	free(pp->v);
	*pp = (struct prompt_parts){ 0 };
}

void prompt_part_diff(const struct prompt_parts *pp, size_t k, struct buf *b)
{
	const struct prompt_part *part = &pp->v[k];
	for (size_t u = part->first_unit; u < part->end_unit; u++)
		write_unit(pp, &pp->units[u], u == part->first_unit, b);
}

/* Appends " path" while b stays within limit bytes; false once it would not. */
static bool add_name(struct buf *b, const struct patch *p, int32_t f, size_t limit)
{
	const char *path = patch_file_path(&p->files[f]);
	if (b->len + strlen(path) + 1 > limit)
		return false;
	buf_addf(b, " %s", path);
	return true;
}

void prompt_part_others(const struct prompt_parts *pp, size_t k, size_t max, struct buf *b)
{
	const struct patch *p = pp->patch;
	const struct prompt_part *part = &pp->v[k];
	const struct diff_unit *first = &pp->units[part->first_unit];
	const struct diff_unit *last = &pp->units[part->end_unit - 1];
	size_t limit = b->len + max, named = 0;
	size_t elsewhere = p->nfiles - (size_t)(last->file - first->file) - 1;
	if (elsewhere)
		buf_addstr(b, "; the diffs of these files are in the other parts:");
	for (int32_t f = 0; f < (int32_t)p->nfiles && named < elsewhere; f++) {
		if (f >= first->file && f <= last->file)
			continue;
		if (!add_name(b, p, f, limit)) {
			buf_addf(b, " and %zu more", elsewhere - named);
			break;
		}
		named++;
	}
	bool head = !first->file_start;
	bool tail = part->end_unit < pp->nunits && pp->units[part->end_unit].file == last->file;
	if (!head && !tail)
		return;
	buf_addstr(b, "; some of the diff of these files is in the other parts:");
	if (head)
		add_name(b, p, first->file, limit);
	if (tail && (!head || last->file != first->file))
		add_name(b, p, last->file, limit);
}

/* Hunk numbers within their file, and the lines the units [a, b) of file f cover. */
static void describe_some(const struct prompt_parts *pp, size_t a, size_t b, struct buf *out)
{
	const struct patch *p = pp->patch;
	int32_t f = pp->units[a].file;
	size_t first_hunk = (size_t)p->lines[header_end(p, (size_t)f)].hunk, nhunks = 0;
	while (first_hunk + nhunks < p->nhunks && p->hunks[first_hunk + nhunks].file == f)
		nhunks++;
	size_t lo[2] = { SIZE_MAX, SIZE_MAX }, hi[2] = { 0, 0 }, hunk_lo = SIZE_MAX, hunk_hi = 0;
	for (size_t u = a; u < b; u++) {
		for (size_t i = pp->units[u].begin; i < pp->units[u].end; i++) {
			const struct patch_line *l = &p->lines[i];
			bool old = l->kind == LINE_REMOVED, any = old || l->kind == LINE_ADDED ||
				l->kind == LINE_CONTEXT;
			size_t no = old ? l->old_no : l->new_no;
			if (l->hunk >= 0) {
				hunk_lo = (size_t)l->hunk < hunk_lo ? (size_t)l->hunk : hunk_lo;
				hunk_hi = (size_t)l->hunk > hunk_hi ? (size_t)l->hunk : hunk_hi;
			}
			if (any && no < lo[old])
				lo[old] = no;
			if (any && no > hi[old])
				hi[old] = no;
		}
	}
	if (hunk_lo == SIZE_MAX)
		return;
	buf_addf(out, " (hunk%s %zu", hunk_lo < hunk_hi ? "s" : "", hunk_lo - first_hunk + 1);
	if (hunk_lo < hunk_hi)
		buf_addf(out, "-%zu", hunk_hi - first_hunk + 1);
	buf_addf(out, " of %zu", nhunks);
	bool old = lo[0] == SIZE_MAX;
	if (lo[old] != SIZE_MAX)
		buf_addf(out, ", %slines %zu-%zu", old ? "old " : "", lo[old], hi[old]);
	buf_addch(out, ')');
}

void prompt_parts_describe(const struct prompt_parts *pp, size_t first, size_t end,
			   size_t max, struct buf *b)
{
	const struct patch *p = pp->patch;
	size_t ua = pp->v[first].first_unit, ub = pp->v[end - 1].end_unit, files = 0;
	for (size_t u = ua; u < ub;) {
		size_t v = u;
		while (v < ub && pp->units[v].file == pp->units[u].file)
			v++;
		if (files++ >= max) {
			u = v;
			continue;
		}
		if (files > 1)
			buf_addstr(b, ", ");
		buf_addstr(b, patch_file_path(&p->files[pp->units[u].file]));
		bool whole = pp->units[u].file_start &&
			(v == pp->nunits || pp->units[v].file != pp->units[u].file);
		if (!whole)
			describe_some(pp, u, v, b);
		u = v;
	}
	if (files > max)
		buf_addf(b, " and %zu more files", files - max);
}
