/*
 * headers.c: the reply's header block: To the author, Cc the rest without
 * you, one "Re: " without list tags, threading by In-Reply-To and
 * References, a Date.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/str.h"
#include "draft/headers.h"
#include "patch/subject.h"

static bool same_addr(const struct address *a, const char *addr)
{
	return addr && !strcasecmp(a->addr, addr);
}

static bool address_listed(const struct address_list *l, const char *addr)
{
	for (size_t i = 0; i < l->n; i++)
		if (same_addr(&l->v[i], addr))
			return true;
	return false;
}

static void add_unique(struct address_list *l, const struct address *a,
		       const struct address_list *skip1, const struct address_list *skip2)
{
	if (address_listed(l, a->addr) || address_listed(skip1, a->addr) ||
	    address_listed(skip2, a->addr))
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].name = a->name ? xstrdup(a->name) : NULL;
	l->v[l->n].addr = xstrdup(a->addr);
	l->n++;
}

static void put_header(FILE *out, char *line)
{
	fputs(line, out);
	free(line);
}

time_t draft_now(void)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	return epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
}

static void put_date(FILE *out, time_t when)
{
	char date[64];
	struct tm tm;
	if (getenv("SOURCE_DATE_EPOCH"))
		gmtime_r(&when, &tm);
	else
		localtime_r(&when, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S %z", &tm);
	fprintf(out, "Date: %s\n", date);
}

/* You: the from address and the me list, like mutt's $from and $alternates. */
static void parse_me(struct address_list *me, const struct config *c)
{
	if (c->from)
		mail_parse_addresses(me, c->from);
	if (c->me)
		mail_parse_addresses(me, c->me);
}

/*
 * A Reply-To that a list set (many lists munge it to themselves): every
 * address in it is the list's List-Post address, or already in To or Cc.
 */
static bool reply_to_is_list(const struct mail *m)
{
	for (size_t i = 0; i < m->reply_to.n; i++) {
		const char *addr = m->reply_to.v[i].addr;
		if (!(m->list_post && !strcasecmp(addr, m->list_post)) &&
		    !address_listed(&m->to, addr) && !address_listed(&m->cc, addr))
			return false;
	}
	return true;
}

/*
 * Who the review goes to: the author in To and the rest in Cc, without
 * you. Mail-Followup-To, where present, names them all; a Reply-To that
 * names someone other than a list takes the author's place.
 */
static void recipients(const struct mail *m, const struct address_list *me,
		       struct address_list *to, struct address_list *cc)
{
	const struct address_list *lists[] = { &m->reply_to, &m->to, &m->cc };
	if (m->followup_to.n) {
		for (size_t i = 0; i < m->followup_to.n; i++)
			add_unique(to, &m->followup_to.v[i], me, me);
		return;
	}
	bool list = m->reply_to.n && reply_to_is_list(m);
	const struct address_list *author = m->reply_to.n && !list ? &m->reply_to : &m->from;
	for (size_t i = 0; i < author->n; i++)
		add_unique(to, &author->v[i], me, me);
	for (size_t k = list ? 0 : 1; k < sizeof(lists) / sizeof(*lists); k++)
		for (size_t i = 0; i < lists[k]->n; i++)
			add_unique(cc, &lists[k]->v[i], me, to);
}

void draft_headers(FILE *out, const struct mail *m, const struct config *c, time_t when)
{
	struct address_list me = { 0 }, from = { 0 }, to = { 0 }, cc = { 0 };
	parse_me(&me, c);
	if (c->from)
		mail_parse_addresses(&from, c->from);
	if (from.n)
		put_header(out, mail_format_addresses("From", from.v, 1));
	recipients(m, &me, &to, &cc);
	if (to.n)
		put_header(out, mail_format_addresses("To", to.v, to.n));
	if (cc.n)
		put_header(out, mail_format_addresses("Cc", cc.v, cc.n));
	struct buf subject = BUF_INIT;
	buf_addstr(&subject, "Re: ");
	buf_addstr(&subject, subject_reply_base(m->subject));
	put_header(out, mail_format_text("Subject", subject.data));
	buf_release(&subject);
	if (m->message_id)
		fprintf(out, "In-Reply-To: <%s>\n", m->message_id);
	if (m->nreferences || m->message_id) {
		fputs("References:", out);
		for (size_t i = 0; i < m->nreferences; i++)
			fprintf(out, " <%s>\n", m->references[i]);
		if (m->message_id)
			fprintf(out, " <%s>\n", m->message_id);
	}
	put_date(out, when);
	if (c->mutt && m->message_id)
		fprintf(out, "X-Mutt-References: <%s>\n", m->message_id);
	address_list_release(&me);
	address_list_release(&from);
	address_list_release(&to);
	address_list_release(&cc);
}

void draft_headers_end(FILE *out)
{
	fputs("MIME-Version: 1.0\n"
	      "Content-Type: text/plain; charset=UTF-8\n"
	      "Content-Transfer-Encoding: 8bit\n\n", out);
}
