/* eval.c: patchreview eval: its options, then the set, the reviews, the report. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/offline.h"
#include "base/buf.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/strvec.h"
#include "config/config.h"
#include "eval/eval.h"
#include "eval/report.h"
#include "eval/run.h"
#include "evalset/set.h"

enum { EVAL_OK = 0, EVAL_USAGE = 2, EVAL_FAILED = 3 };
/* Case names have three digits at most. */
#define EVAL_MAX_CASES 450

static const char eval_usage[] =
	"usage: patchreview eval --repo DIR [options]\n"
	"\n"
	"Builds an evaluation set from the history of the git repository DIR:\n"
	"commits that a later Fixes: trailer names (the fixing commit is the\n"
	"truth) and commits that none names. Reviews each one as patchreview\n"
	"would, scores the findings against what the fixes changed, and\n"
	"reports the known bugs found, findings, tokens and time, per model.\n"
	"\n"
	"      --repo DIR       the git repository\n"
	"      --since DATE     only commits since DATE, in any form git reads\n"
	"      --count N        cases with a known bug (40)\n"
	"      --clean M        cases with none (half of --count)\n"
	"      --out DIR        the run directory (under the cache by default)\n"
	"  -j, --jobs N         reviews at once (1)\n"
	"      --format FORMAT  text or json (text)\n"
	"  -m, --model A,B      the models, one table each (the configured one)\n"
	"  -b, --backend NAME   model backend, as for patchreview\n"
	"  -u, --url URL        backend base URL\n"
	"      --no-cache       neither read nor write the review cache\n"
	"      --answers DIR    take the model's answers from DIR/CASE.json\n"
	"      --requests-out DIR  write each unanswered request to DIR/CASE.json\n"
	"      --tree           review each case with a work tree at its parent\n"
	"  -q, --quiet          no line per case on stderr\n"
	"  -c, --config FILE    read FILE instead of ~/.config/patchreview/config\n"
	"  -h, --help           this text\n"
	"\n"
	"With several models, CASE is the case name, a dot and the model.\n"
	"Exit status: 0 done; 2 bad option or configuration; 3 the set or the\n"
	"run directory could not be made.\n";

enum {
	OPT_REPO = 256, OPT_SINCE, OPT_COUNT, OPT_CLEAN, OPT_OUT, OPT_FORMAT,
	OPT_NO_CACHE, OPT_ANSWERS, OPT_REQUESTS_OUT, OPT_TREE,
};

static const struct option options[] = {
	{ "repo", required_argument, NULL, OPT_REPO },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "clean", required_argument, NULL, OPT_CLEAN },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "jobs", required_argument, NULL, 'j' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "model", required_argument, NULL, 'm' },
	{ "backend", required_argument, NULL, 'b' },
	{ "url", required_argument, NULL, 'u' },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "answers", required_argument, NULL, OPT_ANSWERS },
	{ "requests-out", required_argument, NULL, OPT_REQUESTS_OUT },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "config", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
static const char short_options[] = "j:m:b:u:qc:h";

struct eval_options {
	struct set_params set;
	const char *out, *models;
	long jobs;
	enum report_format format;
	bool quiet, tree;
};

static int number(const char *arg, const char *name, long min, long max, long *out)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || v < min || v > max)
		return error("%s wants a number from %ld to %ld, not '%s'", name, min, max, arg);
	*out = v;
	return 0;
}

static int apply(struct config *c, struct eval_options *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_REPO: o->set.repo = arg; return 0;
	case OPT_SINCE: o->set.since = arg; return 0;
	case OPT_COUNT: return number(arg, "--count", 0, EVAL_MAX_CASES, &o->set.count);
	case OPT_CLEAN: return number(arg, "--clean", 0, EVAL_MAX_CASES, &o->set.clean);
	case OPT_OUT: o->out = arg; return 0;
	case 'j': return number(arg, "--jobs", 1, EVAL_MAX_JOBS, &o->jobs);
	case OPT_FORMAT:
		if (strcmp(arg, "text") && strcmp(arg, "json"))
			return error("--format wants text or json, not '%s'", arg);
		o->format = strcmp(arg, "json") ? REPORT_TEXT : REPORT_JSON;
		return 0;
	case 'm': o->models = arg; return 0;
	case 'b': return config_set(c, "backend", arg, "--backend");
	case 'u': return config_set(c, "url", arg, "--url");
	case OPT_NO_CACHE: return config_set(c, "cache", "no", "--no-cache");
	case OPT_ANSWERS: c->answers = arg; return 0;
	case OPT_REQUESTS_OUT: c->requests_out = arg; return 0;
	case OPT_TREE: o->tree = true; return 0;
	case 'q': o->quiet = true; return 0;
	case 'c': return 0;	/* read before the config file */
	}
	return error("unknown option; see patchreview eval --help");
}

