/* guide.c: finding, reading and parsing the prompt files. */
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "prompt/guide.h"
#include "tree/tree.h"

/* A prompt file is a page or two of text; refuse anything far larger. */
#define GUIDE_MAX_BYTES ((size_t)1 << 20)

static bool is_file(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static char *user_dir(const struct config *c)
{
	if (c->prompts_dir)
		return xstrdup(c->prompts_dir);
	return xdg_path("XDG_CONFIG_HOME", ".config", "patchreview/prompts");
}

/*
 * Uninstalled, the binary is ./patchreview or build/asan/patchreview in
 * the source tree; its prompts/ must win over an older installed set.
 */
static char *source_tree_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	const char *dir = dirname(exe);
	static const char *const relative[] = { "/prompts", "/../../prompts" };
	for (size_t i = 0; i < sizeof(relative) / sizeof(*relative); i++) {
		struct buf candidate = BUF_INIT, probe = BUF_INIT;
		buf_addf(&candidate, "%s%s", dir, relative[i]);
		buf_addf(&probe, "%s/core", candidate.data);
		bool found = is_file(probe.data);
		buf_release(&probe);
		if (found)
			return buf_detach(&candidate, NULL);
		buf_release(&candidate);
	}
	return NULL;
}

static bool skipped_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] == '.' || !strcmp(name, "README") || name[n - 1] == '~';
}

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

static int add_regex(struct guide *g, const char *value, struct buf *why)
{
	regex_t re;
	if (regcomp(&re, value, REG_EXTENDED | REG_NOSUB)) {
		buf_addf(why, "cannot compile regex '%s'", value);
		return -1;
	}
	g->regex = xrealloc(g->regex, (g->regex_text.n + 1) * sizeof(*g->regex));
	g->regex[g->regex_text.n] = re;
	strvec_push(&g->regex_text, value);
	return 0;
}

static int set_key(struct guide *g, const char *key, const char *value, struct buf *why)
{
	if (!strcmp(key, "title")) {
		free(g->title);
		g->title = xstrdup(value);
	} else if (!strcmp(key, "paths")) {
		strvec_split(&g->paths, value, " \t");
	} else if (!strcmp(key, "symbols")) {
		strvec_split(&g->symbols, value, " \t");
	} else if (!strcmp(key, "regex")) {
		return add_regex(g, value, why);
	} else if (!strcmp(key, "always")) {
		g->always = !strcmp(value, "yes");
	} else if (!strcmp(key, "series")) {
		g->series = !strcmp(value, "yes");
	} else if (!strcmp(key, "thread")) {
		g->thread = !strcmp(value, "yes");
	} else if (!strcmp(key, "kernel")) {
		g->kernel = !strcmp(value, "yes") ? 1 : !strcmp(value, "no") ? -1 : 0;
	} else {
		buf_addf(why, "unknown trigger key '%s'", key);
		return -1;
	}
	return 0;
}

/* One "key: value" line of the trigger header, the colon within it. */
static int header_line(struct guide *g, const char *s, size_t len, struct buf *why)
{
	const char *colon = memchr(s, ':', len);
	if (!colon || colon == s) {
		buf_addstr(why, "not a 'key: value' trigger line");
		return -1;
	}
	char *key = trimmed(s, (size_t)(colon - s));
	char *value = trimmed(colon + 1, len - (size_t)(colon + 1 - s));
	int ret = set_key(g, key, value, why);
	free(key);
	free(value);
	return ret;
}

static bool is_blank(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	return !len;
}

int guide_parse(struct guide *g, const char *text, size_t len, struct buf *why)
{
	const char *p = text, *end = text + len;
	for (int lineno = 1; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *line = p;
		p = nl ? nl + 1 : end;
		if (is_blank(line, n))
			break;
		if (header_line(g, line, n, why) < 0) {
			char *reason = buf_detach(why, NULL);
			buf_addf(why, "line %d: %s", lineno, reason);
			free(reason);
			return -1;
		}
	}
	g->text = trimmed(p, (size_t)(end - p));
	if (!*g->text) {
		buf_addstr(why, "no guide text after the trigger header and a blank line");
		return -1;
	}
	if (!g->title)
		g->title = xstrdup(g->name);
	return 0;
}

void guide_release(struct guide *g)
{
	free(g->name);
	free(g->title);
	free(g->text);
	strvec_clear(&g->paths);
	strvec_clear(&g->symbols);
	for (size_t k = 0; k < g->regex_text.n; k++)
		regfree(&g->regex[k]);
	free(g->regex);
	strvec_clear(&g->regex_text);
	*g = (struct guide){ 0 };
}

static struct guide *find_guide(struct prompt_files *pf, const char *name)
{
	for (size_t i = 0; i < pf->nguides; i++)
		if (!strcmp(pf->guides[i].name, name))
			return &pf->guides[i];
	return NULL;
}

