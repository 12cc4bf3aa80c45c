/*
 * apply.c: what the thread's comments change in the review of one patch:
 * findings already made are dropped, a later version hears which earlier
 * comments it seems to address, and the model is told what was said.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "thread/thread.h"

/* Names listed in the note on dropped findings; more are counted. */
#define WHO_NAMED 3
/* Of a quoted line in a note, at most this many bytes. */
#define NOTE_QUOTE 60

/* Is c about this patch (its title), on this version (same) or an earlier one? */
static bool about(const struct thread_comment *c, const struct patch *p, bool same)
{
	const struct subject_prefix *s = &p->subject;
	if (!s->title || strcasecmp(c->title, s->title))
		return false;
	return same ? c->version == s->version : c->version < s->version;
}

/* The comment on this version of p that quotes line i, or NULL. */
static const struct thread_comment *raised(const struct thread *t, const struct patch *p,
					   size_t i, struct buf *scratch)
{
	const struct patch_line *l = &p->lines[i];
	if (l->kind != LINE_ADDED && l->kind != LINE_REMOVED && l->kind != LINE_CONTEXT)
		return NULL;
	buf_reset(scratch);
	thread_normalise(scratch, l->text, l->len);
	for (size_t k = 0; k < t->n; k++)
		if (about(&t->v[k], p, true) && !strcmp(t->v[k].quote, scratch->data))
			return &t->v[k];
	return NULL;
}

size_t thread_drop(const struct thread *t, const struct patch *p, struct review *r,
		   size_t from, struct strvec *who)
{
	struct buf scratch = BUF_INIT;
	size_t kept = from, dropped = 0;
	if (!t)
		return 0;
	for (size_t i = from; i < r->nfindings; i++) {
		struct finding *f = &r->findings[i];
		const struct thread_comment *c = f->line < p->nlines ?
			raised(t, p, f->line, &scratch) : NULL;
		if (!c) {
			r->findings[kept++] = *f;
			continue;
		}
		if (!strvec_has(who, c->who))
			strvec_push(who, c->who);
		free(f->text);
		dropped++;
	}
	r->nfindings = kept;
	buf_release(&scratch);
	return dropped;
}

void thread_note_dropped(struct review *r, size_t n, const struct strvec *who)
{
	if (!n)
		return;
	struct buf names = BUF_INIT;
	for (size_t i = 0; i < who->n && i < WHO_NAMED; i++)
		buf_addf(&names, "%s%s", !i ? "" : i + 1 == who->n ? " and " : ", ", who->v[i]);
	if (who->n > WHO_NAMED)
		buf_addf(&names, " and %zu others", who->n - WHO_NAMED);
	review_note(r, "%zu comment%s left out: already raised in the thread by %s", n,
		    n == 1 ? "" : "s", names.data);
	buf_release(&names);
}

/* Does p hold a line that reads as quote does, marker and all? */
static bool still_there(const struct patch *p, const char *quote, struct buf *scratch)
{
	for (size_t i = p->diff_begin; i < p->nlines; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->kind != LINE_ADDED && l->kind != LINE_REMOVED && l->kind != LINE_CONTEXT)
			continue;
		buf_reset(scratch);
		thread_normalise(scratch, l->text, l->len);
		if (!strcmp(scratch->data, quote))
			return true;
	}
	return false;
}

/* A quoted line for a note: shortened, whole UTF-8 sequences. */
static void add_short(struct buf *b, const char *s)
{
	size_t len = strlen(s);
	bool cut = len > NOTE_QUOTE;
	if (cut) {
		len = NOTE_QUOTE;
		while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	buf_addf(b, "\"%.*s%s\"", (int)len, s, cut ? "..." : "");
}

void thread_note_addressed(const struct thread *t, const struct patch *p, struct review *r)
{
	struct buf scratch = BUF_INIT, note = BUF_INIT;
	size_t n = 0;
	for (size_t k = 0; t && k < t->n; k++) {
		const struct thread_comment *c = &t->v[k];
		if (!about(c, p, false))
			continue;
		if (n++ >= THREAD_MAX_ADDRESSED)
			continue;
		buf_reset(&note);
		buf_addf(&note, "v%u, %s on ", c->version, c->who);
		add_short(&note, c->quote);
		buf_addstr(&note, still_there(p, c->quote, &scratch)
			   ? ": the line is unchanged" : ": appears addressed (the line changed)");
		review_note(r, "%s", note.data);
	}
	if (n > THREAD_MAX_ADDRESSED)
		review_note(r, "%zu more comments on earlier versions are not listed",
			    n - THREAD_MAX_ADDRESSED);
	buf_release(&scratch);
	buf_release(&note);
}

char *thread_prompt_text(const struct thread *t, const struct patch *p, size_t budget)
{
	struct buf b = BUF_INIT, entry = BUF_INIT;
	size_t left = 0;
	for (size_t k = 0; t && k < t->n; k++) {
		const struct thread_comment *c = &t->v[k];
		if (!about(c, p, true) && !about(c, p, false))
			continue;
		buf_reset(&entry);
		buf_addf(&entry, "%s, on v%u%s, quoted the line\n%s\nand wrote\n%s\n\n", c->who,
			 c->version, c->version == p->subject.version ? " (this version)" : "",
			 c->quote, c->text);
		if (b.len + entry.len > budget)
			left++;
		else
			buf_add(&b, entry.data, entry.len);
	}
	if (left)
		buf_addf(&b, "(%zu more comments left out for room)\n", left);
	buf_release(&entry);
	if (!b.len) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}
