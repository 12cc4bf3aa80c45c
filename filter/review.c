/* review.c: the findings list, and running the reviewers in turn. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "llm.h"
#include "msg.h"
#include "review.h"

void review_init(struct review *r)
{
	memset(r, 0, sizeof(*r));
}

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void review_release(struct review *r)
{
	for (size_t i = 0; i < r->nfindings; i++)
		free(r->findings[i].text);
	free(r->findings);
	free_strings(r->notes, r->nnotes);
	free_strings(r->summary, r->nsummary);
	free(r->disclosure);
	memset(r, 0, sizeof(*r));
}

void review_add(struct review *r, size_t line, enum severity sev,
		const char *source, const char *fmt, ...)
{
	struct buf text = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&text, fmt, ap);
	va_end(ap);
	if (r->nfindings == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->findings = xrealloc(r->findings, r->cap * sizeof(*r->findings));
	}
	r->findings[r->nfindings++] = (struct finding){
		.line = line, .severity = sev, .source = source,
		.text = buf_detach(&text, NULL),
	};
}

static void push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

void review_note(struct review *r, const char *fmt, ...)
{
	struct buf text = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&text, fmt, ap);
	va_end(ap);
	push(&r->notes, &r->nnotes, buf_detach(&text, NULL));
}

void review_summary(struct review *r, const char *text)
{
	push(&r->summary, &r->nsummary, xstrdup(text));
}

const char *severity_name(enum severity sev)
{
	switch (sev) {
	case SEVERITY_NIT:
		return "nit";
	case SEVERITY_WARNING:
		return "warning";
	case SEVERITY_ERROR:
		return "error";
	}
	return "?";
}

/* One closing sentence on what the built-in checks found. */
static void summarise_checks(struct review *r)
{
	struct buf s = BUF_INIT;
	size_t n = r->nfindings;
	if (!n)
		buf_addstr(&s, "The built-in checks found nothing to comment on.");
	else
		buf_addf(&s, "The built-in checks left %zu comment%s above.", n, n == 1 ? "" : "s");
	review_summary(r, s.data);
	buf_release(&s);
}

/* Is name a word of list ("signoff, subject-length" or space-separated)? */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p; p += strcspn(p, ", ")) {
		p += strspn(p, ", ");
		if (!strncmp(p, name, n) && (!p[n] || strchr(", ", p[n])))
			return true;
	}
	return false;
}

/* Drops the findings of the checks the user turned off (skip_checks). */
static void drop_skipped(struct review *r, const char *skip)
{
	size_t kept = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		if (listed(skip, r->findings[i].source))
			free(r->findings[i].text);
		else
			r->findings[kept++] = r->findings[i];
	}
	r->nfindings = kept;
}

void review_run(const struct review_input *in, struct review *r)
{
	static const struct reviewer *const builtin[] = {
		&check_form, &check_message, &check_whitespace,
	};
	for (size_t i = 0; i < sizeof(builtin) / sizeof(*builtin); i++)
		builtin[i]->run(in, r);
	drop_skipped(r, in->config->skip_checks);
	summarise_checks(r);
	if (in->config->backend && strcmp(in->config->backend, "none"))
		model_reviewer.run(in, r);
}
