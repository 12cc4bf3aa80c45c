/* out.c: a series' drafts or JSON into consume_out, whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "consume/out.h"

/* The part of the key a name carries: 64 bits, no two series of a list alike. */
#define NAME_HEX 16

int consume_out_open(struct consume_out *o, const struct config *c, const char *key,
		     struct run_job *job)
{
	struct buf path = BUF_INIT;
	bool maildir = c->consume_out && !strncmp(c->consume_out, "maildir:", 8);
	*o = (struct consume_out){ .saved = -1 };
	if (!c->consume_out || !*c->consume_out)
		return 1;
	o->dir = expand_home(c->consume_out + (maildir ? 8 : 0));
	job->review_only = false;
	if (maildir) {
		buf_addf(&path, "patchreview-%.*s", NAME_HEX, key);
		o->name = buf_detach(&path, NULL);
		job->format = OUTPUT_DRAFT;
		job->drafts = (struct draft_place){ .maildir = o->dir, .name = o->name };
		return 0;
	}
	bool json = c->consume_format && !strcmp(c->consume_format, "json");
	job->format = json ? OUTPUT_JSON : OUTPUT_DRAFT;
	job->drafts = (struct draft_place){ 0 };
	job->mbox = true;
	buf_addf(&path, "%s/%.*s.%s", o->dir, NAME_HEX, key, json ? "json" : "mbox");
	o->path = buf_detach(&path, NULL);
	buf_addf(&path, "%s/.%.*s.tmp-XXXXXX", o->dir, NAME_HEX, key);
	o->tmp = buf_detach(&path, NULL);
	int fd = make_dirs(o->dir) < 0 ? -1 : mkstemp(o->tmp);
	if (fd < 0) {
		error("consume: cannot write into '%s': %s", o->dir, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	fflush(stdout);
	o->saved = dup(1);
	dup2(fd, 1);
	close(fd);
	return 0;
}

int consume_out_close(struct consume_out *o, bool commit)
{
	int ret = 0;
	if (o->tmp) {
		if (fflush(stdout) || fsync(1) < 0) {
			ret = error("consume: cannot write '%s': %s", o->tmp, strerror(errno));
			commit = false;
		}
		if (o->saved >= 0) {
			dup2(o->saved, 1);
			close(o->saved);
		}
		if (commit && rename(o->tmp, o->path) < 0)
			ret = error("consume: cannot move '%s' to '%s': %s", o->tmp, o->path,
				    strerror(errno));
		if (!commit || ret)
			unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	free(o->name);
	free(o->dir);
	*o = (struct consume_out){ .saved = -1 };
	return ret;
}
