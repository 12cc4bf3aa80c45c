/* crlf.c: CR LF line ends as LF, where they are the transport form. */
#include <string.h>

#include "mail/crlf.h"

/*
 * A message stored with CRLF line ends (Windows tools, some archives) has
 * CRLF as its transport form: turn it into LF so that only CRs inside the
 * content (encoded, or on some lines only) are left for the checks to see.
 */
void mail_crlf_to_lf(GByteArray *arr)
{
	const guint8 *nl = memchr(arr->data, '\n', arr->len);
	if (!nl || nl == arr->data || nl[-1] != '\r')
		return;
	guint8 *out = arr->data;
	for (guint i = 0; i < arr->len; i++) {
		if (arr->data[i] == '\r' && i + 1 < arr->len && arr->data[i + 1] == '\n')
			continue;
		*out++ = arr->data[i];
	}
	g_byte_array_set_size(arr, (guint)(out - arr->data));
}
