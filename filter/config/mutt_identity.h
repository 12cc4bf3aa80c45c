/* mutt_identity.h: the From mutt would set, from the variables its macro exports. */
#ifndef MUTT_IDENTITY_H
#define MUTT_IDENTITY_H

#include "config/config.h"

/*
 * With --mutt and no 'from' configured, sets 'from' from the environment
 * the mutt macros export (PATCHREVIEW_MUTT_FLAGS, _FROM, _REALNAME,
 * _HOSTNAME), as mutt would for a reply. Returns 0, or -1 on a bad value.
 */
int config_mutt_identity(struct config *c);

/*
 * With --mutt and no 'signature' configured (an empty one counts), sets
 * 'signature' to mutt's $signature (PATCHREVIEW_MUTT_SIGNATURE), and honours
 * its $sig_dashes (PATCHREVIEW_MUTT_SIG_DASHES). A $signature ending in '|'
 * is a command in mutt: it is not run, with a warning, and the draft has
 * no signature. Returns 0, or -1 on a bad value.
 */
int config_mutt_signature(struct config *c);

#endif
