/* prereq.c: the prerequisites of each series, found among the messages on hand. */
#define _GNU_SOURCE	/* memmem(): two-way search, linear whatever the text */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "mail/mail.h"
#include "patch/parse.h"
#include "prereq/folder.h"
#include "prereq/prereq.h"
#include "repo/repo.h"

enum source { FROM_INPUT, FROM_THREAD, FROM_FOLDER };
static const char *const source_name[] = { "the input", "the --thread folder", "the list folder" };

/* Those not found named in a note, at most. */
#define MAX_NAMED 5

/* A message on hand that may be a prerequisite. */
struct cand {
	const struct patch *patch;	/* NULL for a folder message until it is loaded */
	struct folder_ref ref;
	unsigned index;		/* the n of its subject's n/m */
	int named;		/* the wanted Message-ID it has, or -1 */
	int answers;		/* the wanted Message-ID it answers, or -1 */
	bool diff;
	unsigned char source;
	char id[41];		/* its patch-id, or "" */
};

/* A folder message taken: its mail and patch, owned. */
struct loaded {
	struct mail mail;
	struct patch patch;
};

struct prereqs {
	struct tree *t;
	struct cand *v;
	size_t n, cap;
	struct strvec ids, msgids;	/* wanted, each once */
	FILE *diffs;		/* the patch mails' diffs, for git patch-id */
	char *diffs_path;
	size_t ndiffs;
	struct folder folder;
	bool have_folder;
	struct loaded **loaded;
	size_t nloaded;
	struct prereq_found *found;	/* one per series */
	size_t nfound;
};

static int find_str(const struct strvec *v, const char *s)
{
	for (size_t i = 0; s && i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return (int)i;
	return -1;
}

/* What the series of set name, each once, within the bounds. False when none names any. */
static bool collect_wanted(struct prereqs *pr, const struct series_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct patch *f = set->v[i].facts;
		for (size_t k = 0; f && k < f->prerequisite_ids.n && pr->ids.n < PREREQ_MAX_IDS; k++)
			if (find_str(&pr->ids, f->prerequisite_ids.v[k]) < 0)
				strvec_push(&pr->ids, f->prerequisite_ids.v[k]);
		for (size_t k = 0; f && k < f->prerequisite_msgids.n &&
		     pr->msgids.n < PREREQ_MAX_MESSAGE_IDS; k++)
			if (find_str(&pr->msgids, f->prerequisite_msgids.v[k]) < 0)
				strvec_push(&pr->msgids, f->prerequisite_msgids.v[k]);
	}
	return pr->ids.n || pr->msgids.n;
}

/* p's diff, as git patch-id reads it, under a "commit" line naming candidate k. */
static void write_diff(struct prereqs *pr, const struct patch *p, size_t k)
{
	if (!pr->diffs)
		return;
	fprintf(pr->diffs, "commit %040zx\n", k);
	size_t end = patch_footer(p);
	for (size_t i = p->diff_begin; i < end; i++) {
		fwrite(p->lines[i].text, 1, p->lines[i].len, pr->diffs);
		fputc('\n', pr->diffs);
	}
	pr->ndiffs++;
}

/* Keeps m (parsed into p) when it may be one: a patch, or a message the series name. */
static void add_cand(struct prereqs *pr, const struct mail *m, const struct patch *p,
		     enum source src, const struct folder_ref *ref)
{
	struct cand c = {
		.patch = src == FROM_FOLDER ? NULL : p, .index = p->subject.index,
		.named = find_str(&pr->msgids, m->message_id), .answers = -1,
		.diff = patch_has_diff(p), .source = (unsigned char)src,
	};
	if (c.diff)
		c.answers = find_str(&pr->msgids, m->in_reply_to);
	if (!c.diff && c.named < 0)
		return;
	if (ref)
		c.ref = *ref;
	if (c.diff && pr->ids.n)
		write_diff(pr, p, pr->n);
	if (pr->n == pr->cap)
		pr->v = xrealloc(pr->v, (pr->cap = pr->cap ? 2 * pr->cap : 64) * sizeof(*pr->v));
	pr->v[pr->n++] = c;
}

/* A folder message: parsed only when its bytes hold a diff or a wanted Message-ID. */
static void on_folder_message(void *ctx, const char *data, size_t len,
			      const struct folder_ref *ref)
{
	struct prereqs *pr = ctx;
	bool maybe = pr->ids.n && memmem(data, len, "\ndiff ", 6);
	for (size_t i = 0; !maybe && i < pr->msgids.n; i++)
		maybe = memmem(data, len, pr->msgids.v[i], strlen(pr->msgids.v[i])) != NULL;
	if (!maybe)
		return;
	struct mail m;
	struct patch p;
	mail_parse_text(&m, data, len);
	char *text = m.text;
	m.text = NULL;
	patch_parse(&p, m.subject, text, m.text_len, m.patch_offset);
	add_cand(pr, &m, &p, FROM_FOLDER, ref);
	patch_release(&p);
	mail_release(&m);
}

