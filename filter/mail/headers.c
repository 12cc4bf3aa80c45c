/*
 * headers.c: the header fields a reply needs, decoded (RFC 2047) and
 * cleaned into one-line UTF-8.
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/text.h"
#include "mail/headers.h"

static char *clean_header(const char *value)
{
	return value ? text_clean_dup(value, TEXT_ONE_LINE) : NULL;
}

/*
 * Can s go into a header as it is: 1 to max bytes of printable ASCII, no
 * blanks, no angle brackets? A message id or an address that cannot is
 * dropped, never repaired into one that names another message or person.
 */
static bool header_token(const char *s, size_t max)
{
	return s && text_is_token(s, strlen(s), max);
}

/* An addr-spec cannot be RFC 2047-encoded: one that is not ASCII is left out. */
static void add_address(struct address_list *list, InternetAddressMailbox *mb)
{
	const char *addr = internet_address_mailbox_get_addr(mb);
	const char *name = internet_address_get_name(INTERNET_ADDRESS(mb));
	if (!header_token(addr, MAIL_MAX_ADDRESS_BYTES))
		return;
	if (list->n % 64 == 0)
		list->v = xrealloc(list->v, (list->n + 64) * sizeof(*list->v));
	list->v[list->n].addr = clean_header(addr);
	list->v[list->n].name = name && *name ? clean_header(name) : NULL;
	list->n++;
}

/* Up to MAIL_MAX_ADDRESSES in list; returns true when some were left out. */
static bool collect_addresses(struct address_list *list, InternetAddressList *ial)
{
	int n = ial ? internet_address_list_length(ial) : 0;
	for (int i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(ial, i);
		if (list->n == MAIL_MAX_ADDRESSES)
			return true;
		if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			add_address(list, INTERNET_ADDRESS_MAILBOX(ia));
		else if (INTERNET_ADDRESS_IS_GROUP(ia) && collect_addresses(list,
				internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia))))
			return true;
	}
	return false;
}

/* A message id as the reply's In-Reply-To and References may carry it; caller frees. */
static char *clean_message_id(const char *id)
{
	return header_token(id, TEXT_MAX_MESSAGE_ID) ? xstrdup(id) : NULL;
}

static void add_references(struct mail *m, const char *value)
{
	GMimeReferences *refs = value ? g_mime_references_parse(NULL, value) : NULL;
	int n = refs ? g_mime_references_length(refs) : 0;
	for (int i = 0; i < n; i++) {
		char *id = clean_message_id(g_mime_references_get_message_id(refs, i));
		if (!id)
			continue;
		if (m->nreferences % 64 == 0)
			m->references = xrealloc(m->references,
						 (m->nreferences + 64) * sizeof(*m->references));
		m->references[m->nreferences++] = id;
	}
	if (refs)
		g_mime_references_free(refs);
	/* A long chain keeps its root and its newest ids, as mail clients trim it. */
	size_t extra = m->nreferences > MAIL_MAX_REFERENCES ? m->nreferences - MAIL_MAX_REFERENCES : 0;
	for (size_t i = 1; i <= extra; i++)
		free(m->references[i]);
	if (extra)
		memmove(m->references + 1, m->references + 1 + extra,
			(MAIL_MAX_REFERENCES - 1) * sizeof(*m->references));
	m->nreferences -= extra;
}

/* "<mailto:list@example.org>" (maybe "?subject=..." after it) -> the address. */
static char *list_post_address(const char *value)
{
	const char *p = value ? strstr(value, "mailto:") : NULL;
	if (!p)
		return NULL;
	p += 7;
	size_t n = strcspn(p, ">?, \t");
	char *addr = n ? xstrndup(p, n) : NULL;
	char *clean = addr ? clean_header(addr) : NULL;
	free(addr);
	return clean;
}

void mail_read_headers(struct mail *m, GMimeMessage *msg)
{
	GMimeObject *obj = GMIME_OBJECT(msg);
	bool cut = collect_addresses(&m->from, g_mime_message_get_from(msg));
	cut |= collect_addresses(&m->reply_to, g_mime_message_get_reply_to(msg));
	cut |= collect_addresses(&m->to, g_mime_message_get_to(msg));
	cut |= collect_addresses(&m->cc, g_mime_message_get_cc(msg));
	if (cut)
		m->cuts |= MAIL_CUT_ADDRESSES;
	const char *mft = g_mime_object_get_header(obj, "Mail-Followup-To");
	if (mft)
		mail_parse_addresses(&m->followup_to, mft);
	m->list_post = list_post_address(g_mime_object_get_header(obj, "List-Post"));
	const char *subject = g_mime_message_get_subject(msg);
	m->subject = text_clean_dup(subject ? subject : "", TEXT_ONE_LINE);
	g_strstrip(m->subject);
	m->date = clean_header(g_mime_object_get_header(obj, "Date"));
	if (m->date)
		g_strstrip(m->date);
	/* The first Message-ID header, as other tools read it; not an empty one. */
	const char *msgid = g_mime_object_get_header(obj, "Message-ID");
	char *id = msgid ? g_mime_utils_decode_message_id(msgid) : NULL;
	if (id && *id) {
		m->message_id = clean_message_id(id);
		if (!m->message_id)
			warn("the Message-ID is malformed; the reply will not name it");
	}
	g_free(id);
	m->fingerprints = clean_header(g_mime_object_get_header(obj, MAIL_FINGERPRINTS_HEADER));
	const char *irt = g_mime_object_get_header(obj, "In-Reply-To");
	GMimeReferences *parent = irt ? g_mime_references_parse(NULL, irt) : NULL;
	if (parent && g_mime_references_length(parent) > 0)
		m->in_reply_to = clean_message_id(g_mime_references_get_message_id(parent, 0));
	if (parent)
		g_mime_references_free(parent);
	/* A reply's References: the parent's References, else its In-Reply-To. */
	const char *refs = g_mime_object_get_header(obj, "References");
	add_references(m, refs ? refs : g_mime_object_get_header(obj, "In-Reply-To"));
}


void mail_parse_addresses(struct address_list *list, const char *value)
{
	InternetAddressList *ial = internet_address_list_parse(NULL, value);
	collect_addresses(list, ial);
	if (ial)
		g_object_unref(ial);
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
