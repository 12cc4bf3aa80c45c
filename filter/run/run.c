/*
 * run.c: the driver. The stages run in the order run_review() lists them,
 * the same for one mail as for many: a single mail is a series of one.
 * Each series is reviewed patch by patch with the series in view; its
 * cover letter is answered with the series-level checks and a summary of
 * what each patch's review found; the drafts come cover letter first.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/budget.h"
#include "base/buf.h"
#include "base/msg.h"
#include "learn/record.h"
#include "model/model.h"
#include "output/write.h"
#include "patch/parse.h"
#include "prereq/prereq.h"
#include "run/b4skip.h"
#include "run/reviewers.h"
#include "run/run.h"
#include "series/summary.h"
#include "state/state.h"
#include "thread/thread.h"
#include "tree/tree.h"

/* A series and its reviews: the cover letter's, and one per patch. */
struct reviewed {
	struct series *s;
	struct review cover;
	struct review *rs;
	struct review_input *ins;
	bool *skipped;		/* not reviewed: b4 review was told to skip it */
	struct tree_review *trees;	/* with --tree, what it says of each patch */
	const struct patch **earlier;	/* the patches in order, which trees read on top of */
};

/* Where the drafts and the --format output go. */
struct sink {
	const struct run_job *job;
	struct draft_out drafts;
	struct output_patch *ops;	/* for --format */
	char **paths;			/* the drafts' files, for ops */
	size_t nops, numbered;
	bool several_series;
	const char *only_id;	/* write only the draft of this Message-ID, or NULL */
};

/* Drafts are written: to stdout unless --format says otherwise, or to their place. */
static bool writes_drafts(const struct run_job *job)
{
	return !job->config->explain_prompt && !job->review_only &&
		(job->format == OUTPUT_DRAFT || job->drafts.maildir || job->drafts.output_dir);
}

/* Each message's patch and the facts it states; the mails' texts are taken. */
static struct patch *parse_all(struct mail *mails, size_t n)
{
	struct patch *v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		char *text = mails[i].text;
		mails[i].text = NULL;
		patch_parse(&v[i], mails[i].subject, text, mails[i].text_len,
			    mails[i].patch_offset);
	}
	return v;
}

/* One line on stderr: how many messages, and what of them is reviewed. */
static void tell_counts(const struct series_set *set)
{
	size_t patches = 0, covers = 0;
	for (size_t i = 0; i < set->n; i++) {
		patches += set->v[i].npatches;
		covers += set->v[i].cover != NULL;
	}
	struct buf line = BUF_INIT;
	buf_addf(&line, "the input holds %zu messages; reviewing %zu patch%s", set->nmsgs,
		 patches, patches == 1 ? "" : "es");
	if (set->n > 1)
		buf_addf(&line, " in %zu series", set->n);
	else if (covers)
		buf_addstr(&line, " and the cover letter");
	warn("%s", line.data);
	buf_release(&line);
}

/* The comments in the replies among the input and the --thread messages. */
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

/*
 * Each patch's input: the limits its mail went past, the series around it
 * when a model will read it, and what the tree says of it, read at the
 * series' base on top of its prerequisites found among the messages on
 * hand (pre, or NULL) and the patches before it.
 */