static void scan_folder(struct prereqs *pr, const char *path)
{
	struct buf why = BUF_INIT;
	if (folder_open(&pr->folder, path, &why) < 0) {
		warn("list_folder '%s' cannot be read: %s; prerequisites are looked for in the "
		     "input alone", path, why.data);
		folder_close(&pr->folder);
	} else {
		pr->have_folder = true;
		/* The list's mail is no one's input: its malformed headers are not worth a line. */
		bool held = msg_hold_warnings(true);
		folder_scan(&pr->folder, on_folder_message, pr);
		msg_hold_warnings(held);
	}
	buf_release(&why);
}

/* One git patch-id --stable run over every candidate's diff. */
static void compute_ids(struct prereqs *pr)
{
	if (!pr->diffs)
		return;
	bool ok = !fclose(pr->diffs);
	pr->diffs = NULL;
	if (!ok || !pr->ndiffs)
		return;
	static const char *const args[] = { "patch-id", "--stable", NULL };
	struct buf out = BUF_INIT, why = BUF_INIT;
	/* One line of 82 bytes a diff. */
	if (!repo_git_within(pr->t, args, pr->diffs_path, NULL, pr->ndiffs * 82 + 64,
			     PREREQ_PATCH_ID_SECONDS, &out, NULL, &why)) {
		for (const char *l = out.data; *l; l += strcspn(l, "\n"), l += *l == '\n') {
			size_t n = strcspn(l, "\n");
			if (n != 81 || l[40] != ' ' || strspn(l, "0123456789abcdef") != 40)
				continue;
			char *end;
			unsigned long long k = strtoull(l + 41, &end, 16);
			if (end == l + 81 && k < pr->n)
				memcpy(pr->v[k].id, l, 40);
		}
	} else {
		warn("git patch-id could not be run: %s; prerequisites are found by Message-ID "
		     "alone", why.data);
	}
	buf_release(&out);
	buf_release(&why);
}

/* The patch of candidate k, read from the folder on first use; or NULL. */
static const struct patch *load(struct prereqs *pr, size_t k)
{
	struct cand *c = &pr->v[k];
	if (c->patch || c->source != FROM_FOLDER)
		return c->patch;
	struct buf text = BUF_INIT;
	if (folder_read(&pr->folder, &c->ref, &text) == 0) {
		struct loaded *l = xcalloc(1, sizeof(*l));
		bool held = msg_hold_warnings(true);
		mail_parse_text(&l->mail, text.data, text.len);
		msg_hold_warnings(held);
		char *body = l->mail.text;
		l->mail.text = NULL;
		patch_parse(&l->patch, l->mail.subject, body, l->mail.text_len, l->mail.patch_offset);
		pr->loaded = xrealloc(pr->loaded, (pr->nloaded + 1) * sizeof(*pr->loaded));
		pr->loaded[pr->nloaded++] = l;
		c->patch = &l->patch;
	}
	buf_release(&text);
	return c->patch;
}

/* What one series takes: candidates by index, each patch once. */
struct take {
	size_t *v;
	size_t n;
	unsigned sources;
};

static bool is_own(const struct series *s, const struct patch *p)
{
	for (size_t k = 0; k < s->npatches; k++)
		if (&s->patches[k]->patch == p)
			return true;
	return false;
}

static void push(struct prereqs *pr, const struct series *s, struct take *t, size_t k)
{
	const struct cand *c = &pr->v[k];
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i] == k || (c->id[0] && !strcmp(pr->v[t->v[i]].id, c->id)))
			return;
	if (c->source != FROM_FOLDER && is_own(s, c->patch))
		return;
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	t->v[t->n++] = k;
	t->sources |= 1u << c->source;
}

static void name_missing(struct buf *missing, size_t *nmissing, const char *fmt, const char *id)
{
	if ((*nmissing)++ < MAX_NAMED) {
		buf_addstr(missing, missing->len ? ", " : "");
		buf_addf(missing, fmt, id);
	}
}

/* The patches that answer wanted Message-ID w, one per index, in order. */
static size_t take_answers(struct prereqs *pr, const struct series *s, struct take *t, int w)
{
	size_t got = 0;
	for (unsigned want = 0, next; got < PREREQ_MAX_SERIES; want = next + 1) {
		size_t best = pr->n;
		next = ~0u;
		for (size_t k = 0; k < pr->n; k++)
			if (pr->v[k].answers == w && pr->v[k].diff && pr->v[k].index >= want &&
			    pr->v[k].index < next)
				next = pr->v[k].index, best = k;
		if (best == pr->n)
			break;
		push(pr, s, t, best);
		got++;
		if (next == ~0u)
			break;
	}
	return got;
}

