/* trigger.c: matching guide triggers against a patch. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "prompt/trigger.h"

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void add_idents(struct trigger_input *ti, size_t *cap, const char *s)
{
	while (*s) {
		if (!is_ident_char(*s)) {
			s++;
			continue;
		}
		const char *start = s;
		while (is_ident_char(*s))
			s++;
		if (!is_ident_start(*start))
			continue;	/* a number such as 0x1f */
		if (ti->nidents == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			ti->idents = xrealloc(ti->idents, *cap * sizeof(*ti->idents));
		}
		ti->idents[ti->nidents++] = (struct ident){ start, (size_t)(s - start) };
	}
}

static int ident_cmp(const struct ident *a, const struct ident *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->s, b->s, n);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static int ident_qsort(const void *a, const void *b)
{
	return ident_cmp(a, b);
}

static bool is_changed(const struct patch_line *l)
{
	return l->kind == LINE_ADDED || l->kind == LINE_REMOVED;
}

void trigger_input_init(struct trigger_input *ti, const struct patch *p)
{
	size_t cap = 0;
	*ti = (struct trigger_input){ .patch = p };
	if (p->subject.title)
		add_idents(ti, &cap, p->subject.title);
	for (size_t i = 0; i < p->nlines; i++)
		if (i < p->message_end)
			add_idents(ti, &cap, p->lines[i].text);
		else if (is_changed(&p->lines[i]))
			add_idents(ti, &cap, p->lines[i].text + 1);
	qsort(ti->idents, ti->nidents, sizeof(*ti->idents), ident_qsort);
	size_t n = 0;
	for (size_t i = 0; i < ti->nidents; i++)
		if (!n || ident_cmp(&ti->idents[n - 1], &ti->idents[i]))
			ti->idents[n++] = ti->idents[i];
	ti->nidents = n;
}

void trigger_input_release(struct trigger_input *ti)
{
	free(ti->idents);
	ti->idents = NULL;
	ti->nidents = 0;
}

/* Does some leading run of directories of path match the glob dir? */
static bool dir_matches(const char *dir, size_t dirlen, const char *path)
{
	char *pattern = xstrndup(dir, dirlen), *prefix = xstrdup(path);
	bool match = false;
	for (char *slash = strchr(prefix, '/'); slash && !match; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		match = !fnmatch(pattern, prefix, FNM_PATHNAME);
		*slash = '/';
	}
	free(pattern);
	free(prefix);
	return match;
}

/*
 * The pattern syntax of prompts/README: "dir/", or "dir/" followed by
 * two stars, matches anything below dir; two leading stars and a slash
 * match at any depth; otherwise "*" stays within one path component.
 */
static bool path_matches(const char *pattern, const char *path)
{
	size_t len = strlen(pattern);
	if (!strncmp(pattern, "**/", 3)) {
		for (const char *p = path; p; p = strchr(p, '/')) {
			if (*p == '/')
				p++;
			if (path_matches(pattern + 3, p))
				return true;
		}
		return false;
	}
	if (len > 3 && !strcmp(pattern + len - 3, "/**"))
		return dir_matches(pattern, len - 3, path);
	if (len > 1 && pattern[len - 1] == '/')
		return dir_matches(pattern, len - 1, path);
	return !fnmatch(pattern, path, FNM_PATHNAME);
}

static bool match_paths(const struct guide *g, const struct patch *p, struct buf *why)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		const char *paths[] = { p->files[i].new_path, p->files[i].old_path };
		for (size_t k = 0; k < 2; k++)
			for (size_t j = 0; paths[k] && j < g->paths.n; j++)
				if (path_matches(g->paths.v[j], paths[k])) {
					buf_addf(why, "path %s matches %s", g->paths.v[j], paths[k]);
					return true;
				}
	}
	return false;
}

/* The first identifier not below key, in sorted order. */
static size_t lower_bound(const struct trigger_input *ti, const struct ident *key)
{
	size_t lo = 0, hi = ti->nidents;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ident_cmp(&ti->idents[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* "skb_" is a prefix of identifiers; "kmalloc" must be a whole one. */
static bool match_symbols(const struct guide *g, const struct trigger_input *ti,
			  struct buf *why)
{
	for (size_t j = 0; j < g->symbols.n; j++) {
		struct ident key = { g->symbols.v[j], strlen(g->symbols.v[j]) };
		bool prefix = key.len && key.s[key.len - 1] == '_';
		size_t i = lower_bound(ti, &key);
		if (i == ti->nidents)
			continue;
		const struct ident *id = &ti->idents[i];
		bool match = prefix ? id->len >= key.len && !memcmp(id->s, key.s, key.len)
			: !ident_cmp(id, &key);
		if (match) {
			buf_addf(why, "symbol %s matches %.*s", key.s, (int)id->len, id->s);
			return true;
		}
	}
	return false;
}

static bool match_regex(const struct guide *g, const struct patch *p, struct buf *why)
{
	for (size_t j = 0; j < g->regex_text.n; j++)
		for (size_t i = p->diff_begin; i < p->nlines; i++)
			if (is_changed(&p->lines[i]) &&
			    !regexec(&g->regex[j], p->lines[i].text + 1, 0, NULL, 0)) {
				buf_addf(why, "regex %s matches a changed line", g->regex_text.v[j]);
				return true;
			}
	return false;
}

bool trigger_match(const struct guide *g, const struct trigger_input *ti, struct buf *why)
{
	if (g->disabled || (g->kernel < 0 && ti->kernel) || (g->kernel > 0 && !ti->kernel))
		return false;
	if (g->always) {
		buf_addstr(why, "always");
		return true;
	}
	if (g->series && ti->in_series) {
		buf_addstr(why, "the patch is reviewed with its series");
		return true;
	}
	if (g->thread && ti->in_thread) {
		buf_addstr(why, "the thread already holds comments on the patch");
		return true;
	}
	return match_paths(g, ti->patch, why) || match_symbols(g, ti, why) ||
		match_regex(g, ti->patch, why);
}
