/*
 * facts.h: what a mail states of itself besides its patch, read once here
 * and by every other stage from struct patch: whether it asks to pull
 * rather than to apply ("[GIT PULL]"; "[PULL 3/15]" is one patch of a
 * pull series and is applied), the commit it was made on ("base-commit:",
 * as git format-patch --base writes it), and what must be applied first
 * ("prerequisite-patch-id:", the output of git patch-id --stable, and
 * b4's "prerequisite-message-id:"). A value that is not well formed is no
 * fact: a base is 7 to 64 hex digits, a patch-id 40, a message id one
 * token of at most TEXT_MAX_MESSAGE_ID bytes, in <> or not. The first
 * base counts. (No line of a diff starts with a key: each has its marker.)
 */
#ifndef PATCH_FACTS_H
#define PATCH_FACTS_H

#include "patch/patch.h"

/* Of each list of prerequisites, the most kept; a longer list is cut there. */
#define PATCH_MAX_PREREQUISITES 1000

/* Reads the facts of p, whose subject, lines and their kinds are parsed. */
void patch_parse_facts(struct patch *p);

#endif
