/*
 * run_series.c: the stages for many messages. Each series is reviewed
 * patch by patch with the series in view; its cover letter is answered
 * with the series-level checks and a few lines on what each patch's
 * review found; the drafts are written cover letter first.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"
#include "draft/out.h"
#include "model/model.h"
#include "output/output.h"
#include "output/write.h"
#include "reviewers.h"
#include "run_series.h"
#include "series/context.h"
#include "thread/thread.h"
#include "tree/tree.h"

/* Of a finding quoted in the cover letter's summary, at most this much. */
#define SUMMARY_QUOTE 70

/* The first line of the most severe finding, shortened. */
static void add_worst(struct buf *b, const struct review *r)
{
	const struct finding *worst = NULL;
	for (size_t i = 0; i < r->nfindings; i++)
		if (!worst || r->findings[i].severity > worst->severity)
			worst = &r->findings[i];
	if (!worst)
		return;
	size_t len = strcspn(worst->text, "\n");
	if (len > SUMMARY_QUOTE) {
		len = SUMMARY_QUOTE;
		while (len && worst->text[len] != ' ')
			len--;	/* whole words */
		while (len && worst->text[len - 1] == ' ')
			len--;
		if (!len)
			len = SUMMARY_QUOTE;
		while (len && ((unsigned char)worst->text[len] & 0xc0) == 0x80)
			len--;	/* whole UTF-8 sequences */
	}
	buf_addf(b, "; %s: \"%.*s%s\"", severity_name(worst->severity), (int)len,
		 worst->text, worst->text[len] && worst->text[len] != '\n' ? "..." : "");
}

static void summarise_patch(struct buf *b, const struct series *s, size_t k,
			    const struct review *r)
{
	char label[24];
	const struct series_msg *m = s->patches[k];
	series_label(s, m, label);
	buf_addf(b, "\n- %s%s%s: ", label, *label ? " " : "", m->patch.subject.title);
	if (!r->nfindings)
		buf_addstr(b, "nothing to comment on");
	else
		buf_addf(b, "%zu comment%s", r->nfindings, r->nfindings == 1 ? "" : "s");
	add_worst(b, r);
	if (r->model_failed)
		buf_addstr(b, " (the model review failed)");
	buf_addch(b, '.');
}

/* What the review of each patch found, in the order of the series, and what is missing. */
static void summarise(struct review *cover, const struct series *s, const struct review *rs)
{
	if (!s->npatches)
		return;
	struct buf b = BUF_INIT;
	buf_addstr(&b, "What patchreview found in each patch:");
	for (size_t k = 0; k < s->npatches; k++)
		summarise_patch(&b, s, k, &rs[k]);
	if (s->nmissing) {
		buf_addstr(&b, "\n- Not in the input, not reviewed: ");
		series_list_missing(s, &b);
		buf_addch(&b, '.');
	}
	if (s->base_commit)
		buf_addf(&b, "\n\nThe series is based on %s.", s->base_commit);
	review_summary(cover, b.data);
	buf_release(&b);
}

/* A series and its reviews: the cover letter's, and one per patch. */
struct reviewed {
	struct series *s;
	struct review cover;
	struct review *rs;
	struct review_input *ins;
	char **contexts;
	struct tree_review *trees;	/* with --tree, what it says of each patch */
	const struct thread *thread;	/* what the replies said */
	const struct patch **earlier;	/* the patches in order, which trees read on top of */
};

/* Where the drafts and the --format output go. */
struct sink {
	const struct config *config;
	enum output_format format;
	struct draft_out drafts;
	struct output_patch *ops;	/* for --format */
	char **paths;			/* the drafts' files, for ops */
	size_t nops, numbered;
	bool several_series;
};

/* NNNN of --output-dir: the index in the series, or a running number across several. */
static unsigned draft_number(const struct sink *k, const struct series_msg *m)
{
	if (k->several_series)
		return (unsigned)k->numbered;
	return m->patch.subject.index || m->role == SERIES_COVER ? m->patch.subject.index : 1;
}

