/*
 * main.c: patchreview reads a patch mail on stdin and writes a reply draft
 * with review comments on stdout. Options, commands, and the exit status;
 * the stages themselves are run/run.h's.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "checks/rules.h"
#include "config/config.h"
#include "config/mutt_identity.h"
#include "consume/consume.h"
#include "draft/draft.h"
#include "eval/eval.h"
#include "learn/learn.h"
#include "mail/mail.h"
#include "model/model.h"
#include "output/output.h"
#include "run/reviewers.h"
#include "run/run.h"
#include "status.h"
#include "thread/thread.h"
#include "tree/tree.h"

/* What to write and when to fail: options only, so a mail client's config never changes them. */
struct run_options {
	enum output_format format;
	int fail_on;		/* enum severity, or -1 */
};

static const char usage_text[] =
	"usage: patchreview [options] < message > draft\n"
	"       patchreview eval --repo DIR [options]  (see patchreview eval --help)\n"
	"       patchreview dismiss [FINGERPRINT | N...] [< draft]\n"
	"       patchreview learn [PATH...] [< sent mail]\n"
	"       patchreview stats\n"
	"       patchreview consume [MAILDIR | MBOX...] [< message]  (review at delivery)\n"
	"\n"
	"Reads one patch mail (raw RFC 5322), or a whole series (an mbox, or\n"
	"messages with a line of four Ctrl-A after each), and writes a reply\n"
	"draft quoting each patch, with review comments under the lines they are\n"
	"about; several drafts come as an mbox, the cover letter's first.\n"
	"\n"
	"  -f, --from ADDR      your address for the From: header\n"
	"      --full           quote the whole patch, do not trim (trim = no)\n"
	"      --tag TAG        end the draft with your own tag, e.g. Reviewed-by,\n"
	"                       from your 'from' address\n"
	"      --maildir DIR    deliver the draft into Maildir DIR instead of stdout\n"
	"      --fresh-maildir  first move the drafts already in the --maildir DIR\n"
	"                       into the Maildir DIR-old (mutt's Esc R recalls\n"
	"                       this run's drafts only)\n"
	"      --output-dir DIR write each draft to DIR/NNNN-<subject>.eml\n"
	"      --mutt           add X-Mutt-References (mutt marks the mail replied)\n"
	"  -b, --backend NAME   model backend: none, openai, anthropic, ollama\n"
	"  -m, --model NAME     model name\n"
	"  -u, --url URL        backend base URL\n"
	"      --no-cache       neither read nor write the review cache\n"
	"      --tree DIR       read the code around the patch from this git work tree\n"
	"      --thread PATH    the thread's replies, a Maildir or an mbox: findings\n"
	"                       they already made are left out\n"
	"      --explain-prompt print the prompt guides chosen for this patch and stop\n"
	"      --list-checks    print the built-in rules with their ids and stop\n"
	"      --list-keys      print the configuration keys and stop\n"
	"      --list-exit-codes  print the exit statuses and stop\n"
	"      --list-prompts   print the prompt files with their sizes and stop\n"
	"      --show-dismissed list the dismissed findings at the end of the draft\n"
	"      --strict         exit 4 when the model review fails\n"
	"      --answers DIR    take the model's answers from DIR/NAME.json, not a server\n"
	"      --requests-out DIR  write each unanswered request to DIR/NAME.json\n"
	"                       and stop, without a draft\n"
	"      --request-name NAME  the NAME of those files (default: from the request)\n"
	"      --format FORMAT  draft (the default), json, b4-check or lines\n"
	"      --fail-on SEVERITY  exit 5 on a finding this severe or worse:\n"
	"                       nit, warning, error\n"
	"  -j, --jobs N         send up to N model requests at once (jobs, 4)\n"
	"  -q, --quiet          no progress line\n"
	"  -c, --config FILE    read FILE instead of ~/.config/patchreview/config\n"
	"  -h, --help           this text\n"
	"  -V, --version        the version\n"
	"\n"
	"Exit status:\n";

enum {
	OPT_FULL = 256, OPT_MAILDIR, OPT_MUTT, OPT_NO_CACHE, OPT_EXPLAIN, OPT_STRICT,
	OPT_ANSWERS, OPT_REQUESTS_OUT, OPT_REQUEST_NAME, OPT_LIST_CHECKS,
	OPT_FORMAT, OPT_FAIL_ON, OPT_TREE, OPT_TAG, OPT_OUTPUT_DIR, OPT_SHOW_DISMISSED,
	OPT_THREAD, OPT_FRESH_MAILDIR, OPT_LIST_KEYS, OPT_LIST_EXIT_CODES, OPT_LIST_PROMPTS,
};

