/*
 * mail.c: reads the raw message and turns it, with GMime, into the plain
 * UTF-8 fields the rest of the program needs. GMime stays inside this file.
 */
#include <errno.h>
#include <gmime/gmime.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "mail.h"
#include "msg.h"
#include "text.h"

/* Where the text parts go while the MIME tree is walked. */
struct collect {
	struct buf body;	/* the first inline text/plain part */
	bool have_body;
	bool body_flowed;
	bool body_crlf;
	struct buf extra;	/* other parts that carry a diff */
	bool extra_flowed;
	bool extra_crlf;
};

static int read_all(int fd, GByteArray *arr)
{
	for (;;) {
		if (arr->len >= MAIL_MAX_INPUT)
			return error("input is larger than %zu MiB; not reviewing it",
				     MAIL_MAX_INPUT >> 20);
		guint old = arr->len;
		g_byte_array_set_size(arr, old + 65536);
		ssize_t n = read(fd, arr->data + old, 65536);
		if (n < 0 && errno == EINTR) {
			g_byte_array_set_size(arr, old);
			continue;
		}
		g_byte_array_set_size(arr, old + (n > 0 ? (guint)n : 0));
		if (n == 0)
			return 0;
		if (n < 0)
			return error("cannot read the message: %s", strerror(errno));
	}
}

/*
 * A message stored with CRLF line ends (Windows tools, some archives) has
 * CRLF as its transport form: turn it into LF so that only CRs inside the
 * content (encoded, or on some lines only) are left for the checks to see.
 */
static void crlf_to_lf(GByteArray *arr)
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

static char *clean_header(const char *value)
{
	return value ? text_clean_dup(value, TEXT_ONE_LINE) : NULL;
}

static void add_address(struct address_list *list, InternetAddressMailbox *mb)
{
	const char *addr = internet_address_mailbox_get_addr(mb);
	const char *name = internet_address_get_name(INTERNET_ADDRESS(mb));
	if (!addr || !*addr)
		return;
	list->v = xrealloc(list->v, (list->n + 1) * sizeof(*list->v));
	list->v[list->n].addr = clean_header(addr);
	list->v[list->n].name = name && *name ? clean_header(name) : NULL;
	list->n++;
}

static void collect_addresses(struct address_list *list, InternetAddressList *ial)
{
	int n = ial ? internet_address_list_length(ial) : 0;
	for (int i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(ial, i);
		if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			add_address(list, INTERNET_ADDRESS_MAILBOX(ia));
		else if (INTERNET_ADDRESS_IS_GROUP(ia))
			collect_addresses(list,
				internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)));
	}
}

static void add_references(struct mail *m, const char *value)
{
	GMimeReferences *refs = value ? g_mime_references_parse(NULL, value) : NULL;
	int n = refs ? g_mime_references_length(refs) : 0;
	for (int i = 0; i < n; i++) {
		m->references = xrealloc(m->references,
					 (m->nreferences + 1) * sizeof(*m->references));
		m->references[m->nreferences++] =
			clean_header(g_mime_references_get_message_id(refs, i));
	}
	if (refs)
		g_mime_references_free(refs);
}

static void read_headers(struct mail *m, GMimeMessage *msg)
{
	GMimeObject *obj = GMIME_OBJECT(msg);
	collect_addresses(&m->from, g_mime_message_get_from(msg));
	collect_addresses(&m->reply_to, g_mime_message_get_reply_to(msg));
	collect_addresses(&m->to, g_mime_message_get_to(msg));
	collect_addresses(&m->cc, g_mime_message_get_cc(msg));
	const char *subject = g_mime_message_get_subject(msg);
	m->subject = text_clean_dup(subject ? subject : "", TEXT_ONE_LINE);
	g_strstrip(m->subject);
	m->date = clean_header(g_mime_object_get_header(obj, "Date"));
	if (m->date)
		g_strstrip(m->date);
	/* The first Message-ID header, as other tools read it; not an empty one. */
	const char *msgid = g_mime_object_get_header(obj, "Message-ID");
	char *id = msgid ? g_mime_utils_decode_message_id(msgid) : NULL;
	if (id && *id)
		m->message_id = clean_header(id);
	g_free(id);
	/* A reply's References: the parent's References, else its In-Reply-To. */
	const char *refs = g_mime_object_get_header(obj, "References");
	add_references(m, refs ? refs : g_mime_object_get_header(obj, "In-Reply-To"));
}

static char *convert(const char *data, size_t len, const char *from, gsize *written)
{
	return g_convert(data, (gssize)len, "UTF-8", from, NULL, written, NULL);
}

/* Latin text in a mail that claims UTF-8: windows-1252, or Latin-1, which cannot fail. */
static void append_legacy(struct buf *out, const char *data, size_t len)
{
	gsize written = 0;
	char *converted = convert(data, len, "WINDOWS-1252", &written);
	if (!converted)
		converted = convert(data, len, "ISO-8859-1", &written);
	if (converted)
		text_clean(out, converted, written, TEXT_KEEP_CR);
	else
		text_clean(out, data, len, TEXT_KEEP_CR);
	g_free(converted);
}