static void put(struct sink *k, struct run_series_result *res, const struct series_msg *m,
		const struct review *r, bool reviewed)
{
	const struct config *c = k->config;
	char *path = NULL;
	k->numbered++;
	if (k->format == OUTPUT_DRAFT || c->maildir || c->output_dir) {
		if (draft_out_write(&k->drafts, draft_number(k, m), m->mail, &m->patch, r,
				    reviewed) < 0)
			res->write_failed = true;
		else if (k->drafts.path)
			path = xstrdup(k->drafts.path);
	}
	k->paths[k->nops] = path;
	k->ops[k->nops++] = (struct output_patch){ m->mail, &m->patch, r, reviewed, path };
	res->worst = r->nfindings && review_worst(r) > res->worst ? review_worst(r) : res->worst;
}

/*
 * Each patch's input: the series around it when a model will read it,
 * and what the tree says of it: read at the series' base, on top of the
 * patches before it.
 */
static void inputs(struct reviewed *v, const struct config *c, struct tree *tree)
{
	const struct series *s = v->s;
	bool model = c->explain_prompt || model_configured(c);
	bool with_context = model && (s->cover || s->npatches > 1);
	v->ins = xcalloc(s->npatches + 1, sizeof(*v->ins));
	v->contexts = xcalloc(s->npatches + 1, sizeof(*v->contexts));
	v->trees = xcalloc(s->npatches + 1, sizeof(*v->trees));
	/* Kept by the tree reviews (their files are read on top of these): freed with them. */
	const struct patch **earlier = xcalloc(s->npatches + 1, sizeof(*earlier));
	v->earlier = earlier;
	for (size_t k = 0; k < s->npatches; k++) {
		struct series_msg *m = s->patches[k];
		if (with_context)
			v->contexts[k] = series_context(s, k, (size_t)c->series_context_bytes);
		v->ins[k] = (struct review_input){
			.mail = m->mail, .patch = &m->patch, .config = c, .series = v->contexts[k],
			.thread = v->thread,
		};
		if (tree) {
			const struct tree_series_place place = {
				.base = s->base_commit, .earlier = earlier, .nearlier = k,
			};
			earlier[k] = &m->patch;
			tree_review_patch(tree, &m->patch, &place, model, &v->trees[k]);
			review_note(&v->rs[k], "%s", v->trees[k].note);
			v->ins[k].tree = &v->trees[k];
		}
	}
}

static void review_series(struct reviewed *v, const struct config *c, struct tree *tree,
			  struct run_series_result *res)
{
	struct series *s = v->s;
	v->rs = xcalloc(s->npatches + 1, sizeof(*v->rs));
	for (size_t k = 0; k < s->npatches; k++) {
		review_init(&v->rs[k]);
		review_note_cuts(&v->rs[k], s->patches[k]->mail, &s->patches[k]->patch);
	}
	inputs(v, c, tree);
	review_init(&v->cover);
	if (s->cover) {
		struct review_input cover_in = {
			.mail = s->cover->mail, .patch = &s->cover->patch, .config = c,
		};
		reviewers_run_series(&cover_in, s, &v->cover);
	} else if (s->npatches > 1 || s->nmissing) {
		/* No cover letter: the first patch's draft carries what concerns them all. */
		reviewers_run_series(&v->ins[0], s, &v->rs[0]);
	}
	for (size_t k = 0; c->explain_prompt && k < s->npatches; k++)
		if (model_explain_prompt(&v->ins[k], stdout) < 0)
			res->explain_failed = true;
	if (!c->explain_prompt && s->npatches) {
		reviewers_run_all(v->ins, v->rs, s->npatches);
		res->reviewed += s->npatches;
	}
	for (size_t k = 0; k < s->npatches; k++) {
		res->model_failed |= v->rs[k].model_failed;
		res->deferred |= v->rs[k].model_deferred;
	}
	if (s->cover)
		summarise(&v->cover, s, v->rs);
}

static void release_reviewed(struct reviewed *v)
{
	review_release(&v->cover);
	for (size_t k = 0; k < v->s->npatches; k++) {
		review_release(&v->rs[k]);
		free(v->contexts[k]);
		tree_review_release(&v->trees[k]);
	}
	free(v->trees);
	free(v->earlier);
	free(v->contexts);
	free(v->rs);
	free(v->ins);
}

