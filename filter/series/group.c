/*
 * group.c: sorting messages into series. A patch joins the cover letter
 * it replies to (whatever version its own subject claims), or the patch
 * before it when the series was sent as a chain; messages without
 * threading headers (git format-patch --stdout) join the series with the
 * same version, total and tags. Series that are versions of one another
 * (linked by threading, or with the same title) keep the newest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/str.h"
#include "series/series.h"

/* Longest subject quoted on stderr. */
#define SUBJECT_SHOWN 60
/* Missing patches named one by one on stderr; more are counted. */
#define MISSING_NAMED 6

static size_t find_root(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/* Joins the sets of a and b; the one whose first message came first stays the root. */
static void join(size_t *parent, size_t a, size_t b)
{
	a = find_root(parent, a);
	b = find_root(parent, b);
	if (a < b)
		parent[b] = a;
	else if (b < a)
		parent[a] = b;
}

static bool is_member(const struct series_msg *m)
{
	return m->role == SERIES_PATCH || m->role == SERIES_COVER;
}

static enum series_role classify(const struct series_msg *m, bool alone)
{
	const struct subject_prefix *s = &m->patch.subject;
	/* A lone message was given to be reviewed, whatever its subject says. */
	if (alone)
		return patch_has_diff(&m->patch) && !m->patch.pull_request ? SERIES_PATCH
			: SERIES_NOT_PATCH;
	if (s->is_reply)
		return SERIES_REPLY;
	if (s->total && !s->index)
		return SERIES_COVER;
	if (patch_has_diff(&m->patch) && !m->patch.pull_request)
		return SERIES_PATCH;
	return SERIES_NOT_PATCH;
}

/* The same Message-ID, or the same subject and text: a copy of an earlier message. */
static bool is_copy(const struct series_msg *a, const struct series_msg *b)
{
	const char *ia = a->mail->message_id, *ib = b->mail->message_id;
	if (ia && ib)
		return !strcmp(ia, ib);
	return a->digest == b->digest;
}

static void take_all(struct series_set *set, struct mail *mails, struct patch *patches,
		     size_t n)
{
	set->msgs = xcalloc(n + 1, sizeof(*set->msgs));
	set->nmsgs = n;
	for (size_t i = 0; i < n; i++) {
		struct series_msg *m = &set->msgs[i];
		struct mail *mail = &mails[i];
		m->mail = mail;
		m->patch = patches[i];
		memset(&patches[i], 0, sizeof(patches[i]));
		/* A lone message is a copy of nothing: its text is not hashed. */
		if (n > 1)
			m->digest = hash_fnv64(hash_fnv64(HASH_FNV64_INIT, mail->subject,
						     strlen(mail->subject)), m->patch.text,
					       mail->text_len);
		m->role = classify(m, n == 1);
		for (size_t j = 0; j < i && m->role != SERIES_DUPLICATE; j++)
			if (set->msgs[j].role != SERIES_DUPLICATE && is_copy(m, &set->msgs[j]))
				m->role = SERIES_DUPLICATE;
	}
}

/* The member whose Message-ID is id, or SIZE_MAX. */
static size_t find_id(const struct series_set *set, const char *id)
{
	for (size_t i = 0; i < set->nmsgs; i++) {
		const struct series_msg *m = &set->msgs[i];
		if (is_member(m) && m->mail->message_id && !strcmp(m->mail->message_id, id))
			return i;
	}
	return SIZE_MAX;
}

/*
 * The member m replies to, nearest reference first, when m belongs with
 * it: a patch replying to a cover letter of the same length, or to a
 * patch of the same length and version. SIZE_MAX otherwise.
 */
static size_t thread_parent(const struct series_set *set, size_t i)
{
	const struct series_msg *m = &set->msgs[i];
	const struct subject_prefix *s = &m->patch.subject;
	for (size_t r = m->mail->nreferences; r-- > 0;) {
		size_t j = find_id(set, m->mail->references[r]);
		if (j == SIZE_MAX || j == i)
			continue;
		const struct series_msg *x = &set->msgs[j];
		const struct subject_prefix *t = &x->patch.subject;
		bool fits = s->total && t->total == s->total && m->role == SERIES_PATCH &&
			(x->role == SERIES_COVER || t->version == s->version);
		return fits ? j : SIZE_MAX;
	}
	return SIZE_MAX;
}

static bool same_key(const struct series_msg *a, const struct series_msg *b)
{
	const struct subject_prefix *s = &a->patch.subject, *t = &b->patch.subject;
	return s->total && s->total == t->total && s->version == t->version &&
		!strcasecmp(s->tags, t->tags);
}

/* Series by threading first, then by subject prefix for what threading left alone. */
static void find_series(struct series_set *set, size_t *parent)
{
	bool *threaded = xcalloc(set->nmsgs + 1, sizeof(*threaded));
	for (size_t i = 0; i < set->nmsgs; i++) {
		size_t j = is_member(&set->msgs[i]) ? thread_parent(set, i) : SIZE_MAX;
		if (j != SIZE_MAX) {
			join(parent, i, j);
			threaded[i] = threaded[j] = true;
		}
	}
	for (size_t i = 0; i < set->nmsgs; i++) {
		if (!is_member(&set->msgs[i]) || threaded[i])
			continue;
		for (size_t j = 0; j < i; j++)
			if (is_member(&set->msgs[j]) && same_key(&set->msgs[i], &set->msgs[j])) {
				join(parent, i, j);
				break;
			}
	}
	free(threaded);
}

/* What a set of messages says about itself: its version and title. */
struct group {
	size_t root;		/* first message */
	unsigned version, total;
	const char *title;	/* the cover letter's, else the first patch's */
	size_t family;		/* groups that are versions of one series share one */
	bool newest;
};

static void describe_group(const struct series_set *set, size_t *parent,
			   struct group *g)
{
	const struct series_msg *cover = NULL, *first = NULL;
	for (size_t i = g->root; i < set->nmsgs; i++) {
		const struct series_msg *m = &set->msgs[i];
		if (!is_member(m) || find_root(parent, i) != g->root)
			continue;
		if (m->role == SERIES_COVER && !cover)
			cover = m;
		if (!first || m->patch.subject.index < first->patch.subject.index)
			first = m;
	}
	const struct series_msg *m = cover ? cover : first;
	g->version = m->patch.subject.version;
	g->total = m->patch.subject.total;
	g->title = m->patch.subject.title;
}

/* Does a message of group b refer to one of group a (a v2 sent in reply to v1)? */
static bool refers_to(const struct series_set *set, size_t *parent, size_t b, size_t a)
{
	for (size_t i = 0; i < set->nmsgs; i++) {
		const struct series_msg *m = &set->msgs[i];
		if (!is_member(m) || find_root(parent, i) != b)
			continue;
		for (size_t r = 0; r < m->mail->nreferences; r++) {
			size_t j = find_id(set, m->mail->references[r]);
			if (j != SIZE_MAX && find_root(parent, j) == a)
				return true;
		}
	}
	return false;
}

/*
 * Versions of one series: another version with the same title, or one of
 * the same length linked by threading (a v2 sent in reply to v1). Keeps
 * the newest.
 */
static void find_families(const struct series_set *set, size_t *parent,
			  struct group *g, size_t ng)
{
	size_t *fam = xcalloc(ng + 1, sizeof(*fam));
	for (size_t i = 0; i < ng; i++)
		fam[i] = i;
	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < i; j++)
			if (g[i].version != g[j].version &&
			    (!strcasecmp(g[i].title, g[j].title) ||
			     (g[i].total == g[j].total &&
			      (refers_to(set, parent, g[i].root, g[j].root) ||
			       refers_to(set, parent, g[j].root, g[i].root)))))
				join(fam, i, j);
	for (size_t i = 0; i < ng; i++)
		g[i].family = find_root(fam, i);
	for (size_t i = 0; i < ng; i++) {
		g[i].newest = true;
		for (size_t j = 0; j < ng; j++)
			if (j != i && g[j].family == g[i].family &&
			    g[j].version > g[i].version)
				g[i].newest = false;
	}
	free(fam);
}

