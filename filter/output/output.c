/* output.c: the formats by name. */
#include <string.h>

#include "output/output.h"

static const char *const format_names[] = {
	[OUTPUT_DRAFT] = "draft",
	[OUTPUT_JSON] = "json",
	[OUTPUT_B4_CHECK] = "b4-check",
	[OUTPUT_LINES] = "lines",
};

int output_format_parse(const char *name, enum output_format *fmto)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(*format_names); i++) {
		if (!strcmp(name, format_names[i])) {
			*fmto = (enum output_format)i;
			return 0;
		}
	}
	return -1;
}
