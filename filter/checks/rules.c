/*
 * rules.c: the table of built-in rules, and which of them apply to a mail:
 * the profile (generic or kernel), then skip_checks and add_checks.
 */
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "base/str.h"
#include "checks/rules.h"

static const struct rule rules[] = {
	/* the mail and the patch as a whole */
	{ "subject-length", SCOPE_ANY, NULL,
	  "subject over 75 characters after the [PATCH] prefix" },
	{ "format-flowed", SCOPE_ANY, NULL,
	  "sent with format=flowed, which changes the patch's whitespace" },
	{ "crlf-part", SCOPE_ANY, NULL,
	  "the patch's MIME part has CR LF line ends, which git am keeps" },
	{ "corrupt-hunk", SCOPE_ANY, "CORRUPTED_PATCH",
	  "a hunk has fewer lines than its header says (wrapped by the mailer)" },
	/* the commit message */
	{ "signoff", SCOPE_ANY, "MISSING_SIGN_OFF",
	  "no usable Signed-off-by: (missing, indented, or below ---)" },
	{ "signoff-author", SCOPE_ANY, "NO_AUTHOR_SIGN_OFF",
	  "none of the sign-offs is the author's (From:, or the in-body From:)" },
	{ "fixes-tag", SCOPE_ANY, "BAD_FIXES_TAG",
	  "Fixes: not in the form 123456789abc (\"subject\")" },
	/* added lines */
	{ "trailing-whitespace", SCOPE_ANY, "TRAILING_WHITESPACE",
	  "an added line ends in blanks" },
	{ "space-before-tab", SCOPE_ANY, "SPACE_BEFORE_TAB",
	  "an added line indents with a space before a tab" },
	{ "dos-line-ending", SCOPE_ANY, "DOS_LINE_ENDINGS",
	  "an added line ends in CR LF" },
	{ "no-final-newline", SCOPE_ANY, "MISSING_EOF_NEWLINE",
	  "the patch leaves a file without a final newline" },
	/* with a tree (--tree) */
	{ "signature-callers", SCOPE_ANY, NULL,
	  "a function's arguments change, but a caller in the tree still passes the old ones" },
	{ "removed-symbol", SCOPE_ANY, NULL,
	  "a removed function, macro or struct is still used in the tree" },
	{ "checkpatch", SCOPE_ANY, NULL,
	  "what the tree's scripts/checkpatch.pl reports on changed lines" },
};

#define NRULES (sizeof(rules) / sizeof(*rules))

const struct rule *rule_find(const char *id)
{
	for (size_t i = 0; i < NRULES; i++)
		if (!strcmp(rules[i].id, id))
			return &rules[i];
	return NULL;
}

bool rules_stand_for(const char *checkpatch_type)
{
	for (size_t i = 0; i < NRULES; i++)
		if (rules[i].checkpatch && !strcmp(rules[i].checkpatch, checkpatch_type))
			return true;
	return false;
}

void rules_print(FILE *f)
{
	for (size_t i = 0; i < NRULES; i++)
		fprintf(f, "%-24s %-7s %-20s %s\n", rules[i].id,
			rules[i].scope == SCOPE_KERNEL ? "kernel" : "any",
			rules[i].checkpatch ? rules[i].checkpatch : "-", rules[i].summary);
}

/* Every word of the setting key must be a rule id. */
static int check_ids(const struct config *c, const char *key, const char *value)
{
	struct strvec words = STRVEC_INIT;
	strvec_split(&words, value ? value : "", ", \t");
	int ret = 0;
	for (size_t i = 0; !ret && i < words.n; i++)
		if (!rule_find(words.v[i]))
			ret = error("%s: '%s' names no check: '%s' (patchreview --list-checks "
				    "shows them)", config_origin(c, key), key, words.v[i]);
	strvec_clear(&words);
	return ret;
}

int rules_check_config(const struct config *c)
{
	const char *p = c->profile;
	if (p && strcmp(p, "auto") && strcmp(p, "kernel") && strcmp(p, "generic"))
		return error("%s: 'profile' wants auto, kernel or generic, not '%s'",
			     config_origin(c, "profile"), p);
	if (check_ids(c, "skip_checks", c->skip_checks) < 0)
		return -1;
	return check_ids(c, "add_checks", c->add_checks);
}

/*
 * Top directories that only the kernel tree has (net/, block/ and crypto/
 * are in QEMU too, tools/ and scripts/ everywhere, so they do not count).
 */
static bool kernel_path(const char *path)
{
	static const char *const dirs[] = {
		"arch/", "drivers/", "fs/", "kernel/", "mm/", "security/", "sound/",
		"virt/", "io_uring/", "ipc/", "init/", "include/linux/", "include/uapi/",
		"include/asm-generic/", "include/net/", "include/trace/",
		"include/dt-bindings/", "Documentation/devicetree/",
	};
	for (size_t i = 0; path && i < sizeof(dirs) / sizeof(*dirs); i++)
		if (starts_with(path, dirs[i]))
			return true;
	return false;
}

/* vger.kernel.org and lists.linux.dev carry kernel lists, but vger has git's too. */
static bool kernel_list(const struct address_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		const char *addr = list->v[i].addr, *at = addr ? strrchr(addr, '@') : NULL;
		if (!at)
			continue;
		if (!strcasecmp(at, "@lists.linux.dev") ||
		    (!strcasecmp(at, "@vger.kernel.org") && strncasecmp(addr, "git@", 4)))
			return true;
	}
	return false;
}

enum profile rules_profile(const struct review_input *in)
{
	const char *p = in->config->profile;
	if (p && !strcmp(p, "kernel"))
		return PROFILE_KERNEL;
	if (p && !strcmp(p, "generic"))
		return PROFILE_GENERIC;
	for (size_t i = 0; i < in->patch->nfiles; i++)
		if (kernel_path(patch_file_path(&in->patch->files[i])))
			return PROFILE_KERNEL;
	if (kernel_list(&in->mail->to) || kernel_list(&in->mail->cc))
		return PROFILE_KERNEL;
	return PROFILE_GENERIC;
}

/* Is id one of the words of the setting? */
static bool named(const char *setting, const char *id)
{
	size_t len = strlen(id);
	for (const char *s = setting; s && *s;) {
		s += strspn(s, ", \t");
		size_t n = strcspn(s, ", \t");
		if (n == len && !strncmp(s, id, n))
			return true;
		s += n;
	}
	return false;
}

bool rule_enabled(const struct review_input *in, enum profile profile, const char *id)
{
	const struct config *c = in->config;
	if (named(c->skip_checks, id))
		return false;
	if (named(c->add_checks, id))
		return true;
	const struct rule *r = rule_find(id);
	return r && (r->scope == SCOPE_ANY || profile == PROFILE_KERNEL);
}

bool rules_want_kernel(const struct review_input *in)
{
	if (rules_profile(in) == PROFILE_KERNEL)
		return true;
	for (size_t i = 0; i < NRULES; i++)
		if (rules[i].scope == SCOPE_KERNEL && named(in->config->add_checks, rules[i].id))
			return true;
	return false;
}
