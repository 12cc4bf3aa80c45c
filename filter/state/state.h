/*
 * state.h: what patchreview consume keeps under
 * ${XDG_STATE_HOME:-~/.local/state}/patchreview/: the messages delivered
 * and not yet placed (queue/), each series' messages (series/KEY/), and
 * which series were reviewed. The key press reads it back here, so that
 * a mail of a reviewed series is answered with the series in view.
 *
 *   queue/H.eml          a delivered message, H the SHA-256 of its bytes
 *   series/KEY/H.eml     the messages of one series, moved there from queue/,
 *                        H the SHA-256 of the Message-ID (a copy is kept once)
 *   series/KEY/done      the series was reviewed: "tokens N" (the estimate sent)
 *   series/KEY/skipped   the series was left for the key press (a bound)
 *   series/KEY/thread/H.eml  the replies of its thread the review had in view
 *                        (hard links into thread/ROOT/, made as it starts)
 *   thread/ROOT/H.eml    a reply to a patch ("Re: [PATCH ..."), kept for the
 *                        series of its thread, ROOT named by state_thread_root()
 *   seen/H               a message read or placed already (state/seen.h)
 *   pruned               when state/prune.h last ran
 *
 * Every file is written to a temporary name and renamed into place, and a
 * message moves from queue/ to its series by rename(), so a process killed
 * at any point leaves each message in one place, whole.
 */
#ifndef STATE_H
#define STATE_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/hash.h"
#include "mail/mail.h"
#include "state/read.h"

/* The state directory, "$XDG_STATE_HOME/patchreview"; NULL when HOME is unset too. Caller frees. */
char *state_dir(void);

/* The name of a message in the state: the SHA-256 of its Message-ID, else of its bytes. */
void state_message_name(char hex[HASH_SHA256_HEX], const char *message_id,
			const char *raw, size_t len);

/*
 * The series a message belongs to, in key: the SHA-256 of the message
 * that opens the series (for a patch "k/n", the one its In-Reply-To
 * names, else itself; a cover letter opens it) with the version and the
 * n of its subject, so a v2 is another series, and the sender's From
 * address, lowercased, so a message from anyone else is never part of
 * it, whatever it answers; a lone patch is its own series. A series sent with chain-reply-to is not found whole: each
 * patch waits consume_wait and is reviewed alone. Returns 0, or -1
 * for a message without a Message-ID.
 */
int state_series_key(const struct mail *m, char key[HASH_SHA256_HEX]);

/*
 * The thread a message is in, in key: the SHA-256 of the first id of its
 * References, else of its In-Reply-To, else of its own Message-ID. A v2
 * sent in reply to v1 is in v1's thread, and so are the replies to v1.
 * Returns 0, or -1 for a message with none of them.
 */
int state_thread_root(const struct mail *m, char key[HASH_SHA256_HEX]);

/* "DIR/series/KEY" into *path. Returns 0, or -1 when there is no state directory. */
int state_series_path(struct buf *path, const char *key);

/*
 * For the key press: when m belongs to a reviewed series of more than
 * one message (the replies it had in view counted), its messages into
 * *list (read from the state as state_read_series() reads them, the
 * pressed one among them) and 0; else -1 and *list empty.
 */
int state_reviewed_series(const struct mail *m, struct mail_list *list);

#endif
