/* record.c: the findings of each draft, kept until the reply is sent. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "base/text.h"
#include "learn/record.h"
#include "review/fingerprint.h"

#define RECORD_MAX (1 << 20)

char *learn_path(const char *leaf)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "patchreview/%s", leaf);
	char *path = xdg_path("XDG_DATA_HOME", ".local/share", b.data);
	buf_release(&b);
	return path;
}

void record_key(const char *msgid, char out[RECORD_KEY_LEN + 1])
{
	uint64_t h = hash_fnv64(HASH_FNV64_INIT, msgid, strlen(msgid));
	snprintf(out, RECORD_KEY_LEN + 1, "%016llx", (unsigned long long)h);
}

/* drafts/<the id's key>: ids hold characters no file name should. */
static char *record_path(const char *msgid)
{
	char key[RECORD_KEY_LEN + 1], leaf[32];
	record_key(msgid, key);
	snprintf(leaf, sizeof(leaf), "drafts/%s", key);
	return learn_path(leaf);
}

/* A field of one line: no tabs or newlines, made safe, bounded. */
static void add_field(struct buf *b, const char *s, size_t max)
{
	size_t start = b->len;
	text_clean(b, s, strlen(s), TEXT_ONE_LINE);
	buf_cut_utf8(b, start + max);
}

void record_write(const struct mail *m, const struct patch *p, const struct review *r,
		  const struct config *c)
{
	if (!r->nfindings || !m->message_id || !c->record)
		return;
	char *path = record_path(m->message_id);
	if (!path)
		return;
	struct buf b = BUF_INIT;
	buf_addf(&b, "msgid %s\n", m->message_id);
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct finding *f = &r->findings[i];
		char fp[FINGERPRINT_LEN + 1];
		finding_fingerprint(p, f, fp);
		const char *file = "-";
		if (f->line < p->nlines && p->lines[f->line].file >= 0)
			file = patch_file_path(&p->files[p->lines[f->line].file]);
		buf_addf(&b, "%s\t%s\t", fp, f->source);
		add_field(&b, file, 1000);
		buf_addch(&b, '\t');
		add_field(&b, f->text, RECORD_TEXT_MAX);
		buf_addch(&b, '\n');
	}
	char *slash = strrchr(path, '/');
	*slash = '\0';
	int ret = make_dirs(path);
	*slash = '/';
	if (ret < 0 || write_file_atomic(path, b.data, b.len) < 0)
		warn("cannot keep a record of the draft in '%s': %s", path, strerror(errno));
	buf_release(&b);
	free(path);
}

/* Splits line at tabs into n fields; returns how many it found. */
static size_t split_tabs(char *line, char **fields, size_t n)
{
	size_t k = 0;
	while (k < n) {
		fields[k++] = line;
		char *tab = strchr(line, '\t');
		if (!tab)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return k;
}

int record_read(struct record *rec, const char *msgid)
{
	memset(rec, 0, sizeof(*rec));
	rec->path = record_path(msgid);
	struct buf text = BUF_INIT;
	if (!rec->path || slurp_file(rec->path, RECORD_MAX, &text) < 0) {
		buf_release(&text);
		record_release(rec);
		return -1;
	}
	char *line = text.data, *next;
	bool ours = false;
	size_t cap = 0;
	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "msgid ", 6)) {
			ours = !strcmp(line + 6, msgid);	/* not another id of the same hash */
			continue;
		}
		char *f[4];
		if (split_tabs(line, f, 4) != 4 || !fingerprint_valid(f[0]))
			continue;
		if (rec->n == cap) {
			cap = cap ? 2 * cap : 16;
			rec->v = xrealloc(rec->v, cap * sizeof(*rec->v));
		}
		rec->v[rec->n++] = (struct record_finding){
			xstrdup(f[0]), xstrdup(f[1]), xstrdup(f[2]), xstrdup(f[3]),
		};
	}
	buf_release(&text);
	if (!ours) {
		record_release(rec);
		return -1;
	}
	return 0;
}

void record_release(struct record *rec)
{
	for (size_t i = 0; i < rec->n; i++) {
		free(rec->v[i].fp);
		free(rec->v[i].source);
		free(rec->v[i].file);
		free(rec->v[i].text);
	}
	free(rec->v);
	free(rec->path);
	memset(rec, 0, sizeof(*rec));
}
