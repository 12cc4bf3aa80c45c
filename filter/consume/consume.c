/* consume.c: patchreview consume: options, the pipe target, the folder run. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "config/config.h"
#include "consume/consume.h"
#include "consume/log.h"
#include "consume/path.h"
#include "consume/queue.h"
#include "consume/worker.h"
#include "mail/mail.h"
#include "state/state.h"
#include "tree/tree.h"

/* As status.h says for a bad option or configuration (main.c is above this folder). */
#define CONSUME_USAGE 2

static const char usage_text[] =
	"usage: patchreview consume [-c FILE] [-o DIR] < message\n"
	"       patchreview consume [-c FILE] [-o DIR] [--format F] [-q] [MAILDIR | MBOX]...\n"
	"\n"
	"Reviews patches at delivery, so the key press later finds the review\n"
	"made. With no path, reads one message on stdin (a pipe target for\n"
	"procmail, maildrop, fdm, Sieve or lei), queues it, starts the review in\n"
	"the background and exits 0 at once. With paths, queues their messages,\n"
	"reviews what is ready and returns when done; with no path and stdin a\n"
	"terminal, only that. A folder run reads only what came since the last.\n"
	"State and log: ${XDG_STATE_HOME:-~/.local/state}/patchreview/.\n"
	"\n"
	"  -c, --config FILE    read FILE instead of ~/.config/patchreview/config\n"
	"  -o, --out DIR        also write each series' review into DIR, a file a\n"
	"                       series, or maildir:PATH (consume_out); never sent\n"
	"      --format F       draft or json: what --out gets (consume_format)\n"
	"  -q, --quiet          no summary line\n"
	"  -h, --help           this text\n";

struct consume_options {
	const char *config;
	const char *out, *format;
	bool quiet;
};

static const struct option options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "out", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'F' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0, 1 for --help, or -1. */
static int parse_options(struct consume_options *o, int argc, char **argv)
{
	int opt;
	opterr = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, ":c:o:qh", options, NULL)) != -1) {
		if (opt == 'c')
			o->config = optarg;
		else if (opt == 'o')
			o->out = optarg;
		else if (opt == 'F')
			o->format = optarg;
		else if (opt == 'q')
			o->quiet = true;
		else if (opt == 'h')
			return fputs(usage_text, stdout), 1;
		else
			return error("consume: unknown option or missing argument '%s'; "
				     "see patchreview consume --help", argv[optind - 1]);
	}
	return 0;
}

/* The state directory, created. NULL after one line on stderr. */
static char *open_state(void)
{
	char *state = state_dir();
	if (!state) {
		error("consume: neither XDG_STATE_HOME nor HOME is set");
		return NULL;
	}
	if (make_dirs(state) < 0) {
		error("consume: cannot make '%s': %s", state, strerror(errno));
		free(state);
		return NULL;
	}
	return state;
}

/* The worker with its tree. */
static void work(const char *state, struct config *c, struct worker_counts *n)
{
	struct tree *tree = NULL;
	if (c->tree && !(tree = tree_open(c->tree, true))) {
		consume_log("cannot open the tree '%s'; nothing reviewed", c->tree);
		return;
	}
	worker_run(state, c, tree, n);
	tree_close(tree);
}

/* Nothing but the log for the background: the delivery agent's descriptors are its own. */
static void detach_stdio(const char *state)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		close(fd);
	}
	if (consume_log_open(state) < 0 && fd >= 0)
		dup2(0, 2);
}

/*
 * The worker in the background, when no worker holds the lock: two forks
 * and a new session, so that it is no child of the delivery agent, which
 * may wait for its children or kill its process group. The lock is taken
 * here, before the forks, and kept by the worker: once this returns, a
 * worker runs that will see the message just queued.
 */
