/*
 * mbox.c: an mbox, split by GMime's own mbox parser. GMime ends a message
 * at every "From " line; one that cannot start a message (no header after
 * it, or inside an attachment) is joined back to the message it is in, and mboxrd's ">From " escapes are undone
 * before such a message is parsed again on its own.
 */
#include <string.h>

#include "base/msg.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "mail/options.h"

/* The message being put together: where it starts, and GMime's parse of it. */
struct pending {
	const guint8 *data;	/* the whole input */
	size_t len;
	size_t begin;		/* offset of the message's "From " line */
	GMimeMessage *msg;	/* NULL once the parse no longer covers all of it */
	char *boundary;		/* its top multipart boundary, or NULL */
	const struct mail_cut_marks *marks;
	size_t next_mark;	/* the first mark not yet given to a message */
};

/* The first n bytes of needle in [s, s + len), NUL bytes and all, or NULL. */
static const guint8 *find(const guint8 *s, size_t len, const char *needle, size_t n)
{
	const guint8 *end = s + len, *p = s;
	while ((size_t)(end - p) >= n && (p = memchr(p, needle[0], (size_t)(end - p) - n + 1))) {
		if (!memcmp(p, needle, n))
			return p;
		p++;
	}
	return NULL;
}

/* Does the multipart message at [from, at) end before at, as its closing boundary says? */
static bool multipart_closed(const struct pending *p, size_t at)
{
	if (!p->boundary)
		return true;
	char *close = g_strconcat("\n--", p->boundary, "--", NULL);
	size_t n = strlen(close);
	const guint8 *hit = find(p->data + p->begin, at - p->begin, close, n);
	const guint8 *later = hit ? NULL : find(p->data + at, p->len - at, close, n);
	g_free(close);
	return hit || !later;
}

/*
 * Does the "From " line at offset at start another message? It must open
 * a header block (prose that an mbox writer failed to escape does not),
 * after the end of the current message's MIME structure: tools that write
 * mboxes do not escape "From " inside attachments.
 */
static bool starts_message(const struct pending *p, size_t at, GMimeMessage *next)
{
	GMimeHeaderList *headers = g_mime_object_get_header_list(GMIME_OBJECT(next));
	return at > p->begin && at <= p->len && g_mime_header_list_get_count(headers) > 0 &&
	       multipart_closed(p, at);
}

/* Does the line at p read ">From ", ">>From "..., as mboxrd escapes "From "? */
static bool is_escaped_from(const guint8 *p, const guint8 *end)
{
	const guint8 *q = p;
	while (q < end && *q == '>')
		q++;
	return q > p && (size_t)(end - q) >= 5 && !memcmp(q, "From ", 5);
}

static const guint8 *next_line(const guint8 *p, const guint8 *end)
{
	const guint8 *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl + 1 : end;
}

static bool has_escaped_from(const guint8 *s, size_t len)
{
	for (const guint8 *p = s, *end = s + len; p < end; p = next_line(p, end))
		if (is_escaped_from(p, end))
			return true;
	return false;
}

/* A copy of [s, s + len) with one '>' taken off each escaped "From " line. */
static GByteArray *unescape(const guint8 *s, size_t len)
{
	GByteArray *out = g_byte_array_sized_new((guint)len);
	for (const guint8 *p = s, *end = s + len, *next; p < end; p = next) {
		next = next_line(p, end);
		const guint8 *from = p + is_escaped_from(p, end);
		g_byte_array_append(out, from, (guint)(next - from));
	}
	return out;
}

/* Turns the pending message, which ends at offset end, into the next mail of list. */
static void finish(struct pending *p, size_t end, struct mail_list *list)
{
	const guint8 *s = p->data + p->begin;
	size_t len = end - p->begin;
	struct mail *m = mail_list_add(list);
	for (; p->next_mark < p->marks->n && p->marks->v[p->next_mark].at < end; p->next_mark++)
		if (p->marks->v[p->next_mark].at >= p->begin)
			m->cuts |= p->marks->v[p->next_mark].cuts;
	if (p->msg && !has_escaped_from(s, len))
		mail_from_message(m, p->msg);
	else
		mail_parse_one(m, unescape(s, len));
	if (p->msg)
		g_object_unref(p->msg);
	g_free(p->boundary);
	p->msg = NULL;
	p->boundary = NULL;
}

/* Starts a new pending message at the "From " line at at; msg is GMime's parse of it, or NULL. */
static void start(struct pending *p, size_t at, GMimeMessage *msg)
{
	GMimeObject *top = msg ? g_mime_message_get_mime_part(msg) : NULL;
	const char *boundary = top && GMIME_IS_MULTIPART(top) ?
		g_mime_multipart_get_boundary(GMIME_MULTIPART(top)) : NULL;
	p->begin = at;
	p->msg = msg;
	p->boundary = boundary ? g_strdup(boundary) : NULL;
}

/* The offset of the first line after the one at at that starts "From ", or len. */
static size_t next_from_line(const guint8 *data, size_t len, size_t at)
{
	const guint8 *hit = at < len ? find(data + at, len - at, "\nFrom ", 6) : NULL;
	return hit ? (size_t)(hit + 1 - data) : len;
}

void mail_read_mbox(struct mail_list *list, GByteArray *arr, const struct mail_cut_marks *marks)
{
	GMimeStream *stream = g_mime_stream_mem_new_with_byte_array(arr);
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(stream), FALSE);
	GMimeParser *parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MBOX);
	GMimeParserOptions *opts = mail_parser_options();
	struct pending p = { .data = arr->data, .len = arr->len, .marks = marks };
	bool open = false;
	for (;;) {
		GMimeMessage *msg = g_mime_parser_construct_message(parser, opts);
		gint64 marker = g_mime_parser_get_mbox_marker_offset(parser);
		size_t at = marker < 0 ? p.len : (size_t)marker;
		if (!msg && (g_mime_parser_eos(parser) || at >= p.len))
			break;
		if (!msg) {
			/*
			 * GMime gives up at a "From " line with no header block
			 * after it: that line is the current message's text, and
			 * parsing goes on at the next "From " line.
			 */
			size_t next = next_from_line(p.data, p.len, at);
			if (!open)
				start(&p, at, NULL);
			open = true;
			if (p.msg)
				g_object_unref(p.msg);
			p.msg = NULL;
			if (next >= p.len)
				break;
			g_mime_stream_seek(stream, (gint64)next, GMIME_STREAM_SEEK_SET);
			g_mime_parser_init_with_stream(parser, stream);
			g_mime_parser_set_format(parser, GMIME_FORMAT_MBOX);
		} else if (!open) {
			start(&p, at, msg);
			open = true;
		} else if (starts_message(&p, at, msg)) {
			finish(&p, at, list);
			start(&p, at, msg);
		} else {
			/* A "From " line inside the message: parse all of it again. */
			g_object_unref(msg);
			if (p.msg)
				g_object_unref(p.msg);
			p.msg = NULL;
		}
	}
	if (open)
		finish(&p, p.len, list);
	g_mime_parser_options_free(opts);
	g_object_unref(parser);
	g_object_unref(stream);
}
