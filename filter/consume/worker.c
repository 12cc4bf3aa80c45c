/* worker.c: placing the queue and reviewing the ready series, a process each. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "base/strvec.h"
#include "consume/day.h"
#include "consume/log.h"
#include "consume/out.h"
#include "consume/place.h"
#include "consume/queue.h"
#include "consume/ready.h"
#include "consume/replies.h"
#include "consume/worker.h"
#include "run/run.h"
#include "state/prune.h"
#include "state/read.h"
#include "state/state.h"

struct slot {
	pid_t pid;
	char key[HASH_SHA256_HEX];
	long reserved;		/* tokens held for it until it is done */
};

struct worker {
	const char *state;
	struct config *c;
	struct tree *tree;
	struct worker_counts *n;
	struct day day;
	long reserved;		/* the budgets of the series under way */
	struct slot slots[CONSUME_MAX_JOBS];
	size_t nslots, running;
	struct strvec tried;	/* started by this worker: a series that fails waits for the next */
};

int worker_lock(const char *state, bool wait)
{
	struct buf path = BUF_INIT;
	buf_addf(&path, "%s/worker.lock", state);
	int fd = open(path.data, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	buf_release(&path);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) < 0) {
		if (errno == EINTR)
			continue;
		close(fd);
		return -1;
	}
	return fd;
}

void worker_lock_owner(int fd)
{
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)len, 0) != len)
		consume_log("cannot write the worker's id into its lock: %s", strerror(errno));
}

bool worker_queue_waiting(const char *state)
{
	struct strvec names = STRVEC_INIT;
	char *dir = queue_dir(state);
	bool ret = dir && state_list_messages(dir, 1, &names) == 0 && names.n;
	strvec_clear(&names);
	free(dir);
	return ret;
}

/* "STATE/series/KEY/NAME" or, with no name, the folder. */
static void series_file(struct buf *path, const struct worker *w, const char *key,
			const char *name)
{
	buf_addf(path, "%s/series/%s%s%s", w->state, key, name ? "/" : "", name ? name : "");
}

static void unpend(const struct worker *w, const char *key)
{
	struct buf path = BUF_INIT;
	buf_addf(&path, "%s/pending/%s", w->state, key);
	unlink(path.data);
	buf_release(&path);
}

/*
 * The child: the series reviewed into the cache, and into consume_out
 * when it is set; then "done".
 */
static void review(struct worker *w, const char *key)
{
	struct buf dir = BUF_INIT, done = BUF_INIT, text = BUF_INIT;
	struct mail_list list = { 0 };
	struct run_job job;
	struct run_result res;
	struct consume_out out;
	series_file(&dir, w, key, NULL);
	if (state_read_series(dir.data, &list) < 0)
		exit(1);
	/* With the replies of its thread that came meanwhile: v1's comments for a v2. */
	if (replies_link(w->state, dir.data, &list)) {
		mail_list_release(&list);
		if (state_read_series(dir.data, &list) < 0)
			exit(1);
	}
	w->c->jobs = 1;
	/* Not the maintainer's drafts yet: the key press keeps the record of the one they answer. */
	w->c->record = false;
	run_job_init(&job, w->c, OUTPUT_DRAFT);
	job.mails = list.v;
	job.nmails = list.n;
	job.tree = w->tree;
	job.review_only = true;
	if (consume_out_open(&out, w->c, key, &job) < 0)
		exit(1);
	run_review(&job, &res);
	/* Not done when the model failed: the next run tries again, the key press meanwhile. */
	bool failed = res.model_failed || res.write_failed;
	if (consume_out_close(&out, !failed) < 0 || failed) {
		mail_list_release(&list);
		buf_release(&dir);
		exit(3);
	}
	buf_addf(&done, "%s/done", dir.data);
	buf_addf(&text, "tokens %ld\nmessages %zu\npatches %zu\n", res.tokens_sent, list.n,
		 res.reviewed);
	int ret = write_file_atomic(done.data, text.data, text.len);
	mail_list_release(&list);
	buf_release(&dir);
	buf_release(&done);
	buf_release(&text);
	exit(ret < 0 ? 1 : 0);
}

static void start(struct worker *w, const char *key, long reserve)
{
	size_t i = 0;
	while (w->slots[i].pid)
		i++;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		consume_log("cannot start a review: %s", strerror(errno));
		return;
	}
	if (!pid)
		review(w, key);
	w->slots[i].pid = pid;
	memcpy(w->slots[i].key, key, HASH_SHA256_HEX);
	w->slots[i].reserved = reserve;
	w->reserved += reserve;
	w->running++;
}

/* The tokens the done file of the series says were sent; -1 when it is missing. */
static long tokens_done(const struct worker *w, const char *key)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	long tokens = -1;
	series_file(&path, w, key, "done");
	if (slurp_file(path.data, 256, &data) == 0 && sscanf(data.data, "tokens %ld", &tokens) != 1)
		tokens = -1;
	buf_release(&path);
	buf_release(&data);
	return tokens;
}