static void prepare(struct reviewed *v, const struct run_job *job, const struct thread *thread,
		    const struct prereq_found *pre, struct budget *budget)
{
	const struct series *s = v->s;
	const struct config *c = job->config;
	bool model = c->explain_prompt || model_configured(c);
	bool with_context = model && (s->cover || s->npatches > 1);
	size_t n = s->npatches;
	review_init(&v->cover);
	v->rs = xcalloc(n + 1, sizeof(*v->rs));
	v->ins = xcalloc(n + 1, sizeof(*v->ins));
	v->skipped = xcalloc(n + 1, sizeof(*v->skipped));
	v->trees = xcalloc(n + 1, sizeof(*v->trees));
	/* Kept by the tree reviews (their files are read on top of these): freed with them. */
	size_t npre = pre ? pre->n : 0;
	const struct patch **earlier = xcalloc(npre + n + 1, sizeof(*earlier));
	v->earlier = earlier;
	for (size_t k = 0; k < npre; k++)
		earlier[k] = pre->v[k];
	for (size_t k = 0; k < n; k++)
		earlier[npre + k] = &s->patches[k]->patch;
	for (size_t k = 0; k < n; k++) {
		struct series_msg *m = s->patches[k];
		review_init(&v->rs[k]);
		review_note_cuts(&v->rs[k], m->mail, &m->patch);
		v->ins[k] = (struct review_input){
			.mail = m->mail, .patch = &m->patch, .config = c,
			.series = with_context ? s : NULL, .series_index = k,
			.thread = thread, .budget = budget,
		};
		if (job->tree) {
			const struct tree_series_place place = {
				.facts = s->facts, .earlier = earlier, .nearlier = npre + k,
				.nprereqs = npre, .prereqs_from = pre ? pre->from : NULL,
				.prereqs_missing = pre ? pre->missing : NULL,
				.all = earlier, .nall = npre + n,
			};
			tree_review_patch(job->tree, &m->patch, &place, model, &v->trees[k]);
			review_note(&v->rs[k], "%s", v->trees[k].note);
			if (v->trees[k].head_note)
				review_note(&v->rs[k], "%s", v->trees[k].head_note);
			v->ins[k].tree = &v->trees[k];
		}
	}
}

/* b4-check: a patch the maintainer marked "skip" in b4 review is not reviewed, and says nothing. */
static void decide_skips(struct reviewed *v, const struct run_job *job)
{
	for (size_t k = 0; job->format == OUTPUT_B4_CHECK && k < v->s->npatches; k++)
		v->skipped[k] = b4_marked_skip(v->s->patches[k]->mail->message_id);
}

/* The series-level checks: the cover letter's, or with none the first patch's. */
static void review_cover(struct reviewed *v, const struct config *c)
{
	const struct series *s = v->s;
	if (s->cover) {
		struct review_input in = {
			.mail = s->cover->mail, .patch = &s->cover->patch, .config = c,
		};
		reviewers_run_series(&in, s, &v->cover);
	} else if (s->npatches > 1 || s->nmissing) {
		/* No cover letter: the first patch's draft carries what concerns them all. */
		reviewers_run_series(&v->ins[0], s, &v->rs[0]);
	}
}

/* The patches not skipped, all at once: the model sees them together. */
static void review_patches(struct reviewed *v, struct run_result *res)
{
	size_t n = v->s->npatches, todo = 0;
	struct review_input *ins = xcalloc(n + 1, sizeof(*ins));
	struct review *rs = xcalloc(n + 1, sizeof(*rs));
	for (size_t k = 0; k < n; k++)
		if (!v->skipped[k]) {
			ins[todo] = v->ins[k];
			rs[todo++] = v->rs[k];
		}
	if (todo)
		reviewers_run_all(ins, rs, todo);
	for (size_t k = 0, j = 0; k < n; k++)
		if (!v->skipped[k])
			v->rs[k] = rs[j++];
	res->reviewed += todo;
	for (size_t k = 0; k < n; k++) {
		res->model_failed |= v->rs[k].model_failed;
		res->deferred |= v->rs[k].model_deferred;
	}
	free(ins);
	free(rs);
}

static void explain(const struct reviewed *v, struct run_result *res)
{
	for (size_t k = 0; k < v->s->npatches; k++)
		if (model_explain_prompt(&v->ins[k], stdout) < 0)
			res->explain_failed = true;
}

static void release_reviewed(struct reviewed *v)
{
	review_release(&v->cover);
	for (size_t k = 0; k < v->s->npatches; k++) {
		review_release(&v->rs[k]);
		tree_review_release(&v->trees[k]);
	}
	free(v->trees);
	free(v->earlier);
	free(v->skipped);
	free(v->rs);
	free(v->ins);
}

/* NNNN of --output-dir: the index in the series, or a running number across several. */
static unsigned draft_number(const struct sink *k, const struct series_msg *m)
{
	if (k->several_series)
		return (unsigned)k->numbered;
	return m->patch.subject.index || m->role == SERIES_COVER ? m->patch.subject.index : 1;
}

