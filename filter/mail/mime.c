/*
 * mime.c: the MIME walk. The first inline text/plain part is the body;
 * every other textual part that carries a diff is appended to it. Parts
 * are decoded, converted to UTF-8 and cleaned.
 */
#include <string.h>

#include "base/msg.h"
#include "base/text.h"
#include "mail/crlf.h"
#include "mail/mime.h"
#include "patch/start.h"

/* Where the text parts go while the MIME tree is walked. */
struct collect {
	struct buf body;	/* the first inline text/plain part */
	bool have_body;
	bool body_diff;		/* ... holds a diff */
	bool body_flowed;
	bool body_crlf;
	struct buf extra;	/* other parts that carry a diff */
	bool extra_flowed;
	bool extra_crlf;
	bool too_deep;		/* parts past MAIL_MAX_DEPTH were left unread */
};

static char *convert(const char *data, size_t len, const char *from, gsize *written)
{
	return g_convert(data, (gssize)len, "UTF-8", from, NULL, written, NULL);
}

static bool is_utf8_name(const char *charset)
{
	return !g_ascii_strcasecmp(charset, "utf-8") || !g_ascii_strcasecmp(charset, "utf8") ||
	       !g_ascii_strcasecmp(charset, "us-ascii");
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
 * ASCII without NUL, which g_utf8_validate() would pass. Lines are cleaned
 * apart or together alike: each but the last ends in a newline, which
 * text_clean() keeps and which ends a run of U+FFFD.
 */
static bool ascii_line(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)(s[i] - 1) >= 0x7f)
			return false;
	return true;
}

/*
 * Converts decoded part content to UTF-8. Declared charsets are often
 * wrong or made up ("Y", "x-unknown"), and patches mix encodings: text
 * that fails to convert is taken line by line, valid UTF-8 as it is and
 * anything else as windows-1252. text_clean() catches what is left.
 */
void mail_append_utf8(struct buf *out, const char *data, size_t len,
		      const char *charset)
{
	gsize written = 0;
	bool declared_utf8 = !charset || is_utf8_name(charset);
	char *converted = declared_utf8 ? NULL :
		convert(data, len, g_mime_charset_iconv_name(charset), &written);
	if (converted) {
		text_clean(out, converted, written, TEXT_KEEP_CR);
		g_free(converted);
		return;
	}
	/* A run of ASCII lines is valid UTF-8 as it is: cleaned in one call. */
	const char *p = data, *end = data + len, *run = data;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		if (!ascii_line(p, n)) {
			text_clean(out, run, (size_t)(p - run), TEXT_KEEP_CR);
			if (g_utf8_validate(p, (gssize)n, NULL))
				text_clean(out, p, n, TEXT_KEEP_CR);
			else
				append_legacy(out, p, n);
			run = p + n;
		}
		p += n;
	}
	text_clean(out, run, (size_t)(end - run), TEXT_KEEP_CR);
}

/*
 * The charset of a part: a byte order mark says it best (Windows tools
 * write patches in UTF-16 with one), then the declared one, then UTF-16
 * text that has no mark but NUL in every other byte. NULL: UTF-8 or unknown.
 */
static const char *part_charset(const GByteArray *arr, const char *declared)
{
	const guint8 *d = arr->data;
	if (arr->len >= 2 && d[0] == 0xff && d[1] == 0xfe)
		return "UTF-16LE";
	if (arr->len >= 2 && d[0] == 0xfe && d[1] == 0xff)
		return "UTF-16BE";
	if (arr->len >= 3 && d[0] == 0xef && d[1] == 0xbb && d[2] == 0xbf)
		return NULL;
	if (declared && !is_utf8_name(declared))
		return declared;
	size_t n = arr->len < 64 ? arr->len & ~(size_t)1 : 64;
	size_t odd = 0, even = 0;
	for (size_t i = 0; i < n; i += 2) {
		even += !d[i];
		odd += !d[i + 1];
	}
	if (n >= 4 && odd == n / 2 && !even)
		return "UTF-16LE";
	if (n >= 4 && even == n / 2 && !odd)
		return "UTF-16BE";
	return NULL;
}

/*
 * Converts a part's content to UTF-8 in place, so that the tests for a
 * diff, for binary data and for CR LF lines see text, whatever charset it
 * came in; a byte order mark is dropped. Content that does not convert is
 * left as it is, for mail_append_utf8() to take line by line.
 */
static void to_utf8(GByteArray *arr, const char *declared)
{
	const char *charset = part_charset(arr, declared);
	gsize written = 0;
	char *converted = charset ? convert((const char *)arr->data, arr->len,
					    g_mime_charset_iconv_name(charset), &written) : NULL;
	if (converted) {
		g_byte_array_set_size(arr, 0);
		g_byte_array_append(arr, (const guint8 *)converted, (guint)written);
		g_free(converted);
	}
	if (arr->len >= 3 && !memcmp(arr->data, "\xef\xbb\xbf", 3))
		g_byte_array_remove_range(arr, 0, 3);
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
	mail_crlf_to_lf(arr);
	return true;
}

/*
 * Can raw be content in that encoding? Base64 is its alphabet and white
 * space; quoted-printable is 7-bit with every '=' opening a hex pair or a
 * soft line break (an encoder writes '=' itself as "=3D").
 */