static int by_index(const void *a, const void *b)
{
	const struct series_msg *x = *(const struct series_msg *const *)a;
	const struct series_msg *y = *(const struct series_msg *const *)b;
	unsigned i = x->patch.subject.index, j = y->patch.subject.index;
	if (i != j)
		return i < j ? -1 : 1;
	return x < y ? -1 : x > y;	/* input order */
}

/* Does m state a base or prerequisites (git format-patch --base writes them into one message)? */
static bool states_base(const struct series_msg *m)
{
	return m && (m->patch.base_commit || m->patch.prerequisite_ids.n ||
		     m->patch.prerequisite_msgids.n);
}

/* The members of group root, in order: the cover letter, the patches, the missing ones. */
static void build_series(struct series_set *set, size_t *parent, size_t root,
			 struct series *s)
{
	struct series_msg **v = xcalloc(set->nmsgs + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = root; i < set->nmsgs; i++)
		if (is_member(&set->msgs[i]) && find_root(parent, i) == root)
			v[n++] = &set->msgs[i];
	qsort(v, n, sizeof(*v), by_index);
	s->patches = xcalloc(n + 1, sizeof(*s->patches));
	for (size_t k = 0; k < n; k++) {
		struct series_msg *m = v[k];
		unsigned index = m->patch.subject.index;
		bool again = k && index == v[k - 1]->patch.subject.index;
		if (m->role == SERIES_COVER && !s->cover && !again)
			s->cover = m;
		else if (again || m->role == SERIES_COVER)
			m->role = SERIES_DUPLICATE;
		else
			s->patches[s->npatches++] = m;
	}
	free(v);
	const struct series_msg *head = s->cover ? s->cover : s->patches[0];
	s->total = head->patch.subject.total;
	s->version = head->patch.subject.version;
	s->title = xstrdup(head->patch.subject.title);
	s->missing = xcalloc(s->total + 1, sizeof(*s->missing));
	/* A lone message's series is not in the input: nothing of it is missing. */
	for (unsigned want = 1, k = 0; set->nmsgs > 1 && want <= s->total; want++) {
		while (k < s->npatches && s->patches[k]->patch.subject.index < want)
			k++;
		if (k == s->npatches || s->patches[k]->patch.subject.index != want)
			s->missing[s->nmissing++] = want;
	}
	if (states_base(s->cover))
		s->facts = &s->cover->patch;
	else if (s->npatches && states_base(s->patches[0]))
		s->facts = &s->patches[0]->patch;
}