static void start_worker(const char *state, struct config *c)
{
	int lock = worker_lock(state, false);
	if (lock < 0)
		return;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		consume_log("cannot start the worker: %s", strerror(errno));
	} else if (!pid) {
		setsid();
		if (fork())
			_exit(0);
		setpgid(0, 0);	/* its own group: kill -- -PID ends it and its reviews */
		detach_stdio(state);
		worker_lock_owner(lock);
		for (int again = 0; lock >= 0 && again < 3; again++) {
			struct worker_counts n = { 0 };
			work(state, c, &n);
			/* Let go, then look: a message queued meanwhile found the lock held. */
			close(lock);
			lock = worker_queue_waiting(state) ? worker_lock(state, false) : -1;
			if (lock >= 0)
				worker_lock_owner(lock);
		}
		if (lock >= 0)
			close(lock);
		config_release(c);
		mail_shutdown();
		exit(0);
	} else {
		waitpid(pid, NULL, 0);
	}
	close(lock);
}

/* The pipe target: always exit 0; what went wrong is a line in the log. */
static int from_stdin(const char *state, struct config *c)
{
	struct buf raw = BUF_INIT;
	char sink[1 << 14];
	if (slurp_fd(0, MAIL_MAX_INPUT, &raw) < 0) {
		/* Read to the end: a writer that gets SIGPIPE may call the delivery failed. */
		while (read(0, sink, sizeof(sink)) > 0)
			;
		consume_log("a message could not be read (%s); left for the key press",
			    strerror(errno));
		buf_release(&raw);
		return 0;
	}
	raw.len = queue_trim_separator(raw.data, raw.len);
	/* Nothing on stdin (a timer's /dev/null): only the series waiting. */
	switch (!raw.len ? QUEUE_DUPLICATE : queue_put(state, raw.data, raw.len, c->consume_queue)) {
	case QUEUE_FULL:
		consume_log("the queue holds consume_queue (%ld) messages; a message is left "
			    "for the key press", c->consume_queue);
		break;
	case QUEUE_FAILED:
		consume_log("cannot queue a message: %s", strerror(errno));
		break;
	default:
		break;
	}
	buf_release(&raw);
	start_worker(state, c);
	return 0;
}

/* The folder run: queue, then work in the foreground (waiting for a worker under way). */
static int from_paths(const char *state, struct config *c, char **paths, int n, bool quiet)
{
	struct path_counts p = { 0 };
	struct worker_counts w = { 0 };
	int ret = 0;
	for (int i = 0; i < n && !ret; i++)
		ret = path_queue(state, paths[i], c->consume_queue, &p);
	int lock = worker_lock(state, true);
	if (lock < 0)
		return error("consume: cannot take '%s/worker.lock': %s", state, strerror(errno));
	worker_lock_owner(lock);
	int saved = dup(2);
	if (consume_log_open(state) < 0)
		warn("consume: cannot open the log in '%s'", state);
	work(state, c, &w);
	close(lock);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	if (!quiet)
		warn("consume: %zu queued (%zu known, %zu seen before), %zu placed, %zu duplicates, "
		     "%zu not reviewable, %zu series reviewed, %zu failed, %zu over the day's budget",
		     p.queued, p.known, p.seen, w.placed, w.duplicates, w.dropped, w.reviewed,
		     w.failed, w.over_budget);
	return ret < 0 ? CONSUME_USAGE : 0;
}

int consume_main(int argc, char **argv)
{
	struct consume_options o = { 0 };
	struct config c;
	int ret = parse_options(&o, argc, argv);
	bool pipe_target = optind == argc && !isatty(0);
	if (ret)	/* a pipe target's error must not bounce the mail */
		return ret < 0 && isatty(0) ? CONSUME_USAGE : 0;
	char *state = open_state();
	if (!state)
		return pipe_target ? 0 : CONSUME_USAGE;
	config_init(&c);
	if (config_load(&c, o.config) < 0 ||
	    (o.out && config_set(&c, "consume_out", o.out, "--out") < 0) ||
	    (o.format && config_set(&c, "consume_format", o.format, "--format") < 0)) {
		ret = pipe_target ? 0 : CONSUME_USAGE;
		if (pipe_target && consume_log_open(state) == 0)
			consume_log("the configuration cannot be read; nothing queued");
	} else if (pipe_target) {
		int saved = dup(2);
		if (consume_log_open(state) < 0 && saved >= 0)
			dup2(saved, 2);
		ret = from_stdin(state, &c);
		if (saved >= 0)
			close(saved);
	} else {
		ret = from_paths(state, &c, argv + optind, argc - optind, o.quiet);
	}
	config_release(&c);
	free(state);
	return ret;
}
