/*
 * limits.c: keeps a hostile input's structure within bounds before GMime
 * builds objects for it (about 2 KB a MIME part, 500 bytes a header
 * field): in one message at most MAIL_MAX_PARTS parts, MAIL_MAX_FIELDS
 * header fields in all and MAIL_MAX_HEADERS in one header block, none
 * longer than MAIL_MAX_HEADER_BYTES. The structure is read as GMime reads
 * it, or more widely, so that nothing GMime would build goes uncounted: a
 * part opens at every line "--B" (blanks after it allowed) for a boundary
 * B that any Content-Type field before it declares, as GMime's own parser
 * reads the field (quoted, encoded, continued); a header block runs to a
 * blank line or a boundary, and every line of it that does not start with
 * a blank is a field. In an mbox, as GMime splits one, every "From " line
 * starts a message with limits of its own, and the rest of a message past
 * the part limit is dropped, so that the messages after it are read. One
 * pass, in place; an input within the limits is left as it was.
 */
#include <string.h>

#include "base/msg.h"
#include "mail/limits.h"
#include "mail/mail.h"
#include "mail/options.h"

/* The value a boundary has in the set: a multipart/digest's parts are messages by default. */
enum { BOUNDARY_PLAIN = 1, BOUNDARY_DIGEST = 2 };

struct scan {
	guint8 *data;
	size_t w;		/* write offset: data[0, w) is the kept input */
	bool mbox;
	GHashTable *boundaries;	/* declared in this message, blanks at the end dropped */
	GMimeParserOptions *opts;
	struct buf scratch;
	/* The header block being read. */
	bool in_header;
	bool nested;		/* a message/rfc822 (news, global) part: headers follow it */
	bool type_seen;		/* a Content-Type field was read in this block */
	bool encoding_seen;	/* its first Content-Transfer-Encoding was read */
	bool encoded;		/* ... and says base64, quoted-printable or uuencode */
	size_t fields;		/* in this block */
	size_t field_at;	/* write offset of the current field */
	bool field_dropped;
	bool field_open;
	/* The message being read: all of the input, or one of an mbox. */
	size_t message_at;	/* its write offset */
	size_t parts, all_fields;
	unsigned cuts;		/* enum mail_cut bits */
	bool dropping;		/* past the part limit: the rest of the message goes */
	unsigned all_cuts;
	struct mail_cut_marks *marks;
};

static size_t text_len(const guint8 *s, size_t len)
{
	return len && s[len - 1] == '\r' ? len - 1 : len;
}

