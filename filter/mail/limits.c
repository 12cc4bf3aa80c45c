/*
 * limits.c: keeps a hostile input's structure within bounds before GMime
 * builds objects for it (about 2 KB a MIME part, 500 bytes a header): at
 * most MAIL_MAX_PARTS parts (boundary lines that open one), MAIL_MAX_HEADERS
 * fields a header block, none longer than MAIL_MAX_HEADER_BYTES. One pass, in place; an
 * input within the limits is left exactly as it was.
 */
#include <string.h>

#include "base/msg.h"
#include "mail/limits.h"
#include "mail/mail.h"

/* Boundaries remembered; a mail declaring more gets its later ones uncounted. */
#define MAX_BOUNDARIES 64

struct scan {
	guint8 *data;
	size_t w;		/* write offset: data[0, w) is the kept input */
	char *boundary[MAX_BOUNDARIES];
	size_t nboundaries;
	bool in_header;		/* in a header block */
	bool nested;		/* the block's part is a message/rfc822: headers follow it */
	size_t fields;		/* in this header block */
	size_t field_at;	/* write offset of the current field */
	bool field_dropped;
	bool field_open;
	size_t parts;
	unsigned cuts;		/* enum mail_cut bits */
};

static size_t text_len(const guint8 *s, size_t len)
{
	return len && s[len - 1] == '\r' ? len - 1 : len;
}

/* "Name:" with a name of printable ASCII, as a header field starts. */
static bool is_field(const guint8 *s, size_t len)
{
	size_t i = 0;
	while (i < len && s[i] > ' ' && s[i] < 0x7f && s[i] != ':')
		i++;
	return i && i < len && s[i] == ':';
}

static const guint8 *find_nocase(const guint8 *s, size_t len, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; i + n <= len; i++)
		if (g_ascii_tolower(s[i]) == word[0] &&
		    !g_ascii_strncasecmp((const char *)s + i, word, n))
			return s + i;
	return NULL;
}

/* A Content-Type field just ended at the write offset: its boundary, and whether it is a message. */
static void read_content_type(struct scan *sc)
{
	const guint8 *f = sc->data + sc->field_at;
	size_t len = sc->w - sc->field_at;
	if (len < 13 || g_ascii_strncasecmp((const char *)f, "Content-Type:", 13))
		return;
	sc->nested |= find_nocase(f, len, "message/rfc822") != NULL;
	const guint8 *b = find_nocase(f, len, "boundary=");
	if (!b || sc->nboundaries == MAX_BOUNDARIES)
		return;
	b += 9;
	size_t left = len - (size_t)(b - f);
	bool quoted = left && *b == '"';
	b += quoted, left -= quoted;
	size_t n = 0;
	while (n < left && (quoted ? b[n] != '"' : !strchr(" \t\r\n;", b[n])))
		n++;
	if (n)
		sc->boundary[sc->nboundaries++] = xstrndup((const char *)b, n);
}

static void end_field(struct scan *sc)
{
	if (sc->field_open && !sc->field_dropped)
		read_content_type(sc);
	sc->field_open = false;
}

static void keep(struct scan *sc, const guint8 *line, size_t len)
{
	if (sc->data + sc->w != line)
		memmove(sc->data + sc->w, line, len);
	sc->w += len;
}

static void start_block(struct scan *sc, bool header)
{
	sc->in_header = header;
	sc->nested = false;
	sc->fields = 0;
}

/* One line of a header block, its newline included in len, its text n bytes. */
static void header_line(struct scan *sc, const guint8 *line, size_t len, size_t n)
{
	bool continued = n && (*line == ' ' || *line == '\t');
	if (!continued)
		end_field(sc);
	if (!n || (!continued && !is_field(line, n))) {
		keep(sc, line, len);
		/* An mbox "From " line opens a block; other text ends it, as GMime reads it. */
		if (n >= 5 && !sc->fields && !memcmp(line, "From ", 5))
			return;
		start_block(sc, !n && sc->nested);
		return;
	}
	if (!continued) {
		sc->field_open = true;
		sc->field_at = sc->w;
		sc->field_dropped = ++sc->fields > MAIL_MAX_HEADERS;
		if (sc->field_dropped)
			sc->cuts |= MAIL_CUT_HEADERS;
	}
	if (sc->field_dropped)
		return;
	keep(sc, line, len);
	if (sc->w - sc->field_at > MAIL_MAX_HEADER_BYTES) {
		sc->w = sc->field_at;
		sc->field_dropped = true;
		sc->cuts |= MAIL_CUT_LONG_HEADER;
	}
}

enum { NOT_DELIMITER, OPENS_PART, CLOSES_PARTS };

/* Is the line "--boundary" (or "--boundary--") for a boundary declared so far? */
static int delimiter(const struct scan *sc, const guint8 *line, size_t len)
{
	if (len < 3 || line[0] != '-' || line[1] != '-')
		return NOT_DELIMITER;
	for (size_t i = 0; i < sc->nboundaries; i++) {
		size_t n = strlen(sc->boundary[i]);
		if (len - 2 >= n && !memcmp(line + 2, sc->boundary[i], n))
			return len - 2 - n >= 2 && !memcmp(line + 2 + n, "--", 2) ?
				CLOSES_PARTS : OPENS_PART;
	}
	return NOT_DELIMITER;
}

unsigned mail_limit(GByteArray *arr)
{
	struct scan sc = { .data = arr->data, .in_header = true };
	bool mbox = arr->len > 5 && !memcmp(arr->data, "From ", 5), blank = true;
	const guint8 *p = arr->data, *end = arr->data + arr->len;
	while (p < end) {
		const guint8 *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
		size_t n = text_len(p, len - (nl != NULL));
		int d = delimiter(&sc, p, n);
		if (d == OPENS_PART && ++sc.parts > MAIL_MAX_PARTS) {
			sc.cuts |= MAIL_CUT_PARTS;
			break;
		}
		if (d) {
			end_field(&sc);
			keep(&sc, p, len);
			start_block(&sc, d == OPENS_PART);	/* the part's headers follow */
		} else if (sc.in_header) {
			header_line(&sc, p, len, n);
		} else {
			keep(&sc, p, len);
			if (mbox && blank && n >= 5 && !memcmp(p, "From ", 5))
				start_block(&sc, true);
		}
		blank = !n;
		p += len;
	}
	end_field(&sc);
	for (size_t i = 0; i < sc.nboundaries; i++)
		free(sc.boundary[i]);
	if (sc.cuts)
		g_byte_array_set_size(arr, (guint)sc.w);
	return sc.cuts;
}

void mail_cut_note(struct buf *out, unsigned cut)
{
	if (cut == MAIL_CUT_PARTS)
		buf_addf(out, "the mail has more than %d MIME parts; the rest was not read",
			 MAIL_MAX_PARTS);
	else if (cut == MAIL_CUT_HEADERS)
		buf_addf(out, "a header block has more than %d fields; the rest were not "
			 "read", MAIL_MAX_HEADERS);
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
