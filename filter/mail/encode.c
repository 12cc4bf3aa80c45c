/* encode.c: writing header lines, RFC 2047-encoded and folded by GMime. */
#include <gmime/gmime.h>

#include "base/buf.h"
#include "base/msg.h"
#include "mail/mail.h"

char *mail_format_addresses(const char *name, const struct address *v, size_t n)
{
	InternetAddressList *list = internet_address_list_new();
	for (size_t i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_mailbox_new(v[i].name, v[i].addr);
		internet_address_list_add(list, ia);
		g_object_unref(ia);
	}
	GString *s = g_string_new(name);
	g_string_append(s, ": ");
	internet_address_list_encode(list, NULL, s);
	g_object_unref(list);
	if (s->len && s->str[s->len - 1] != '\n')
		g_string_append_c(s, '\n');
	char *out = xstrdup(s->str);
	g_string_free(s, TRUE);
	return out;
}

char *mail_format_text(const char *name, const char *value)
{
	char *encoded = g_mime_utils_header_encode_text(NULL, value, "UTF-8");
	char *header = g_strdup_printf("%s: %s", name, encoded);
	char *folded = g_mime_utils_unstructured_header_fold(NULL, NULL, header);
	struct buf out = BUF_INIT;
	buf_addstr(&out, folded);
	if (!out.len || out.data[out.len - 1] != '\n')
		buf_addch(&out, '\n');
	g_free(encoded);
	g_free(header);
	g_free(folded);
	return buf_detach(&out, NULL);
}