/* One stderr line for the messages of a role that are set aside. */
static void tell_ignored(const struct series_set *set, enum series_role role,
			 const char *one, const char *many)
{
	size_t count = 0;
	const char *first = NULL;
	for (size_t i = 0; i < set->nmsgs; i++)
		if (set->msgs[i].role == role && !count++)
			first = set->msgs[i].mail->subject;
	if (count)
		warn("ignoring %zu %s (\"%.*s\"%s)", count, count == 1 ? one : many,
		     SUBJECT_SHOWN, first, count > 1 ? ", ..." : "");
}

static void tell_series(const struct series *s)
{
	if (s->older.n) {
		struct buf older = BUF_INIT;
		for (size_t i = 0; i < s->older.n; i++)
			buf_addf(&older, "%s%s", i ? ", " : "", s->older.v[i]);
		warn("reviewing v%u of \"%.*s\"; not the older %s", s->version,
		     SUBJECT_SHOWN, s->title, older.data);
		buf_release(&older);
	}
	if (s->nmissing) {
		struct buf missing = BUF_INIT;
		series_list_missing(s, &missing);
		if (s->nmissing == s->total)
			warn("\"%.*s\": none of its %u patches is in the input", SUBJECT_SHOWN,
			     s->title, s->total);
		else
			warn("\"%.*s\": %s %s not in the input; reviewing the rest", SUBJECT_SHOWN,
			     s->title, missing.data, s->nmissing == 1 ? "is" : "are");
		buf_release(&missing);
	}
}

void series_group(struct series_set *set, struct mail *mails, struct patch *patches, size_t n)
{
	*set = (struct series_set){ 0 };
	take_all(set, mails, patches, n);
	size_t *parent = xcalloc(n + 1, sizeof(*parent));
	for (size_t i = 0; i < n; i++)
		parent[i] = i;
	find_series(set, parent);
	struct group *g = xcalloc(n + 1, sizeof(*g));
	size_t ng = 0;
	for (size_t i = 0; i < n; i++)
		if (is_member(&set->msgs[i]) && find_root(parent, i) == i) {
			g[ng].root = i;
			describe_group(set, parent, &g[ng++]);
		}
	find_families(set, parent, g, ng);
	set->v = xcalloc(ng + 1, sizeof(*set->v));
	for (size_t k = 0; k < ng; k++) {
		if (!g[k].newest)
			continue;
		struct series *s = &set->v[set->n++];
		build_series(set, parent, g[k].root, s);
		for (size_t j = 0; j < ng; j++)
			if (j != k && g[j].family == g[k].family) {
				struct buf v = BUF_INIT;
				buf_addf(&v, "v%u", g[j].version);
				strvec_push_take(&s->older, buf_detach(&v, NULL));
			}
	}
	for (size_t i = 0; i < n; i++) {
		struct series_msg *m = &set->msgs[i];
		size_t root = find_root(parent, i);
		for (size_t k = 0; is_member(m) && k < ng; k++)
			if (g[k].root == root && !g[k].newest)
				m->role = SERIES_OLDER;
	}
	if (n > 1) {	/* of a lone message the run says what it is */
		tell_ignored(set, SERIES_REPLY, "reply", "replies");
		tell_ignored(set, SERIES_DUPLICATE, "duplicate", "duplicates");
		tell_ignored(set, SERIES_NOT_PATCH, "message without a patch",
			     "messages without a patch");
	}
	for (size_t k = 0; k < set->n; k++)
		tell_series(&set->v[k]);
	free(g);
	free(parent);
}

void series_set_release(struct series_set *set)
{
	for (size_t k = 0; k < set->n; k++) {
		struct series *s = &set->v[k];
		free(s->patches);
		free(s->missing);
		free(s->title);
		strvec_clear(&s->older);
	}
	free(set->v);
	for (size_t i = 0; i < set->nmsgs; i++)
		patch_release(&set->msgs[i].patch);
	free(set->msgs);
	*set = (struct series_set){ 0 };
}

void series_list_missing(const struct series *s, struct buf *out)
{
	if (s->nmissing > MISSING_NAMED) {
		buf_addf(out, "%zu of the %u patches", s->nmissing, s->total);
		return;
	}
	for (size_t i = 0; i < s->nmissing; i++)
		buf_addf(out, "%s%u/%u", !i ? "" : i + 1 == s->nmissing ? " and " : ", ",
			 s->missing[i], s->total);
}

void series_label(const struct series *s, const struct series_msg *m, char label[24])
{
	label[0] = '\0';
	if (s->total)
		snprintf(label, 24, "%u/%u", m->patch.subject.index, s->total);
}
