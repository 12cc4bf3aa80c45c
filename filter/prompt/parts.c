/* parts.c: cutting a large patch into groups of whole files. */
#include <stdlib.h>

#include "base/msg.h"
#include "prompt/parts.h"

static size_t file_bytes(const struct patch *p, size_t f)
{
	size_t n = 0;
	for (size_t i = p->files[f].first_line; i < p->files[f].end_line; i++)
		n += p->lines[i].len + 1;
	return n;
}

size_t prompt_parts(const struct patch *p, size_t budget, struct prompt_part **partso)
{
	struct prompt_part *v = xcalloc(p->nfiles + 1, sizeof(*v));
	size_t n = 0, used = 0, total = 0;
	for (size_t f = 0; f < p->nfiles; f++)
		total += file_bytes(p, f);
	v[0] = (struct prompt_part){ .first_file = 0, .end_file = p->nfiles };
	if (budget && total > budget) {
		for (size_t f = 0; f < p->nfiles; f++) {
			size_t bytes = file_bytes(p, f);
			if (n && used + bytes <= budget) {
				v[n - 1].end_file = f + 1;
				used += bytes;
				continue;
			}
			v[n++] = (struct prompt_part){ .first_file = f, .end_file = f + 1 };
			used = bytes;
		}
	}
	if (!n)
		n = 1;
	for (size_t i = 0; i < n; i++) {
		v[i].index = i + 1;
		v[i].count = n;
	}
	*partso = v;
	return n;
}
