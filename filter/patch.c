/*
 * patch.c: splits the text of a patch mail into commit message, trailers,
 * notes, diffstat and unified diff (files, hunks, line numbers).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msg.h"
#include "patch.h"
#include "text.h"

static bool starts(const struct patch_line *l, const char *prefix)
{
	size_t n = strlen(prefix);
	return l->len >= n && !memcmp(l->text, prefix, n);
}

/* Splits text into NUL-terminated lines, in place. */
static void split_lines(struct patch *p, char *text, size_t len)
{
	size_t cap = 64;
	p->lines = xmalloc(cap * sizeof(*p->lines));
	char *s = text, *end = text + len;
	while (s < end) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		char *e = nl ? nl : end;
		if (p->nlines == cap) {
			cap *= 2;
			p->lines = xrealloc(p->lines, cap * sizeof(*p->lines));
		}
		*e = '\0';
		p->lines[p->nlines++] = (struct patch_line){
			.text = s, .len = (uint32_t)(e - s), .file = -1, .hunk = -1,
			.kind = LINE_MESSAGE,
		};
		s = e + 1;
	}
}

/* A "--- a" line followed by "+++ b": the header of a plain unified diff. */
static bool is_unified_header(const struct patch *p, size_t i)
{
	return i + 1 < p->nlines && starts(&p->lines[i], "--- ") &&
	       starts(&p->lines[i + 1], "+++ ");
}

/* Does a file start at line i: git, "diff -u", Index:/svn, or bare ---/+++? */
static bool starts_file(const struct patch *p, size_t i)
{
	const struct patch_line *l = &p->lines[i];
	if (starts(l, "diff --git "))
		return true;
	/* "diff -u a b" output goes on with "--- a"; prose about diff -u does not. */
	if (starts(l, "diff -") && i + 1 < p->nlines && starts(&p->lines[i + 1], "--- "))
		return true;
	if (starts(l, "Index: ") && i + 1 < p->nlines && starts(&p->lines[i + 1], "===="))
		return true;
	return is_unified_header(p, i) && i + 2 < p->nlines && starts(&p->lines[i + 2], "@@ ");
}

static bool is_separator(const struct patch_line *l)
{
	return starts(l, "---") && strspn(l->text + 3, " \t\r") == l->len - 3;
}

static bool is_blank(const struct patch_line *l)
{
	return strspn(l->text, " \t\r") == l->len;
}

/* "Key-Name: value" with a key of letters, digits and dashes. */
static size_t trailer_key_len(const struct patch_line *l)
{
	size_t i = 0;
	if (!isalpha((unsigned char)l->text[0]))
		return 0;
	while (isalnum((unsigned char)l->text[i]) || l->text[i] == '-')
		i++;
	return l->text[i] == ':' && (l->text[i + 1] == ' ' || !l->text[i + 1]) ? i : 0;
}

