/*
 * lines.c: --format lines, what b4 prep --check and b4 am --check read
 * from b4.prep-perpatch-check-cmd and b4.am-perpatch-check-cmd: one line
 * per finding, "ERROR:" in a line makes it a failure and any other line is
 * a warning, and a clean patch prints nothing at all. With several mails
 * (a series) each line starts with the "n/m" of the mail it is about, and
 * the cover letter's lines are the series-level findings.
 */
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "output/lines.h"
#include "output/output.h"
#include "output/place.h"

/* checkpatch's words, so the lines read like its --terse output. */
static const char *const levels[] = {
	[SEVERITY_NIT] = "CHECK",
	[SEVERITY_WARNING] = "WARNING",
	[SEVERITY_ERROR] = "ERROR",
};

/*
 * b4 calls a line a failure when "ERROR:" appears anywhere in it, so
 * in a line that is not one, text from the mail or the model must not.
 */
static void defuse(struct buf *line)
{
	for (char *p = line->data; (p = strstr(p, "ERROR:")); p += 6)
		memcpy(p + 1, "rror", 4);
}

static void put(FILE *out, struct buf *line, const char *level, const char *text)
{
	buf_addstr(line, level);
	buf_addstr(line, ": ");
	text_clean(line, text, strlen(text), TEXT_ONE_LINE);
	if (strcmp(level, "ERROR"))
		defuse(line);
	fprintf(out, "%s\n", line->data);
	buf_reset(line);
}

/* With several mails, which one a line is about: "2/5: ", else its place in the input. */
static void put_which(struct buf *line, const struct output_patch *op, size_t i)
{
	const struct subject_prefix *s = &op->patch->subject;
	if (s->total)
		buf_addf(line, "%u/%u: ", s->index, s->total);
	else
		buf_addf(line, "#%zu: ", i + 1);
}

void output_lines(FILE *out, const struct output_patch *v, size_t n)
{
	struct buf line = BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		/* Not reviewed: a cover letter, whose findings are the series', or an empty commit. */
		if (v[i].reviewed) {
			for (size_t k = 0; k < v[i].review->notes.n; k++) {
				if (n > 1)
					put_which(&line, &v[i], i);
				put(out, &line, "WARNING", v[i].review->notes.v[k]);
			}
		}
		size_t nf;
		struct placed *f = place_findings(&v[i], &nf);
		for (size_t k = 0; k < nf; k++) {
			if (n > 1)
				put_which(&line, &v[i], i);
			size_t start = line.len;
			place_where(&line, &f[k]);
			if (line.len > start)
				buf_addstr(&line, ": ");
			put(out, &line, levels[f[k].finding->severity], f[k].finding->text);
		}
		free(f);
	}
	buf_release(&line);
}
