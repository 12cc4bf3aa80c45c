/* replies.c: replies kept by thread, and linked into a series as its review starts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/paths.h"
#include "base/strvec.h"
#include "consume/log.h"
#include "consume/replies.h"
#include "patch/subject.h"
#include "state/read.h"
#include "state/state.h"

bool replies_wanted(const struct mail *m)
{
	struct subject_prefix sp;
	subject_parse(&sp, m->subject);
	bool ok = sp.is_reply && sp.is_patch && m->message_id &&
		(m->in_reply_to || m->nreferences);
	subject_release(&sp);
	return ok;
}

enum reply_kept replies_keep(const char *state, const char *path, const struct mail *m)
{
	enum reply_kept ret = REPLY_KEPT;
	struct buf dir = BUF_INIT, dest = BUF_INIT;
	struct strvec names = STRVEC_INIT;
	char root[HASH_SHA256_HEX], name[HASH_SHA256_HEX];
	state_thread_root(m, root);
	state_message_name(name, m->message_id, NULL, 0);
	buf_addf(&dir, "%s/thread/%s", state, root);
	buf_addf(&dest, "%s/%s.eml", dir.data, name);
	if (!access(dest.data, F_OK)) {
		ret = REPLY_DUPLICATE;
		unlink(path);
	} else if (make_dirs(dir.data) < 0 ||
		   state_list_messages(dir.data, STATE_MAX_THREAD_MSGS, &names) < 0 ||
		   names.n >= STATE_MAX_THREAD_MSGS) {
		consume_log("thread %.12s: full or unwritable; a reply is not kept", root);
		ret = REPLY_DROPPED;
		unlink(path);
	} else if (rename(path, dest.data) < 0) {
		consume_log("cannot move '%s' to '%s': %s", path, dest.data, strerror(errno));
		ret = REPLY_FAILED;
	}
	strvec_clear(&names);
	buf_release(&dir);
	buf_release(&dest);
	return ret;
}

/* Links the replies of the thread root into to/, while it holds fewer than *room. */
static size_t link_thread(const char *state, const char *root, const char *to, size_t *room)
{
	struct strvec names = STRVEC_INIT;
	struct buf from = BUF_INIT, src = BUF_INIT, dst = BUF_INIT;
	size_t made = 0;
	buf_addf(&from, "%s/thread/%s", state, root);
	if (state_list_messages(from.data, STATE_MAX_THREAD_MSGS, &names) == 0)
		for (size_t i = 0; i < names.n && *room; i++) {
			buf_reset(&src);
			buf_reset(&dst);
			buf_addf(&src, "%s/%s", from.data, names.v[i]);
			buf_addf(&dst, "%s/%s", to, names.v[i]);
			if (link(src.data, dst.data) == 0) {
				made++;
				(*room)--;
			} else if (errno != EEXIST) {
				consume_log("cannot link '%s': %s", dst.data, strerror(errno));
			}
		}
	strvec_clear(&names);
	buf_release(&from);
	buf_release(&src);
	buf_release(&dst);
	return made;
}

size_t replies_link(const char *state, const char *dir, const struct mail_list *list)
{
	struct strvec roots = STRVEC_INIT, there = STRVEC_INIT;
	struct buf to = BUF_INIT;
	char root[HASH_SHA256_HEX];
	size_t made = 0;
	buf_addf(&to, "%s/thread", dir);
	for (size_t i = 0; i < list->n; i++)
		if (!replies_wanted(&list->v[i]) && state_thread_root(&list->v[i], root) == 0 &&
		    !strvec_has(&roots, root))
			strvec_push(&roots, root);
	if (roots.n && make_dirs(to.data) == 0 &&
	    state_list_messages(to.data, STATE_MAX_THREAD_MSGS, &there) == 0) {
		size_t room = STATE_MAX_THREAD_MSGS - there.n;
		for (size_t i = 0; i < roots.n && room; i++)
			made += link_thread(state, roots.v[i], to.data, &room);
	}
	strvec_clear(&roots);
	strvec_clear(&there);
	buf_release(&to);
	return made;
}
