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
	const char *def;	/* the default, as a value would set it; NULL: unset */
	const char *help;
	const char *choices;	/* KEY_CHOICE: "a b c", the first the default */
};

#define KEY(name, type, def, help) \
	{ #name, type, offsetof(struct config, name), def, help, NULL }
#define CHOICE(name, choices, help) \
	{ #name, KEY_CHOICE, offsetof(struct config, name), NULL, help, choices }

/* The one list of keys: --help, --list-keys and doc/configuration.md print it. */
static const struct key keys[] = {
	KEY(from, KEY_STRING, NULL, "your From: address; unset lets the mail client fill it"),
	KEY(me, KEY_STRING, NULL, "your other addresses, never Cc'd: \"a@x.org, b@y.org\""),
	CHOICE(trim, "auto yes no", "cut uncommented hunks: auto (long patches with comments), yes, no"),
	KEY(attribution, KEY_STRING, "On %d, %f wrote:", "the line above the quote: %d date, %f author, %n name, %a address, %s subject"),
	KEY(signature, KEY_STRING, NULL, "a file appended after \"-- \""),
	KEY(mutt, KEY_BOOL, "no", "add X-Mutt-References so mutt marks the mail replied"),
	CHOICE(profile, "auto kernel generic", "which built-in rules apply: auto, kernel, generic"),
	KEY(skip_checks, KEY_STRING, NULL, "built-in checks to turn off, e.g. \"signoff subject-length\""),
	KEY(add_checks, KEY_STRING, NULL, "built-in checks to turn on beyond the profile's, by id"),
	KEY(dismissed, KEY_STRING, NULL, "findings not to repeat, none for no list (unset: ~/.local/share/patchreview/dismissed)"),
	KEY(show_dismissed, KEY_BOOL, "no", "list the dismissed findings in a section at the end"),
	CHOICE(notes, "header body", "notes and summaries for you alone: header (X-Patchreview-*), body"),
	CHOICE(fingerprints, "header line none", "the findings' fingerprints: header, a line at the end, none"),
	KEY(record, KEY_BOOL, "yes", "keep each draft's findings until its reply is sent, for learn"),
	KEY(learn_after, KEY_LONG, "2", "dismiss a finding deleted before sending this many times"),
	KEY(maildir, KEY_STRING, NULL, "deliver the draft into this Maildir instead of stdout"),
	KEY(strict, KEY_BOOL, "no", "exit 4 when the model review fails"),
	KEY(quiet, KEY_BOOL, "no", "no progress line on a terminal"),
	KEY(cache, KEY_BOOL, "yes", "reuse earlier model reviews of the same patch"),
	CHOICE(backend, "none openai anthropic ollama", "model backend: none, openai, anthropic, ollama"),
	KEY(url, KEY_STRING, NULL, "base URL of the backend (unset: the backend's public default)"),
	KEY(model, KEY_STRING, NULL, "model name"),
	KEY(api_key_env, KEY_STRING, NULL, "variable holding the API key (unset: OPENAI_API_KEY, ANTHROPIC_API_KEY)"),
	KEY(api_key_command, KEY_STRING, NULL, "command printing the API key, run without a shell"),
	KEY(timeout, KEY_LONG, "300", "seconds allowed for one model request"),
	KEY(max_tokens, KEY_LONG, "4096", "most tokens the model may answer with"),
	KEY(temperature, KEY_DOUBLE, "0", "sampling temperature"),
	KEY(retries, KEY_LONG, "3", "retries on 408, 429, 500, 502, 503, 504, 529, connection errors"),
	KEY(min_confidence, KEY_DOUBLE, "0.6", "drop model findings less sure than this (verify = low checks them instead), 0..1"),
	CHOICE(low_confidence, "drop section", "findings below min_confidence: drop, or list them at the end"),
	CHOICE(preexisting, "hide section", "model findings on code the patch does not touch: hide, or list them at the end"),
	CHOICE(verify, "low no yes", "ask the model to refute findings in a second pass: no, low (those below min_confidence), yes (all)"),
	KEY(prompts_dir, KEY_STRING, NULL, "your prompt guides (unset: ~/.config/patchreview/prompts)"),
	KEY(disclosure, KEY_STRING, "Assisted-by: patchreview (%s)", "closing line naming the model (%s), or none"),
	KEY(tree, KEY_STRING, NULL, "git work tree to read the code around the patch from"),
	/* An 8k-token model: core, guides and patch take about 4,000, the answer 1,000. */
	KEY(context_budget, KEY_LONG, "12000", "bytes of code from the tree in the prompt"),
	KEY(checkpatch, KEY_BOOL, "no", "run the tree's scripts/checkpatch.pl: its code, so only a tree you trust"),
	KEY(list_folder, KEY_STRING, NULL, "a Maildir or mbox of the list's mail (lei's, say), where a patch's prerequisites are looked for"),
	KEY(series_context_bytes, KEY_LONG, "16000", "of a series, the other patches' diffs each request may carry"),
	KEY(part_bytes, KEY_LONG, "32000", "review a patch whose diff is larger in parts of about this size"),
	KEY(jobs, KEY_LONG, "4", "model requests sent at once, for a series or a patch in parts"),
	/* A local model: most take 32k tokens; a few minutes of one GPU for a run. */
	KEY(context_tokens, KEY_LONG, "32768", "the model's context: no request is larger, max_tokens kept for the answer; 0: no limit"),
	KEY(token_budget, KEY_LONG, "100000", "tokens one run may send to the model, estimated; what is left over is named in the draft; 0: no limit"),
	KEY(model_patches, KEY_LONG, "50", "patches one run gives the model; the rest are only checked; 0: no limit"),
	/* A series comes within minutes; one that does not is reviewed as far as it came. */
	KEY(consume_wait, KEY_LONG, "3600", "consume: seconds a series waits for its missing patches before it is reviewed as it is"),
	KEY(consume_queue, KEY_LONG, "1000", "consume: messages waiting at most; past it a message is left for the key press"),
	/* About 200 patches of a few hundred lines each, with the default prompts. */
	KEY(consume_tokens, KEY_LONG, "1000000", "consume: tokens sent to the model in a day (UTC), estimated; past it series are left for the key press"),
	KEY(consume_out, KEY_STRING, NULL, "consume: also write each series' review here, never sent: a directory (a file a series) or maildir:PATH"),
	CHOICE(consume_format, "draft json", "consume_out: the drafts (an mbox a series, or a Maildir message each) or --format json"),
	/* A month: a series is reviewed within hours, a list's folder keeps a few days. */
	KEY(consume_keep, KEY_LONG, "30", "consume: days the state keeps a reviewed series and what it has seen; 0: forever"),
};

#define NKEYS (sizeof(keys) / sizeof(*keys))

/* The default of k: its def, or a choice's first word (in buf). */
static const char *key_default(const struct key *k, char *buf, size_t size)
{
	if (k->type != KEY_CHOICE)
		return k->def;
	snprintf(buf, size, "%.*s", (int)strcspn(k->choices, " "), k->choices);
	return buf;
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

/* Sets k from text; an empty value is the default. Returns 0, or -1 after one line on stderr. */
static int set_value(struct config *c, const struct key *k, const char *value,
		     const char *origin)
{
	void *slot = (char *)c + k->offset;
	char word[32], *end;
	errno = 0;
	switch (k->type) {
	case KEY_CHOICE:
		if (*value && !is_choice(k->choices, value))
			return choice_error(k, value, origin);
		/* fall through */
	case KEY_STRING: {
		const char *def = key_default(k, word, sizeof(word));
		free(*(char **)slot);
		*(char **)slot = *value ? xstrdup(value) : def ? xstrdup(def) : NULL;
		return 0;
	}
	case KEY_BOOL:
		if (parse_bool(value, slot) < 0)
			return error("%s: '%s' wants yes or no, not '%s'", origin, k->name, value);
		return 0;
	case KEY_LONG: {
		long v = strtol(value, &end, 10);
		if (errno || end == value || *end || v < 0)
			return error("%s: '%s' wants a number, not '%s'", origin, k->name, value);
		*(long *)slot = v;
		return 0;
	}
	case KEY_DOUBLE: {
		double v = strtod(value, &end);
		/* strtod() takes "nan" and "inf", which no setting means. */
		if (errno || end == value || *end || !isfinite(v) || v < 0)
			return error("%s: '%s' wants a number, not '%s'", origin, k->name, value);
		*(double *)slot = v;
		return 0;
	}
	}
	return -1;
}

int config_set(struct config *c, const char *name, const char *value,
	       const char *origin)
{
	const struct key *k = NULL;
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, name))
			k = &keys[i];
	if (!k)
		return error("%s: unknown setting '%s'", origin, name);
	/* Noted first: a bad value ends the run anyway. */
	free(c->origin[k - keys]);
	c->origin[k - keys] = xstrdup(origin);
	return set_value(c, k, value, origin);
}

void config_init(struct config *c)
{
	char word[32];
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < NKEYS; i++) {
		const char *def = key_default(&keys[i], word, sizeof(word));
		if (def && set_value(c, &keys[i], def, "the default") < 0)
			abort();	/* a default the table cannot parse: a bug */
	}
	c->origin = xcalloc(NKEYS, sizeof(*c->origin));
}

void config_release(struct config *c)
{
	for (size_t i = 0; i < NKEYS; i++) {
		if (keys[i].type == KEY_STRING || keys[i].type == KEY_CHOICE)
			free(*(char **)((char *)c + keys[i].offset));
		if (c->origin)
			free(c->origin[i]);
	}
	free(c->origin);
	memset(c, 0, sizeof(*c));
}

const char *config_origin(const struct config *c, const char *key)
{
	for (size_t i = 0; i < NKEYS; i++)
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
	for (size_t i = 0; !ret && i < NKEYS; i++) {
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

void config_print_keys(FILE *f, const char *indent)
{
	char word[32];
	for (size_t i = 0; i < NKEYS; i++) {
		const char *def = key_default(&keys[i], word, sizeof(word));
		const char *quote = def && strchr(def, ' ') ? "\"" : "";
		fprintf(f, "%s%-20s %s%-6s%s %s\n", indent, keys[i].name, quote,
			def ? def : "unset", quote, keys[i].help);
	}
}
