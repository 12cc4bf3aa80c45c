/*
 * prune.h: the state kept small. At most once an hour, under the
 * worker's lock (so no placing runs meanwhile), consume forgets the
 * series not pending whose folder did not change for consume_keep days
 * (a reviewed series, one left for the key press), and the seen entries
 * (state/seen.h) no run touched for as long; a state still over
 * CONSUME_MAX_SERIES series or CONSUME_MAX_SEEN entries then loses its
 * oldest, the age halved until it fits. A series goes by one rename out
 * of series/, then its files: the key press reading it meanwhile finds it
 * whole or not at all, and reviews the mail alone.
 */
#ifndef CONSUME_PRUNE_H
#define CONSUME_PRUNE_H

#include <stddef.h>

/* Series folders (not pending) and seen entries the state keeps at most. */
#define CONSUME_MAX_SERIES 50000
#define CONSUME_MAX_SEEN 500000
/* Seconds between two prunes: each reads the state's folders once. */
#define CONSUME_PRUNE_EVERY 3600

struct prune_counts {
	size_t series, seen;	/* removed */
};

/* Prunes state when its last prune is CONSUME_PRUNE_EVERY old; keep_days 0 keeps all. */
void prune_state(const char *state, long keep_days, struct prune_counts *n);

#endif