/* One draft, and the learning record of a reviewed patch's; kept for --format. */
static void put(struct sink *k, struct run_result *res, const struct series_msg *m,
		const struct review *r, bool reviewed)
{
	const struct config *c = k->job->config;
	char *path = NULL;
	if (k->only_id && (!m->mail->message_id || strcmp(m->mail->message_id, k->only_id)))
		return;
	k->numbered++;
	if (writes_drafts(k->job)) {
		if (draft_out_write(&k->drafts, draft_number(k, m), m->mail, &m->patch, r,
				    reviewed) < 0) {
			res->write_failed = true;
		} else {
			path = k->drafts.path ? xstrdup(k->drafts.path) : NULL;
			if (reviewed)
				record_write(m->mail, &m->patch, r, c);
		}
	}
	k->paths[k->nops] = path;
	k->ops[k->nops++] = (struct output_patch){ m->mail, &m->patch, r, reviewed, path };
	res->worst = review_worst(r) > res->worst ? review_worst(r) : res->worst;
}

/* The --format output, after the drafts: it names their files. */
static void put_format(struct sink *k, struct run_result *res)
{
	if (k->job->format != OUTPUT_DRAFT && !k->job->review_only && !res->write_failed &&
	    output_write(stdout, k->job->format, k->ops, k->nops, k->job->config) < 0) {
		error("cannot write the output");
		res->write_failed = true;
	}
}

/* Nothing to review: a plain reply to the first message, its review r saying why. */
static void reply_plainly(struct series_set *set, struct sink *k, struct review *r,
			  struct run_result *res)
{
	struct series_msg *m = &set->msgs[0];
	const char *then = writes_drafts(k->job) ? "; writing a plain reply draft" : "";
	review_note_cuts(r, m->mail, &m->patch);
	if (set->nmsgs > 1) {
		warn("no patch found in the %zu messages%s%s", set->nmsgs, then,
		     *then ? " to the first" : "");
		review_note(r, "no patch found in these %zu messages; nothing was reviewed",
			    set->nmsgs);
	} else if (m->patch.pull_request && patch_has_diff(&m->patch)) {
		/* Its commits are reviewed as patches; the sum of them is not. */
		warn("a pull request; its diff was not reviewed");
		review_note(r, "this is a pull request; its diff was not reviewed");
	} else {
		warn("no patch found in the mail%s", then);
		review_note(r, "no patch found in this mail; nothing was reviewed");
	}
	if (!k->job->config->explain_prompt)
		put(k, res, m, r, false);
}

/* One run: its input, its series and their reviews, where their drafts go. */
struct run {
	const struct run_job *job;
	struct run_result *res;
	struct mail_list input;	/* read from stdin, when the job names no messages */
	struct mail *mails;
	size_t n;
	struct series_set set;
	struct thread thread;
	struct prereqs *prereqs;	/* with a tree: the series' prerequisites found on hand */
	struct budget budget;	/* what the run may still send to the model */
	struct reviewed *v;	/* one per series */
	struct review plain;	/* with no patch at all: the first message's */
	struct sink k;
	char *only_id;		/* the pressed mail of a series consume reviewed, or NULL */
};

/*
 * One mail of a series patchreview consume reviewed: the series from the
 * state instead, so the draft is the one made at delivery, and the model's
 * answers come from the cache. Not with the cache off: that asks for a
 * review made now.
 */
static void from_state(struct run *r)
{
	struct mail_list series;
	const struct config *c = r->job->config;
	if (r->input.n != 1 || !c->cache || c->explain_prompt || c->requests_out ||
	    !r->input.v[0].message_id || state_reviewed_series(&r->input.v[0], &series) < 0)
		return;
	r->only_id = xstrdup(r->input.v[0].message_id);
	mail_list_release(&r->input);
	r->input = series;
	warn("this mail's series of %zu messages was reviewed at delivery; answering with it",
	     series.n);
}

/* Reads stdin when the job names no messages. Returns 0, or -1 when nothing was read. */
static int read_input(struct run *r)
{
	if (r->job->mails) {
		r->mails = r->job->mails;
		r->n = r->job->nmails;
	} else if (mail_read_all(0, &r->input) == 0) {
		from_state(r);
		r->mails = r->input.v;
		r->n = r->input.n;
	}
	return r->n ? 0 : -1;
}

/* Each message parsed, then all of them sorted into series. */
static void group(struct run *r)
{
	struct patch *patches = parse_all(r->mails, r->n);
	series_group(&r->set, r->mails, patches, r->n);
	free(patches);
	if (r->n > 1 && r->set.n && !r->only_id)
		tell_counts(&r->set);
}

