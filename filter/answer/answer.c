/* answer.c: the model's JSON answer, parsed and cleaned. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "answer/answer.h"
#include "base/buf.h"
#include "base/msg.h"
#include "base/text.h"

cJSON *answer_json(const char *text)
{
	cJSON *root = cJSON_Parse(text);
	if (cJSON_IsObject(root))
		return root;
	cJSON_Delete(root);
	/* Fences or a sentence around the object: take the outermost braces. */
	const char *open = strchr(text, '{'), *close = strrchr(text, '}');
	if (!open || !close || close < open)
		return NULL;
	root = cJSON_ParseWithLength(open, (size_t)(close - open) + 1);
	if (cJSON_IsObject(root))
		return root;
	cJSON_Delete(root);
	return NULL;
}

/* Length of an escape sequence starting at s (ESC or the C1 CSI), or 0. */
static size_t escape_length(const unsigned char *s)
{
	size_t i;
	if (s[0] == 0xc2 && s[1] == 0x9b) {
		i = 2;
	} else if (s[0] == 0x1b && s[1] == '[') {
		i = 2;
	} else if (s[0] == 0x1b && s[1] == ']') {
		/* OSC runs to BEL or ESC backslash. */
		for (i = 2; s[i] && s[i] != 0x07 && !(s[i] == 0x1b && s[i + 1] == '\\'); i++)
			;
		return s[i] == 0x07 ? i + 1 : s[i] ? i + 2 : i;
	} else if (s[0] == 0x1b) {
		return s[1] ? 2 : 1;
	} else {
		return 0;
	}
	/* CSI: parameter and intermediate bytes, then one final byte. */
	while (s[i] >= 0x20 && s[i] <= 0x3f)
		i++;
	return s[i] >= 0x40 && s[i] <= 0x7e ? i + 1 : i;
}

/*
 * Removing an escape sequence splices the bytes around it, which may then
 * form a character that was not there (E2, ESC [ m, 80 AE is U+202E):
 * text_clean() runs last, on the spliced text, so nothing it rejects can
 * come out.
 */
char *answer_clean(const char *s, size_t max)
{
	struct buf plain = BUF_INIT, out = BUF_INIT;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t esc = escape_length(p);
		if (esc) {
			p += esc;
		} else if (*p == '\r') {
			buf_addch(&plain, '\n');
			p += p[1] == '\n' ? 2 : 1;
		} else {
			buf_addch(&plain, (char)*p++);
		}
	}
	size_t start = 0, len = plain.len;
	while (start < len && strchr(" \t\n", plain.data[start]))
		start++;
	while (len > start && strchr(" \t\n", plain.data[len - 1]))
		len--;
	bool cut = len - start > max;
	if (cut) {
		len = start + max;
		while (len > start && ((unsigned char)plain.data[len] & 0xc0) == 0x80)
			len--;	/* not inside a UTF-8 sequence */
	}
	text_clean(&out, plain.data + start, len - start, 0);
	if (cut)
		buf_addstr(&out, " [...]");
	buf_release(&plain);
	return buf_detach(&out, NULL);
}

static enum severity parse_severity(const char *s)
{
	static const char *const errors[] = { "error", "critical", "high", "bug" };
	static const char *const nits[] = { "nit", "low", "minor", "style", "info", "suggestion" };
	for (size_t i = 0; s && i < sizeof(errors) / sizeof(*errors); i++)
		if (!strcasecmp(s, errors[i]))
			return SEVERITY_ERROR;
	for (size_t i = 0; s && i < sizeof(nits) / sizeof(*nits); i++)
		if (!strcasecmp(s, nits[i]))
			return SEVERITY_NIT;
	return SEVERITY_WARNING;
}

/* 0..1; percentages are read as such; no number means ungraded, kept. */
static double parse_confidence(const cJSON *c)
{
	if (!cJSON_IsNumber(c))
		return 1.0;
	double v = c->valuedouble;
	if (v > 1 && v <= 100)
		v /= 100;
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

static const char *string_or_empty(const cJSON *object, const char *name)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, name));
	return s ? s : "";
}

int answer_parse(struct model_answer *a, const char *text)
{
	*a = (struct model_answer){ 0 };
	cJSON *root = answer_json(text);
	const cJSON *findings = cJSON_GetObjectItemCaseSensitive(root, "findings"), *f;
	if (!cJSON_IsArray(findings)) {
		cJSON_Delete(root);
		return -1;
	}
	const char *summary = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "summary"));
	if (summary && *summary)
		a->summary = answer_clean(summary, ANSWER_MAX_COMMENT);
	a->findings = xcalloc(ANSWER_MAX_FINDINGS + 1, sizeof(*a->findings));
	cJSON_ArrayForEach(f, findings) {
		if (a->nfindings == ANSWER_MAX_FINDINGS) {
			a->beyond++;
			continue;
		}
		char *comment = answer_clean(string_or_empty(f, "comment"), ANSWER_MAX_COMMENT);
		if (!*comment) {
			free(comment);
			continue;
		}
		a->findings[a->nfindings++] = (struct model_finding){
			.file = xstrdup(string_or_empty(f, "file")),
			.function = xstrdup(string_or_empty(f, "function")),
			.quote = xstrdup(string_or_empty(f, "quote")),
			.comment = comment,
			.severity = parse_severity(cJSON_GetStringValue(
				cJSON_GetObjectItemCaseSensitive(f, "severity"))),
			.confidence = parse_confidence(cJSON_GetObjectItemCaseSensitive(f, "confidence")),
			.preexisting = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "preexisting")),
			.incomplete_fix = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f,
											 "incomplete_fix")),
		};
	}
	cJSON_Delete(root);
	return 0;
}

void answer_release(struct model_answer *a)
{
	for (size_t i = 0; i < a->nfindings; i++) {
		free(a->findings[i].file);
		free(a->findings[i].function);
		free(a->findings[i].quote);
		free(a->findings[i].comment);
	}
	free(a->findings);
	free(a->summary);
	*a = (struct model_answer){ 0 };
}
