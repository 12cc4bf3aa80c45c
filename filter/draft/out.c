/*
 * out.c: a draft is written into memory first, then to its place: stdout
 * (after a "From " line, with mboxrd escaping, when there are several), a
 * Maildir, or a file of its own that appears whole and replaces nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "draft/draft.h"
#include "draft/maildir.h"
#include "draft/out.h"

/* Longest subject part of a file name, as git format-patch keeps it. */
#define SLUG_MAX 52
/* The envelope line of every draft in the mbox: a fixed one, as b4 and lore write. */
#define MBOX_FROM "From patchreview Thu Jan  1 00:00:00 1970\n"

struct draft_place draft_place_of(const struct config *c)
{
	return (struct draft_place){ c->maildir, c->fresh_maildir, c->output_dir, NULL };
}

void draft_out_init(struct draft_out *o, const struct config *c, const struct draft_place *place,
		    size_t count, bool several)
{
	/* The last draft's Date is now: none is dated after the run. */
	*o = (struct draft_out){
		.config = c, .place = *place, .first = draft_now() - (time_t)(count ? count - 1 : 0),
		.mbox = several && !place->maildir && !place->output_dir,
	};
}

/* The draft as bytes; NULL (after one line on stderr) when it cannot be made. */
static char *render(const struct mail *m, const struct patch *p, const struct review *r,
		    const struct config *c, bool reviewed, time_t when, size_t *leno)
{
	char *data = NULL;
	FILE *f = open_memstream(&data, leno);
	if (!f)
		die_nomem();
	int ret = draft_write(f, m, p, r, c, reviewed, when);
	if (fclose(f) || ret < 0) {
		free(data);
		return NULL;
	}
	return data;
}

/* mboxrd: a line starting "From ", after any number of '>', gets one more '>'. */
static int put_mbox(const char *data, size_t len)
{
	fputs(MBOX_FROM, stdout);
	for (const char *s = data, *end = data + len; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s + 1) : (size_t)(end - s);
		size_t quotes = strspn(s, ">");
		if (quotes + 5 <= n && !memcmp(s + quotes, "From ", 5))
			fputc('>', stdout);
		fwrite(s, 1, n, stdout);
		s += n;
	}
	fputc('\n', stdout);
	if (fflush(stdout) || ferror(stdout))
		return error("cannot write the drafts");
	return 0;
}

static int put_maildir(struct draft_out *o, unsigned number, const char *data, size_t len)
{
	struct maildir_file md;
	struct buf name = BUF_INIT;
	const char *dir = o->place.maildir;
	/* --fresh-maildir: the earlier drafts go to DIR-old before this run's first. */
	if (o->place.fresh_maildir && !o->archived) {
		o->archived = true;
		if (maildir_archive(dir) < 0)
			warn("the earlier drafts stay in '%s'", dir);
	}
	if (o->place.name)
		buf_addf(&name, "%s.%04u", o->place.name, number);
	int opened = maildir_open(&md, dir, o->place.name ? name.data : NULL);
	buf_release(&name);
	if (opened < 0)
		return -1;
	if (fwrite(data, 1, len, md.f) != len) {
		maildir_abort(&md);
		return error("cannot write the draft into '%s'", dir);
	}
	char *path = xstrdup(md.new_path);
	if (maildir_commit(&md) < 0) {
		free(path);
		return -1;
	}
	o->path = path;
	return 0;
}

/* The subject as a file name: letters, digits, '.' and '_' kept, runs of others one '-'. */
static void add_slug(struct buf *b, const char *title)
{
	size_t start = b->len;
	bool dash = false;
	for (const char *s = title; *s && b->len - start < SLUG_MAX; s++) {
		char ch = *s;
		bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			(ch >= '0' && ch <= '9') || ch == '_' || (ch == '.' && b->len > start);
		if (!keep) {
			dash = b->len > start;
			continue;
		}
		if (dash)
			buf_addch(b, '-');
		buf_addch(b, ch);
		dash = false;
	}
	while (b->len > start && b->data[b->len - 1] == '.')
		b->data[--b->len] = '\0';
	if (b->len == start)
		buf_addstr(b, "draft");
}

static int put_file(struct draft_out *o, unsigned number, const char *title,
		    const char *data, size_t len)
{
	char *dir = expand_home(o->place.output_dir);
	struct buf path = BUF_INIT;
	int ret = 0;
	if (make_dirs(dir) < 0) {
		ret = error("cannot create '%s': %s", dir, strerror(errno));
	} else {
		buf_addf(&path, "%s/%04u-", dir, number);
		add_slug(&path, title);
		buf_addstr(&path, ".eml");
		if (write_file_new(path.data, data, len) < 0)
			ret = errno == EEXIST
				? error("'%s' exists; not replacing it", path.data)
				: error("cannot write '%s': %s", path.data, strerror(errno));
		else
			o->path = buf_detach(&path, NULL);
	}
	buf_release(&path);
	free(dir);
	return ret;
}

int draft_out_write(struct draft_out *o, unsigned number, const struct mail *m,
		    const struct patch *p, const struct review *r, bool reviewed)
{
	const struct config *c = o->config;
	size_t len = 0;
	/* A second apart: mutt's recall menu and aerc's Drafts (sort = date) list them in order. */
	time_t when = o->first + (time_t)o->numbered++;
	char *data = render(m, p, r, c, reviewed, when, &len);
	int ret = -1;
	free(o->path);
	o->path = NULL;
	if (!data)
		ret = -1;	/* draft_write() said why */
	else if (o->place.output_dir)
		ret = put_file(o, number, p->subject.title, data, len);
	else if (o->place.maildir)
		ret = put_maildir(o, number, data, len);
	else if (o->mbox)
		ret = put_mbox(data, len);
	else if (fwrite(data, 1, len, stdout) != len || fflush(stdout))
		ret = error("cannot write the draft");
	else
		ret = 0;
	o->written += !ret;
	free(data);
	return ret;
}

void draft_out_release(struct draft_out *o)
{
	free(o->path);
	o->path = NULL;
}
