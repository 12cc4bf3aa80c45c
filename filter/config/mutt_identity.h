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

#endif