/* The Message-IDs first (a cover letter's patches in order), then the patch-ids. */
static void resolve(struct prereqs *pr, const struct series *s, struct prereq_found *out)
{
	const struct patch *f = s->facts;
	struct take t = { 0 };
	struct buf missing = BUF_INIT;
	size_t nmissing = 0;
	for (size_t i = 0; f && i < f->prerequisite_msgids.n; i++) {
		const char *id = f->prerequisite_msgids.v[i];
		int w = find_str(&pr->msgids, id);
		size_t k = 0;
		while (w >= 0 && k < pr->n && pr->v[k].named != w)
			k++;
		if (w < 0 || k == pr->n)
			name_missing(&missing, &nmissing, "prerequisite-message-id <%s>", id);
		else if (pr->v[k].diff)
			push(pr, s, &t, k);
		else if (!take_answers(pr, s, &t, w))
			name_missing(&missing, &nmissing, "the patches of prerequisite-message-id <%s>", id);
	}
	for (size_t i = 0; f && i < f->prerequisite_ids.n; i++) {
		const char *id = f->prerequisite_ids.v[i];
		size_t k = 0;
		while (k < pr->n && strcmp(pr->v[k].id, id))
			k++;
		if (k < pr->n)
			push(pr, s, &t, k);
		else
			name_missing(&missing, &nmissing, "prerequisite-patch-id %.12s", id);
	}
	out->v = xcalloc(t.n + 1, sizeof(*out->v));
	for (size_t i = 0; i < t.n; i++) {
		const struct patch *p = load(pr, t.v[i]);
		if (p)
			out->v[out->n++] = p;
		else
			name_missing(&missing, &nmissing, "%s", "a message the list folder no longer holds");
	}
	if (nmissing > MAX_NAMED)
		buf_addf(&missing, " and %zu more", nmissing - MAX_NAMED);
	if (nmissing && pr->folder.capped)
		buf_addf(&missing, " (of the list folder, %zu messages and %zu MiB were read)",
			 pr->folder.scanned, pr->folder.bytes >> 20);
	out->missing = nmissing ? buf_detach(&missing, NULL) : NULL;
	buf_release(&missing);
	struct buf from = BUF_INIT;
	for (unsigned k = 0, left = t.sources; k < 3; k++)
		if (left & (1u << k)) {
			left &= ~(1u << k);
			buf_addstr(&from, !from.len ? "" : left ? ", " : " and ");
			buf_addstr(&from, source_name[k]);
		}
	out->from = from.len ? buf_detach(&from, NULL) : NULL;
	buf_release(&from);
	free(t.v);
}

struct prereqs *prereqs_find(struct tree *t, const char *list_folder,
			     const struct series_set *set, const struct thread_source *thread)
{
	struct prereqs *pr = xcalloc(1, sizeof(*pr));
	pr->t = t;
	pr->folder.fd = -1;
	if (!collect_wanted(pr, set)) {
		prereqs_free(pr);
		return NULL;
	}
	if (pr->ids.n) {
		pr->diffs_path = repo_scratch_path(t, "prereq-diffs");
		pr->diffs = fopen(pr->diffs_path, "w");
	}
	for (size_t i = 0; i < set->nmsgs; i++)
		add_cand(pr, set->msgs[i].mail, &set->msgs[i].patch, FROM_INPUT, NULL);
	for (size_t i = 0; thread && i < thread->n; i++)
		add_cand(pr, thread->msgs[i].mail, thread->msgs[i].patch, FROM_THREAD, NULL);
	if (list_folder && *list_folder)
		scan_folder(pr, list_folder);
	compute_ids(pr);
	pr->found = xcalloc(set->n + 1, sizeof(*pr->found));
	pr->nfound = set->n;
	for (size_t i = 0; i < set->n; i++)
		resolve(pr, &set->v[i], &pr->found[i]);
	return pr;
}

const struct prereq_found *prereqs_of(const struct prereqs *pr, size_t series)
{
	return pr && series < pr->nfound ? &pr->found[series] : NULL;
}

void prereqs_free(struct prereqs *pr)
{
	if (!pr)
		return;
	if (pr->diffs)
		fclose(pr->diffs);
	if (pr->diffs_path)
		remove(pr->diffs_path);
	free(pr->diffs_path);
	for (size_t i = 0; i < pr->nfound; i++) {
		free(pr->found[i].v);
		free(pr->found[i].from);
		free(pr->found[i].missing);
	}
	free(pr->found);
	for (size_t i = 0; i < pr->nloaded; i++) {
		patch_release(&pr->loaded[i]->patch);
		mail_release(&pr->loaded[i]->mail);
		free(pr->loaded[i]);
	}
	free(pr->loaded);
	free(pr->v);
	strvec_clear(&pr->ids);
	strvec_clear(&pr->msgids);
	folder_close(&pr->folder);
	free(pr);
}
