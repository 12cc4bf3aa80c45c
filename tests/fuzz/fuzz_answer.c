/*
 * fuzz_answer.c: a model's answer -> findings -> anchoring -> draft of a
 * fixed real patch. The answer comes in through offline answering
 * (--answers), so the model reviewer runs as it does for a server's answer,
 * the repair request and the verify pass included (both are answered with
 * the same bytes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/msg.h"
#include "fuzz.h"
#include "model/model.h"

static struct config config;
static char *answer;	/* the file the review request is answered from */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	fuzz_fixed_patch();
	config_init(&config);
	config.answers = fuzz_scratch();
	config.request_name = "fuzz";
	config_set(&config, "verify", "yes", "fuzz");
	config.quiet = true;
	static const char *const names[] = { "fuzz", "fuzz.repair", "fuzz.finding_verdicts" };
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		char path[256];
		snprintf(path, sizeof(path), "%s/%s.json", fuzz_scratch(), names[i]);
		if (!i)
			answer = xstrdup(path);
		else if (symlink("fuzz.json", path) && errno != EEXIST)
			abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	const struct fuzz_patch *fp = fuzz_fixed_patch();
	FILE *f = fopen(answer, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		abort();
	struct review r;
	review_init(&r);
	struct review_input in = { .mail = &fp->mails.v[0], .patch = &fp->patch, .config = &config };
	model_review(&in, &r, 1);
	fuzz_draft(in.mail, in.patch, &r, &config, true);
	review_release(&r);
	return 0;
}
