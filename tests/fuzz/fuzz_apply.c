/*
 * fuzz_apply.c: a file and a patch -> the patch applied to the file in
 * memory, as --tree reads a file after the patch (tree/files.c). The
 * input is the file's text, a NUL byte, then the patch (a mail's text).
 * What it gives is the file with each hunk's old lines swapped for its
 * new ones: no longer than both together; and every patch line maps to a
 * line of the result. Heap at the peak: at most 32 bytes a byte of input
 * (the file's and the patch's lines, as arrays), plus 1 MiB.
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "fuzz.h"
#include "patch/parse.h"
#include "repo/files.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	return 0;
}

/* Applies each of p's files to text and checks what comes out. */
static void apply_each(const char *text, size_t len, const struct patch *p, size_t in)
{
	int32_t *delta = xcalloc(p->nhunks + 1, sizeof(*delta));
	for (size_t fi = 0; fi < p->nfiles; fi++) {
		struct buf out = BUF_INIT;
		bool ok = files_apply(text, len, p, fi, delta, &out);
		if (ok && out.len > in + p->nlines + 1)	/* each line may gain its newline */
			abort();
		if (ok) {
			struct tfile f = {
				.base = (char *)text, .base_len = len, .post = out.data,
				.post_len = out.len, .patch_file = (int32_t)fi, .delta = delta,
			};
			uint32_t lines = 0;	/* the applied text's lines, the last maybe without newline */
			for (size_t b = 0; b < out.len; b++)
				lines += out.data[b] == '\n';
			lines += out.len && out.data[out.len - 1] != '\n';
			for (size_t l = 0; l < p->nlines; l++)
				if (p->lines[l].hunk >= 0 && p->hunks[p->lines[l].hunk].file == (int32_t)fi &&
				    files_line_of(&f, p, l) > lines + 1)
					abort();
		}
		buf_release(&out);
	}
	free(delta);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	const char *nul = memchr(data, '\0', len);
	if (!nul)
		return 0;
	size_t file_len = (size_t)(nul - (const char *)data), rest = len - file_len - 1;
	char *mail = xstrndup(nul + 1, rest);	/* as the mail reader gives it: no NUL */
	fuzz_mem_start();
	struct patch p;
	patch_parse(&p, "[PATCH] fuzz", mail, strlen(mail), 0);
	apply_each((const char *)data, file_len, &p, len);
	fuzz_mem_check("the patch applied in memory", len, 32, 1 << 20);
	patch_release(&p);
	return 0;
}
