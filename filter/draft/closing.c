/*
 * closing.c: what ends the draft on the reviewer's side: their own tag
 * (--tag Reviewed-by) and their signature.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "base/text.h"
#include "draft/parts.h"

#define SIGNATURE_MAX (64 << 10)

/* "Reviewed-by", "Acked-by", "Tested-by"...: a trailer key ending in -by. */
static bool is_tag(const char *tag)
{
	size_t n = strlen(tag);
	if (n < 4 || strcasecmp(tag + n - 3, "-by") || !isalpha((unsigned char)tag[0]))
		return false;
	return strspn(tag, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-") == n;
}

int draft_check_tag(const char *tag, const char *from)
{
	if (!tag)
		return 0;
	if (!is_tag(tag))
		return error("--tag: '%s' is not a tag such as Reviewed-by or Acked-by", tag);
	struct address_list me = { 0 };
	if (from)
		mail_parse_addresses(&me, from);
	size_t n = me.n;
	address_list_release(&me);
	if (!n)
		return error("--tag %s needs your name and address: set 'from' (or --from)", tag);
	return 0;
}

void draft_tag(struct buf *out, const char *tag, const char *from)
{
	struct address_list me = { 0 };
	mail_parse_addresses(&me, from);
	if (me.n && me.v[0].name)
		buf_addf(out, "%s: %s <%s>", tag, me.v[0].name, me.v[0].addr);
	else if (me.n)
		buf_addf(out, "%s: %s", tag, me.v[0].addr);
	address_list_release(&me);
}

int draft_signature(struct buf *out, const char *path)
{
	char *file = expand_home(path);
	struct buf text = BUF_INIT;
	int ret = 0;
	if (slurp_file(file, SIGNATURE_MAX, &text) < 0) {
		int err = errno;
		if (err != ENOENT) {
			warn("cannot read the signature '%s': %s; the draft has none", file,
			     err == EFBIG ? "larger than 64 KiB" : strerror(err));
			ret = -1;
		}
	} else {
		text_clean(out, text.data, text.len, 0);
	}
	buf_release(&text);
	free(file);
	return ret;
}
