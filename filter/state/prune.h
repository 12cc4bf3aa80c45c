/*
 * prune.h: the consume state kept small. At most once an hour, under the
 * worker's lock (so no placing runs meanwhile), it forgets the series not
 * pending whose folder did not change for consume_keep days (a reviewed
 * series, one left for the key press), the threads' replies no reply
 * joined for as long, and the seen entries (state/seen.h) no run touched
 * for as long; a state still over STATE_MAX_SERIES series or threads or
 * STATE_MAX_SEEN entries then loses its oldest, the age halved until it
 * fits. A folder goes by one rename to ".KEY", then its files: the key
 * press reading it meanwhile finds it whole or not at all, and reviews
 * the mail alone; what a killed prune left is removed by the next.
 */
#ifndef STATE_PRUNE_H
#define STATE_PRUNE_H

#include <stddef.h>

/* Series folders (not pending), thread folders, and seen entries kept at most. */
#define STATE_MAX_SERIES 50000
#define STATE_MAX_SEEN 500000
/* Seconds between two prunes: each reads the state's folders once. */
#define STATE_PRUNE_EVERY 3600

struct prune_counts {
	size_t series, threads, seen;	/* removed */
};

/*
 * Prunes the state directory when its last prune is STATE_PRUNE_EVERY
 * old; keep_days 0 keeps all. Returns 1 when it ran, else 0.
 */
int prune_state(const char *state, long keep_days, struct prune_counts *n);

#endif
