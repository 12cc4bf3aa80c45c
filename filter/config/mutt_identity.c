/*
 * mutt_identity.c: the From mutt would give a reply, for a draft that
 * mutt recalls. mutt and neomutt fill in no From on a recalled draft, so
 * the macros hand over $from, $realname, $hostname, $use_from, $use_domain
 * and $hidden_host in the environment (setenv), and this does what their
 * mutt_default_from() and send code do with them. Returns 0 or -1.
 * And mutt's $signature and $sig_dashes, which mutt does not append to a
 * recalled draft either.
 */
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "config/config.h"
#include "config/mutt_identity.h"

/* mutt's Username: $USER, $LOGNAME, then the password entry. */
static const char *user_name(void)
{
	const char *u = getenv("USER");
	if (!u || !*u)
		u = getenv("LOGNAME");
	if (!u || !*u) {
		struct passwd *pw = getpwuid(getuid());
		u = pw ? pw->pw_name : NULL;
	}
	return u && *u ? u : NULL;
}

/* mutt_fqdn(1): $hostname, without its first part under $hidden_host unless that leaves no dot. */
static const char *fqdn(const char *host, bool hidden)
{
	if (!host || !*host || *host == '@')
		return NULL;
	const char *p = strchr(host, '.');
	if (hidden && p && strchr(p + 1, '.'))
		return p + 1;
	return host;
}

/* "name" quoted as an RFC 5322 display name. */
static void add_quoted(struct buf *b, const char *name)
{
	buf_addch(b, '"');
	for (const char *s = name; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_addch(b, '\\');
		buf_addch(b, *s);
	}
	buf_addch(b, '"');
}

int config_mutt_identity(struct config *c)
{
	const char *flags = getenv("PATCHREVIEW_MUTT_FLAGS");
	if (!c->mutt || c->from || !flags)
		return 0;
	char use_from[8] = "", use_domain[8] = "", hidden_host[8] = "";
	if (sscanf(flags, "%7s %7s %7s", use_from, use_domain, hidden_host) != 3) {
		warn("PATCHREVIEW_MUTT_FLAGS: '%s' is not \"$use_from $use_domain "
		     "$hidden_host\"; the draft has no From", flags);
		return 0;
	}
	if (strcmp(use_from, "yes"))
		return 0;	/* mutt sends no From either; the MTA adds one */
	const char *from = getenv("PATCHREVIEW_MUTT_FROM");
	const char *realname = getenv("PATCHREVIEW_MUTT_REALNAME");
	struct buf addr = BUF_INIT;
	int ret = 0;
	if (from && *from) {
		buf_addstr(&addr, from);
		/* mutt adds $realname to a $from without a name when it sends. */
		if (realname && *realname && !strchr(from, '<')) {
			struct buf named = BUF_INIT;
			add_quoted(&named, realname);
			buf_addf(&named, " <%s>", from);
			buf_release(&addr);
			addr = named;
		}
	} else {
		const char *user = user_name();
		const char *host = fqdn(getenv("PATCHREVIEW_MUTT_HOSTNAME"),
					!strcmp(hidden_host, "yes"));
		if (!user)
			goto out;
		if (realname && *realname) {
			add_quoted(&addr, realname);
			buf_addch(&addr, ' ');
		}
		buf_addch(&addr, '<');
		buf_addstr(&addr, user);
		if (!strcmp(use_domain, "yes") && host)
			buf_addf(&addr, "@%s", host);
		buf_addch(&addr, '>');
	}
	ret = config_set(c, "from", addr.data, "mutt's $from");
out:
	buf_release(&addr);
	return ret;
}

int config_mutt_signature(struct config *c)
{
	const char *sig = getenv("PATCHREVIEW_MUTT_SIGNATURE");
	if (!c->mutt || !sig || strcmp(config_origin(c, "signature"), "the default"))
		return 0;
	size_t n = strlen(sig);
	while (n && (sig[n - 1] == ' ' || sig[n - 1] == '\t'))
		n--;
	if (n && sig[n - 1] == '|') {
		/* mutt runs it through sh; patchreview runs no command from mutt's settings. */
		warn("mutt's $signature '%s' is a command, which patchreview does not run; "
		     "the draft has no signature (set 'signature' to a file)", sig);
		return 0;
	}
	const char *dashes = getenv("PATCHREVIEW_MUTT_SIG_DASHES");
	c->sig_nodashes = dashes && !strcmp(dashes, "no");
	return config_set(c, "signature", sig, "mutt's $signature");
}
