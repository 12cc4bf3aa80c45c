/*
 * headers.c: the reply's header block: To the author, Cc the rest without
 * you, one "Re: ", threading by In-Reply-To and References, a Date.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/str.h"
#include "draft/headers.h"

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

static void put_date(FILE *out)
{
	char date[64];
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t now = epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
	struct tm tm;
	if (epoch)
		gmtime_r(&now, &tm);
	else
		localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S %z", &tm);
	fprintf(out, "Date: %s\n", date);
}

void draft_headers(FILE *out, const struct mail *m, const struct config *c)
{
	struct address_list me = { 0 }, to = { 0 }, cc = { 0 };
	if (c->from) {
		mail_parse_addresses(&me, c->from);
		if (me.n)
			put_header(out, mail_format_addresses("From", me.v, me.n));
	}
	const struct address_list *src = m->reply_to.n ? &m->reply_to : &m->from;
	for (size_t i = 0; i < src->n; i++)
		add_unique(&to, &src->v[i], &me, &me);
	for (size_t i = 0; i < m->to.n; i++)
		add_unique(&cc, &m->to.v[i], &me, &to);
	for (size_t i = 0; i < m->cc.n; i++)
		add_unique(&cc, &m->cc.v[i], &me, &to);
	if (to.n)
		put_header(out, mail_format_addresses("To", to.v, to.n));
	if (cc.n)
		put_header(out, mail_format_addresses("Cc", cc.v, cc.n));
	/* "Re: " once, whatever case or spacing the original used. */
	struct buf subject = BUF_INIT;
	const char *rest = m->subject;
	if (starts_with_nocase(rest, "re:"))
		rest += 3 + strspn(rest + 3, " ");
	buf_addstr(&subject, "Re: ");
	buf_addstr(&subject, rest);
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
	put_date(out);
	if (c->mutt && m->message_id)
		fprintf(out, "X-Mutt-References: <%s>\n", m->message_id);
	fputs("MIME-Version: 1.0\n"
	      "Content-Type: text/plain; charset=UTF-8\n"
	      "Content-Transfer-Encoding: 8bit\n\n", out);
	address_list_release(&me);
	address_list_release(&to);
	address_list_release(&cc);
}
