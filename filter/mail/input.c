/*
 * input.c: reads the raw input from a descriptor, undoes CR LF transport,
 * tells one message from an mbox, and has GMime parse each message into
 * the fields of struct mail.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "base/slurp.h"
#include "base/text.h"
#include "mail/crlf.h"
#include "mail/limits.h"
#include "mail/mbox.h"
#include "mail/message.h"

void mail_init(void)
{
	g_mime_init();
}

void mail_shutdown(void)
{
	g_mime_shutdown();
}

static int read_input(int fd, GByteArray **arro)
{
	struct buf in = BUF_INIT;
	if (slurp_fd(fd, MAIL_MAX_INPUT, &in) < 0) {
		int err = errno;
		buf_release(&in);
		if (err == EFBIG)
			return error("input is larger than %zu MiB; not reviewing it",
				     MAIL_MAX_INPUT >> 20);
		return error("cannot read the message: %s", strerror(err));
	}
	size_t len;
	char *data = buf_detach(&in, &len);
	*arro = g_byte_array_new_take((guint8 *)data, len);
	return 0;
}

/* The messages of arr, which it takes: an mbox, or one message. Nothing when arr is blank. */
static void read_messages(struct mail_list *list, GByteArray *arr)
{
	/* Blank lines may come before the headers or the first "From " line. */
	guint skip = 0;
	while (skip < arr->len && (arr->data[skip] == '\n' || arr->data[skip] == ' ' ||
				   arr->data[skip] == '\t'))
		skip++;
	g_byte_array_remove_range(arr, 0, skip);
	size_t before = list->n;
	if (arr->len > 5 && !memcmp(arr->data, "From ", 5)) {
		struct mail_cut_marks marks = { 0 };
		mail_limit(arr, true, &marks);
		mail_read_mbox(list, arr, &marks);
		free(marks.v);
	}
	if (list->n > before || !arr->len)
		g_byte_array_unref(arr);
	else	/* One message: a "From " line in its body never starts another. */
		mail_parse_one(mail_list_add(list), arr);
}

/*
 * Messages with a line of four Ctrl-A after each (MMDF's delimiter), as
 * mutt and neomutt pipe tagged messages with pipe_split unset when
 * $pipe_sep is that line: from a Maildir nothing else tells where one
 * message ends. Returns false, taking nothing, when arr has no such line.
 */
static bool read_separated(struct mail_list *list, GByteArray *arr)
{
	static const char sep[] = "\001\001\001\001\n";
	const size_t n = sizeof(sep) - 1;
	const char *s = (const char *)arr->data, *end = s + arr->len, *start = s;
	bool found = false;
	for (const char *p = s; p && (size_t)(end - p) >= n;) {
		if (!memcmp(p, sep, n)) {
			GByteArray *piece = g_byte_array_new();
			g_byte_array_append(piece, (const guint8 *)start, (guint)(p - start));
			read_messages(list, piece);
			start = p + n;
			found = true;
		}
		p = memchr(p, '\n', (size_t)(end - p));
		p = p ? p + 1 : NULL;
	}
	if (!found)
		return false;
	g_byte_array_remove_range(arr, 0, (guint)(start - s));
	read_messages(list, arr);
	return true;
}

/* The line at p, of len bytes, starts with the header name h (with its colon)? */
static bool is_header(const char *p, size_t len, const char *h)
{
	size_t n = strlen(h);
	return len >= n && !strncasecmp(p, h, n);
}

/*
 * Does text hold, after a blank line, a block of header lines with From:,
 * "Subject: [PATCH" and Message-ID:? That is a second mail glued to the
 * first: mutt pipes tagged mails from a Maildir so with its default
 * $pipe_sep, a newline. Lines of a diff start with ' ', '+' or '-', so
 * they never match. Returns the block's line number (from 1), else 0.
 */
