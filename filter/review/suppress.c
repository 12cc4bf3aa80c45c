/* suppress.c: the known-findings list: its format both ways, and matching findings. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/text.h"
#include "review/fingerprint.h"
#include "review/suppress.h"

/* A value of an entry: blanks, '%', '#' and control bytes as %XX, which unescape() undoes. */
static void escape(struct buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch <= ' ' || ch == '%' || ch == '#' || ch == 0x7f)
			buf_addf(b, "%%%02X", ch);
		else
			buf_addch(b, (char)ch);
	}
}

/* "%20" and "%25" (any %XX) back to bytes, the rest as it is. Caller frees. */
static char *unescape(const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len && isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2])) {
			char hex[3] = { s[i + 1], s[i + 2], '\0' };
			buf_addch(&b, (char)strtol(hex, NULL, 16));
			i += 2;
		} else {
			buf_addch(&b, s[i]);
		}
	}
	return buf_detach(&b, NULL);
}

/* "before 'text' after", the text made safe for a terminal. */
static void quote(struct buf *why, const char *before, const char *s, size_t len,
		  const char *after)
{
	buf_addf(why, "%s'", before);
	text_clean(why, s, len, TEXT_ONE_LINE);
	buf_addf(why, "'%s", after);
}

/* One "key=value" field into e. Returns 0, or -1 with the reason in why. */
static int parse_field(struct suppress_entry *e, const char *s, size_t len,
		       struct buf *why)
{
	const char *eq = memchr(s, '=', len);
	if (!eq || eq == s || eq + 1 == s + len) {
		quote(why, "", s, len, " is not FIELD=VALUE");
		return -1;
	}
	size_t klen = (size_t)(eq - s);
	char *value = unescape(eq + 1, len - klen - 1);
	char **slot = NULL;
	if (klen == 4 && !memcmp(s, "file", 4))
		slot = &e->file;
	else if (klen == 5 && !memcmp(s, "msgid", 5))
		slot = &e->msgid;
	else if (klen == 2 && !memcmp(s, "fp", 2))
		slot = &e->fp;
	else if (klen == 4 && !memcmp(s, "list", 4))
		slot = &e->list;
	if (slot) {
		free(*slot);
		*slot = value;
		if (slot == &e->msgid && *value == '<' && value[strlen(value) - 1] == '>') {
			memmove(value, value + 1, strlen(value));
			value[strlen(value) - 1] = '\0';
		}
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long n = strtoul(value, &end, 10);
	bool number = !errno && end != value && !*end && n > 0 && isdigit((unsigned char)*value);
	free(value);
	if (klen == 4 && !memcmp(s, "line", 4) && number) {
		e->line = n;
		return 0;
	}
	if (klen == 4 && !memcmp(s, "line", 4))
		quote(why, "", s, len, " is not a line number");
	else
		quote(why, "unknown field ", s, klen, "");
	return -1;
}

static void entry_release(struct suppress_entry *e)
{
	free(e->rule);
	free(e->file);
	free(e->msgid);
	free(e->fp);
	free(e->list);
}

/* One line of the file; a comment or blank line gives no entry. Returns -1 on a bad line. */
static int parse_line(struct suppress_list *l, const char *s, struct buf *why)
{
	struct suppress_entry e = { 0 };
	size_t fields = 0;
	int ret = 0;
	for (;;) {
		s += strspn(s, " \t\r\n");
		if (!*s || *s == '#')
			break;
		size_t len = strcspn(s, " \t\r\n");
		if (!e.rule)
			e.rule = xstrndup(s, len);
		else if (!ret && parse_field(&e, s, len, why) < 0)
			ret = -1;
		else
			fields++;
		s += len;
	}
	if (!ret && e.rule && !fields) {
		buf_addstr(why, "an entry needs file=, line=, msgid= or fp=");
		ret = -1;
	} else if (!ret && e.fp && !fingerprint_valid(e.fp)) {
		buf_addstr(why, "fp= takes twelve hex digits");
		ret = -1;
	}
	if (ret || !e.rule) {
		entry_release(&e);
		return ret;
	}
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = e;
	return 0;
}

void suppress_load(struct suppress_list *l, const struct config *c)
{
	memset(l, 0, sizeof(*l));
	if (c->dismissed && !strcmp(c->dismissed, "none"))
		return;
	l->path = suppress_path(c);
	FILE *f = l->path ? fopen(l->path, "r") : NULL;
	if (!f) {
		if (l->path && errno != ENOENT)
			warn("cannot read '%s': %s; nothing suppressed", l->path, strerror(errno));
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	struct buf why = BUF_INIT;
	for (unsigned lineno = 1; getline(&line, &cap, f) > 0; lineno++) {
		buf_reset(&why);
		if (parse_line(l, line, &why) < 0)
			warn("%s:%u: %s; this line is ignored", l->path, lineno, why.data);
	}
	buf_release(&why);
	free(line);
	fclose(f);
}

char *suppress_path(const struct config *c)
{
	if (c->dismissed)
		return expand_home(c->dismissed);
	return xdg_path("XDG_DATA_HOME", ".local/share", "patchreview/dismissed");
}

static void add_field(struct buf *out, const char *key, const char *value)
{
	if (value) {
		buf_addf(out, " %s=", key);
		escape(out, value);
	}
}

void suppress_format(struct buf *out, const struct suppress_entry *e, const char *comment)
{
	size_t start = out->len;
	escape(out, e->rule);
	add_field(out, "file", e->file);
	if (e->line)
		buf_addf(out, " line=%lu", e->line);
	add_field(out, "msgid", e->msgid);
	add_field(out, "fp", e->fp);
	add_field(out, "list", e->list);
	size_t entry = out->len;
	if (comment) {
		buf_addstr(out, " # ");
		text_clean(out, comment, strlen(comment), TEXT_ONE_LINE);
		/* Only the comment is cut: a cut entry would match other findings. */
		if (out->len - start > SUPPRESS_LINE_MAX)
			buf_cut_utf8(out, entry + 3 > start + SUPPRESS_LINE_MAX ? entry
				     : start + SUPPRESS_LINE_MAX);
	}
	buf_addch(out, '\n');
}

void suppress_release(struct suppress_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		entry_release(&l->v[i]);
	free(l->v);
	free(l->path);
	memset(l, 0, sizeof(*l));
}

/* The finding's file and line number in it, when it is about a diff line. */
static const char *finding_place(const struct patch *p, const struct finding *f,
				 unsigned long *lineo)
{
	*lineo = 0;
	if (f->line >= p->nlines || p->lines[f->line].file < 0)
		return NULL;
	const struct patch_line *l = &p->lines[f->line];
	*lineo = l->kind == LINE_REMOVED ? l->old_no : l->new_no;
	return patch_file_path(&p->files[l->file]);
}

/* Was the mail sent to list (its List-Post, To or Cc)? */
static bool sent_to(const struct mail *m, const char *list)
{
	if (m->list_post && !strcasecmp(m->list_post, list))
		return true;
	const struct address_list *lists[] = { &m->to, &m->cc };
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < lists[k]->n; i++)
			if (!strcasecmp(lists[k]->v[i].addr, list))
				return true;
	return false;
}

static bool matches(const struct suppress_entry *e, const struct review_input *in,
		    const struct finding *f, const char *fp)
{
	if (strcmp(e->rule, SUPPRESS_ANY_RULE) && strcmp(e->rule, f->source))
		return false;
	if (e->fp && !fingerprint_covers(e->fp, fp, f))
		return false;
	if (e->list && !sent_to(in->mail, e->list))
		return false;
	if (e->msgid && (!in->mail->message_id || strcmp(e->msgid, in->mail->message_id)))
		return false;
	unsigned long line;
	const char *path = finding_place(in->patch, f, &line);
	if (e->file && (!path || fnmatch(e->file, path, 0)))
		return false;
	return !e->line || (line && e->line == line);
}

size_t suppress_apply(const struct suppress_list *l, const struct review_input *in,
		      struct review *r, size_t from)
{
	size_t kept = from;
	for (size_t i = from; i < r->nfindings; i++) {
		struct finding *f = &r->findings[i];
		char fp[FINGERPRINT_LEN + 1];
		finding_fingerprint(in->patch, f, fp);
		bool known = false;
		for (size_t k = 0; !known && k < l->n; k++)
			known = matches(&l->v[k], in, f, fp);
		if (!known) {
			r->findings[kept++] = *f;
			continue;
		}
		if (in->config->show_dismissed)
			review_dismissed(r, in->patch, f, fp);
		free(f->text);
	}
	size_t dropped = r->nfindings - kept;
	r->nfindings = kept;
	return dropped;
}
