/* check.c: the draft invariants and the shared set-up of the fuzz harnesses. */
#define _GNU_SOURCE	/* memfd_create() */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sanitizer/allocator_interface.h>

#include "base/msg.h"
#include "draft/draft.h"
#include "patch/parse.h"
#include "fuzz.h"

/* Heap in use, through the sanitizer's hooks (one thread), and its peak since fuzz_mem_start(). */
static size_t heap_now, heap_peak, heap_mark;

static void on_malloc(const volatile void *ptr, size_t size)
{
	(void)ptr;
	heap_now += size;
	if (heap_now > heap_peak)
		heap_peak = heap_now;
}

static void on_free(const volatile void *ptr)
{
	const void *p = (const void *)ptr;
	size_t size = p && __sanitizer_get_ownership(p) ? __sanitizer_get_allocated_size(p) : 0;
	heap_now -= size < heap_now ? size : heap_now;
}

void fuzz_mem_start(void)
{
	heap_mark = heap_peak = heap_now;
}

void fuzz_mem_check(const char *what, size_t len, size_t times, size_t plus)
{
	size_t used = heap_peak - heap_mark, bound = times * len + plus;
	if (used <= bound)
		return;
	fprintf(stderr, "fuzz: %s took %zu bytes of heap at its peak for %zu bytes in, "
		"over its bound of %zu x %zu + %zu\n", what, used, len, times, len, plus);
	abort();
}

static _Noreturn void broken(const char *what, const char *at, size_t len)
{
	fprintf(stderr, "fuzz: draft invariant broken: %s: \"%.*s\"\n", what,
		(int)(len < 200 ? len : 200), at);
	abort();
}

/*
 * The headers draft/headers.c and draft/bookkeeping.c write, each at most
 * once but for the notes and summaries (the names before FIRST_ONCE).
 */
#define FIRST_ONCE 2
static void check_headers(const char *s, size_t len)
{
	static const char *const names[] = {
		"X-Patchreview-Note", "X-Patchreview-Summary",
		"From", "To", "Cc", "Subject", "In-Reply-To", "References", "Date",
		"X-Mutt-References", "X-Patchreview-Fingerprints",
		"MIME-Version", "Content-Type", "Content-Transfer-Encoding",
	};
	bool seen[sizeof(names) / sizeof(*names)] = { false };
	for (const char *p = s, *end = s + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		for (size_t i = 0; i < n; i++)
			if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f || (unsigned char)p[i] > 0x7f)
				broken("a header line that is not printable ASCII", p, n);
		if (n > DRAFT_MAX_LINE)
			broken("a header line over 998 bytes", p, n);
		if (*p != ' ' && *p != '\t') {
			const char *colon = memchr(p, ':', n);
			size_t k = 0;
			while (colon && k < sizeof(names) / sizeof(*names) &&
			       (strlen(names[k]) != (size_t)(colon - p) ||
				strncasecmp(names[k], p, (size_t)(colon - p))))
				k++;
			if (!colon || k == sizeof(names) / sizeof(*names))
				broken("a header the writer does not write", p, n);
			if (seen[k] && k >= FIRST_ONCE)
				broken("a header written twice", p, n);
			seen[k] = true;
		}
		p += n + 1;
	}
}

/* Length of the valid UTF-8 character at s, or 0; its code point in *cp. */
static size_t utf8_char(const unsigned char *s, size_t len, unsigned *cp)
{
	unsigned c = s[0], min;
	size_t n;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		n = 2, min = 0x80, c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, min = 0x800, c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, min = 0x10000, c &= 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

static void check_text(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		unsigned cp;
		size_t n = utf8_char(p + i, len - i, &cp);
		if (!n)
			broken("invalid UTF-8", s + i, len - i);
		if ((cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7f && cp < 0xa0))
			broken("a control character", s + i, len - i);
		if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
			broken("a bidirectional override", s + i, len - i);
		if (cp == 0x2028 || cp == 0x2029)
			broken("a line or paragraph separator", s + i, len - i);
		i += n;
	}
}

/* Is the draft line q (which starts with '>') the quoted form of patch line l? */
static bool quotes(const char *q, size_t n, const struct patch_line *l)
{
	static const char cut[] = " [...]";
	if (!l->len)
		return n == 1;
	if (n < 2 || q[1] != ' ')
		return false;
	q += 2, n -= 2;
	if (memchr(l->text, '\r', l->len))
		return true;	/* cleaned: its CRs are U+FFFD now */
	if (n == l->len)
		return !memcmp(q, l->text, n);
	size_t c = strlen(cut);
	return n > c && n - c < l->len && !memcmp(q + n - c, cut, c) && !memcmp(q, l->text, n - c);
}

void fuzz_check_draft(const char *draft, size_t len, const struct patch *p)
{
	const char *sep = memmem(draft, len, "\n\n", 2);
	if (!sep)
		broken("no blank line after the headers", draft, len);
	check_headers(draft, (size_t)(sep - draft) + 1);
	const char *body = sep + 2, *end = draft + len;
	check_text(body, (size_t)(end - body));
	size_t next = 0;	/* quoted lines come in patch order */
	for (const char *s = body; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (n > DRAFT_MAX_LINE)
			broken("a body line over 998 bytes", s, n);
		if (n >= 5 && !memcmp(s, "From ", 5))
			broken("a body line starting 'From '", s, n);
		if (n && *s == '>') {
			while (next < p->nlines && !quotes(s, n, &p->lines[next]))
				next++;
			if (next == p->nlines)
				broken("a line starting '>' that quotes no line of the patch", s, n);
			next++;
		}
		s += n + 1;
	}
}

void fuzz_draft(const struct mail *m, const struct patch *p, const struct review *r,
		const struct config *c, bool reviewed)
{
	char *draft = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&draft, &len);
	if (!out || draft_write(out, m, p, r, c, reviewed, draft_now()) < 0)
		abort();
	fclose(out);
	fuzz_check_draft(draft, len, p);
	free(draft);
}

int fuzz_fd(const uint8_t *data, size_t len)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) < 0)
		abort();
	return fd;
}

const char *fuzz_scratch(void)
{
	static char dir[] = "/tmp/patchreview-fuzz-XXXXXX";
	static bool made;
	if (!made && !mkdtemp(dir))
		abort();
	made = true;
	return dir;
}

const struct fuzz_patch *fuzz_fixed_patch(void)
{
	static struct fuzz_patch fp;
	static bool read;
	if (read)
		return &fp;
	const char *path = getenv("FUZZ_PATCH_MAIL");
	int fd = open(path ? path : "tests/mails/llm-net.eml", O_RDONLY);
	if (fd < 0 || mail_read_all(fd, &fp.mails) < 0) {
		fprintf(stderr, "fuzz: cannot read the fixed patch mail (run from the source tree)\n");
		exit(2);
	}
	close(fd);
	struct mail *m = &fp.mails.v[0];
	patch_parse(&fp.patch, m->subject, m->text, m->text_len, m->patch_offset);
	m->text = NULL;
	read = true;
	return &fp;
}

void fuzz_init(void)
{
	__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
	mail_init();
	msg_silence_warnings();
	/* No user configuration, suppressions or cache: only what the harness sets. */
	setenv("XDG_CONFIG_HOME", fuzz_scratch(), 1);
	setenv("XDG_CACHE_HOME", fuzz_scratch(), 1);
	setenv("XDG_DATA_HOME", fuzz_scratch(), 1);
	setenv("HOME", fuzz_scratch(), 1);
}