static bool can_be_encoded(const GByteArray *raw, GMimeContentEncoding enc)
{
	const guint8 *d = raw->data;
	for (guint i = 0; i < raw->len; i++) {
		if (enc == GMIME_CONTENT_ENCODING_BASE64) {
			if (!g_ascii_isalnum(d[i]) && !strchr("+/= \t\r\n", d[i]))
				return false;
		} else if (d[i] >= 0x80) {
			return false;
		} else if (d[i] == '=') {
			guint j = i + 1;
			while (j < raw->len && (d[j] == ' ' || d[j] == '\t'))
				j++;
			bool soft = j == raw->len || d[j] == '\n' || (d[j] == '\r' && j + 1 < raw->len &&
							       d[j + 1] == '\n');
			bool hex = i + 2 < raw->len && g_ascii_isxdigit(d[i + 1]) &&
				   g_ascii_isxdigit(d[i + 2]);
			if (!soft && !hex)
				return false;
		}
	}
	return true;
}

static GByteArray *write_out(GMimeDataWrapper *content, bool decode)
{
	GMimeStream *mem = g_mime_stream_mem_new();
	if (decode) {
		g_mime_data_wrapper_write_to_stream(content, mem);
	} else {
		GMimeStream *raw = g_mime_data_wrapper_get_stream(content);
		g_mime_stream_reset(raw);
		g_mime_stream_write_to_stream(raw, mem);
	}
	GByteArray *arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
	g_object_unref(mem);
	return arr;
}

/*
 * The part's content, decoded. b4 hands its check commands a message whose
 * body it already decoded under the original Content-Transfer-Encoding
 * (and some mailers send such mail): content that cannot be base64 or
 * quoted-printable is taken as it is rather than decoded into garbage.
 */
static GByteArray *decode_part(GMimePart *part)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	if (!content)
		return NULL;
	GMimeContentEncoding enc = g_mime_data_wrapper_get_encoding(content);
	if (enc != GMIME_CONTENT_ENCODING_BASE64 && enc != GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE)
		return write_out(content, true);
	GByteArray *raw = write_out(content, false);
	if (can_be_encoded(raw, enc)) {
		g_byte_array_unref(raw);
		return write_out(content, true);
	}
	return raw;
}


/* Does this text hold a unified diff? Looks for a line that starts one. */
static bool has_diff(const char *s, size_t len)
{
	const char *end = s + len;
	for (const char *p = s; p < end;) {
		struct line_view v[3];
		size_t n = 0;
		for (const char *q = p; n < 3 && q < end; n++) {
			const char *nl = memchr(q, '\n', (size_t)(end - q));
			v[n] = (struct line_view){ q, nl ? (size_t)(nl - q) : (size_t)(end - q) };
			q = nl ? nl + 1 : end;
		}
		if (patch_starts_file(v, n))
			return true;
		p += v[0].len + 1;
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
	if (raw && raw->len)
		to_utf8(raw, g_mime_content_type_get_parameter(ct, "charset"));
	if (!raw || !raw->len) {
		if (raw)
			g_byte_array_unref(raw);
		return;
	}
	bool crlf = canonical_crlf_to_lf(raw);
	const char *format = g_mime_content_type_get_parameter(ct, "format");
	bool flowed = format && !g_ascii_strcasecmp(format, "flowed");
	bool plain = g_mime_content_type_is_type(ct, "text", "plain") &&
		     !g_mime_part_is_attachment(part);
	const char *data = (const char *)raw->data;
	bool binary = memchr(data, '\0', raw->len < 8192 ? raw->len : 8192) != NULL &&
		      !plain;
	if (!c->have_body && plain) {
		mail_append_utf8(&c->body, data, raw->len, NULL);
		c->have_body = true;
		c->body_diff = has_diff(data, raw->len);
		c->body_flowed = flowed;
		c->body_crlf = crlf;
	} else if (!binary && has_diff(data, raw->len)) {
		if (c->extra.len && c->extra.data[c->extra.len - 1] != '\n')
			buf_addch(&c->extra, '\n');
		mail_append_utf8(&c->extra, data, raw->len, NULL);
		c->extra_flowed |= flowed;
		c->extra_crlf |= crlf;
	}
	g_byte_array_unref(raw);
}

static void walk(struct collect *c, GMimeObject *obj, int depth)
{
	c->too_deep |= obj && depth > MAIL_MAX_DEPTH;
	if (!obj || depth > MAIL_MAX_DEPTH)
		return;
	if (GMIME_IS_MULTIPART(obj) && !g_mime_multipart_get_count(GMIME_MULTIPART(obj))) {
		/* No boundary in it: b4 0.15+ sends its check commands the patch text so. */
		const char *prologue = g_mime_multipart_get_prologue(GMIME_MULTIPART(obj));
		if (prologue && !c->have_body) {
			mail_append_utf8(&c->body, prologue, strlen(prologue), NULL);
			c->have_body = true;
		}
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
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

void mail_read_body(struct mail *m, GMimeMessage *msg)
{
	struct collect c = { .body = BUF_INIT, .extra = BUF_INIT };
	walk(&c, g_mime_message_get_mime_part(msg), 0);
	if (c.too_deep)
		m->cuts |= MAIL_CUT_DEEP;
	/*
	 * A part that carries a diff is the patch: a diff in the body is then
	 * an older version quoted or pasted in a reply, and is left as text.
	 * The mailer's damage is reported from the part that holds the diff.
	 */
	if (c.extra.len) {
		if (c.body.len && c.body.data[c.body.len - 1] != '\n')
			buf_addch(&c.body, '\n');
		m->patch_offset = c.body.len;
		buf_add(&c.body, c.extra.data, c.extra.len);
		m->flowed = c.extra_flowed;
		m->crlf = c.extra_crlf;
	} else {
		m->flowed = c.body_diff && c.body_flowed;
		m->crlf = c.body_diff && c.body_crlf;
	}
	buf_release(&c.extra);
	m->text = buf_detach(&c.body, &m->text_len);
}