static bool is_blank(guint8 c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* "Name:" (blanks allowed before the colon, as GMime allows them), in any case. */
static bool is_named(const guint8 *f, size_t len, const char *name)
{
	size_t n = strlen(name), i = n;
	if (len < n || g_ascii_strncasecmp((const char *)f, name, n))
		return false;
	while (i < len && (f[i] == ' ' || f[i] == '\t'))
		i++;
	return i < len && f[i] == ':';
}

/* A field's value, unfolded, into the scratch buffer. */
static const char *field_value(struct scan *sc)
{
	const guint8 *f = sc->data + sc->field_at, *end = sc->data + sc->w;
	const guint8 *colon = memchr(f, ':', (size_t)(end - f));
	buf_reset(&sc->scratch);
	for (const guint8 *p = colon ? colon + 1 : end; p < end; p++)
		if (*p != '\r' && *p != '\n')
			buf_addch(&sc->scratch, (char)*p);
	return sc->scratch.data ? sc->scratch.data : "";
}

static void add_boundary(struct scan *sc, const char *b, int kind)
{
	size_t n = strlen(b);
	while (n && is_blank((guint8)b[n - 1]))
		n--;
	g_hash_table_insert(sc->boundaries, g_strndup(b, n), GINT_TO_POINTER(kind));
}

/* Content-Type as GMime parses it: its boundary, and whether the part is a message. */
static void read_content_type(struct scan *sc)
{
	GMimeContentType *ct = g_mime_content_type_parse(sc->opts, field_value(sc));
	const char *type = g_mime_content_type_get_media_type(ct);
	const char *sub = g_mime_content_type_get_media_subtype(ct);
	const char *boundary = g_mime_content_type_get_parameter(ct, "boundary");
	if (boundary)
		add_boundary(sc, boundary, sub && !g_ascii_strcasecmp(sub, "digest") ?
			     BOUNDARY_DIGEST : BOUNDARY_PLAIN);
	bool message = type && sub && !g_ascii_strcasecmp(type, "message") &&
		(!g_ascii_strcasecmp(sub, "rfc822") || !g_ascii_strcasecmp(sub, "rfc2822") ||
		 !g_ascii_strcasecmp(sub, "global") || !g_ascii_strcasecmp(sub, "news"));
	/* The first says what a digest's part is; with more than one, any may count. */
	sc->nested = sc->type_seen ? sc->nested || message : message;
	sc->type_seen = true;
	g_object_unref(ct);
}

/* GMime reads a message part's content as a message unless its first encoding header encodes it. */
static void read_encoding(struct scan *sc)
{
	if (sc->encoding_seen)
		return;
	sc->encoding_seen = true;
	switch (g_mime_content_encoding_from_string(field_value(sc))) {
	case GMIME_CONTENT_ENCODING_BASE64:
	case GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE:
	case GMIME_CONTENT_ENCODING_UUENCODE:
		sc->encoded = true;
		break;
	default:
		break;
	}
}

static void end_field(struct scan *sc)
{
	if (sc->field_open && !sc->field_dropped) {
		const guint8 *f = sc->data + sc->field_at;
		size_t len = sc->w - sc->field_at;
		if (is_named(f, len, "content-type"))
			read_content_type(sc);
		else if (is_named(f, len, "content-transfer-encoding"))
			read_encoding(sc);
	}
	sc->field_open = false;
}

static void keep(struct scan *sc, const guint8 *line, size_t len)
{
	if (sc->data + sc->w != line)
		memmove(sc->data + sc->w, line, len);
	sc->w += len;
}

static void start_block(struct scan *sc, bool header, bool nested)
{
	sc->in_header = header;
	sc->nested = nested;
	sc->type_seen = sc->encoding_seen = sc->encoded = false;
	sc->fields = 0;
}

static void cut(struct scan *sc, unsigned bit)
{
	sc->cuts |= bit;
	sc->all_cuts |= bit;
}

/* One line of a header block, its newline included in len, its text n bytes. */
static void header_line(struct scan *sc, const guint8 *line, size_t len, size_t n)
{
	bool continued = n && is_blank(*line) && sc->field_open;
	if (!continued)
		end_field(sc);
	if (!n) {
		/* A message part's own header block follows, unless its content is encoded. */
		keep(sc, line, len);
		start_block(sc, sc->nested && !sc->encoded, false);
		return;
	}
	if (!continued) {
		sc->field_open = true;
		sc->field_at = sc->w;
		sc->field_dropped = true;
		if (++sc->all_fields > MAIL_MAX_FIELDS)
			cut(sc, MAIL_CUT_FIELDS);
		else if (++sc->fields > MAIL_MAX_HEADERS)
			cut(sc, MAIL_CUT_HEADERS);
		else
			sc->field_dropped = false;
	}
	if (sc->field_dropped)
		return;
	keep(sc, line, len);
	if (sc->w - sc->field_at > MAIL_MAX_HEADER_BYTES) {
		sc->w = sc->field_at;
		sc->field_dropped = true;
		cut(sc, MAIL_CUT_LONG_HEADER);
	}
}

enum { NOT_DELIMITER, OPENS_PART = 1, CLOSES_PARTS = 2 };

/*
 * Is the line "--B" or "--B--", blanks after it allowed, for a boundary B
 * declared so far? OPENS_PART may come with BOUNDARY_DIGEST in *kind.
 */
static int delimiter(struct scan *sc, const guint8 *line, size_t n, int *kind)
{
	if (n < 2 || line[0] != '-' || line[1] != '-' || !g_hash_table_size(sc->boundaries))
		return NOT_DELIMITER;
	while (n > 2 && is_blank(line[n - 1]))
		n--;
	buf_reset(&sc->scratch);
	buf_add(&sc->scratch, line + 2, n - 2);
	int found = NOT_DELIMITER;
	*kind = GPOINTER_TO_INT(g_hash_table_lookup(sc->boundaries, sc->scratch.data));
	if (*kind)
		found |= OPENS_PART;
	if (n >= 4 && line[n - 1] == '-' && line[n - 2] == '-') {
		sc->scratch.data[n - 4] = '\0';
		if (g_hash_table_lookup(sc->boundaries, sc->scratch.data))
			found |= CLOSES_PARTS;
	}
	return found;
}

/* Ends the message being read (noting where it began if it went past a limit); starts the next. */
static void next_message(struct scan *sc)
{
	end_field(sc);
	if (sc->cuts && sc->marks) {
		struct mail_cut_marks *m = sc->marks;
		m->v = xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
		m->v[m->n++] = (struct mail_cut_mark){ sc->message_at, sc->cuts };
	}
	g_hash_table_remove_all(sc->boundaries);
	sc->message_at = sc->w;
	sc->parts = sc->all_fields = 0;
	sc->cuts = 0;
	sc->dropping = false;
	start_block(sc, true, false);
}

/* One line: n bytes of text, len with its line end. Returns false to stop reading. */
static bool scan_line(struct scan *sc, const guint8 *p, size_t len, size_t n)
{
	if (sc->mbox && n >= 5 && !memcmp(p, "From ", 5))
		next_message(sc);
	else if (sc->dropping)
		return true;
	int kind = 0, d = delimiter(sc, p, n, &kind);
	if ((d & OPENS_PART) && ++sc->parts > MAIL_MAX_PARTS) {
		cut(sc, MAIL_CUT_PARTS);
		end_field(sc);
		/* One message: the input ends here. In an mbox, the next message goes on. */
		sc->dropping = true;
		return sc->mbox;
	}
	if (d) {
		end_field(sc);
		keep(sc, p, len);
		/* A part's headers follow; a digest's part is a message unless they say otherwise. */
		start_block(sc, d & OPENS_PART, kind == BOUNDARY_DIGEST);
	} else if (sc->in_header) {
		header_line(sc, p, len, n);
	} else {
		keep(sc, p, len);
	}
	return true;
}

unsigned mail_limit(GByteArray *arr, bool mbox, struct mail_cut_marks *marks)
{
	struct scan sc = {
		.data = arr->data, .mbox = mbox, .in_header = true, .marks = marks,
		.boundaries = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
		.opts = mail_parser_options(), .scratch = BUF_INIT,
	};
	const guint8 *p = arr->data, *end = arr->data + arr->len;
	while (p < end) {
		const guint8 *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
		if (!scan_line(&sc, p, len, text_len(p, len - (nl != NULL))))
			break;
		p += len;
	}
	next_message(&sc);
	g_hash_table_destroy(sc.boundaries);
	g_mime_parser_options_free(sc.opts);
	buf_release(&sc.scratch);
	if (sc.all_cuts)
		g_byte_array_set_size(arr, (guint)sc.w);
	return sc.all_cuts;
}

void mail_cut_note(struct buf *out, unsigned cut)
{
	if (cut == MAIL_CUT_PARTS)
		buf_addf(out, "the mail has more than %d MIME parts; the rest was not read",
			 MAIL_MAX_PARTS);
	else if (cut == MAIL_CUT_HEADERS)
		buf_addf(out, "a header block has more than %d fields; the rest were not "
			 "read", MAIL_MAX_HEADERS);
	else if (cut == MAIL_CUT_FIELDS)
		buf_addf(out, "the mail has more than %d header fields in all; the rest were "
			 "not read", MAIL_MAX_FIELDS);
	else if (cut == MAIL_CUT_LONG_HEADER)
		buf_addf(out, "a header field is over %zu KiB long; it was not read",
			 MAIL_MAX_HEADER_BYTES >> 10);
	else if (cut == MAIL_CUT_DEEP)
		buf_addf(out, "MIME parts are nested more than %d deep; the deeper ones "
			 "were not read", MAIL_MAX_DEPTH);
	else if (cut == MAIL_CUT_ADDRESSES)
		buf_addf(out, "a header names more than %d addresses; the rest were not "
			 "read", MAIL_MAX_ADDRESSES);
}
