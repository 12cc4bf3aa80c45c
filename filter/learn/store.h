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

/*
 * Reads the configuration for a learn command: -c FILE (or --config FILE)
 * among argv is taken out. Returns 0, or -1 after one line on stderr.
 */
int store_config(struct config *c, int *argc, char **argv);

/* Is fp dismissed already (an fp= entry of the list)? */
bool store_is_dismissed(const struct config *c, const char *fp);

/*
 * Appends "SOURCE fp=FP [list=LIST] # WHY (DATE): FILE: TEXT" to the
 * dismissed list (review/suppress.h writes it). Returns 0, or -1 after
 * one line on stderr.
 */
int store_dismiss(const struct config *c, const char *source, const char *fp,
		  const char *list, const char *why, const char *file, const char *text);

/* Appends one line to the learned log. Returns 0 or -1. */
int store_log(const char *verdict, const char *fp, const char *source);

/*
 * Logs a reply skipped, once a Message-ID (msgid may be NULL). Returns 1
 * when logged, 0 when that reply was logged before, -1 on error.
 */
int store_log_skipped(const char *msgid);

/* How many times fp was deleted before sending, by the log. */
long store_deletions(const char *fp);

#endif
