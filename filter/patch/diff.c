/*
 * diff.c: the unified diff: files with their names, modes and status,
 * hunks with their line numbers.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/buf.h"
#include "patch/diff.h"
#include "patch/quoted.h"
#include "patch/start.h"

static uint32_t parse_number(const char **s)
{
	unsigned long v = strtoul(*s, (char **)s, 10);
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* "@@ -a,b +c,d @@ func" -> hunk fields. Returns -1 when malformed. */
static int parse_hunk_header(struct patch_hunk *h, const char *s)
{
	s += 3;
	if (*s++ != '-' || !isdigit((unsigned char)*s))
		return -1;
	h->old_start = parse_number(&s);
	h->old_count = 1;
	if (*s == ',') {
		s++;
		h->old_count = parse_number(&s);
	}
	if (*s++ != ' ' || *s++ != '+' || !isdigit((unsigned char)*s))
		return -1;
	h->new_start = parse_number(&s);
	h->new_count = 1;
	if (*s == ',') {
		s++;
		h->new_count = parse_number(&s);
	}
	if (strncmp(s, " @@", 3))
		return -1;
	s += 3;
	while (*s == ' ')
		s++;
	h->func = s;
	return 0;
}

/* What of a path in a header is not the path: nothing, git's "a/" or "b/", or any first directory. */
enum strip { STRIP_NONE, STRIP_A, STRIP_B, STRIP_FIRST };

/* The path without what how says is not part of it; the path when that is not there. */
static char *strip_path(const char *s, size_t len, enum strip how)
{
	const char *slash = memchr(s, '/', len);
	bool strip = how == STRIP_FIRST ? slash != NULL :
		how != STRIP_NONE && len > 2 && s[0] == (how == STRIP_A ? 'a' : 'b') && s[1] == '/';
	if (strip) {
		len -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	return xstrndup(s, len);
}

/*
 * a/foo/bar.c<TAB>2024-01-01 ..., or git's "a/f\303\251.c" (quoted.h):
 * the path without what how strips; NULL for /dev/null.
 */
static char *header_path(const char *s, enum strip how)
{
	struct buf quoted = BUF_INIT;
	size_t took = patch_unquote(s, strlen(s), &quoted);
	if (took && strspn(s + took, " \t\r") == strlen(s + took)) {
		char *path = strip_path(quoted.data, quoted.len, how);
		buf_release(&quoted);
		return path;
	}
	buf_release(&quoted);
	const char *end = strchr(s, '\t');
	size_t len = end ? (size_t)(end - s) : strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\r'))
		len--;
	if (len == 9 && !memcmp(s, "/dev/null", 9))
		return NULL;
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"')
		s++, len -= 2;	/* quoted, but not as git quotes */
	return strip_path(s, len, how);
}

static void set_path(char **slot, char *path)
{
	free(*slot);
	*slot = path;
}

/*
 * diff --git "a/f\303\251.c" "b/f\303\251.c": names git quoted, each read
 * whole. Returns false unless both are quoted (a rename of a plain name to
 * a quoted one is named again by its "rename from" and "rename to" lines).
 */
static bool parse_quoted_names(struct patch_file *f, const char *s, size_t len)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	size_t first = patch_unquote(s, len, &a);
	bool ok = first && first + 1 < len && s[first] == ' ' &&
		patch_unquote(s + first + 1, len - first - 1, &b) == len - first - 1;
	bool prefixed = a.len > 2 && b.len > 2 && !memcmp(a.data, "a/", 2) &&
		!memcmp(b.data, "b/", 2);
	if (ok) {
		f->old_path = strip_path(a.data, a.len, prefixed ? STRIP_A : STRIP_NONE);
		f->new_path = strip_path(b.data, b.len, prefixed ? STRIP_B : STRIP_NONE);
	}
	buf_release(&a);
	buf_release(&b);
	return ok;
}

/* "diff --git a/x b/x", or "x x" from --no-prefix: both names, when they can be told apart. */
static void parse_git_names(struct patch_file *f, const char *s)
{
	size_t len = strlen(s);
	while (len && s[len - 1] == '\r')
		len--;
	if (s[0] == '"' && parse_quoted_names(f, s, len))
		return;
	size_t half = len / 2;
	if (len >= 3 && len % 2 == 1 && s[half] == ' ') {
		const char *a = s, *b = s + half + 1;
		size_t n = half;
		if (n > 2 && !strncmp(a, "a/", 2) && !strncmp(b, "b/", 2))
			a += 2, b += 2, n -= 2;
		if (!memcmp(a, b, n)) {
			f->old_path = xstrndup(a, n);
			f->new_path = xstrndup(a, n);
			return;
		}
	}
	const char *b = strstr(s, " b/");
	if (!strncmp(s, "a/", 2) && b) {
		f->old_path = xstrndup(s + 2, (size_t)(b - s - 2));
		f->new_path = xstrndup(b + 3, len - (size_t)(b + 3 - s));
	}
}

