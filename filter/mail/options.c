/* options.c: the options of every GMime parse of a mail. */
#include "mail/options.h"

GMimeParserOptions *mail_parser_options(void)
{
	static const char *fallback[] = { "UTF-8", "windows-1252", NULL };
	GMimeParserOptions *opts = g_mime_parser_options_new();
	g_mime_parser_options_set_fallback_charsets(opts, fallback);
	g_mime_parser_options_set_address_compliance_mode(opts, GMIME_RFC_COMPLIANCE_LOOSE);
	g_mime_parser_options_set_parameter_compliance_mode(opts, GMIME_RFC_COMPLIANCE_LOOSE);
	g_mime_parser_options_set_rfc2047_compliance_mode(opts, GMIME_RFC_COMPLIANCE_LOOSE);
	return opts;
}
