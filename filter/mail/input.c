/*
 * input.c: reads the raw message from a descriptor, undoes CR LF
 * transport and the mbox envelope, and has GMime parse it into the
 * fields of struct mail.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/slurp.h"
#include "mail/parse.h"

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

/*
 * A message stored with CRLF line ends (Windows tools, some archives) has
 * CRLF as its transport form: turn it into LF so that only CRs inside the
 * content (encoded, or on some lines only) are left for the checks to see.
 */
void mail_crlf_to_lf(GByteArray *arr)
{
	const guint8 *nl = memchr(arr->data, '\n', arr->len);
	if (!nl || nl == arr->data || nl[-1] != '\r')
		return;
	guint8 *out = arr->data;
	for (guint i = 0; i < arr->len; i++) {
		if (arr->data[i] == '\r' && i + 1 < arr->len && arr->data[i + 1] == '\n')
			continue;
		*out++ = arr->data[i];
	}
	g_byte_array_set_size(arr, (guint)(out - arr->data));
}


static GMimeParserOptions *parser_options(void)
{
	static const char *fallback[] = { "UTF-8", "windows-1252", NULL };
	GMimeParserOptions *opts = g_mime_parser_options_new();
	g_mime_parser_options_set_fallback_charsets(opts, fallback);
	g_mime_parser_options_set_address_compliance_mode(opts, GMIME_RFC_COMPLIANCE_LOOSE);
	g_mime_parser_options_set_parameter_compliance_mode(opts, GMIME_RFC_COMPLIANCE_LOOSE);
	g_mime_parser_options_set_rfc2047_compliance_mode(opts, GMIME_RFC_COMPLIANCE_LOOSE);
	return opts;
}

/* The multipart boundary in a raw header block, or NULL; caller frees. */
static char *find_boundary(const char *headers, size_t len)
{
	const char *end = headers + len;
	for (const char *p = headers; p + 9 < end; p++) {
		if (g_ascii_strncasecmp(p, "boundary=", 9))
			continue;
		p += 9;
		bool quoted = *p == '"';
		const char *b = p + quoted, *e = b;
		while (e < end && (quoted ? *e != '"' : !strchr(" \t\r\n;", *e)))
			e++;
		return e > b ? xstrndup(b, (size_t)(e - b)) : NULL;
	}
	return NULL;
}

/*
 * Is the "From " line at s the start of another message in an mbox? Its
 * header block must hold a header that mail delivery or sending adds:
 * the bare "From:", "Date:" and "Subject:" of a git format-patch pasted
 * into a body do not count.
 */
static bool starts_message(const char *s, const char *end)
{
	static const char *const marks[] = {
		"Message-ID:", "Received:", "Return-Path:", "Delivered-To:",
		"In-Reply-To:", "References:", "To:", "MIME-Version:",
	};
	const char *p = memchr(s, '\n', (size_t)(end - s));
	while (p && ++p < end && *p != '\n') {
		for (size_t i = 0; i < sizeof(marks) / sizeof(*marks); i++)
			if (!g_ascii_strncasecmp(p, marks[i], strlen(marks[i])))
				return true;
		p = memchr(p, '\n', (size_t)(end - p));
	}
	return false;
}

/* The next "From " line after p that follows a blank line and starts a message. */
static const char *next_from_line(const char *p, const char *end)
{
	const char *hit;
	while ((hit = g_strstr_len(p, end - p, "\n\nFrom "))) {
		if (starts_message(hit + 2, end))
			return hit + 2;
		p = hit + 2;
	}
	return NULL;
}

/*
 * Finds the first message of an mbox. A "From " line inside a MIME part
 * (an attached format-patch, unescaped by many tools) must not end it, so
 * a multipart message ends only after its closing boundary.
 */
static size_t first_message_end(const char *s, size_t len)
{
	const char *end = s + len;
	const char *body = g_strstr_len(s, (gssize)len, "\n\n");
	if (!body)
		return len;
	const char *from = body;
	char *boundary = find_boundary(s, (size_t)(body - s));
	if (boundary) {
		char *close = g_strconcat("\n--", boundary, "--", NULL);
		const char *hit = g_strstr_len(body, end - body, close);
		from = hit ? hit : body;
		g_free(close);
		free(boundary);
	}
	const char *next = next_from_line(from, end);
	return next ? (size_t)(next - s) : len;
}

int mail_read(int fd, struct mail *m)
{
	memset(m, 0, sizeof(*m));
	GByteArray *arr = NULL;
	if (read_input(fd, &arr) < 0)
		return -1;
	mail_crlf_to_lf(arr);
	/* Blank lines and an mbox "From " line may come before the headers. */
	guint skip = 0;
	while (skip < arr->len && (arr->data[skip] == '\n' || arr->data[skip] == ' ' ||
				   arr->data[skip] == '\t'))
		skip++;
	if (arr->len - skip > 5 && !memcmp(arr->data + skip, "From ", 5)) {
		const guint8 *nl = memchr(arr->data + skip, '\n', arr->len - skip);
		skip = nl ? (guint)(nl + 1 - arr->data) : arr->len;
	}
	g_byte_array_remove_range(arr, 0, skip);
	if (!arr->len) {
		g_byte_array_unref(arr);
		return error("no message on standard input");
	}
	size_t end = first_message_end((const char *)arr->data, arr->len);
	if (end < arr->len) {
		warn("the input holds more than one message; reviewing the first");
		g_byte_array_set_size(arr, (guint)end);
	}
	GMimeStream *stream = g_mime_stream_mem_new_with_byte_array(arr);
	GMimeParser *parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	GMimeParserOptions *opts = parser_options();
	GMimeMessage *msg = g_mime_parser_construct_message(parser, opts);
	if (msg) {
		mail_read_headers(m, msg);
		mail_read_body(m, msg);
		g_object_unref(msg);
	} else {
		/* No headers at all (a bare diff, say): the input is the text. */
		warn("the input has no mail headers; taking all of it as the message text");
		struct buf text = BUF_INIT;
		GByteArray *raw = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(stream));
		mail_append_utf8(&text, (const char *)raw->data, raw->len, NULL);
		m->text = buf_detach(&text, &m->text_len);
		m->subject = xstrdup("");
	}
	g_mime_parser_options_free(opts);
	g_object_unref(parser);
	g_object_unref(stream);
	return 0;
}


void mail_release(struct mail *m)
{
	address_list_release(&m->from);
	address_list_release(&m->reply_to);
	address_list_release(&m->to);
	address_list_release(&m->cc);
	free(m->subject);
	free(m->date);
	free(m->message_id);
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
