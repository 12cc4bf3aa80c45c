/*
 * rules.c: the table of built-in rules, and which of them apply to a mail:
 * the profile (generic or kernel), then skip_checks and add_checks.
 */
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "base/str.h"
#include "checks/rules.h"

static const struct rule rules[RULE_COUNT] = {
	/* the mail and the patch as a whole */
	[RULE_SUBJECT_LENGTH] = { "subject-length", SCOPE_ANY, NULL,
	  "subject over 75 characters after the [PATCH] prefix" },
	[RULE_FORMAT_FLOWED] = { "format-flowed", SCOPE_ANY, NULL,
	  "sent with format=flowed, which changes the patch's whitespace" },
	[RULE_CRLF_PART] = { "crlf-part", SCOPE_ANY, NULL,
	  "the patch's MIME part has CR LF line ends, which git am keeps" },
	[RULE_CORRUPT_HUNK] = { "corrupt-hunk", SCOPE_ANY, "CORRUPTED_PATCH",
	  "a hunk has fewer lines than its header says (wrapped by the mailer)" },
	[RULE_SUBJECT_PERIOD] = { "subject-period", SCOPE_KERNEL, NULL,
	  "the subject ends with a full stop" },
	[RULE_SUBJECT_PREFIX] = { "subject-prefix", SCOPE_KERNEL, NULL,
	  "the subject has no \"subsystem: \" prefix" },
	[RULE_EXEC_BIT] = { "exec-bit", SCOPE_ANY, "EXECUTE_PERMISSIONS",
	  "a source file, or a script without #!, made executable" },
	/* the commit message */
	[RULE_SIGNOFF] = { "signoff", SCOPE_ANY, "MISSING_SIGN_OFF",
	  "no usable Signed-off-by: (missing, indented, or below ---)" },
	[RULE_SIGNOFF_AUTHOR] = { "signoff-author", SCOPE_ANY, "NO_AUTHOR_SIGN_OFF",
	  "none of the sign-offs is the author's (From:, or the in-body From:)" },
	[RULE_SIGNOFF_FORM] = { "signoff-form", SCOPE_ANY, "BAD_SIGN_OFF",
	  "a Signed-off-by: or Co-developed-by: not in the form Name <address>" },
	[RULE_DUPLICATE_TRAILER] = { "duplicate-trailer", SCOPE_ANY, "BAD_SIGN_OFF",
	  "the same trailer twice (a sign-off after someone else's is fine)" },
	[RULE_CODEVELOPER_SIGNOFF] = { "codeveloper-signoff", SCOPE_KERNEL, "BAD_SIGN_OFF",
	  "a Co-developed-by: not followed at once by the same person's sign-off" },
	[RULE_FIXES_TAG] = { "fixes-tag", SCOPE_ANY, "BAD_FIXES_TAG",
	  "Fixes: not in the form 123456789abc (\"subject\")" },
	[RULE_EMPTY_MESSAGE] = { "empty-message", SCOPE_KERNEL, "COMMIT_MESSAGE",
	  "no description between the subject and the trailers" },
	[RULE_COMMIT_LINE_LENGTH] = { "commit-line-length", SCOPE_ANY, "COMMIT_LOG_LONG_LINE",
	  "commit message lines over 75 columns (not URLs, logs, indented text)" },
	[RULE_COMMIT_REF] = { "commit-ref", SCOPE_KERNEL, "GIT_COMMIT_ID",
	  "a commit named other than as commit 0123456789ab (\"subject\")" },
	[RULE_REPORTED_LINK] = { "reported-link", SCOPE_KERNEL, NULL,
	  "a bot's Reported-by: without the Closes: link right after it" },
	[RULE_STABLE_CC] = { "stable-cc", SCOPE_KERNEL, "BAD_STABLE_ADDRESS_STYLE",
	  "the stable Cc: in a wrong form, or stable mailed but not in the trailers" },
	[RULE_CHANGE_ID] = { "change-id", SCOPE_KERNEL, "GERRIT_CHANGE_ID",
	  "a Gerrit Change-Id: trailer" },
	/* added lines */
	[RULE_TRAILING_WHITESPACE] = { "trailing-whitespace", SCOPE_ANY, "TRAILING_WHITESPACE",
	  "an added line ends in blanks" },
	[RULE_SPACE_BEFORE_TAB] = { "space-before-tab", SCOPE_ANY, "SPACE_BEFORE_TAB",
	  "an added line indents with a space before a tab" },
	[RULE_DOS_LINE_ENDING] = { "dos-line-ending", SCOPE_ANY, "DOS_LINE_ENDINGS",
	  "an added line ends in CR LF" },
	[RULE_NO_FINAL_NEWLINE] = { "no-final-newline", SCOPE_ANY, "MISSING_EOF_NEWLINE",
	  "the patch leaves a file without a final newline" },
	/* the kernel's coding style, on added lines of .c and .h files */
	[RULE_CODE_INDENT] = { "code-indent", SCOPE_KERNEL, "CODE_INDENT",
	  "indented with spaces where the kernel uses tabs" },
	[RULE_LONG_LINE] = { "long-line", SCOPE_KERNEL, "LONG_LINE",
	  "over 100 columns, unless a string or a URL runs past the edge" },
	[RULE_KEYWORD_SPACE] = { "keyword-space", SCOPE_KERNEL, "SPACING",
	  "if(, for(, while(, switch( without the space" },
	[RULE_FUNCTION_BRACE] = { "function-brace", SCOPE_KERNEL, "OPEN_BRACE",
	  "a function definition with its { on the same line" },
	[RULE_C99_COMMENT] = { "c99-comment", SCOPE_KERNEL, "C99_COMMENTS",
	  "a // comment in a file whose other comments are /* */" },
	[RULE_NEW_TYPEDEF] = { "new-typedef", SCOPE_KERNEL, "NEW_TYPEDEFS",
	  "a new typedef of a struct, union or enum" },
	[RULE_VOLATILE] = { "volatile", SCOPE_KERNEL, "VOLATILE",
	  "volatile outside asm volatile (not in arch/)" },
	[RULE_ASSIGN_IN_IF] = { "assign-in-if", SCOPE_KERNEL, "ASSIGN_IN_IF",
	  "an assignment inside an if condition" },
	[RULE_SIZEOF_PAREN] = { "sizeof-paren", SCOPE_KERNEL, "SIZEOF_PARENTHESIS",
	  "sizeof x instead of sizeof(x)" },
	[RULE_SIZEOF_ADDRESS] = { "sizeof-address", SCOPE_KERNEL, "SIZEOF_ADDRESS",
	  "sizeof(&x), the size of a pointer" },
	/* kernel code */
	[RULE_BUG_ON] = { "bug-on", SCOPE_KERNEL, "AVOID_BUG",
	  "a new BUG(), BUG_ON() or panic() (panic() not in arch/)" },
	[RULE_PRINTK_LEVEL] = { "printk-level", SCOPE_KERNEL, "PRINTK_WITHOUT_KERN_LEVEL",
	  "printk(\"...\") without a KERN_<LEVEL>" },
	[RULE_DEBUG_LEFTOVER] = { "debug-leftover", SCOPE_KERNEL, "TRACE_PRINTK",
	  "trace_printk(), or a print of __func__ and __LINE__" },
	[RULE_IF_0] = { "if-0", SCOPE_KERNEL, "IF_0",
	  "a new #if 0 block" },
	[RULE_ATTRIBUTE_MACRO] = { "attribute-macro", SCOPE_KERNEL, "PREFER_DEFINED_ATTRIBUTE_MACRO",
	  "__attribute__((packed)) and the like where the kernel has a macro" },
	[RULE_EXPORT_SYMBOL] = { "export-symbol", SCOPE_KERNEL, "EXPORT_SYMBOL",
	  "EXPORT_SYMBOL() not right after what it exports" },
	[RULE_SPELLING] = { "spelling", SCOPE_KERNEL, "TYPO_SPELLING",
	  "a common misspelling in the subject, the message, comments or strings" },
	[RULE_SPDX_LICENSE] = { "spdx-license", SCOPE_KERNEL, "SPDX_LICENSE_TAG",
	  "a new .c, .h, .S or .rs file without its SPDX line, or in the wrong comment style" },
	/* with a tree (--tree) */
	[RULE_SIGNATURE_CALLERS] = { "signature-callers", SCOPE_ANY, NULL,
	  "a function's arguments change, but a caller in the tree still passes the old ones" },
	[RULE_REMOVED_SYMBOL] = { "removed-symbol", SCOPE_ANY, NULL,
	  "a removed function, macro or struct is still used in the tree" },
	[RULE_FIXES_COMMIT] = { "fixes-commit", SCOPE_ANY, NULL,
	  "a Fixes: tag names a commit the tree lacks, or quotes another subject" },
	[RULE_CHECKPATCH] = { "checkpatch", SCOPE_ANY, NULL,
	  "what the tree's scripts/checkpatch.pl reports on changed lines" },
	/* a series as a whole, in the cover letter's draft */
	[RULE_SERIES_GAP] = { "series-gap", SCOPE_ANY, NULL,
	  "a patch of the series' numbering is not in the input" },
	[RULE_SERIES_VERSIONS] = { "series-versions", SCOPE_ANY, NULL,
	  "patches give another version in their subject than the cover letter" },
	[RULE_SERIES_AUTHOR] = { "series-author", SCOPE_ANY, NULL,
	  "a patch sent by another address than the cover letter, without in-body From:" },
	[RULE_SERIES_SIGNOFF] = { "series-signoff", SCOPE_ANY, "MISSING_SIGN_OFF",
	  "a patch of the series has no Signed-off-by: line at all" },
	[RULE_SERIES_DIFFSTAT] = { "series-diffstat", SCOPE_ANY, NULL,
	  "the cover letter's diffstat names files or counts lines the patches lack" },
};

