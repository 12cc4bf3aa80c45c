/*
 * fuzz.h: what the libFuzzer harnesses of tests/fuzz/ share: the draft
 * invariants every harness asserts, the draft as draft_write() writes it,
 * and the fixed real patch the model harnesses review.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "mail/mail.h"
#include "patch/patch.h"
#include "review/review.h"

/*
 * Aborts, so that libFuzzer keeps the input, unless the draft is what the
 * writer intends: a header block of known fields, each once, printable
 * ASCII, folded lines marked; then a body of valid UTF-8 without control
 * bytes but tab and newline, without bidirectional overrides or U+2028
 * and U+2029, without a
 * line starting "From " or over 998 bytes, and whose lines starting '>'
 * are quoted lines of p, in order.
 */
void fuzz_check_draft(const char *draft, size_t len, const struct patch *p);

/* Writes the draft for m, p and r as patchreview would, and checks it. */
void fuzz_draft(const struct mail *m, const struct patch *p, const struct review *r,
		const struct config *c, bool reviewed);

/* A descriptor that reads data (a memfd); the caller closes it. */
int fuzz_fd(const uint8_t *data, size_t len);

/* A private scratch directory, made once; its path. */
const char *fuzz_scratch(void);

/* The mail and patch of tests/mails/llm-net.eml (or $FUZZ_PATCH_MAIL), read once. */
struct fuzz_patch {
	struct mail_list mails;
	struct patch patch;
};
const struct fuzz_patch *fuzz_fixed_patch(void);

/* What every harness does first: GMime, no warnings, no user files, the heap watched. */
void fuzz_init(void);

/*
 * The heap's peak, as the sanitizer's malloc and free hooks see it:
 * fuzz_mem_start() marks where a step begins; fuzz_mem_check() aborts,
 * so that libFuzzer keeps the input, when the step's peak went over times
 * x len + plus bytes: the multiple of its input each harness documents.
 */
void fuzz_mem_start(void);
void fuzz_mem_check(const char *what, size_t len, size_t times, size_t plus);

#endif
