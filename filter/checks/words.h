/* words.h: the misspelling list of the spelling rule. */
#ifndef WORDS_H
#define WORDS_H

/* The right spelling of word (lower case, NUL-terminated), or NULL when it is not listed. */
const char *spelling_fix(const char *word);

#endif