/* A guide file's text: an empty one disables the name, a bad one is skipped. */
static void add_guide(struct prompt_files *pf, const char *dir, const char *name,
		      const char *path, const struct buf *text)
{
	struct guide g = { .name = xstrdup(name), .dir = dir };
	struct buf why = BUF_INIT;
	if (is_blank(text->data, text->len)) {
		g.disabled = true;
		g.title = xstrdup(name);
	} else if (guide_parse(&g, text->data, text->len, &why) < 0) {
		/* As if the file were not there: a guide of that name further on may serve. */
		warn("%s: %s; guide skipped", path, why.data);
		guide_release(&g);
	}
	if (g.name) {
		pf->guides = xrealloc(pf->guides, (pf->nguides + 1) * sizeof(*pf->guides));
		pf->guides[pf->nguides++] = g;
	}
	buf_release(&why);
}

/* Takes one file, unless a directory of higher precedence had that name. */
static void load_file(struct prompt_files *pf, const char *dir, const char *name)
{
	bool core = !strcmp(name, "core");
	if (core ? pf->core_dir != NULL || dir == pf->dirs[GUIDE_DIR_TREE]
	    : find_guide(pf, name) != NULL)
		return;
	struct buf path = BUF_INIT, text = BUF_INIT, in_tree = BUF_INIT;
	buf_addf(&path, "%s/%s", dir, name);
	buf_addf(&in_tree, ".patchreview/%s", name);
	bool tree = dir == pf->dirs[GUIDE_DIR_TREE];
	int ret = tree ? tree_read_tracked(pf->tree, in_tree.data, GUIDE_MAX_BYTES, &text)
		: !is_file(path.data) ? (errno = ENOENT, -1)
		: slurp_file(path.data, GUIDE_MAX_BYTES, &text);
	if (ret < 0 && errno == ENOENT) {
		;
	} else if (ret < 0) {
		warn("%s: %s; skipped", path.data,
		     errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
	} else if (core) {
		pf->core = trimmed(text.data, text.len);
		pf->core_dir = dir;
	} else {
		add_guide(pf, dir, name, path.data, &text);
	}
	buf_release(&path);
	buf_release(&text);
	buf_release(&in_tree);
}

static void load_dir(struct prompt_files *pf, const char *dir)
{
	if (dir == pf->dirs[GUIDE_DIR_TREE]) {
		struct strvec names = STRVEC_INIT;
		tree_list_tracked(pf->tree, ".patchreview", &names);
		for (size_t i = 0; i < names.n; i++)
			if (!skipped_name(names.v[i]))
				load_file(pf, dir, names.v[i]);
		strvec_clear(&names);
		return;
	}
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)))
		if (!skipped_name(e->d_name))
			load_file(pf, dir, e->d_name);
	closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct guide *)a)->name, ((const struct guide *)b)->name);
}

/* The tree's AGENTS.md review notes, as a guide that is always sent (unless a file disables it). */
static void load_agents(struct prompt_files *pf)
{
	char *notes = find_guide(pf, GUIDE_AGENTS) ? NULL : tree_agents_notes(pf->tree);
	if (!notes)
		return;
	pf->guides = xrealloc(pf->guides, (pf->nguides + 1) * sizeof(*pf->guides));
	pf->guides[pf->nguides++] = (struct guide){
		.name = xstrdup(GUIDE_AGENTS), .dir = pf->dirs[GUIDE_DIR_TREE],
		.title = xstrdup("The project's review notes (its AGENTS.md)"),
		.text = notes, .always = true,
	};
}

int prompt_files_load(struct prompt_files *pf, const struct config *c, const struct tree *tree,
		      struct buf *why)
{
	*pf = (struct prompt_files){ .tree = tree };
	pf->dirs[0] = user_dir(c);
	if (tree) {
		struct buf dir = BUF_INIT;
		buf_addf(&dir, "%s/.patchreview", tree_top(tree));
		pf->dirs[GUIDE_DIR_TREE] = buf_detach(&dir, NULL);
	}
	pf->dirs[2] = source_tree_dir();
	pf->dirs[3] = xstrdup(PATCHREVIEW_DATADIR "/prompts");
	for (size_t i = 0; i < sizeof(pf->dirs) / sizeof(*pf->dirs); i++)
		if (pf->dirs[i])
			load_dir(pf, pf->dirs[i]);
	if (tree)
		load_agents(pf);
	qsort(pf->guides, pf->nguides, sizeof(*pf->guides), by_name);
	if (pf->core)
		return 0;
	buf_addf(why, "no prompt file 'core' in %s or %s",
		 pf->dirs[0] ? pf->dirs[0] : "the user's directory", pf->dirs[3]);
	return -1;
}

void prompt_files_release(struct prompt_files *pf)
{
	for (size_t i = 0; i < pf->nguides; i++)
		guide_release(&pf->guides[i]);
	free(pf->guides);
	free(pf->core);
	for (size_t i = 0; i < sizeof(pf->dirs) / sizeof(*pf->dirs); i++)
		free(pf->dirs[i]);
	*pf = (struct prompt_files){ 0 };
}
