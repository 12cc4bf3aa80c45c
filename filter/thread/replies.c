/*
 * replies.c: the review comments in a thread's replies. A reply quotes
 * the patch with "> " and writes under a quoted diff line what it has to
 * say about it; that first line of its own, and who wrote it, are kept
 * with the patch the reply answers.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/str.h"
#include "base/text.h"
#include "thread/thread.h"

/* Of a last comment, the words that make it a sign-off ("Thanks, Bea"). */
#define SIGN_OFF_WORDS 3

/* Bots, by a piece of their address: named so, whatever their From says. */
static const struct {
	const char *addr, *name;
} bots[] = {
	{ "lkp@intel.com", "kernel test robot" },
	{ "syzbot", "syzbot" },
	{ "patchwork-bot", "patchwork-bot" },
};

/* A patch message among v, by Message-ID. */
struct id_entry {
	const char *id;
	size_t msg;
};

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct id_entry *)a)->id, ((const struct id_entry *)b)->id);
}

static bool is_patch(const struct thread_msg *m)
{
	return patch_has_diff(m->patch) && !m->patch->subject.is_reply;
}

/* The patch m answers: the nearest reference that is one, or SIZE_MAX. */
static size_t answered(const struct thread_msg *m, const struct id_entry *ids, size_t nids)
{
	for (size_t r = m->mail->nreferences; r-- > 0;) {
		struct id_entry key = { m->mail->references[r], 0 };
		const struct id_entry *hit = bsearch(&key, ids, nids, sizeof(*ids), by_id);
		if (hit)
			return hit->msg;
	}
	return SIZE_MAX;
}

/* The name a comment goes under: the bot's, the display name, or the address. */
static char *who_of(const struct mail *m)
{
	const struct address *a = mail_author(m);
	const char *who = "someone";
	for (size_t i = 0; a && i < sizeof(bots) / sizeof(*bots); i++)
		if (a->addr && strstr(a->addr, bots[i].addr))
			return xstrdup(bots[i].name);
	if (a)
		who = a->name && *a->name ? a->name : a->addr;
	struct buf b = BUF_INIT;
	text_clean(&b, who, strnlen(who, THREAD_MAX_WHO), TEXT_ONE_LINE);
	return buf_detach(&b, NULL);
}

void thread_normalise(struct buf *out, const char *s, size_t len)
{
	size_t start = out->len;
	if (!len)
		return;
	buf_addch(out, s[0]);
	bool blank = true;	/* drops the blanks after the marker */
	for (size_t i = 1; i < len && out->len - start < THREAD_MAX_QUOTE; i++) {
		bool is_blank = s[i] == ' ' || s[i] == '\t' || s[i] == '\r';
		if (is_blank && !blank)
			buf_addch(out, ' ');
		else if (!is_blank)
			buf_addch(out, s[i]);
		blank = is_blank;
	}
	if (out->len - start > 1 && out->data[out->len - 1] == ' ')
		out->data[--out->len] = '\0';
}

/* How many '>' open the line (blanks between them allowed); *rest is what follows one. */
static unsigned quote_level(const char *s, size_t len, size_t *rest)
{
	unsigned level = 0;
	size_t i = 0, after = 0;
	while (i < len && (s[i] == '>' || (level && s[i] == ' '))) {
		if (s[i] == '>' && ++level == 1)
			after = i + 1 + (i + 1 < len && s[i + 1] == ' ');
		i++;
	}
	*rest = after;
	return level;
}

/* Reading one reply's lines: where the quoted diff is, and the line last quoted. */
struct reader {
	bool in_hunk;
	const char *quote;	/* of the last quoted diff line, or NULL */
	size_t quote_len;
};

/*
 * A line quoted once (NUL-terminated at len, as patch lines are): is it
 * a diff line a comment can follow? Reviewers
 * cut the hunk headers away, so an added or removed line needs none;
 * a context line (a blank first) does, not to be taken for indented text.
 */
static void read_quoted(struct reader *rd, const char *s, size_t len)
{
	rd->quote = NULL;
	if (starts_with(s, "diff ") || starts_with(s, "--- ") || starts_with(s, "+++ ")) {
		rd->in_hunk = false;
	} else if (starts_with(s, "@@ ")) {
		rd->in_hunk = true;
	} else if (len && (s[0] == '+' || s[0] == '-' || (rd->in_hunk && s[0] == ' '))) {
		rd->quote = s;
		rd->quote_len = len;
	}
}