/* "Binary files a/x and b/x differ" (diff -r): a binary file and its names. */
static void parse_binary_names(struct patch_file *f, const char *s)
{
	const char *names = s + strlen("Binary files ");
	const char *and = strstr(names, " and ");
	const char *differ = and ? strstr(and + 5, " differ") : NULL;
	f->flags |= FILE_BINARY;
	if (!differ)
		return;
	char *old = xstrndup(names, (size_t)(and - names));
	char *new = xstrndup(and + 5, (size_t)(differ - and - 5));
	f->old_path = header_path(old, STRIP_FIRST);
	f->new_path = header_path(new, STRIP_FIRST);
	if (!f->old_path)
		f->flags |= FILE_NEW;
	if (!f->new_path)
		f->flags |= FILE_DELETED;
	free(old);
	free(new);
}

/* "<old>..<new>[ mode]": the pre-image blob (abbreviated, 7 to 64 hex digits) and the mode. */
static void index_line(struct patch_file *f, const char *rest)
{
	size_t n = strspn(rest, "0123456789abcdef");
	if (n >= 7 && n <= 64 && !strncmp(rest + n, "..", 2))
		set_path(&f->old_blob, xstrndup(rest, n));
	if (strchr(rest, ' ') && !f->new_mode)
		set_path(&f->new_mode, xstrdup(strchr(rest, ' ') + 1));
}

/* One extended header line of a git diff. Returns false if it is none. */
static bool parse_git_header(struct patch_file *f, const struct patch_line *l)
{
	static const struct { const char *prefix; unsigned flag; } flags[] = {
		{ "new file mode ", FILE_NEW }, { "deleted file mode ", FILE_DELETED },
		{ "rename from ", FILE_RENAMED }, { "rename to ", FILE_RENAMED },
		{ "copy from ", FILE_COPIED }, { "copy to ", FILE_COPIED },
		{ "old mode ", FILE_MODE }, { "new mode ", FILE_MODE },
		{ "similarity index ", 0 }, { "dissimilarity index ", 0 }, { "index ", 0 },
		{ "Binary files ", FILE_BINARY }, { "GIT binary patch", FILE_BINARY },
	};
	for (size_t i = 0; i < sizeof(flags) / sizeof(*flags); i++) {
		if (!patch_line_starts(l, flags[i].prefix))
			continue;
		const char *rest = l->text + strlen(flags[i].prefix);
		f->flags |= flags[i].flag;
		if (patch_line_starts(l, "rename to ") || patch_line_starts(l, "copy to "))
			set_path(&f->new_path, header_path(rest, STRIP_NONE));
		else if (patch_line_starts(l, "rename from ") || patch_line_starts(l, "copy from "))
			set_path(&f->old_path, header_path(rest, STRIP_NONE));
		else if (patch_line_starts(l, "old mode "))
			set_path(&f->old_mode, xstrdup(rest));
		else if (patch_line_starts(l, "new mode ") || patch_line_starts(l, "new file mode "))
			set_path(&f->new_mode, xstrdup(rest));
		else if (patch_line_starts(l, "index "))
			index_line(f, rest);
		return true;
	}
	return false;
}

/* Room for one more of n items: the array doubles when n is a power of two. */
static void *grow(void *v, size_t n, size_t size)
{
	return n & (n - 1) ? v : xrealloc(v, (n ? 2 * n : 1) * size);
}

static struct patch_file *new_file(struct patch *p, size_t line)
{
	p->files = grow(p->files, p->nfiles, sizeof(*p->files));
	struct patch_file *f = &p->files[p->nfiles++];
	memset(f, 0, sizeof(*f));
	f->first_line = f->end_line = line;
	return f;
}

/*
 * Reads the hunk whose header is at line i; returns the line after it.
 * A hunk that ends before its counts say is left short: the caller's
 * corrupt-hunk check sees that in the counts.
 */
static size_t parse_hunk(struct patch *p, size_t i)
{
	struct patch_hunk h = { .header_line = i, .file = (int32_t)p->nfiles - 1 };
	if (parse_hunk_header(&h, p->lines[i].text) < 0) {
		p->lines[i].kind = LINE_OTHER;
		return i + 1;
	}
	p->hunks = grow(p->hunks, p->nhunks, sizeof(*p->hunks));
	int32_t hunk = (int32_t)p->nhunks++;
	p->lines[i].kind = LINE_HUNK_HEADER;
	p->lines[i].file = h.file;
	p->lines[i].hunk = hunk;
	uint32_t old_left = h.old_count, new_left = h.new_count;
	uint32_t old_no = h.old_start, new_no = h.new_start;
	for (i++; i < p->nlines; i++) {
		struct patch_line *l = &p->lines[i];
		char c = l->text[0];
		if (c == '\\' && i > h.header_line + 1) {
			l->kind = LINE_NO_NEWLINE;
		} else if (!old_left && !new_left) {
			break;
		} else if (c == '+' && new_left) {
			l->kind = LINE_ADDED;
			l->new_no = new_no++;
			new_left--;
		} else if (c == '-' && old_left) {
			l->kind = LINE_REMOVED;
			l->old_no = old_no++;
			old_left--;
		} else if ((c == ' ' || (c == '\0' && l->len == 0)) && old_left && new_left) {
			/* An empty line is context whose space a mailer ate. */
			l->kind = LINE_CONTEXT;
			l->old_no = old_no++;
			l->new_no = new_no++;
			old_left--;
			new_left--;
		} else {
			break;
		}
		l->file = h.file;
		l->hunk = hunk;
	}
	h.end_line = i;
	p->hunks[hunk] = h;
	return i;
}

