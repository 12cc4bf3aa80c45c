/*
 * fuzz_cscan.c: C text -> the lexer, the scanner, and a symbol index of
 * that one file. Every definition the scanner lists lies within the text,
 * its lines in order, and the index finds it by name in that file. Heap at
 * the peak: at most 64 bytes a byte of text, plus 1 MiB (a definition and
 * an index entry for each identifier, at worst).
 */
#include <stdlib.h>

#include "base/msg.h"
#include "fuzz.h"
#include "csource/clex.h"
#include "code/index.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	return 0;
}

static void count_use(void *ctx, enum cuse_kind kind, const char *s, size_t len, uint32_t line)
{
	(void)kind, (void)s, (void)len, (void)line;
	++*(size_t *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *text = xstrndup((const char *)data, len);	/* files are NUL-free text */
	size_t n = strlen(text), uses = 0;
	fuzz_mem_start();
	struct clex lx;
	struct tok t;
	uint32_t line = 1;
	clex_init(&lx, text, n);
	for (clex_next(&lx, &t); t.kind != TOK_EOF; clex_next(&lx, &t)) {
		if (t.s < text || t.s + t.len > text + n || t.line < line)
			abort();
		line = t.line;
	}
	struct cdefs defs = { 0 };
	cscan(text, n, &defs, count_use, &uses);
	struct symbol_index *ix = symbol_index_of_text("fuzz.c", text, n);
	for (size_t i = 0; i < defs.n; i++) {
		const struct cdef *d = &defs.v[i];
		if (d->name < text || d->name + d->name_len > text + n || d->first > d->last ||
		    d->doc > d->first || !d->name_len)
			abort();
		struct ix_hit hits[64];
		size_t k = symbol_index_find(ix, d->name, d->name_len, IX_DEFINITIONS, hits, 64);
		bool found = k == 64;	/* a name many definitions share: not all are listed */
		for (size_t h = 0; h < k; h++)
			found |= !strcmp(hits[h].path, "fuzz.c");
		if (!found)
			abort();
	}
	fuzz_mem_check("the C scanner and index", n, 64, 1 << 20);
	symbol_index_free(ix);
	cdefs_release(&defs);
	free(text);
	return 0;
}