static const struct option options[] = {
	{ "from", required_argument, NULL, 'f' },
	{ "full", no_argument, NULL, OPT_FULL },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "maildir", required_argument, NULL, OPT_MAILDIR },
	{ "fresh-maildir", no_argument, NULL, OPT_FRESH_MAILDIR },
	{ "output-dir", required_argument, NULL, OPT_OUTPUT_DIR },
	{ "mutt", no_argument, NULL, OPT_MUTT },
	{ "backend", required_argument, NULL, 'b' },
	{ "model", required_argument, NULL, 'm' },
	{ "url", required_argument, NULL, 'u' },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "tree", required_argument, NULL, OPT_TREE },
	{ "thread", required_argument, NULL, OPT_THREAD },
	{ "explain-prompt", no_argument, NULL, OPT_EXPLAIN },
	{ "list-checks", no_argument, NULL, OPT_LIST_CHECKS },
	{ "list-keys", no_argument, NULL, OPT_LIST_KEYS },
	{ "list-exit-codes", no_argument, NULL, OPT_LIST_EXIT_CODES },
	{ "list-prompts", no_argument, NULL, OPT_LIST_PROMPTS },
	{ "show-dismissed", no_argument, NULL, OPT_SHOW_DISMISSED },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "answers", required_argument, NULL, OPT_ANSWERS },
	{ "requests-out", required_argument, NULL, OPT_REQUESTS_OUT },
	{ "request-name", required_argument, NULL, OPT_REQUEST_NAME },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "jobs", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "config", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};
/* The leading ':' makes getopt tell a missing argument (':') from an unknown option ('?'). */
static const char short_options[] = ":f:b:m:u:j:qc:hV";

/* Options override the config file and the environment, so they go last. */
static int apply_option(struct config *c, int opt, const char *arg)
{
	switch (opt) {
	case 'f': return config_set(c, "from", arg, "--from");
	case OPT_FULL: return config_set(c, "trim", "no", "--full");
	case OPT_TAG: c->tag = arg; return 0;
	case OPT_MAILDIR: return config_set(c, "maildir", arg, "--maildir");
	case OPT_MUTT: return config_set(c, "mutt", "yes", "--mutt");
	case OPT_FRESH_MAILDIR: c->fresh_maildir = true; return 0;
	case 'b': return config_set(c, "backend", arg, "--backend");
	case 'm': return config_set(c, "model", arg, "--model");
	case 'u': return config_set(c, "url", arg, "--url");
	case OPT_NO_CACHE: return config_set(c, "cache", "no", "--no-cache");
	case OPT_TREE: return config_set(c, "tree", arg, "--tree");
	case OPT_STRICT: return config_set(c, "strict", "yes", "--strict");
	case OPT_SHOW_DISMISSED: return config_set(c, "show_dismissed", "yes", "--show-dismissed");
	case 'q': return config_set(c, "quiet", "yes", "--quiet");
	case 'j': return config_set(c, "jobs", arg, "--jobs");
	case OPT_EXPLAIN: c->explain_prompt = true; return 0;
	case OPT_ANSWERS: c->answers = arg; return 0;
	case OPT_REQUESTS_OUT: c->requests_out = arg; return 0;
	case OPT_REQUEST_NAME: c->request_name = arg; return 0;
	case OPT_OUTPUT_DIR: c->output_dir = arg; return 0;
	case OPT_THREAD: c->thread = arg; return 0;
	case 'c': case OPT_FORMAT: case OPT_FAIL_ON: case OPT_LIST_PROMPTS:
		return 0;	/* read before the config file */
	}
	return error("unknown option; see patchreview --help");
}

static int run_option(struct run_options *o, int opt, const char *arg)
{
	enum severity sev;
	if (opt == OPT_FORMAT && output_format_parse(arg, &o->format) < 0)
		return error("--format: unknown format '%s' (draft, json, b4-check, lines)", arg);
	if (opt == OPT_FAIL_ON) {
		if (severity_parse(arg, &sev) < 0)
			return error("--fail-on: unknown severity '%s' (nit, warning, error)", arg);
		o->fail_on = (int)sev;
	}
	return 0;
}