/* What is not reviewed, then the review of the rest, or the prompts explained. */
static void review_all(struct run *r)
{
	const struct config *c = r->job->config;
	for (size_t i = 0; i < r->set.n; i++) {
		struct reviewed *v = &r->v[i];
		decide_skips(v, r->job);
		review_cover(v, c);
		if (c->explain_prompt)
			explain(v, r->res);
		else
			review_patches(v, r->res);
		if (v->s->cover)
			series_summarise(&v->cover, v->s, v->rs);
	}
}

/* Where the drafts go, with room for one per cover letter and patch. */
static void open_sink(struct run *r)
{
	size_t drafts = 0;
	for (size_t i = 0; i < r->set.n; i++)
		drafts += r->set.v[i].npatches + (r->set.v[i].cover != NULL);
	r->k = (struct sink){
		.job = r->job, .ops = xcalloc(drafts + 1, sizeof(*r->k.ops)),
		.paths = xcalloc(drafts + 1, sizeof(*r->k.paths)), .several_series = r->set.n > 1,
		.only_id = r->only_id,
	};
	draft_out_init(&r->k.drafts, r->job->config, &r->job->drafts, r->only_id ? 1 : drafts,
		       (drafts > 1 || r->job->mbox) && !r->only_id && r->job->format == OUTPUT_DRAFT);
}

/* The drafts, each series' cover letter first, each with its learning record. */
static void write_drafts(struct run *r)
{
	for (size_t i = 0; i < r->set.n; i++) {
		const struct series *s = &r->set.v[i];
		if (s->cover)
			put(&r->k, r->res, s->cover, &r->v[i].cover, false);
		for (size_t j = 0; j < s->npatches; j++)
			put(&r->k, r->res, s->patches[j], &r->v[i].rs[j], !r->v[i].skipped[j]);
	}
}

static void run_release(struct run *r)
{
	for (size_t i = 0; i < r->set.n && r->v; i++)
		release_reviewed(&r->v[i]);
	for (size_t i = 0; i < r->k.nops; i++)
		free(r->k.paths[i]);
	free(r->k.paths);
	free(r->k.ops);
	free(r->v);
	review_release(&r->plain);
	draft_out_release(&r->k.drafts);
	thread_release(&r->thread);
	prereqs_free(r->prereqs);
	series_set_release(&r->set);
	mail_list_release(&r->input);
	free(r->only_id);
}

void run_job_init(struct run_job *job, const struct config *c, enum output_format format)
{
	*job = (struct run_job){ .config = c, .format = format, .drafts = draft_place_of(c) };
}

void run_review(const struct run_job *job, struct run_result *res)
{
	struct run r = { .job = job, .res = res };
	*res = (struct run_result){ .worst = -1 };
	review_init(&r.plain);
	if (read_input(&r) < 0) {
		res->unreadable = true;
		run_release(&r);
		return;
	}
	group(&r);
	read_thread(&r.thread, &r.set, job->thread);
	if (job->tree)
		r.prereqs = prereqs_find(job->tree, job->config->list_folder, &r.set, job->thread);
	budget_init(&r.budget, job->config);
	r.v = xcalloc(r.set.n + 1, sizeof(*r.v));
	for (size_t i = 0; i < r.set.n; i++) {
		r.v[i].s = &r.set.v[i];
		prepare(&r.v[i], job, &r.thread, prereqs_of(r.prereqs, i), &r.budget);
	}
	/* The messages of the input past a limit, named in the first draft. */
	review_note_skipped(!r.set.n ? &r.plain : r.set.v[0].cover ? &r.v[0].cover : &r.v[0].rs[0],
			    &r.input.skipped);
	review_all(&r);
	open_sink(&r);
	/* --requests-out: the requests are the output; the drafts wait for their answers. */
	bool output = !job->config->explain_prompt && !res->deferred;
	if (!r.set.n)
		reply_plainly(&r.set, &r.k, &r.plain, res);
	else if (output)
		write_drafts(&r);
	if (output)
		put_format(&r.k, res);
	res->tokens_sent = r.budget.sent;
	run_release(&r);
}
