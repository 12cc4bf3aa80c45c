/* ready.c: whether a series has come whole. */
#include <stdlib.h>

#include "base/msg.h"
#include "consume/ready.h"
#include "patch/subject.h"
#include "state/state.h"

/* All of 1..total in, and the cover letter when the first patch answers one? */
static bool whole(const struct mail_list *list)
{
	unsigned total = 0;
	bool *have = xcalloc(STATE_MAX_SERIES_MSGS + 1, sizeof(*have));
	bool cover = false, answers = false, ret = true;
	for (size_t i = 0; i < list->n; i++) {
		struct subject_prefix sp;
		const struct mail *m = &list->v[i];
		subject_parse(&sp, m->subject);
		if (sp.is_reply) {	/* a reply of the thread the review had in view */
			subject_release(&sp);
			continue;
		}
		total = sp.total > total ? sp.total : total;
		if (sp.total && !sp.index)
			cover = true;
		if (sp.index == 1 && (m->in_reply_to || m->nreferences))
			answers = true;
		if (sp.index && sp.index <= STATE_MAX_SERIES_MSGS)
			have[sp.index] = true;
		subject_release(&sp);
	}
	/* A series longer than the state keeps never comes whole: it waits. */
	if (total > STATE_MAX_SERIES_MSGS)
		ret = false;
	for (unsigned k = 1; ret && k <= total; k++)
		ret = have[k];
	free(have);
	return ret && (cover || !answers);
}

bool series_ready(const struct mail_list *list, time_t since, long wait)
{
	if (time(NULL) - since >= wait)
		return true;
	return whole(list);
}
