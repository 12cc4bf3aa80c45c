/*
 * config.c: one table of keys serves the config file, the environment
 * (PATCHREVIEW_<KEY>) and --help.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "config/config.h"

/* KEY_CHOICE: a string that must be one of the words of choices. */
enum key_type { KEY_STRING, KEY_BOOL, KEY_LONG, KEY_DOUBLE, KEY_CHOICE };

struct key {
	const char *name;
	enum key_type type;
	size_t offset;
	const char *help;
	const char *choices;	/* KEY_CHOICE: "a b c" */
};

#define KEY(name, type, help) { #name, type, offsetof(struct config, name), help, NULL }
#define CHOICE(name, choices, help) \
	{ #name, KEY_CHOICE, offsetof(struct config, name), help, choices }

static const struct key keys[] = {
	KEY(from, KEY_STRING, "your From: address; unset lets the mail client fill it"),
	KEY(me, KEY_STRING, "your other addresses, never Cc'd: \"a@x.org, b@y.org\""),
	CHOICE(trim, "auto yes no", "cut uncommented hunks: auto (long patches with comments), yes, no"),
	KEY(attribution, KEY_STRING, "the line above the quote; %d date, %f author, %n name, %a address"),
	KEY(signature, KEY_STRING, "a file appended after \"-- \" (unset)"),
	KEY(mutt, KEY_BOOL, "add X-Mutt-References so mutt marks the mail replied (no)"),
	KEY(profile, KEY_STRING, "which built-in rules apply: auto, kernel, generic (auto)"),
	KEY(skip_checks, KEY_STRING, "built-in checks to turn off, e.g. \"signoff subject-length\""),
	KEY(add_checks, KEY_STRING, "built-in checks to turn on beyond the profile's, by id"),
	KEY(dismissed, KEY_STRING, "findings not to repeat (~/.local/share/patchreview/dismissed)"),
	KEY(show_dismissed, KEY_BOOL, "list the dismissed findings in a section at the end (no)"),
	CHOICE(fingerprints, "line none", "end a draft with its findings' fingerprints: line, none (line)"),
	KEY(record, KEY_BOOL, "keep each draft's findings until its reply is sent, for learn (yes)"),
	KEY(learn_after, KEY_LONG, "dismiss a finding deleted before sending this many times (2)"),
	KEY(maildir, KEY_STRING, "deliver the draft into this Maildir instead of stdout"),
	KEY(strict, KEY_BOOL, "exit 4 when the model review fails (no)"),
	KEY(quiet, KEY_BOOL, "no progress line on a terminal (no)"),
	KEY(cache, KEY_BOOL, "reuse earlier model reviews of the same patch (yes)"),
	KEY(backend, KEY_STRING, "model backend: none, openai, anthropic, ollama (none)"),
	KEY(url, KEY_STRING, "base URL of the backend (the backend's public default)"),
	KEY(model, KEY_STRING, "model name"),
	KEY(api_key_env, KEY_STRING, "variable holding the API key (OPENAI_API_KEY, ANTHROPIC_API_KEY)"),
	KEY(api_key_command, KEY_STRING, "command printing the API key, run without a shell"),
	KEY(timeout, KEY_LONG, "seconds allowed for one model request (300)"),
	KEY(max_tokens, KEY_LONG, "most tokens the model may answer with (4096)"),
	KEY(temperature, KEY_DOUBLE, "sampling temperature (0)"),
	KEY(retries, KEY_LONG, "retries on 408, 429, 500, 502, 503, 504, 529, connection errors (3)"),
	KEY(min_confidence, KEY_DOUBLE, "drop model findings less sure than this, 0..1 (0.6)"),
	CHOICE(low_confidence, "drop section", "findings below min_confidence: drop, or list them at the end (drop)"),
	CHOICE(preexisting, "hide section", "model findings on code the patch does not touch: hide, or list them at the end (hide)"),
	KEY(verify, KEY_BOOL, "ask the model to refute each finding in a second pass (no)"),
	KEY(prompts_dir, KEY_STRING, "your prompt guides (~/.config/patchreview/prompts)"),
	KEY(disclosure, KEY_STRING, "closing line, %s is the model (Assisted-by: patchreview (%s))"),
	KEY(max_prompt_bytes, KEY_LONG, "skip the model above this prompt size (400000)"),
	KEY(tree, KEY_STRING, "git work tree to read the code around the patch from"),
	KEY(context_budget, KEY_LONG, "bytes of code from the tree in the prompt (12000)"),
	KEY(checkpatch, KEY_BOOL, "run the tree's scripts/checkpatch.pl: its code, so only a tree you trust (no)"),
	KEY(series_context_bytes, KEY_LONG, "of a series, the other patches' diffs each request may carry (16000)"),
	KEY(part_bytes, KEY_LONG, "review a patch whose diff is larger in parts of about this size (32000)"),
	KEY(jobs, KEY_LONG, "model requests sent at once, for a series or a patch in parts (4)"),
};

void config_init(struct config *c)
{
	memset(c, 0, sizeof(*c));
	c->cache = true;
	c->timeout = 300;
	c->max_tokens = 4096;
	c->retries = 3;
	c->min_confidence = 0.6;
	c->max_prompt_bytes = 400000;
	/* An 8k-token model: core, guides and patch take about 4,000, the answer 1,000. */
	c->context_budget = 12000;
	c->series_context_bytes = 16000;
	c->part_bytes = 32000;
	c->jobs = 4;
	c->learn_after = 2;
	c->record = true;
	c->origin = xcalloc(sizeof(keys) / sizeof(*keys), sizeof(*c->origin));
}

void config_release(struct config *c)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		if (keys[i].type == KEY_STRING || keys[i].type == KEY_CHOICE)
			free(*(char **)((char *)c + keys[i].offset));
		if (c->origin)
			free(c->origin[i]);
	}
	free(c->origin);
	memset(c, 0, sizeof(*c));
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(v, no[i]))
			return *out = false, 0;
	}
	return -1;
}

