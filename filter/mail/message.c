/* message.c: one message parsed by GMime into struct mail, at the end of a list. */
#include <string.h>

#include "base/msg.h"
#include "mail/headers.h"
#include "mail/limits.h"
#include "mail/message.h"
#include "mail/options.h"
#include "mail/mime.h"

void mail_from_message(struct mail *m, GMimeMessage *msg)
{
	mail_read_headers(m, msg);
	mail_read_body(m, msg);
}

void mail_parse_one(struct mail *m, GByteArray *arr)
{
	m->cuts |= mail_limit(arr, false, NULL);
	GMimeStream *stream = g_mime_stream_mem_new_with_byte_array(arr);
	GMimeParser *parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	GMimeParserOptions *opts = mail_parser_options();
	GMimeMessage *msg = g_mime_parser_construct_message(parser, opts);
	if (msg) {
		mail_from_message(m, msg);
		g_object_unref(msg);
	} else {
		/* No headers at all (a bare diff, say): the input is the text. */
		warn("the input has no mail headers; taking all of it as the message text");
		struct buf text = BUF_INIT;
		mail_append_utf8(&text, (const char *)arr->data, arr->len, NULL);
		m->text = buf_detach(&text, &m->text_len);
		m->subject = xstrdup("");
	}
	g_mime_parser_options_free(opts);
	g_object_unref(parser);
	g_object_unref(stream);
}

struct mail *mail_list_add(struct mail_list *list)
{
	list->v = xrealloc(list->v, (list->n + 1) * sizeof(*list->v));
	struct mail *m = &list->v[list->n++];
	memset(m, 0, sizeof(*m));
	return m;
}