static size_t glued_mail(const char *text)
{
	size_t lineno = 1, block = 0;
	bool blank = false, from = false, subject = false, id = false;
	for (const char *p = text; *p; lineno++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (!len) {
			if (block && from && subject && id)
				return block;
			block = 0;
			blank = true;
		} else if (blank || block) {
			if (!block && (*p == ' ' || *p == '\t' || !memchr(p, ':', len))) {
				blank = false;
			} else {
				if (!block)
					block = lineno, from = subject = id = false;
				from |= is_header(p, len, "From: ");
				subject |= is_header(p, len, "Subject: [PATCH");
				id |= is_header(p, len, "Message-ID:");
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return block && from && subject && id ? block : 0;
}

/* Of a skipped message's subject, the most shown. */
#define SUBJECT_SHOWN 60

/* Of several messages, the ones past a limit on what GMime is given: left out, with a line each. */
static void skip_cut(struct mail_list *list)
{
	size_t kept = 0, total = list->n;
	for (size_t i = 0; i < total; i++) {
		struct mail *m = &list->v[i];
		unsigned bit = m->cuts & MAIL_CUTS_SKIP;
		if (total < 2 || !bit) {
			list->v[kept++] = *m;
			continue;
		}
		struct buf line = BUF_INIT, why = BUF_INIT;
		char *subject = text_clean_dup(m->subject ? m->subject : "", TEXT_ONE_LINE);
		size_t shown = strlen(subject);
		if (shown > SUBJECT_SHOWN)
			for (shown = SUBJECT_SHOWN; ((unsigned char)subject[shown] & 0xc0) == 0x80;)
				shown--;	/* whole UTF-8 sequences */
		mail_cut_note(&why, bit & -bit);	/* the first limit it went past */
		why.data[strcspn(why.data, ";")] = '\0';	/* not "the rest was not read" */
		buf_addf(&line, "message %zu of %zu (\"%.*s%s\") was skipped: %s", i + 1, total,
			 (int)shown, subject, subject[shown] ? "..." : "", why.data);
		warn("%s", line.data);
		strvec_push_take(&list->skipped, buf_detach(&line, NULL));
		free(subject);
		buf_release(&why);
		mail_release(m);
	}
	list->n = kept;
}

/* The messages of arr, which it takes, as mail_read_all() reads them. */
static int read_all(GByteArray *arr, struct mail_list *list)
{
	mail_crlf_to_lf(arr);
	if (!read_separated(list, arr))
		read_messages(list, arr);
	skip_cut(list);
	if (!list->n && list->skipped.n)
		return error("every message of the input went past a limit; nothing to review");
	if (!list->n)
		return error("no message on standard input");
	for (size_t i = 0; i < list->n; i++) {
		size_t at = list->v[i].text ? glued_mail(list->v[i].text) : 0;
		if (at)
			warn("message %zu holds another mail's headers at line %zu of its text; "
			     "were tagged mails piped with mutt's default $pipe_sep?", i + 1, at);
	}
	return 0;
}

int mail_read_all(int fd, struct mail_list *list)
{
	memset(list, 0, sizeof(*list));
	GByteArray *arr = NULL;
	if (read_input(fd, &arr) < 0)
		return -1;
	return read_all(arr, list);
}

int mail_read_bytes(const char *data, size_t len, struct mail_list *list)
{
	memset(list, 0, sizeof(*list));
	GByteArray *arr = g_byte_array_sized_new((guint)len);
	g_byte_array_append(arr, (const guint8 *)data, (guint)len);
	return read_all(arr, list);
}

void mail_parse_text(struct mail *m, const char *data, size_t len)
{
	memset(m, 0, sizeof(*m));
	GByteArray *arr = g_byte_array_sized_new((guint)len);
	g_byte_array_append(arr, (const guint8 *)data, (guint)len);
	mail_crlf_to_lf(arr);
	mail_parse_one(m, arr);
}

void mail_list_release(struct mail_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		mail_release(&list->v[i]);
	free(list->v);
	list->v = NULL;
	list->n = 0;
	strvec_clear(&list->skipped);
}

void mail_release(struct mail *m)
{
	address_list_release(&m->from);
	address_list_release(&m->reply_to);
	address_list_release(&m->to);
	address_list_release(&m->cc);
	address_list_release(&m->followup_to);
	free(m->list_post);
	free(m->subject);
	free(m->date);
	free(m->message_id);
	free(m->in_reply_to);
	free(m->fingerprints);
	for (size_t i = 0; i < m->nreferences; i++)
		free(m->references[i]);
	free(m->references);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

const struct address *mail_author(const struct mail *m)
{
	return m->from.n ? &m->from.v[0] : NULL;
}
