/* mail.h: the raw message on stdin, parsed (by GMime, in mail/ only) into plain UTF-8 fields. */
#ifndef MAIL_H
#define MAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/strvec.h"

struct address {
	char *name;	/* UTF-8 display name, or NULL */
	char *addr;	/* addr-spec, e.g. "jane@example.org"; printable ASCII */
};

struct address_list {
	struct address *v;
	size_t n;
};

struct mail {
	struct address_list from, reply_to, to, cc;
	struct address_list followup_to;	/* Mail-Followup-To */
	char *list_post;	/* the address of List-Post: <mailto:...>, or NULL */
	char *subject;		/* UTF-8, unfolded, never NULL */
	char *date;		/* the Date header as sent, or NULL */
	char *message_id;	/* without angle brackets, or NULL; printable ASCII */
	char *in_reply_to;	/* the first id of In-Reply-To, or NULL; printable ASCII */
	char **references;	/* message ids without brackets; printable ASCII */
	size_t nreferences;
	/* A draft of patchreview's: its MAIL_FINGERPRINTS_HEADER, cleaned, or NULL. */
	char *fingerprints;
	/*
	 * The text to review and quote: the first inline text part, then every
	 * other part that carries a diff, decoded and converted to UTF-8.
	 * NUL-terminated; text_len excludes the NUL.
	 */
	char *text;
	size_t text_len;
	/*
	 * Where the patch begins in text: 0 for an inline patch, else the
	 * start of the attachment that carries it, so that a diff the body
	 * pastes (an older version, say) is not taken for the patch.
	 */
	size_t patch_offset;
	bool flowed;		/* the part carrying the diff was format=flowed */
	bool crlf;		/* ... or had CR LF line ends throughout (taken as LF) */
	unsigned cuts;		/* enum mail_cut: the limits the input went past */
};

/* Every message of the input, in order. */
struct mail_list {
	struct mail *v;
	size_t n;
	struct strvec skipped;	/* a line for each message left out past a limit */
};

/*
 * The header field in which a draft names its findings' fingerprints
 * (draft/bookkeeping.c writes it; patchreview learn and dismiss read it
 * back). Every X-Patchreview- field is for the maintainer alone, and
 * contrib/learn/patchreview-sendmail removes them all before sending.
 */
#define MAIL_FINGERPRINTS_HEADER "X-Patchreview-Fingerprints"
/* ... or, with fingerprints = line, the line at the end of the draft that starts so. */
#define MAIL_FINGERPRINTS_LINE "[patchreview-fingerprints:"

/* Largest input read, in bytes; anything longer is refused. */
#define MAIL_MAX_INPUT ((size_t)256 << 20)
/* Ids kept of a long References chain: the first, and the last ones. */
#define MAIL_MAX_REFERENCES 30
/* Addresses read from one header (To, Cc...), and an address's longest addr-spec. */
#define MAIL_MAX_ADDRESSES 500
#define MAIL_MAX_ADDRESS_BYTES 254
/*
 * What GMime is given of one message (mail/limits.c): MIME parts, header
 * fields in all, header fields in one header block, bytes in one field.
 */
#define MAIL_MAX_PARTS 1000
#define MAIL_MAX_FIELDS 10000
#define MAIL_MAX_HEADERS 1000
#define MAIL_MAX_HEADER_BYTES ((size_t)64 << 10)
/* MIME nesting read for the text; GMime itself parses 1024 levels. */
#define MAIL_MAX_DEPTH 32

/* The limits an input can go past; past each, the rest is left out, with a note. */
enum mail_cut {
	MAIL_CUT_PARTS = 1 << 0,	/* the input is cut where the part past the limit opens */
	MAIL_CUT_HEADERS = 1 << 1,	/* fields past the limit are dropped */
	MAIL_CUT_LONG_HEADER = 1 << 2,	/* a field too long is dropped */
	MAIL_CUT_DEEP = 1 << 3,		/* parts nested deeper are not read */
	MAIL_CUT_ADDRESSES = 1 << 4,	/* addresses past the limit are not read */
	MAIL_CUT_FIELDS = 1 << 5,	/* fields past the limit for a message are dropped */
};

/*
 * The limits on what GMime is given: past one, a message of several (an
 * mbox, a series) is skipped, with a note, and the others are reviewed.
 */
#define MAIL_CUTS_SKIP (MAIL_CUT_PARTS | MAIL_CUT_HEADERS | MAIL_CUT_LONG_HEADER | MAIL_CUT_FIELDS)

/* Appends the sentence for one enum mail_cut bit, for the draft's note and stderr. */
void mail_cut_note(struct buf *out, unsigned cut);

/* Around everything else: GMime's global state. */
void mail_init(void);
void mail_shutdown(void);

/*
 * Reads every message on fd into *list. Input that begins with an mbox
 * "From " line is an mbox (mboxrd ">From " lines unescaped; a "From " line
 * that does not start a delivered mail does not end one); input with
 * lines of four Ctrl-A is the messages between them (mutt's $pipe_sep),
 * each one message or an mbox; anything else is one message. Of several
 * messages, one past a limit of MAIL_CUTS_SKIP is left out: one line on
 * stderr, and the same in list->skipped for the drafts. Returns 0 with
 * list->n >= 1, or -1 (with one line on stderr) when nothing usable could
 * be read.
 */
int mail_read_all(int fd, struct mail_list *list);
/* The same for the len bytes at data (of a folder: mail/folder.h), copied. */
int mail_read_bytes(const char *data, size_t len, struct mail_list *list);

/*
 * One message of len bytes at data (a Maildir file, or an mbox message
 * without its "From " line), parsed within the limits into *m; never
 * fails. For mail read from elsewhere than the input (the list folder).
 */
void mail_parse_text(struct mail *m, const char *data, size_t len);
void mail_list_release(struct mail_list *list);
void mail_release(struct mail *m);

/* The sender: the first From address, or NULL. */
const struct address *mail_author(const struct mail *m);

/* Parses an address header value such as "Jane <jane@example.org>". */
void mail_parse_addresses(struct address_list *list, const char *value);
void address_list_release(struct address_list *list);

/*
 * One header line "Name: value\n", RFC 2047-encoded where the value is not
 * ASCII and folded; caller frees. Values must already be one line.
 */
char *mail_format_addresses(const char *name, const struct address *v, size_t n);
char *mail_format_text(const char *name, const char *value);

#endif
