/*
 * dismiss.c: patchreview dismiss. Records findings the maintainer does not
 * want to see again, named by fingerprint, or picked from a draft on
 * stdin: the record of the mail it answers, or the fingerprints the
 * draft names in patchreview's own hand.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/text.h"
#include "learn/keys.h"
#include "learn/learn.h"
#include "learn/own.h"
#include "learn/record.h"
#include "learn/store.h"
#include "mail/mail.h"
#include "review/fingerprint.h"
#include "review/suppress.h"

static const char dismiss_usage[] =
	"usage: patchreview dismiss [-c FILE] [--reason TEXT] [--list ADDR] FINGERPRINT...\n"
	"       patchreview dismiss [options] [--all | N...] < draft\n"
	"Records findings not to show again in the dismissed list. With a\n"
	"draft on stdin and no N, lists its findings, numbered; N (or --all)\n"
	"dismisses those. --list ADDR keeps a dismissal to mail sent to that list.\n";

struct dismiss_opts {
	const char *reason, *list;
	bool all;
};

/*
 * The findings of the draft: those it names in patchreview's own hand
 * (learn/own.h), never a line of its text, with what the record says of
 * each; when it names none, the record of the mail it answers.
 */
static void draft_findings(const struct mail *m, struct record *found)
{
	struct record rec = { 0 };
	bool have_record = m->in_reply_to && !record_read(&rec, m->in_reply_to);
	struct strvec fps = STRVEC_INIT;
	own_fingerprints(m, &fps);
	memset(found, 0, sizeof(*found));
	if (!fps.n) {
		*found = rec;	/* fingerprints = none, or the line was deleted */
		return;
	}
	/* The record's findings by fingerprint (the first of each), looked up once a name. */
	struct keys index = KEYS_INIT;
	for (size_t i = 0; have_record && i < rec.n; i++)
		if (!keys_get(&index, rec.v[i].fp, strlen(rec.v[i].fp)))
			keys_add(&index, rec.v[i].fp, strlen(rec.v[i].fp), (long)i + 1);
	found->v = xcalloc(fps.n, sizeof(*found->v));
	for (size_t k = 0; k < fps.n; k++) {
		long at = keys_get(&index, fps.v[k], strlen(fps.v[k]));
		const struct record_finding *known = at ? &rec.v[at - 1] : NULL;
		found->v[found->n++] = (struct record_finding){
			xstrdup(fps.v[k]), xstrdup(known ? known->source : SUPPRESS_ANY_RULE),
			xstrdup(known ? known->file : "-"), xstrdup(known ? known->text : ""),
		};
	}
	keys_release(&index);
	strvec_clear(&fps);
	record_release(&rec);
}

/* One finding as the list shows it: "FP  SOURCE  FILE: TEXT". */
static void describe(struct buf *line, const struct record_finding *f)
{
	buf_addf(line, "%s  %s  ", f->fp, f->source);
	if (strcmp(f->file, "-"))
		buf_addf(line, "%s: ", f->file);
	text_clean(line, f->text, strlen(f->text), TEXT_ONE_LINE);
	buf_cut_utf8(line, 200);
}

static void list_findings(const struct record *rec)
{
	struct buf line = BUF_INIT;
	for (size_t i = 0; i < rec->n; i++) {
		buf_reset(&line);
		buf_addf(&line, "%2zu  ", i + 1);
		describe(&line, &rec->v[i]);
		puts(line.data);
	}
	buf_release(&line);
	if (!rec->n)
		puts("The draft names no findings.");
	else
		puts("Dismiss some with: patchreview dismiss N... < draft (or --all).");
}

/* Dismisses f and says so on stdout ("dismissed  2  FP  SOURCE  FILE: TEXT"); n is its number or 0. */
static int dismiss_one(struct store *s, const struct dismiss_opts *o,
		       const struct record_finding *f, size_t n)
{
	if (store_is_dismissed(s, f->fp)) {
		warn("%s is dismissed already", f->fp);
		return 0;
	}
	if (store_dismiss(s, f->source, f->fp, o->list, o->reason, f->file,
			  *f->text ? f->text : NULL) < 0)
		return -1;
	struct buf line = BUF_INIT;
	buf_addstr(&line, "dismissed  ");
	if (n)
		buf_addf(&line, "%2zu  ", n);
	describe(&line, f);
	puts(line.data);
	buf_release(&line);
	return 0;
}

/* From the draft on stdin: list its findings, or dismiss those picked. */
static int from_draft(struct store *s, const struct dismiss_opts *o, char **picks,
		      int npicks)
{
	struct mail_list mails;
	if (mail_read_all(0, &mails) < 0)
		return -1;
	struct record rec;
	draft_findings(&mails.v[0], &rec);
	int ret = 0;
	if (!npicks && !o->all)
		list_findings(&rec);
	for (size_t i = 0; o->all && i < rec.n; i++)
		ret |= dismiss_one(s, o, &rec.v[i], i + 1);
	for (int k = 0; k < npicks; k++) {
		char *end;
		unsigned long n = strtoul(picks[k], &end, 10);
		if (*end || !n || n > rec.n) {
			ret = error("'%s' is not one of the %zu findings of the draft", picks[k], rec.n);
			continue;
		}
		ret |= dismiss_one(s, o, &rec.v[n - 1], n);
	}
	record_release(&rec);
	mail_list_release(&mails);
	return ret;
}

int dismiss_main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "reason", required_argument, NULL, 'r' },
		{ "list", required_argument, NULL, 'l' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct config c;
	struct dismiss_opts o = { "dismissed", NULL, false };
	if (store_config(&c, &argc, argv) < 0) {
		config_release(&c);
		return 2;
	}
	int opt, ret = 0;
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (opt == 'r')
			o.reason = optarg;
		else if (opt == 'l')
			o.list = optarg;
		else if (opt == 'a')
			o.all = true;
		else if (opt == 'h')
			ret = 1;
		else
			ret = error("%s '%s'; see patchreview dismiss --help",
				    opt == ':' ? "a missing argument for" : "unknown option",
				    argv[optind - 1]);
		if (ret)
			break;
	}
	if (ret) {
		if (ret > 0)
			fputs(dismiss_usage, stdout);
		config_release(&c);
		return ret > 0 ? 0 : 2;
	}
	struct store s;
	store_open(&s, &c);	/* the list read once, whatever the number of findings */
	/* Numbers pick from a draft on stdin; anything else names fingerprints. */
	bool by_fp = optind < argc && strspn(argv[optind], "0123456789") != strlen(argv[optind]);
	if (by_fp) {
		for (int i = optind; i < argc; i++) {
			struct record_finding f = { argv[i], SUPPRESS_ANY_RULE, "-", "" };
			if (!fingerprint_valid(argv[i]))
				ret = error("'%s' is not a fingerprint (twelve hex digits)", argv[i]);
			else if (dismiss_one(&s, &o, &f, 0) < 0)
				ret = -1;
		}
	} else if (isatty(0)) {
		ret = error("name fingerprints, or give a draft on stdin; see patchreview dismiss --help");
		store_close(&s);
		config_release(&c);
		return 2;
	} else {
		ret = from_draft(&s, &o, argv + optind, argc - optind);
	}
	store_close(&s);
	config_release(&c);
	return ret < 0 ? 3 : 0;
}