static bool is_known_trailer(const char *key, size_t len)
{
	static const char *const known[] = {
		"Signed-off-by", "Reviewed-by", "Acked-by", "Tested-by", "Reported-by",
		"Suggested-by", "Co-developed-by", "Fixes", "Link", "Closes", "Cc",
		"Reported-and-tested-by", "Message-ID", "Change-Id", "Assisted-by",
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (strlen(known[i]) == len && !strncasecmp(key, known[i], len))
			return true;
	return false;
}

static void add_trailer(struct patch *p, size_t line, size_t keylen)
{
	const char *text = p->lines[line].text;
	const char *value = text + keylen + 1;
	while (*value == ' ' || *value == '\t')
		value++;
	size_t vlen = strlen(value);
	while (vlen && isspace((unsigned char)value[vlen - 1]))
		vlen--;
	p->trailers = xrealloc(p->trailers, (p->ntrailers + 1) * sizeof(*p->trailers));
	p->trailers[p->ntrailers++] = (struct trailer){
		.key = xstrndup(text, keylen),
		.value = xstrndup(value, vlen),
		.line = line,
	};
	p->lines[line].kind = LINE_TRAILER;
}

/*
 * The trailer block is the last paragraph of the commit message, when it
 * holds at least one known trailer and trailers make up half its lines
 * ("[ tglx: changed foo ]" notes and wrapped values may sit among them).
 */
static void parse_trailers(struct patch *p)
{
	size_t end = p->message_end;
	while (end > 0 && is_blank(&p->lines[end - 1]))
		end--;
	size_t begin = end;
	while (begin > 0 && !is_blank(&p->lines[begin - 1]))
		begin--;
	size_t shaped = 0, known = 0;
	for (size_t i = begin; i < end; i++) {
		size_t k = trailer_key_len(&p->lines[i]);
		shaped += k > 0;
		known += k && is_known_trailer(p->lines[i].text, k);
	}
	if (!known || shaped * 2 < end - begin)
		return;
	for (size_t i = begin; i < end; i++) {
		size_t k = trailer_key_len(&p->lines[i]);
		if (k)
			add_trailer(p, i, k);
	}
}

/*
 * Headers at the top of the body: "From: Name <addr>" (git format-patch
 * for someone else's patch) and, in an attached format-patch, the whole
 * "From <sha> Mon Sep 17 ..." header block.
 */
static void parse_inbody_headers(struct patch *p)
{
	size_t i = 0;
	while (i < p->message_end && is_blank(&p->lines[i]))
		i++;
	if (i < p->message_end && starts(&p->lines[i], "From ") &&
	    !starts(&p->lines[i], "From: "))
		i++;
	for (; i < p->message_end && !is_blank(&p->lines[i]); i++) {
		const struct patch_line *l = &p->lines[i];
		if (starts(l, "From: ") && !p->inbody_from) {
			p->inbody_from = text_clean_dup(l->text + 6, TEXT_ONE_LINE);
		} else if (!trailer_key_len(l) && l->text[0] != ' ' && l->text[0] != '\t') {
			break;
		}
	}
}

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

/* "a/foo/bar.c\t2024-01-01 ..." -> "foo/bar.c"; NULL for /dev/null. */
static char *header_path(const char *s, bool strip_component)
{
	const char *end = strchr(s, '\t');
	size_t len = end ? (size_t)(end - s) : strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\r'))
		len--;
	if (len == 9 && !memcmp(s, "/dev/null", 9))
		return NULL;
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"')
		s++, len -= 2;
	const char *slash = memchr(s, '/', len);
	if (strip_component && slash) {
		len -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	return xstrndup(s, len);
}

static void set_path(char **slot, char *path)
{
	free(*slot);
	*slot = path;
}

/* "diff --git a/x b/x": both names, when they can be told apart. */
static void parse_git_names(struct patch_file *f, const char *s)
{
	size_t len = strlen(s);
	while (len && s[len - 1] == '\r')
		len--;
	if (len > 5 && len % 2 == 1 && !strncmp(s, "a/", 2)) {
		size_t half = (len - 1) / 2;
		if (s[half] == ' ' && !strncmp(s + half + 1, "b/", 2) &&
		    !memcmp(s + 2, s + half + 3, half - 2)) {
			f->old_path = xstrndup(s + 2, half - 2);
			f->new_path = xstrndup(s + 2, half - 2);
			return;
		}
	}
	const char *b = strstr(s, " b/");
	if (!strncmp(s, "a/", 2) && b) {
		f->old_path = xstrndup(s + 2, (size_t)(b - s - 2));
		f->new_path = xstrndup(b + 3, len - (size_t)(b + 3 - s));
	}
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
		if (!starts(l, flags[i].prefix))
			continue;
		const char *rest = l->text + strlen(flags[i].prefix);
		f->flags |= flags[i].flag;
		if (starts(l, "rename to ") || starts(l, "copy to "))
			set_path(&f->new_path, header_path(rest, false));
		else if (starts(l, "rename from ") || starts(l, "copy from "))
			set_path(&f->old_path, header_path(rest, false));
		else if (starts(l, "old mode "))
			set_path(&f->old_mode, xstrdup(rest));
		else if (starts(l, "new mode ") || starts(l, "new file mode "))
			set_path(&f->new_mode, xstrdup(rest));
		else if (starts(l, "index ") && strchr(rest, ' ') && !f->new_mode)
			set_path(&f->new_mode, xstrdup(strchr(rest, ' ') + 1));	/* "a..b 100644" */
		return true;
	}
	return false;
}

static struct patch_file *new_file(struct patch *p, size_t line)
{
	p->files = xrealloc(p->files, (p->nfiles + 1) * sizeof(*p->files));
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
	p->hunks = xrealloc(p->hunks, (p->nhunks + 1) * sizeof(*p->hunks));
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
	char *old = header_path(minus->text + 4, !git || starts(minus, "--- a/"));
	char *new = header_path(plus->text + 4, !git || starts(plus, "+++ b/"));
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
 * Walks the diff. A file starts at "diff --git", at "Index:" (svn, cvs), at
 * "diff -u" or at a bare "---"/"+++"/"@@" triple, unless the header lines
 * that name the file (---/+++) are still awaited.
 */
static void parse_diff(struct patch *p)
{
	struct patch_file *f = NULL;
	bool awaiting_names = false, git = false;
	size_t i = p->diff_begin;
	while (i < p->nlines) {
		struct patch_line *l = &p->lines[i];
		bool git_line = starts(l, "diff --git ");
		bool index = starts(l, "Index: ") && i + 1 < p->nlines &&
			     starts(&p->lines[i + 1], "====");
		bool plain = starts(l, "diff -") && !git_line;
		bool unified = is_unified_header(p, i);
		if (git_line || index || (!awaiting_names && (plain || (unified && starts_file(p, i))))) {
			if (f)
				f->end_line = i;
			f = new_file(p, i);
			git = git_line;
			awaiting_names = !unified;
			if (git_line)
				parse_git_names(f, l->text + 11);
		}
		if (f && unified) {
			parse_unified_names(p, f, i, git);
			awaiting_names = false;
			i += 2;
		} else if (f && starts(l, "@@ ")) {
			awaiting_names = false;
			i = parse_hunk(p, i);
		} else if (f && (i == f->first_line ||
				 (awaiting_names && (!git || parse_git_header(f, l))) ||
				 ((f->flags & FILE_BINARY) && !starts(l, "-- ")))) {
			mark_header(p, i++);
		} else {
			l->kind = LINE_OTHER;
			awaiting_names = false;
			i++;
		}
	}
	if (f)
		f->end_line = p->nlines;
	for (size_t k = 0; k < p->nfiles; k++)
		if (!p->files[k].new_path && !p->files[k].old_path)
			p->files[k].new_path = xstrdup("(unknown)");
}

/* Lines between "---" and the diff: the diffstat, and notes around it. */
static void classify_notes(struct patch *p)
{
	if (p->separator == SIZE_MAX)
		return;
	p->lines[p->separator].kind = LINE_SEPARATOR;
	for (size_t i = p->separator + 1; i < p->diff_begin; i++) {
		struct patch_line *l = &p->lines[i];
		bool stat = (l->text[0] == ' ' && strstr(l->text, " | ")) ||
			    (l->text[0] == ' ' && strstr(l->text, " changed,")) ||
			    (l->text[0] == ' ' && strstr(l->text, " changed\r")) ||
			    (l->text[0] == ' ' && strstr(l->text, " mode ")) ||
			    (l->text[0] == ' ' && strstr(l->text, " => "));
		l->kind = stat ? LINE_DIFFSTAT : LINE_NOTES;
	}
}

void patch_parse(struct patch *p, const char *subject, char *text, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->text = text;
	p->separator = SIZE_MAX;
	subject_parse(&p->subject, subject);
	split_lines(p, text, len);
	p->diff_begin = p->nlines;
	for (size_t i = 0; i < p->nlines; i++) {
		if (p->separator == SIZE_MAX && is_separator(&p->lines[i]) &&
		    !is_unified_header(p, i)) {
			p->separator = i;
		} else if (starts_file(p, i)) {
			p->diff_begin = i;
			break;
		}
	}
	if (p->diff_begin == p->nlines)
		p->separator = SIZE_MAX;	/* no diff: a "---" is just text */
	p->message_end = p->separator != SIZE_MAX ? p->separator : p->diff_begin;
	parse_inbody_headers(p);
	parse_trailers(p);
	classify_notes(p);
	parse_diff(p);
	for (size_t i = 0; i < p->nlines; i++) {
		p->added += p->lines[i].kind == LINE_ADDED;
		p->removed += p->lines[i].kind == LINE_REMOVED;
	}
}

void patch_release(struct patch *p)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		free(p->files[i].old_path);
		free(p->files[i].new_path);
		free(p->files[i].old_mode);
		free(p->files[i].new_mode);
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
	free(p->text);
	subject_release(&p->subject);
	memset(p, 0, sizeof(*p));
}

const char *patch_file_path(const struct patch_file *f)
{
	return f->new_path ? f->new_path : f->old_path;
}
