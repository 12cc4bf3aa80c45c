/*
 * prereq.h: the prerequisites a series names (prerequisite-patch-id: and
 * prerequisite-message-id:, as git format-patch --base and b4 prep write
 * them; patch/facts.h), found among the messages on hand, without any
 * network: the input, the --thread folder, and the list folder
 * (list_folder; prereq/folder.h), in that order. A patch-id is matched
 * with git patch-id --stable of every patch mail there, run once a run on
 * all of them; a Message-ID names a patch, or a cover letter whose
 * patches (the messages that answer it with a diff) are taken in their
 * order. The tree review applies what is found before the series, as it
 * applies a series' earlier patches, and names what is not.
 */
#ifndef PREREQ_H
#define PREREQ_H

#include <stddef.h>

#include "series/series.h"
#include "thread/thread.h"

struct tree;

/* Of a run, the prerequisites looked for: patch-ids, and Message-IDs (each a scan of every byte). */
#define PREREQ_MAX_IDS 200
#define PREREQ_MAX_MESSAGE_IDS 16
/* Patches taken for one Message-ID of a cover letter. */
#define PREREQ_MAX_SERIES 100
/* What the one git patch-id run may take. */
#define PREREQ_PATCH_ID_SECONDS 30.0

/* One series' prerequisites. */
struct prereq_found {
	const struct patch **v;	/* found, in the order to apply them */
	size_t n;
	char *from;		/* where: "the list folder", "the input and the list folder"; or NULL */
	char *missing;		/* those not found, named, one line; or NULL */
};

struct prereqs;

/*
 * The prerequisites of each series of set (one prereq_found per series,
 * prereqs_of()), looked for in the input, thread (or NULL) and the folder
 * at list_folder (or NULL), with git run in t. NULL when no series names
 * any. Says on stderr when the list folder cannot be read.
 */
struct prereqs *prereqs_find(struct tree *t, const char *list_folder,
			     const struct series_set *set, const struct thread_source *thread);
const struct prereq_found *prereqs_of(const struct prereqs *p, size_t series);
void prereqs_free(struct prereqs *p);

#endif