/* Returns -1 on error, 1 when --help was answered, else 0. */
static int parse(struct config *c, struct eval_options *o, int argc, char **argv)
{
	const char *config_path = NULL;
	int opt;
	bool clean = false;
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, short_options, options, NULL)) != -1) {
		if (opt == 'h') {
			fputs(eval_usage, stdout);
			return 1;
		} else if (opt == 'c') {
			config_path = optarg;
		} else if (opt == OPT_CLEAN) {
			clean = true;
		} else if (opt == '?' || opt == ':') {
			return error("unknown option '%s'; see patchreview eval --help",
				     argv[optind - 1]);
		}
	}
	if (optind < argc)
		return error("unexpected argument '%s'; see patchreview eval --help", argv[optind]);
	if (config_load(c, config_path) < 0)
		return -1;
	optind = 0;	/* GNU getopt: scan again from the start */
	while ((opt = getopt_long(argc, argv, short_options, options, NULL)) != -1)
		if (apply(c, o, opt, optarg) < 0)
			return -1;
	if (!o->set.repo)
		return error("eval needs --repo DIR; see patchreview eval --help");
	if (!clean)
		o->set.clean = o->set.count / 2;
	const char *backend = c->backend;
	if (!offline_enabled(c) && (!backend || !strcmp(backend, "none")))
		return error("eval needs a model: configure a backend, or use --answers "
			     "or --requests-out");
	if (!offline_enabled(c) && !o->models && !c->model)
		return error("eval needs a model name: --model or the model setting");
	return 0;
}

/* $XDG_CACHE_HOME/patchreview/eval/NAME-HASH: one folder per repository and parameters. */
static char *default_out(const struct set_params *p)
{
	char *root = xdg_path("XDG_CACHE_HOME", ".cache", "patchreview/eval");
	char *repo = realpath(p->repo, NULL), key[HASH_SHA256_HEX], numbers[64];
	if (!root || !repo) {
		free(root);
		free(repo);
		return NULL;
	}
	snprintf(numbers, sizeof(numbers), "%ld %ld", p->count, p->clean);
	const char *parts[] = { repo, p->since ? p->since : "", numbers };
	hash_sha256_strings(key, parts, 3);
	const char *base = strrchr(repo, '/');
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s/%s-%.8s", root, base && base[1] ? base + 1 : "repo", key);
	free(root);
	free(repo);
	return buf_detach(&b, NULL);
}

static int evaluate(const struct config *c, const struct eval_options *o,
		    review_fn *review)
{
	struct eval_set set;
	struct strvec models = STRVEC_INIT;
	char *out = o->out ? xstrdup(o->out) : default_out(&o->set);
	int status = EVAL_FAILED;
	if (!out) {
		error("cannot read the repository '%s'", o->set.repo);
		return EVAL_FAILED;
	}
	if (make_dirs(out) < 0) {
		error("cannot make '%s': %s", out, strerror(errno));
		goto out;
	}
	int opened = set_open(&set, out, &o->set);
	free(out);
	out = NULL;
	if (opened < 0)
		goto release;
	if (!o->quiet)
		warn("eval: %zu case%s in '%s'", set.ncases, set.ncases == 1 ? "" : "s", set.dir);
	strvec_split(&models, o->models ? o->models : "", ",");
	if (!models.n)
		strvec_push(&models, c->model ? c->model : "offline");
	struct eval_run run = { c, review, &set, &models, o->jobs, o->quiet, o->tree };
	if (run_cases(&run) < 0)
		goto release;
	struct report *r = report_open(&run);
	status = EVAL_OK;
	if (c->requests_out && !report_answered(r))
		warn("eval: %zu requests written to '%s'; answer each into DIR/NAME.json and "
		     "run again with --answers DIR", report_pending(r), c->requests_out);
	else if (report_write(stdout, r, o->format) < 0)
		status = EVAL_FAILED;
	else if (report_pending(r))
		warn("eval: %zu reviews wait for an answer", report_pending(r));
	report_close(r);
release:
	set_release(&set);
	strvec_clear(&models);
out:
	free(out);
	return status;
}

int eval_main(int argc, char **argv, review_fn *review)
{
	struct config c;
	struct eval_options o = { .set = { .count = 40 }, .jobs = 1 };
	config_init(&c);
	int ret = parse(&c, &o, argc, argv);
	if (!ret) {
		o.set.max_mail = c.max_prompt_bytes ? (size_t)c.max_prompt_bytes : (size_t)1 << 20;
		ret = evaluate(&c, &o, review);
	} else {
		ret = ret < 0 ? EVAL_USAGE : EVAL_OK;
	}
	config_release(&c);
	return ret;
}
