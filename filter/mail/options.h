/*
 * options.h: inside mail/: how GMime is asked to parse, the same for the
 * limits' reading of a Content-Type field as for the parse itself.
 */
#ifndef MAIL_OPTIONS_H
#define MAIL_OPTIONS_H

#include <gmime/gmime.h>

/* The parser options every parse uses; g_mime_parser_options_free() them. */
GMimeParserOptions *mail_parser_options(void);

#endif
