/*
 * state.c: the consume state's names and the reading of a series from it;
 * the writing is consume/'s. See state.h for the layout.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/paths.h"
#include "patch/subject.h"
#include "state/state.h"

char *state_dir(void)
{
	return xdg_path("XDG_STATE_HOME", ".local/state", "patchreview");
}

void state_message_name(char hex[HASH_SHA256_HEX], const char *message_id,
			const char *raw, size_t len)
{
	if (message_id) {
		const char *parts[] = { "message-id", message_id };
		hash_sha256_strings(hex, parts, 2);
		return;
	}
	hash_sha256_bytes(hex, raw, len);
}

/*
 * The sender as the series key takes it: the From address, lowercased
 * (mail/ gives it as printable ASCII, at most MAIL_MAX_ADDRESS_BYTES), ""
 * for none. Caller releases *out.
 */
static void series_sender(const struct mail *m, struct buf *out)
{
	const struct address *a = mail_author(m);
	for (const char *c = a && a->addr ? a->addr : ""; *c; c++)
		buf_addch(out, (char)tolower((unsigned char)*c));
}

int state_series_key(const struct mail *m, char key[HASH_SHA256_HEX])
{
	if (!m->message_id)
		return -1;
	struct subject_prefix sp;
	subject_parse(&sp, m->subject);
	char numbers[48];
	const char *root = m->message_id;
	if (sp.total) {
		/*
		 * git send-email and b4 send each patch in reply to the cover
		 * letter, or with none to the first patch: its id names the
		 * series. Not References: a v2 sent in reply to v1 carries v1's.
		 */
		if (sp.index && m->in_reply_to)
			root = m->in_reply_to;
		snprintf(numbers, sizeof(numbers), "v%u of %u", sp.version, sp.total);
	} else {
		snprintf(numbers, sizeof(numbers), "lone");
	}
	subject_release(&sp);
	/*
	 * The sender too: a third party's "[PATCH 2/3]" in reply to someone's
	 * cover letter is a series of its own, never a part of theirs.
	 */
	struct buf sender = BUF_INIT;
	series_sender(m, &sender);
	const char *parts[] = { "series", root, numbers, sender.data };
	hash_sha256_strings(key, parts, 4);
	buf_release(&sender);
	return 0;
}

int state_thread_root(const struct mail *m, char key[HASH_SHA256_HEX])
{
	const char *root = m->nreferences ? m->references[0] :
		m->in_reply_to ? m->in_reply_to : m->message_id;
	if (!root)
		return -1;
	const char *parts[] = { "thread", root };
	hash_sha256_strings(key, parts, 2);
	return 0;
}

int state_series_path(struct buf *path, const char *key)
{
	char *dir = state_dir();
	if (!dir)
		return -1;
	buf_addf(path, "%s/series/%s", dir, key);
	free(dir);
	return 0;
}

int state_reviewed_series(const struct mail *m, struct mail_list *list)
{
	char key[HASH_SHA256_HEX];
	struct buf path = BUF_INIT, done = BUF_INIT;
	struct stat st;
	int ret = -1;
	*list = (struct mail_list){ 0 };
	if (state_series_key(m, key) < 0 || state_series_path(&path, key) < 0)
		goto out;
	buf_addf(&done, "%s/done", path.data);
	if (stat(done.data, &st) < 0)
		goto out;
	if (state_read_series(path.data, list) == 0 && list->n > 1)
		ret = 0;
	else
		mail_list_release(list);
out:
	buf_release(&path);
	buf_release(&done);
	return ret;
}
