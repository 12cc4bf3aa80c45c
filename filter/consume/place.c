/* place.c: queue entries into their series' folders. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "base/strvec.h"
#include "consume/log.h"
#include "consume/place.h"
#include "consume/queue.h"
#include "consume/replies.h"
#include "state/seen.h"
#include "patch/parse.h"
#include "patch/subject.h"
#include "state/read.h"
#include "state/state.h"

/* Is m a patch or a cover letter, what the driver would review? */
static bool reviewable(struct mail *m)
{
	struct subject_prefix sp;
	struct patch p;
	subject_parse(&sp, m->subject);
	bool cover = sp.is_patch && sp.total && !sp.index;
	bool ok = !sp.is_reply && !sp.is_pull;
	subject_release(&sp);
	if (!ok || cover)
		return ok;
	char *text = m->text;
	m->text = NULL;
	patch_parse(&p, m->subject, text, m->text_len, m->patch_offset);
	ok = patch_has_diff(&p);
	patch_release(&p);
	return ok;
}

/* The series is pending since now, unless it already was. */
static void mark_pending(const char *state, const char *key)
{
	struct buf path = BUF_INIT, when = BUF_INIT;
	buf_addf(&path, "%s/pending", state);
	make_dirs(path.data);
	buf_addf(&path, "/%s", key);
	buf_addf(&when, "%lld\n", (long long)time(NULL));
	if (write_file_new(path.data, when.data, when.len) < 0 && errno != EEXIST)
		consume_log("cannot write '%s': %s", path.data, strerror(errno));
	buf_release(&path);
	buf_release(&when);
}

/* Moves the entry at path into its series. */
static void place(const char *state, const char *path, struct place_counts *n)
{
	struct mail_list list = { 0 };
	struct buf dir = BUF_INIT, dest = BUF_INIT, marker = BUF_INIT;
	struct strvec names = STRVEC_INIT;
	char key[HASH_SHA256_HEX], name[HASH_SHA256_HEX];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && mail_read_all(fd, &list) == 0 && replies_wanted(&list.v[0])) {
		enum reply_kept k = replies_keep(state, path, &list.v[0]);
		n->placed += k == REPLY_KEPT;
		n->duplicates += k == REPLY_DUPLICATE;
		n->dropped += k == REPLY_DROPPED;
		goto out;
	}
	if (fd < 0 || !list.n || !reviewable(&list.v[0]) ||
	    state_series_key(&list.v[0], key) < 0 || state_series_path(&dir, key) < 0) {
		n->dropped++;
		unlink(path);
		goto out;
	}
	state_message_name(name, list.v[0].message_id, NULL, 0);
	buf_addf(&dest, "%s/%s.eml", dir.data, name);
	/* Placed before, its series maybe reviewed and pruned since: once is enough. */
	if (seen_touch(state, "message-id", list.v[0].message_id) || !access(dest.data, F_OK)) {
		n->duplicates++;
		unlink(path);
		goto out;
	}
	if (make_dirs(dir.data) < 0 ||
	    state_list_messages(dir.data, STATE_MAX_SERIES_MSGS, &names) < 0 ||
	    names.n >= STATE_MAX_SERIES_MSGS) {
		consume_log("series %.12s: full or unwritable; a message is left for the key press", key);
		n->dropped++;
		unlink(path);
		goto out;
	}
	/* Pending first: killed after it, the series is reviewed again, which costs nothing. */
	mark_pending(state, key);
	if (rename(path, dest.data) < 0) {
		consume_log("cannot move '%s' to '%s': %s", path, dest.data, strerror(errno));
		goto out;
	}
	/* A new message: what was reviewed without it is not the series any more. */
	buf_addf(&marker, "%s/done", dir.data);
	unlink(marker.data);
	buf_reset(&marker);
	buf_addf(&marker, "%s/skipped", dir.data);
	unlink(marker.data);
	if (seen_mark(state, "message-id", list.v[0].message_id) < 0)
		consume_log("cannot write '%s/seen': %s", state, strerror(errno));
	n->placed++;
out:
	if (fd >= 0)
		close(fd);
	mail_list_release(&list);
	strvec_clear(&names);
	buf_release(&dir);
	buf_release(&dest);
	buf_release(&marker);
}

void place_queue(const char *state, size_t max, struct place_counts *n)
{
	struct strvec names = STRVEC_INIT;
	struct buf path = BUF_INIT;
	char *dir = queue_dir(state);
	if (!dir || state_list_messages(dir, max, &names) < 0) {
		free(dir);
		return;
	}
	for (size_t i = 0; i < names.n; i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, names.v[i]);
		place(state, path.data, n);
	}
	buf_release(&path);
	strvec_clear(&names);
	free(dir);
}