#define NRULES (sizeof(rules) / sizeof(*rules))

const char *rule_id(enum rule_id rule)
{
	return rules[rule].id;
}

/* The rule with this id, or NULL. */
static const struct rule *rule_find(const char *id)
{
	for (size_t i = 0; i < NRULES; i++)
		if (!strcmp(rules[i].id, id))
			return &rules[i];
	return NULL;
}

/* Types whose rules here say only some of what checkpatch reports under them. */
static bool in_part(const char *checkpatch_type)
{
	static const char *const types[] = { "SPACING", "OPEN_BRACE", "BAD_SIGN_OFF" };
	for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
		if (!strcmp(types[i], checkpatch_type))
			return true;
	return false;
}

bool rules_stand_for(const char *checkpatch_type)
{
	if (in_part(checkpatch_type))
		return false;
	for (size_t i = 0; i < NRULES; i++)
		if (rules[i].checkpatch && !strcmp(rules[i].checkpatch, checkpatch_type))
			return true;
	return false;
}

void rules_print(FILE *f)
{
	for (size_t i = 0; i < NRULES; i++) {
		fprintf(f, "%-20s %-6s %s", rules[i].id,
			rules[i].scope == SCOPE_KERNEL ? "kernel" : "any", rules[i].summary);
		if (rules[i].checkpatch)
			fprintf(f, " [%s%s]", rules[i].checkpatch,
				in_part(rules[i].checkpatch) ? ", in part" : "");
		fputc('\n', f);
	}
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
	if (check_ids(c, "skip_checks", c->skip_checks) < 0)
		return -1;
	return check_ids(c, "add_checks", c->add_checks);
}

/*
 * Top directories that only the kernel tree has (net/, block/ and crypto/
 * are in QEMU too, tools/ and scripts/ everywhere, so they do not count;
 * nor do include/linux/ and include/uapi/, which Open vSwitch, iproute2,
 * libbpf and others carry copies of).
 */
static bool kernel_path(const char *path)
{
	static const char *const dirs[] = {
		"arch/", "drivers/", "fs/", "kernel/", "mm/", "security/", "sound/",
		"virt/", "io_uring/", "ipc/", "init/", "include/net/", "include/trace/",
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
