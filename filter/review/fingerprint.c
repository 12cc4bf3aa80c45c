/* fingerprint.c: hashes of what a finding is about, independent of line numbers. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/hash.h"
#include "review/fingerprint.h"

/* Words of the model's comment that make its gist. */
#define GIST_WORDS 8

/* The text with blanks collapsed and trimmed, so re-indenting changes nothing. */
static uint64_t hash_collapsed(uint64_t h, const char *s, size_t len)
{
	bool blank = false, any = false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			blank = any;
			continue;
		}
		if (blank)
			h = hash_fnv64(h, " ", 1);
		h = hash_fnv64(h, s + i, 1);
		blank = false;
		any = true;
	}
	return hash_fnv64(h, "", 1);
}

/* The first GIST_WORDS words of three letters or more, lowercased: not punctuation or wrapping. */
static uint64_t hash_gist(const char *text)
{
	uint64_t h = HASH_FNV64_INIT;
	size_t words = 0;
	for (const char *s = text; *s && words < GIST_WORDS;) {
		size_t n = 0;
		while (isalnum((unsigned char)s[n]) || s[n] == '_')
			n++;
		if (n >= 3) {
			for (size_t i = 0; i < n; i++) {
				char c = (char)tolower((unsigned char)s[i]);
				h = hash_fnv64(h, &c, 1);
			}
			h = hash_fnv64(h, " ", 1);
			words++;
		}
		s += n ? n : 1;
	}
	return h;
}

static bool from_model(const struct finding *f)
{
	return !strcmp(f->source, FINDING_MODEL);
}

void finding_fingerprint(const struct patch *p, const struct finding *f,
			 char out[FINGERPRINT_LEN + 1])
{
	uint64_t place = hash_fnv64(HASH_FNV64_INIT, f->source, strlen(f->source) + 1);
	if (f->line < p->nlines && p->lines[f->line].file >= 0) {
		const struct patch_line *l = &p->lines[f->line];
		const char *path = patch_file_path(&p->files[l->file]);
		place = hash_fnv64(place, path, strlen(path) + 1);
		/* Without its diff marker: an added line is a context line in the next version. */
		bool marked = l->kind == LINE_ADDED || l->kind == LINE_REMOVED ||
			      l->kind == LINE_CONTEXT;
		place = hash_collapsed(place, l->text + (marked && l->len),
				       l->len - (marked && l->len));
	} else if (f->line < p->nlines) {
		const struct patch_line *l = &p->lines[f->line];
		place = hash_collapsed(place, l->text, l->len);
	} else {
		const char *title = p->subject.title ? p->subject.title : "";
		place = hash_collapsed(place, title, strlen(title));
	}
	uint64_t gist = from_model(f) ? hash_gist(f->text) : hash_fnv64(HASH_FNV64_INIT, f->source,
									 strlen(f->source));
	snprintf(out, FINGERPRINT_LEN + 1, "%08x%04x", (unsigned)(place >> 32),
		 (unsigned)(gist >> 48));
}

bool fingerprint_valid(const char *s)
{
	return strlen(s) == FINGERPRINT_LEN &&
	       strspn(s, "0123456789abcdef") == FINGERPRINT_LEN;
}

bool fingerprint_covers(const char *dismissed, const char *fp, const struct finding *f)
{
	if (from_model(f) && f->line != FINDING_WHOLE)
		return !strncmp(dismissed, fp, FINGERPRINT_PLACE);
	return !strcmp(dismissed, fp);
}