/*
 * Converts decoded part content to UTF-8. Declared charsets are often
 * wrong or made up ("Y", "x-unknown"), and patches mix encodings: text
 * that fails to convert is taken line by line, valid UTF-8 as it is and
 * anything else as windows-1252. text_clean() catches what is left.
 */
static void append_utf8(struct buf *out, const char *data, size_t len,
			const char *charset)
{
	gsize written = 0;
	bool declared_utf8 = !charset || !g_ascii_strcasecmp(charset, "utf-8") ||
			     !g_ascii_strcasecmp(charset, "utf8") ||
			     !g_ascii_strcasecmp(charset, "us-ascii");
	char *converted = declared_utf8 ? NULL :
		convert(data, len, g_mime_charset_iconv_name(charset), &written);
	if (converted) {
		text_clean(out, converted, written, TEXT_KEEP_CR);
		g_free(converted);
		return;
	}
	const char *p = data, *end = data + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		if (g_utf8_validate(p, (gssize)n, NULL))
			text_clean(out, p, n, TEXT_KEEP_CR);
		else
			append_legacy(out, p, n);
		p += n;
	}
}

/*
 * A text part whose every line ends in CRLF is in MIME's canonical form
 * (base64 text from many mailers): its CRs are line breaks, not content.
 * CRs on some lines only are content, for the DOS line-ending check.
 */
static bool canonical_crlf_to_lf(GByteArray *arr)
{
	guint lines = 0, crlf = 0;
	for (guint i = 0; i < arr->len; i++)
		if (arr->data[i] == '\n') {
			lines++;
			crlf += i > 0 && arr->data[i - 1] == '\r';
		}
	if (!lines || crlf != lines)
		return false;
	crlf_to_lf(arr);
	return true;
}

static GByteArray *decode_part(GMimePart *part)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	if (!content)
		return NULL;
	GMimeStream *mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(content, mem);
	GByteArray *arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
	g_object_unref(mem);
	return arr;
}

/* Does this text hold a unified diff? Looks for a line that starts one. */
static bool has_diff(const char *s, size_t len)
{
	static const char *const starts[] = { "diff --git ", "diff -", "--- ", "Index: " };
	const char *p = s, *end = s + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;
		for (size_t i = 0; i < sizeof(starts) / sizeof(*starts); i++) {
			size_t n = strlen(starts[i]);
			if ((size_t)(end - p) > n && !memcmp(p, starts[i], n) &&
			    (i < 2 || (next + 4 < end && !memcmp(next, "+++ ", 4)) ||
			     (i == 3 && next + 4 < end && !memcmp(next, "====", 4))))
				return true;
		}
		p = next;
	}
	return false;
}

static bool name_ends_with(const char *name, const char *suffix)
{
	size_t n = name ? strlen(name) : 0, s = strlen(suffix);
	return n >= s && !g_ascii_strcasecmp(name + n - s, suffix);
}

/* Parts that may hold a patch: text other than HTML, and patch-named blobs. */
static bool is_textual(GMimeContentType *ct, const char *filename)
{
	const char *type = g_mime_content_type_get_media_type(ct);
	const char *sub = g_mime_content_type_get_media_subtype(ct);
	if (!g_ascii_strcasecmp(type, "text"))
		return g_ascii_strcasecmp(sub, "html") != 0;
	if (!g_ascii_strcasecmp(type, "application"))
		return !g_ascii_strcasecmp(sub, "x-patch") || !g_ascii_strcasecmp(sub, "x-diff") ||
		       ((!g_ascii_strcasecmp(sub, "octet-stream") || !g_ascii_strcasecmp(sub, "mbox")) &&
			(name_ends_with(filename, ".patch") || name_ends_with(filename, ".diff") ||
			 name_ends_with(filename, ".txt") || name_ends_with(filename, ".mbox") ||
			 name_ends_with(filename, ".eml") || !filename));
	return false;
}

static void collect_part(struct collect *c, GMimePart *part)
{
	GMimeObject *obj = GMIME_OBJECT(part);
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	const char *filename = g_mime_part_get_filename(part);
	if (!is_textual(ct, filename))
		return;
	GByteArray *raw = decode_part(part);
	if (!raw || !raw->len) {
		if (raw)
			g_byte_array_unref(raw);
		return;
	}
	bool crlf = canonical_crlf_to_lf(raw);
	const char *charset = g_mime_content_type_get_parameter(ct, "charset");
	const char *format = g_mime_content_type_get_parameter(ct, "format");
	bool flowed = format && !g_ascii_strcasecmp(format, "flowed");
	bool plain = g_mime_content_type_is_type(ct, "text", "plain") &&
		     !g_mime_part_is_attachment(part);
	const char *data = (const char *)raw->data;
	bool binary = memchr(data, '\0', raw->len < 8192 ? raw->len : 8192) != NULL &&
		      !plain;
	if (!c->have_body && plain) {
		append_utf8(&c->body, data, raw->len, charset);
		c->have_body = true;
		c->body_flowed = flowed;
		c->body_crlf = crlf;
	} else if (!binary && has_diff(data, raw->len)) {
		if (c->extra.len && c->extra.data[c->extra.len - 1] != '\n')
			buf_addch(&c->extra, '\n');
		append_utf8(&c->extra, data, raw->len, charset);
		c->extra_flowed |= flowed;
		c->extra_crlf |= crlf;
	}
	g_byte_array_unref(raw);
}