static void add_comment(struct thread *t, const struct subject_prefix *to, const char *who,
			const struct reader *rd, const char *s, size_t len)
{
	struct buf quote = BUF_INIT, text = BUF_INIT;
	if (len > THREAD_MAX_TEXT) {
		len = THREAD_MAX_TEXT;
		while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;	/* whole UTF-8 sequences */
	}
	thread_normalise(&quote, rd->quote, rd->quote_len);
	text_clean(&text, s, len, TEXT_ONE_LINE);
	t->v[t->n++] = (struct thread_comment){
		.title = xstrdup(to->title), .version = to->version, .who = xstrdup(who),
		.quote = buf_detach(&quote, NULL), .text = buf_detach(&text, NULL),
	};
}

static bool is_blank(const char *s, size_t len)
{
	return strspn(s, " \t\r") >= len;
}

static bool is_signature(const char *s, size_t len)
{
	return len == 3 && !memcmp(s, "-- ", 3);
}

/*
 * A line of a few words, alone in its paragraph, not ending a sentence:
 * "Thanks," or a name signing off ("Why?" and "Same here." are comments).
 */
static bool is_short(const struct patch *p, size_t i)
{
	const char *s = p->lines[i].text;
	size_t len = p->lines[i].len;
	unsigned words = 0;
	for (size_t k = 0; s[k]; k++)
		words += s[k] != ' ' && (!k || s[k - 1] == ' ');
	if (len && strchr("?.!", s[len - 1]))
		return false;
	const struct patch_line *next = i + 1 < p->nlines ? &p->lines[i + 1] : NULL;
	return words <= SIGN_OFF_WORDS &&
		(!next || is_blank(next->text, next->len) || is_signature(next->text, next->len));
}

static void drop_last(struct thread *t)
{
	struct thread_comment *c = &t->v[--t->n];
	free(c->title);
	free(c->who);
	free(c->quote);
	free(c->text);
}

/*
 * The comments of one reply, on the patch whose subject is to. A short
 * line after the last quote, with nothing after it, signs the mail off
 * and is no comment.
 */
static void read_reply(struct thread *t, const struct thread_msg *m,
		       const struct subject_prefix *to)
{
	const struct patch *p = m->patch;
	struct reader rd = { 0 };
	char *who = who_of(m->mail);
	size_t kept = 0;
	bool sign_off = false;	/* the last comment may be one */
	for (size_t i = 0; i < p->nlines; i++) {
		const char *s = p->lines[i].text;
		size_t len = p->lines[i].len, rest;
		unsigned level = quote_level(s, len, &rest);
		if (!is_blank(s, len) && !is_signature(s, len))
			sign_off = false;
		if (level == 1) {
			read_quoted(&rd, s + rest, len - rest);
		} else if (level > 1) {
			rd.quote = NULL;	/* someone else's words, quoted again */
		} else if (is_signature(s, len)) {
			break;	/* the signature */
		} else if (rd.quote && !is_blank(s, len)) {
			if (kept == THREAD_MAX_PER_REPLY || t->n == THREAD_MAX_COMMENTS) {
				t->left_out++;
			} else {
				add_comment(t, to, who, &rd, s, len);
				kept++;
				sign_off = is_short(p, i);
			}
			rd.quote = NULL;
		}
	}
	if (sign_off)
		drop_last(t);
	free(who);
}

/* Is m a reply: "Re:" in its subject, or no diff and a reference to a patch? */
static bool is_reply(const struct thread_msg *m, size_t target)
{
	return m->patch->subject.is_reply || (!patch_has_diff(m->patch) && target != SIZE_MAX);
}

void thread_collect(struct thread *t, const struct thread_msg *v, size_t n)
{
	*t = (struct thread){ .v = xcalloc(THREAD_MAX_COMMENTS + 1, sizeof(*t->v)) };
	struct id_entry *ids = xcalloc(n + 1, sizeof(*ids));
	size_t nids = 0;
	for (size_t i = 0; i < n; i++)
		if (is_patch(&v[i]) && v[i].mail->message_id)
			ids[nids++] = (struct id_entry){ v[i].mail->message_id, i };
	qsort(ids, nids, sizeof(*ids), by_id);
	for (size_t i = 0; i < n; i++) {
		size_t target = answered(&v[i], ids, nids);
		if (!is_reply(&v[i], target) || target == i)
			continue;
		const struct subject_prefix *to = target != SIZE_MAX ? &v[target].patch->subject
			: &v[i].patch->subject;
		if (to->title && *to->title)
			read_reply(t, &v[i], to);
	}
	free(ids);
}

void thread_release(struct thread *t)
{
	while (t && t->n)
		drop_last(t);
	if (t)
		free(t->v);
}
