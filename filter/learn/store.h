/*
 * store.h: what the learn commands share: their settings, the dismissed
 * list they append to, and the log of what each sent reply kept.
 *
 * ${XDG_DATA_HOME:-~/.local/share}/patchreview/learned, one line a finding
 * of a sent reply: "kept|deleted<TAB>FINGERPRINT<TAB>SOURCE<TAB>DATE", and
 * one a reply skipped, not written from its draft:
 * "skipped<TAB>HASH OF ITS MESSAGE-ID<TAB>-<TAB>DATE".
 */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>

#include "config/config.h"
#include "learn/keys.h"

/*
 * Reads the configuration for a learn command: -c FILE (or --config FILE)
 * among argv is taken out. Returns 0, or -1 after one line on stderr.
 */
int store_config(struct config *c, int *argc, char **argv);

/*
 * The dismissed list and the learned log as a run sees them: each read
 * once, when the run starts (the log up to STORE_LOG_MAX bytes), kept up to
 * date as the run appends, so that each question below is answered in
 * constant time, whatever the files' size and the number of replies.
 */
#define STORE_LOG_MAX (64 << 20)	/* a longer learned log is read as empty */

struct store {
	const struct config *config;
	struct keys dismissed;	/* the fingerprints of the list's fp= entries */
	struct keys log;	/* "VERDICT<TAB>KEY" of each line of the log, counted */
};

/* Reads both files for the settings c (which must outlive s). */
void store_open(struct store *s, const struct config *c);
void store_close(struct store *s);

/* Is fp dismissed already (an fp= entry of the list)? */
bool store_is_dismissed(const struct store *s, const char *fp);

/*
 * Appends "SOURCE fp=FP [list=LIST] # WHY (DATE): FILE: TEXT" to the
 * dismissed list (review/suppress.h writes it). Returns 0, or -1 after
 * one line on stderr.
 */
int store_dismiss(struct store *s, const char *source, const char *fp,
		  const char *list, const char *why, const char *file, const char *text);

/* Appends one line to the learned log. Returns 0 or -1. */
int store_log(struct store *s, const char *verdict, const char *fp, const char *source);

/*
 * Logs a reply skipped, once a Message-ID (msgid may be NULL). Returns 1
 * when logged, 0 when that reply was logged before, -1 on error.
 */
int store_log_skipped(struct store *s, const char *msgid);

/* How many times fp was deleted before sending, by the log. */
long store_deletions(const struct store *s, const char *fp);

#endif