/* Returns -1 on error, 1 when --help or --version was answered, else 0. */
static int parse_options(struct config *c, struct run_options *o, int argc, char **argv)
{
	const char *config_path = NULL;
	int opt;
	bool list_prompts = false;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, short_options, options, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage_text, stdout);
			status_print(stdout, "  ");
			puts("\nConfiguration keys (config file 'key = value', or PATCHREVIEW_<KEY>):");
			config_print_keys(stdout, "  ");
			return 1;
		} else if (opt == 'V') {
			printf("patchreview %s\n", PATCHREVIEW_VERSION);
			return 1;
		} else if (opt == OPT_LIST_CHECKS) {
			rules_print(stdout);
			return 1;
		} else if (opt == OPT_LIST_KEYS) {
			config_print_keys(stdout, "");
			return 1;
		} else if (opt == OPT_LIST_EXIT_CODES) {
			status_print(stdout, "");
			return 1;
		} else if (opt == OPT_LIST_PROMPTS) {
			list_prompts = true;	/* the files depend on prompts_dir */
		} else if (opt == 'c') {
			config_path = optarg;
		} else if (opt == OPT_FORMAT || opt == OPT_FAIL_ON) {
			if (run_option(o, opt, optarg) < 0)
				return -1;
		} else if (opt == ':') {
			return error("option '%s' needs an argument; see patchreview --help",
				     argv[optind - 1]);
		} else if (opt == '?') {
			return error("unknown option '%s'; see patchreview --help",
				     argv[optind - 1]);
		}
	}
	if (optind < argc)
		return error("unexpected argument '%s'; the mail is read from stdin",
			     argv[optind]);
	if (config_load(c, config_path) < 0)
		return -1;
	optind = 0;
	while ((opt = getopt_long(argc, argv, short_options, options, NULL)) != -1)
		if (apply_option(c, opt, optarg) < 0)
			return -1;
	if (list_prompts)
		return model_list_prompts(c, stdout) < 0 ? -1 : 1;
	if (config_mutt_identity(c) < 0 || config_mutt_signature(c) < 0)
		return -1;
	if (draft_check_config(c) < 0)
		return -1;
	return rules_check_config(c);
}

/* The exit status for what the run did (run/run.h). */
static int exit_status(const struct run_result *res, const struct run_job *job,
		       const struct run_options *o)
{
	/* b4's check formats: a mail without a patch is no failure, and says nothing. */
	bool for_b4 = o->format == OUTPUT_B4_CHECK || o->format == OUTPUT_LINES;
	if (res->unreadable)
		return EXIT_NO_DRAFT;
	if (job->config->explain_prompt)
		return res->explain_failed ? EXIT_USAGE : EXIT_REVIEWED;
	if (res->write_failed)
		return EXIT_NO_DRAFT;
	if (res->model_failed && job->config->strict && !res->deferred)
		return EXIT_MODEL_FAILED;
	if (o->fail_on >= 0 && res->worst >= o->fail_on)
		return EXIT_FINDINGS;
	return res->reviewed || job->drafts.maildir || for_b4 ? EXIT_REVIEWED : EXIT_NO_PATCH;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	struct config c;
	struct run_options o = { OUTPUT_DRAFT, -1 };
	/*
	 * A reader that goes away (| head, a closed pipe in a mail client)
	 * must give a write error and exit 3, not kill us unannounced.
	 */
	signal(SIGPIPE, SIG_IGN);
	static const struct {
		const char *name;
		int (*main)(int argc, char **argv);
	} commands[] = {
		{ "dismiss", dismiss_main }, { "learn", learn_main }, { "stats", stats_main },
		{ "consume", consume_main },
	};
	if (argc > 1 && !strcmp(argv[1], "eval")) {
		mail_init();
		int status = eval_main(argc - 1, argv + 1, reviewers_run);
		mail_shutdown();
		return status;
	}
	for (size_t i = 0; argc > 1 && i < sizeof(commands) / sizeof(*commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		mail_init();
		int status = commands[i].main(argc - 1, argv + 1);
		mail_shutdown();
		return status;
	}
	config_init(&c);
	mail_init();	/* the settings hold addresses, which GMime parses */
	int ret = parse_options(&c, &o, argc, argv);
	if (ret) {
		mail_shutdown();
		config_release(&c);
		return ret < 0 ? EXIT_USAGE : EXIT_REVIEWED;
	}
	/* Before the mail is read: a tree that is not one is a configuration error. */
	struct tree *tree = NULL;
	if (c.tree && !(tree = tree_open(c.tree, c.quiet))) {
		mail_shutdown();
		config_release(&c);
		return EXIT_USAGE;
	}
	/* The same for a thread that cannot be read. */
	struct thread_source src = { 0 };
	if (c.thread && thread_source_load(&src, c.thread) < 0) {
		mail_shutdown();
		tree_close(tree);
		config_release(&c);
		return EXIT_USAGE;
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	if (o.format == OUTPUT_LINES)
		msg_silence_warnings();	/* b4 prep and am take each stderr line for a failure */
	struct run_job job;
	struct run_result res;
	run_job_init(&job, &c, o.format);
	job.tree = tree;
	job.thread = c.thread ? &src : NULL;
	run_review(&job, &res);
	int status = exit_status(&res, &job, &o);
	thread_source_release(&src);
	mail_shutdown();
	tree_close(tree);
	config_release(&c);
	return status;
}
