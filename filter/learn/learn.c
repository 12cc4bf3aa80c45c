/*
 * learn.c: patchreview learn. Each sent reply written from a draft is
 * compared with it: a finding whose comment is still in the reply was
 * kept, one that is gone was deleted before sending. Deleted learn_after
 * times, a finding is dismissed. Other replies to the same mail are
 * skipped, and counted.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "learn/keys.h"
#include "learn/learn.h"
#include "learn/own.h"
#include "learn/record.h"
#include "learn/store.h"
#include "mail/mail.h"

/* Of a comment's words this share must be in the reply for it to count as kept. */
#define KEPT_SHARE 0.6

struct tally {
	size_t replies, kept, deleted, dismissed;
	size_t skipped;		/* replies to reviewed mail not written from the draft */
};

/* The words of the reply's own (unquoted) lines, lowercased: what the maintainer sent. */
static void own_words(struct keys *out, const char *text)
{
	struct buf w = BUF_INIT;
	for (const char *s = text; *s;) {
		size_t len = strcspn(s, "\n");
		bool quoted = *s == '>';
		for (size_t i = 0; !quoted && i <= len; i++) {
			if (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_')) {
				buf_addch(&w, (char)tolower((unsigned char)s[i]));
			} else if (w.len) {
				keys_add(out, w.data, w.len, 1);
				buf_reset(&w);
			}
		}
		s += len + (s[len] == '\n');
	}
	buf_release(&w);
}

/* Did the reply keep the comment: are most of its words of four letters or more in it? */
static bool kept(const char *comment, const struct keys *reply_words)
{
	size_t words = 0, found = 0;
	struct buf w = BUF_INIT;
	for (const char *s = comment; *s;) {
		size_t n = 0;
		while (isalnum((unsigned char)s[n]) || s[n] == '_')
			n++;
		if (n >= 4) {
			buf_reset(&w);
			for (size_t i = 0; i < n; i++)
				buf_addch(&w, (char)tolower((unsigned char)s[i]));
			words++;
			found += keys_get(reply_words, w.data, w.len) > 0;
		}
		s += n ? n : 1;
	}
	buf_release(&w);
	return !words || found >= KEPT_SHARE * (double)words;	/* no words: nothing to judge */
}

/*
 * Was the reply written from the draft? It names the draft's findings in
 * patchreview's own hand (the fingerprints header the send hook sees), or
 * it kept one of the draft's comments. A plain reply ("Applied, thanks.")
 * to a mail that also had a draft is neither, and says nothing about it.
 */
static bool from_draft(const struct mail *m, const struct record *rec, const struct keys *words)
{
	struct strvec fps = STRVEC_INIT;
	struct keys named_fps = KEYS_INIT;
	own_fingerprints(m, &fps);
	for (size_t i = 0; i < fps.n; i++)
		keys_add(&named_fps, fps.v[i], strlen(fps.v[i]), 1);
	bool named = false;
	for (size_t i = 0; !named && i < rec->n; i++)
		named = keys_get(&named_fps, rec->v[i].fp, strlen(rec->v[i].fp)) > 0;
	strvec_clear(&fps);
	keys_release(&named_fps);
	for (size_t i = 0; !named && i < rec->n; i++)
		named = *rec->v[i].text && kept(rec->v[i].text, words);
	return named;
}

/* One sent reply. */
static void learn_reply(const struct mail *m, struct store *s, struct tally *t)
{
	const struct config *c = s->config;
	struct record rec;
	if (!m->in_reply_to || record_read(&rec, m->in_reply_to) < 0)
		return;
	struct keys words = KEYS_INIT;
	own_words(&words, m->text ? m->text : "");
	if (!from_draft(m, &rec, &words)) {
		/* The record stays: the draft may still be sent. */
		if (store_log_skipped(s, m->message_id) > 0)
			t->skipped++;
		keys_release(&words);
		record_release(&rec);
		return;
	}
	t->replies++;
	for (size_t i = 0; i < rec.n; i++) {
		const struct record_finding *f = &rec.v[i];
		bool keep = kept(f->text, &words);
		if (store_log(s, keep ? "kept" : "deleted", f->fp, f->source) < 0)
			break;
		t->kept += keep;
		t->deleted += !keep;
		if (keep || store_deletions(s, f->fp) < c->learn_after || store_is_dismissed(s, f->fp))
			continue;
		if (store_dismiss(s, f->source, f->fp, NULL, "deleted before sending", f->file,
				  f->text) == 0)
			t->dismissed++;
	}
	/* Learned once: reading the Sent folder again changes nothing. */
	if (unlink(rec.path) < 0 && errno != ENOENT)
		warn("cannot remove '%s': %s", rec.path, strerror(errno));
	keys_release(&words);
	record_release(&rec);
}

static int learn_fd(int fd, struct store *s, struct tally *t)
{
	struct mail_list mails;
	if (mail_read_all(fd, &mails) < 0)
		return -1;
	for (size_t i = 0; i < mails.n; i++)
		learn_reply(&mails.v[i], s, t);
	mail_list_release(&mails);
	return 0;
}

static int learn_file(const char *path, struct store *s, struct tally *t)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	int ret = learn_fd(fd, s, t);
	close(fd);
	return ret;
}

/* A Maildir: every message in cur/ and new/. */
static int learn_maildir(const char *dir, struct store *s, struct tally *t)
{
	static const char *const subdirs[] = { "cur", "new" };
	struct buf path = BUF_INIT;
	int ret = 0;
	for (size_t k = 0; k < 2; k++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, subdirs[k]);
		DIR *d = opendir(path.data);
		if (!d)
			continue;
		size_t base = path.len;
		for (struct dirent *e; (e = readdir(d));) {
			if (e->d_name[0] == '.')
				continue;
			path.len = base;
			buf_addf(&path, "/%s", e->d_name);
			if (learn_file(path.data, s, t) < 0)
				ret = -1;
		}
		closedir(d);
	}
	buf_release(&path);
	return ret;
}

static const char learn_usage[] =
	"usage: patchreview learn [-c FILE] [PATH...] [< sent mail]\n"
	"Compares each sent reply (a mail on stdin, or each message of an mbox\n"
	"or Maildir PATH) with the draft patchreview wrote for the same mail:\n"
	"comments still in the reply were kept, the others deleted before\n"
	"sending. A finding deleted learn_after times (2) is dismissed.\n";

int learn_main(int argc, char **argv)
{
	struct config c;
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(learn_usage, stdout);
		return 0;
	}
	if (store_config(&c, &argc, argv) < 0) {
		config_release(&c);
		return 2;
	}
	struct tally t = { 0 };
	struct store s;
	store_open(&s, &c);	/* the list and the log read once, whatever the replies */
	int ret = 0;
	if (argc < 2)
		ret = learn_fd(0, &s, &t);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0)
			ret = error("cannot read '%s': %s", argv[i], strerror(errno));
		else if (S_ISDIR(st.st_mode) ? learn_maildir(argv[i], &s, &t) < 0
					     : learn_file(argv[i], &s, &t) < 0)
			ret = -1;
	}
	if (!c.quiet)
		fprintf(stderr, "patchreview: %zu repl%s to reviewed mail: %zu comment%s kept, "
			"%zu deleted, %zu newly dismissed; %zu not written from the draft, skipped\n",
			t.replies, t.replies == 1 ? "y" : "ies", t.kept, t.kept == 1 ? "" : "s",
			t.deleted, t.dismissed, t.skipped);
	store_close(&s);
	config_release(&c);
	return ret < 0 ? 3 : 0;
}