/* Every draft, the cover letter's first in each series, then the --format output. */
static void write_all(struct sink *k, struct reviewed *v, size_t n,
		      struct run_series_result *res)
{
	for (size_t i = 0; i < n; i++) {
		const struct series *s = v[i].s;
		if (s->cover)
			put(k, res, s->cover, &v[i].cover, false);
		for (size_t j = 0; j < s->npatches; j++)
			put(k, res, s->patches[j], &v[i].rs[j], true);
	}
	if (k->format != OUTPUT_DRAFT && !res->write_failed &&
	    output_write(stdout, k->format, k->ops, k->nops, k->config) < 0) {
		error("cannot write the output");
		res->write_failed = true;
	}
}

/* Nothing to review: a plain reply to the first message, as for one mail. */
static void reply_plainly(struct series_set *set, const struct strvec *skipped, struct sink *k,
			  struct run_series_result *res)
{
	struct review r;
	review_init(&r);
	review_note_skipped(&r, skipped);
	warn("no patch found in the %zu messages; writing a plain reply draft to the first",
	     set->nmsgs);
	review_note(&r, "no patch found in these %zu messages; nothing was reviewed",
		    set->nmsgs);
	if (!k->config->explain_prompt)
		put(k, res, &set->msgs[0], &r, false);
	review_release(&r);
}

/* One line on stderr: how many messages, and what of them is reviewed. */
static void tell_counts(const struct series_set *set, size_t n, size_t patches, size_t drafts)
{
	struct buf line = BUF_INIT;
	buf_addf(&line, "the input holds %zu messages; reviewing %zu patch%s", n, patches,
		 patches == 1 ? "" : "es");
	if (set->n > 1)
		buf_addf(&line, " in %zu series", set->n);
	else if (drafts > patches)
		buf_addstr(&line, " and the cover letter");
	warn("%s", line.data);
	buf_release(&line);
}

/* The comments in the replies of the input and of the --thread messages. */
static void read_thread(struct thread *t, const struct series_set *set,
			const struct thread_source *src)
{
	size_t extra = src ? src->n : 0;
	struct thread_msg *v = xcalloc(set->nmsgs + extra + 1, sizeof(*v));
	for (size_t i = 0; i < set->nmsgs; i++)
		v[i] = (struct thread_msg){ set->msgs[i].mail, &set->msgs[i].patch };
	if (extra)
		memcpy(v + set->nmsgs, src->msgs, extra * sizeof(*v));
	thread_collect(t, v, set->nmsgs + extra);
	free(v);
}

void run_series(struct mail *mails, size_t n, const struct strvec *skipped,
		const struct config *c,
		enum output_format format, struct tree *tree, const struct thread_source *src,
		struct run_series_result *res)
{
	struct series_set set;
	struct thread thread;
	*res = (struct run_series_result){ .worst = -1 };
	series_group(&set, mails, n);
	read_thread(&thread, &set, src);
	size_t drafts = 0, patches = 0;
	for (size_t i = 0; i < set.n; i++) {
		drafts += set.v[i].npatches + (set.v[i].cover != NULL);
		patches += set.v[i].npatches;
	}
	if (set.n)
		tell_counts(&set, n, patches, drafts);
	struct sink k = {
		.config = c, .format = format, .ops = xcalloc(drafts + 1, sizeof(*k.ops)),
		.paths = xcalloc(drafts + 1, sizeof(*k.paths)), .several_series = set.n > 1,
	};
	draft_out_init(&k.drafts, c, drafts > 1 && format == OUTPUT_DRAFT);
	struct reviewed *v = xcalloc(set.n + 1, sizeof(*v));
	for (size_t i = 0; i < set.n; i++) {
		v[i].s = &set.v[i];
		v[i].thread = &thread;
		review_series(&v[i], c, tree, res);
	}
	/* --requests-out: the requests are the output; the drafts wait for their answers. */
	if (set.n)	/* the first draft written */
		review_note_skipped(v[0].s->cover ? &v[0].cover : &v[0].rs[0], skipped);
	if (!set.n)
		reply_plainly(&set, skipped, &k, res);
	else if (!c->explain_prompt && !res->deferred)
		write_all(&k, v, set.n, res);
	for (size_t i = 0; i < set.n; i++)
		release_reviewed(&v[i]);
	for (size_t i = 0; i < k.nops; i++)
		free(k.paths[i]);
	free(k.paths);
	free(k.ops);
	free(v);
	draft_out_release(&k.drafts);
	series_set_release(&set);
	thread_release(&thread);
}