/* Waits for one review to end, and counts it. */
static void wait_one(struct worker *w)
{
	int status;
	pid_t pid = waitpid(-1, &status, 0);
	if (pid < 0)
		return;
	for (size_t i = 0; i < w->nslots; i++) {
		struct slot *s = &w->slots[i];
		if (s->pid != pid)
			continue;
		long tokens = tokens_done(w, s->key);
		if (WIFEXITED(status) && !WEXITSTATUS(status) && tokens >= 0) {
			day_charge(&w->day, w->state, tokens);
			unpend(w, s->key);
			consume_log("series %.12s reviewed: about %ld tokens sent, %ld today",
				    s->key, tokens, w->day.used);
			w->n->reviewed++;
		} else {
			/* Its budget is spent, as far as anyone knows: the model may have answered. */
			day_charge(&w->day, w->state, s->reserved);
			consume_log("series %.12s: the review failed (status %d); tried again next run",
				    s->key, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
			w->n->failed++;
		}
		w->reserved -= s->reserved;
		s->pid = 0;
		w->running--;
	}
}

/* The series is left for the key press: over the day's budget. */
static void leave(struct worker *w, const char *key)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	series_file(&path, w, key, "skipped");
	buf_addf(&text, "over consume_tokens (%ld) on %s\n", w->c->consume_tokens, w->day.date);
	write_file_atomic(path.data, text.data, text.len);
	unpend(w, key);
	consume_log("series %.12s left for the key press: consume_tokens (%ld) spent today (%ld)",
		    key, w->c->consume_tokens, w->day.used);
	w->n->over_budget++;
	buf_release(&path);
	buf_release(&text);
}

/* The time in STATE/pending/KEY; 0 when unreadable, so the series is reviewed. */
static time_t pending_since(const struct worker *w, const char *key)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	long long t = 0;
	buf_addf(&path, "%s/pending/%s", w->state, key);
	if (slurp_file(path.data, 64, &data) < 0 || sscanf(data.data, "%lld", &t) != 1)
		t = 0;
	buf_release(&path);
	buf_release(&data);
	return (time_t)t;
}

/* Is the series whole, or has it waited long enough? */
static bool ready(const struct worker *w, const char *key)
{
	struct buf dir = BUF_INIT;
	struct mail_list list = { 0 };
	series_file(&dir, w, key, NULL);
	bool ret = state_read_series(dir.data, &list) == 0 &&
		series_ready(&list, pending_since(w, key), w->c->consume_wait);
	if (!list.n)	/* nothing there: nothing to wait for */
		unpend(w, key);
	mail_list_release(&list);
	buf_release(&dir);
	return ret;
}

/* Starts the series of key, as the budget and the slots allow. */
static void consider(struct worker *w, const char *key)
{
	long limit = w->c->consume_tokens;
	if (strvec_has(&w->tried, key) || !ready(w, key))
		return;
	strvec_push(&w->tried, key);
	for (;;) {
		long left = limit - w->day.used - w->reserved;
		/* A run may send token_budget; without one, whatever the day has left. */
		long reserve = w->c->token_budget > 0 ? w->c->token_budget : left;
		if (w->running < w->nslots && (limit == 0 || (left > 0 && reserve <= left))) {
			start(w, key, limit ? reserve : 0);
			return;
		}
		if (!w->running) {
			leave(w, key);
			return;
		}
		wait_one(w);
	}
}

/* One round: the queue placed, then every pending series considered. */
static void round_once(struct worker *w)
{
	struct place_counts p = { 0 };
	struct strvec keys = STRVEC_INIT;
	struct buf dir = BUF_INIT;
	place_queue(w->state, (size_t)w->c->consume_queue, &p);
	w->n->placed += p.placed;
	w->n->duplicates += p.duplicates;
	w->n->dropped += p.dropped;
	buf_addf(&dir, "%s/pending", w->state);
	DIR *d = opendir(dir.data);
	struct dirent *e;
	while (d && keys.n < (size_t)w->c->consume_queue && (e = readdir(d)))
		if (strlen(e->d_name) == HASH_SHA256_HEX - 1 &&
		    strspn(e->d_name, "0123456789abcdef") == HASH_SHA256_HEX - 1)
			strvec_push(&keys, e->d_name);
	if (d)
		closedir(d);
	for (size_t i = 0; i < keys.n; i++)
		consider(w, keys.v[i]);
	while (w->running)
		wait_one(w);
	strvec_clear(&keys);
	buf_release(&dir);
}

void worker_run(const char *state, struct config *c, struct tree *tree, struct worker_counts *n)
{
	struct worker w = { .state = state, .c = c, .tree = tree, .n = n };
	c->quiet = true;
	w.nslots = c->jobs < 1 ? 1 : c->jobs > CONSUME_MAX_JOBS ? CONSUME_MAX_JOBS : (size_t)c->jobs;
	day_read(&w.day, state);
	struct prune_counts pruned = { 0 };
	if (prune_state(state, c->consume_keep, &pruned) && (pruned.series || pruned.threads ||
							      pruned.seen))
		consume_log("pruned %zu series, %zu threads and %zu seen entries older than "
			    "consume_keep (%ld days)", pruned.series, pruned.threads, pruned.seen,
			    c->consume_keep);
	for (int i = 0; i < CONSUME_MAX_ROUNDS; i++) {
		round_once(&w);
		if (!worker_queue_waiting(state))
			break;
	}
	strvec_clear(&w.tried);
}