/* Is value one of the words of choices? */
static bool is_choice(const char *choices, const char *value)
{
	size_t n = strlen(value);
	for (const char *p = choices; *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && !strncmp(p, value, n))
			return true;
		p += len + (p[len] == ' ');
	}
	return false;
}

/* "origin: 'trim' wants auto, yes or no, not 'value'"; returns -1. */
static int choice_error(const struct key *k, const char *value, const char *origin)
{
	struct buf words = BUF_INIT;
	for (const char *p = k->choices; *p;) {
		size_t n = strcspn(p, " ");
		if (words.len)
			buf_addstr(&words, p[n] ? ", " : " or ");
		buf_add(&words, p, n);
		p += n + (p[n] == ' ');
	}
	int ret = error("%s: '%s' wants %s, not '%s'", origin, k->name, words.data, value);
	buf_release(&words);
	return ret;
}

int config_set(struct config *c, const char *name, const char *value,
	       const char *origin)
{
	const struct key *k = NULL;
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (!strcmp(keys[i].name, name))
			k = &keys[i];
	if (!k)
		return error("%s: unknown setting '%s'", origin, name);
	/* Noted first: a bad value ends the run anyway. */
	free(c->origin[k - keys]);
	c->origin[k - keys] = xstrdup(origin);
	void *slot = (char *)c + k->offset;
	char *end;
	errno = 0;
	switch (k->type) {
	case KEY_CHOICE:
		if (*value && !is_choice(k->choices, value))
			return choice_error(k, value, origin);
		/* fall through */
	case KEY_STRING:
		free(*(char **)slot);
		*(char **)slot = *value ? xstrdup(value) : NULL;
		return 0;
	case KEY_BOOL:
		if (parse_bool(value, slot) < 0)
			return error("%s: '%s' wants yes or no, not '%s'", origin, name, value);
		return 0;
	case KEY_LONG: {
		long v = strtol(value, &end, 10);
		if (errno || end == value || *end || v < 0)
			return error("%s: '%s' wants a number, not '%s'", origin, name, value);
		*(long *)slot = v;
		return 0;
	}
	case KEY_DOUBLE: {
		double v = strtod(value, &end);
		/* strtod() takes "nan" and "inf", which no setting means. */
		if (errno || end == value || *end || !isfinite(v) || v < 0)
			return error("%s: '%s' wants a number, not '%s'", origin, name, value);
		*(double *)slot = v;
		return 0;
	}
	}
	return -1;
}

const char *config_origin(const struct config *c, const char *key)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (!strcmp(keys[i].name, key) && c->origin[i])
			return c->origin[i];
	return "the default";
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* "key = value" lines; '#' starts a comment line; values may be "quoted". */
static int read_file(struct config *c, const char *path, bool must_exist)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT && !must_exist)
			return 0;
		return error("cannot open config file '%s': %s", path, strerror(errno));
	}
	char *line = NULL;
	size_t cap = 0;
	int ret = 0, lineno = 0;
	struct buf origin = BUF_INIT;
	while (!ret && getline(&line, &cap, f) > 0) {
		lineno++;
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		buf_reset(&origin);
		buf_addf(&origin, "%s:%d", path, lineno);
		char *eq = strchr(s, '=');
		if (!eq) {
			ret = error("%s: expected 'key = value'", origin.data);
			break;
		}
		*eq = '\0';
		char *key = trim(s), *value = trim(eq + 1);
		size_t n = strlen(value);
		if (n >= 2 && value[0] == '"' && value[n - 1] == '"') {
			value[n - 1] = '\0';
			value++;
		}
		ret = config_set(c, key, value, origin.data);
	}
	free(line);
	buf_release(&origin);
	fclose(f);
	return ret;
}

static int read_environment(struct config *c)
{
	struct buf name = BUF_INIT;
	int ret = 0;
	for (size_t i = 0; !ret && i < sizeof(keys) / sizeof(*keys); i++) {
		buf_reset(&name);
		buf_addstr(&name, "PATCHREVIEW_");
		for (const char *k = keys[i].name; *k; k++)
			buf_addch(&name, (char)toupper((unsigned char)*k));
		const char *value = getenv(name.data);
		if (value)
			ret = config_set(c, keys[i].name, value, name.data);
	}
	buf_release(&name);
	return ret;
}

int config_load(struct config *c, const char *path)
{
	int ret;
	if (!path)
		path = getenv("PATCHREVIEW_CONFIG");
	if (path) {
		ret = read_file(c, path, true);
	} else {
		char *def = xdg_path("XDG_CONFIG_HOME", ".config", "patchreview/config");
		ret = def ? read_file(c, def, false) : 0;
		free(def);
	}
	return ret < 0 ? ret : read_environment(c);
}

void config_print_keys(void)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		printf("  %-17s %s\n", keys[i].name, keys[i].help);
}
