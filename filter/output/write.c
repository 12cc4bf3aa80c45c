/* write.c: hands the patches to the writer of the format asked for. */
#include "output/b4check.h"
#include "output/json.h"
#include "output/lines.h"
#include "output/write.h"

int output_write(FILE *out, enum output_format fmt, const struct output_patch *v,
		 size_t n, const struct config *c)
{
	switch (fmt) {
	case OUTPUT_JSON:
		output_json(out, v, n, c);
		break;
	case OUTPUT_B4_CHECK:
		output_b4_check(out, v, n);
		break;
	case OUTPUT_LINES:
		output_lines(out, v, n);
		break;
	case OUTPUT_DRAFT:	/* draft/ writes it */
		return -1;
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}
