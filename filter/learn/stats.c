/*
 * stats.c: patchreview stats. Per built-in check and for the model, how
 * many of the findings in sent replies the maintainer kept and deleted:
 * a precision figure for this maintainer, from the learned log; and how
 * many replies were skipped, not written from the draft.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/slurp.h"
#include "learn/keys.h"
#include "learn/learn.h"
#include "learn/record.h"
#include "learn/store.h"

struct source_count {
	char *source;
	unsigned long kept, deleted;
};

/* The count of source, found by name in index (its place in v, plus one), or a new one. */
static struct source_count *count_for(struct source_count **v, size_t *n, struct keys *index,
				      const char *source, size_t len)
{
	long at = keys_get(index, source, len);
	if (at)
		return &(*v)[at - 1];
	if (!(*n & (*n - 1)))	/* 0, 1, 2, 4...: room for twice as many */
		*v = xrealloc(*v, (*n ? 2 * *n : 1) * sizeof(**v));
	(*v)[*n] = (struct source_count){ xstrndup(source, len), 0, 0 };
	keys_add(index, source, len, (long)++*n);
	return &(*v)[*n - 1];
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct source_count *)a)->source,
		      ((const struct source_count *)b)->source);
}

int stats_main(int argc, char **argv)
{
	struct config c;
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: patchreview stats [-c FILE]\n"
		     "Per check and for the model: comments kept and deleted in sent replies.");
		return 0;
	}
	if (store_config(&c, &argc, argv) < 0 || argc > 1) {
		if (argc > 1)
			error("unexpected argument '%s'; see patchreview stats --help", argv[1]);
		config_release(&c);
		return 2;
	}
	char *path = learn_path("learned");
	struct buf log = BUF_INIT;
	struct source_count *v = NULL;
	struct keys index = KEYS_INIT;
	size_t n = 0;
	unsigned long skipped = 0;
	if (path)
		slurp_file(path, STORE_LOG_MAX, &log);
	for (const char *s = log.data; s && *s;) {
		size_t len = strcspn(s, "\n");
		/* verdict, fingerprint, source, date */
		const char *t1 = memchr(s, '\t', len);
		const char *t2 = t1 ? memchr(t1 + 1, '\t', len - (size_t)(t1 + 1 - s)) : NULL;
		const char *t3 = t2 ? memchr(t2 + 1, '\t', len - (size_t)(t2 + 1 - s)) : NULL;
		bool kept = t1 && t1 - s == 4 && !memcmp(s, "kept", 4);
		bool deleted = t1 && t1 - s == 7 && !memcmp(s, "deleted", 7);
		skipped += t3 && t1 - s == 7 && !memcmp(s, "skipped", 7);
		if (t3 && (kept || deleted)) {
			struct source_count *sc = count_for(&v, &n, &index, t2 + 1, (size_t)(t3 - t2 - 1));
			sc->kept += kept;
			sc->deleted += deleted;
		}
		s += len + (s[len] == '\n');
	}
	if (!n && !skipped) {
		puts("Nothing learned yet: run patchreview learn on the replies you sent.");
	} else if (n) {
		qsort(v, n, sizeof(*v), by_name);
		printf("%-22s %6s %8s %9s\n", "source", "kept", "deleted", "kept %");
		unsigned long kept = 0, deleted = 0;
		for (size_t i = 0; i < n; i++) {
			unsigned long all = v[i].kept + v[i].deleted;
			printf("%-22s %6lu %8lu %8.0f%%\n", v[i].source, v[i].kept, v[i].deleted,
			       100.0 * (double)v[i].kept / (double)all);
			kept += v[i].kept;
			deleted += v[i].deleted;
		}
		printf("%-22s %6lu %8lu %8.0f%%\n", "all", kept, deleted,
		       100.0 * (double)kept / (double)(kept + deleted));
	}
	if (skipped)
		printf("%lu repl%s not written from the draft, skipped (nothing learned)\n",
		       skipped, skipped == 1 ? "y" : "ies");
	for (size_t i = 0; i < n; i++)
		free(v[i].source);
	free(v);
	keys_release(&index);
	buf_release(&log);
	free(path);
	config_release(&c);
	return 0;
}