static void walk(struct collect *c, GMimeObject *obj, int depth)
{
	if (!obj || depth > 32)
		return;
	if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		if (inner)
			walk(c, g_mime_message_get_mime_part(inner), depth + 1);
	} else if (GMIME_IS_MULTIPART_ENCRYPTED(obj)) {
		return;
	} else if (GMIME_IS_MULTIPART_SIGNED(obj)) {
		walk(c, g_mime_multipart_get_part(GMIME_MULTIPART(obj),
						  GMIME_MULTIPART_SIGNED_CONTENT), depth + 1);
	} else if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int n = g_mime_multipart_get_count(mp);
		GMimeContentType *ct = g_mime_object_get_content_type(obj);
		if (g_mime_content_type_is_type(ct, "multipart", "alternative")) {
			/* The plain-text alternative, else the first one. */
			GMimeObject *pick = n ? g_mime_multipart_get_part(mp, 0) : NULL;
			for (int i = 0; i < n; i++) {
				GMimeObject *alt = g_mime_multipart_get_part(mp, i);
				if (g_mime_content_type_is_type(
					    g_mime_object_get_content_type(alt), "text", "plain")) {
					pick = alt;
					break;
				}
			}
			walk(c, pick, depth + 1);
			return;
		}
		for (int i = 0; i < n; i++)
			walk(c, g_mime_multipart_get_part(mp, i), depth + 1);
	} else if (GMIME_IS_PART(obj)) {
		collect_part(c, GMIME_PART(obj));
	}
}

static void read_body(struct mail *m, GMimeMessage *msg)
{
	struct collect c = { .body = BUF_INIT, .extra = BUF_INIT };
	walk(&c, g_mime_message_get_mime_part(msg), 0);
	if (c.extra.len) {
		if (c.body.len && c.body.data[c.body.len - 1] != '\n')
			buf_addch(&c.body, '\n');
		buf_add(&c.body, c.extra.data, c.extra.len);
	}
	m->flowed = c.body_flowed || c.extra_flowed;
	m->crlf = c.body_crlf || c.extra_crlf;
	buf_release(&c.extra);
	m->text = buf_detach(&c.body, &m->text_len);
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
	GByteArray *arr = g_byte_array_new();
	if (read_all(fd, arr) < 0) {
		g_byte_array_unref(arr);
		return -1;
	}
	crlf_to_lf(arr);
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
		read_headers(m, msg);
		read_body(m, msg);
		g_object_unref(msg);
	} else {
		/* No headers at all (a bare diff, say): the input is the text. */
		warn("the input has no mail headers; taking all of it as the message text");
		struct buf text = BUF_INIT;
		GByteArray *raw = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(stream));
		append_utf8(&text, (const char *)raw->data, raw->len, NULL);
		m->text = buf_detach(&text, &m->text_len);
		m->subject = xstrdup("");
	}
	g_mime_parser_options_free(opts);
	g_object_unref(parser);
	g_object_unref(stream);
	return 0;
}

void address_list_release(struct address_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		free(list->v[i].name);
		free(list->v[i].addr);
	}
	free(list->v);
	list->v = NULL;
	list->n = 0;
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

/* Writing headers: RFC 2047 encoding and folding, also done by GMime. */

char *mail_format_addresses(const char *name, const struct address *v, size_t n)
{
	InternetAddressList *list = internet_address_list_new();
	for (size_t i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_mailbox_new(v[i].name, v[i].addr);
		internet_address_list_add(list, ia);
		g_object_unref(ia);
	}
	GString *s = g_string_new(name);
	g_string_append(s, ": ");
	internet_address_list_encode(list, NULL, s);
	g_object_unref(list);
	if (s->len && s->str[s->len - 1] != '\n')
		g_string_append_c(s, '\n');
	char *out = xstrdup(s->str);
	g_string_free(s, TRUE);
	return out;
}

char *mail_format_text(const char *name, const char *value)
{
	char *encoded = g_mime_utils_header_encode_text(NULL, value, "UTF-8");
	char *header = g_strdup_printf("%s: %s", name, encoded);
	char *folded = g_mime_utils_unstructured_header_fold(NULL, NULL, header);
	struct buf out = BUF_INIT;
	buf_addstr(&out, folded);
	if (!out.len || out.data[out.len - 1] != '\n')
		buf_addch(&out, '\n');
	g_free(encoded);
	g_free(header);
	g_free(folded);
	return buf_detach(&out, NULL);
}

void mail_parse_addresses(struct address_list *list, const char *value)
{
	InternetAddressList *ial = internet_address_list_parse(NULL, value);
	collect_addresses(list, ial);
	if (ial)
		g_object_unref(ial);
}