static void mark_header(struct patch *p, size_t i)
{
	p->lines[i].kind = LINE_FILE_HEADER;
	p->lines[i].file = (int32_t)p->nfiles - 1;
}

/* "--- a/x" and "+++ b/x" at line i name the current file. */
static void parse_unified_names(struct patch *p, struct patch_file *f, size_t i, bool git)
{
	const struct patch_line *minus = &p->lines[i], *plus = &p->lines[i + 1];
	char *old = header_path(minus->text + 4, git ? STRIP_A : STRIP_FIRST);
	char *new = header_path(plus->text + 4, git ? STRIP_B : STRIP_FIRST);
	if (!old)
		f->flags |= FILE_NEW;
	if (!new)
		f->flags |= FILE_DELETED;
	set_path(&f->old_path, old);
	set_path(&f->new_path, new);
	mark_header(p, i);
	mark_header(p, i + 1);
}

/*
 * Ends the current file at line end. A "file" with no name, no hunk and
 * no binary or mode change was prose that looked like a diff header
 * ("diff -u output of the old version:"): its lines are other, not a file.
 */
static void end_file(struct patch *p, struct patch_file *f, size_t end)
{
	int32_t index = (int32_t)(f - p->files);
	bool hunks = p->nhunks && p->hunks[p->nhunks - 1].file == index;
	f->end_line = end;
	if (f->old_path || f->new_path || hunks || (f->flags & (FILE_BINARY | FILE_MODE)))
		return;
	for (size_t i = f->first_line; i < end; i++) {
		p->lines[i].kind = LINE_OTHER;
		p->lines[i].file = -1;
	}
	free(f->old_mode);
	free(f->new_mode);
	free(f->old_blob);
	p->nfiles--;
}

/*
 * Walks the diff. A file starts where patch_starts_file() says, unless the
 * header lines that name the current file (---/+++) are still awaited.
 */
void patch_parse_diff(struct patch *p)
{
	struct patch_file *f = NULL;
	bool awaiting_names = false, git = false;
	size_t i = p->diff_begin;
	while (i < p->nlines) {
		struct patch_line *l = &p->lines[i];
		bool git_line = patch_line_starts(l, "diff --git ");
		bool index = patch_line_starts(l, "Index: ");
		bool unified = i + 1 < p->nlines && patch_line_starts(l, "--- ") &&
			       patch_line_starts(&p->lines[i + 1], "+++ ");
		bool starts = patch_starts_file_at(p, i) && (git_line || index || !awaiting_names);
		unsigned cut = starts && p->nfiles == PATCH_MAX_FILES ? PATCH_CUT_FILES :
			patch_line_starts(l, "@@ ") && p->nhunks == PATCH_MAX_HUNKS ? PATCH_CUT_HUNKS : 0;
		if (cut) {
			/* The rest is not read: neither reviewed nor quoted. */
			p->cuts |= cut;
			p->nlines = i;
			break;
		}
		if (starts) {
			if (f)
				end_file(p, f, i);
			f = new_file(p, i);
			git = git_line;
			awaiting_names = !unified;
			if (git_line)
				parse_git_names(f, l->text + 11);
			if (patch_line_starts(l, "Binary files ")) {
				parse_binary_names(f, l->text);
				awaiting_names = false;
			}
		}
		if (f && unified && (awaiting_names || i == f->first_line)) {
			parse_unified_names(p, f, i, git);
			awaiting_names = false;
			i += 2;
		} else if (f && patch_line_starts(l, "@@ ")) {
			awaiting_names = false;
			i = parse_hunk(p, i);
		} else if (f && (i == f->first_line ||
				 (awaiting_names && (!git || parse_git_header(f, l))) ||
				 ((f->flags & FILE_BINARY) && git && !patch_line_starts(l, "-- ")))) {
			mark_header(p, i++);
		} else {
			l->kind = LINE_OTHER;
			awaiting_names = false;
			i++;
		}
	}
	if (f)
		end_file(p, f, p->nlines);
	for (size_t k = 0; k < p->nfiles; k++)
		if (!p->files[k].new_path && !p->files[k].old_path)
			p->files[k].new_path = xstrdup("(unknown)");
}
