/*
 * fuzz_mail.c: raw mail -> mail parse -> patch parse -> built-in review ->
 * draft, as patchreview runs it without a model; the draft must keep the
 * invariants of fuzz.h.
 */
#include <unistd.h>

#include "fuzz.h"
#include "patch/parse.h"
#include "run/reviewers.h"

static struct config config;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	config_init(&config);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct mail_list mails;
	int fd = fuzz_fd(data, len);
	int ret = mail_read_all(fd, &mails);
	close(fd);
	if (ret < 0)
		return 0;
	struct mail *m = &mails.v[0];
	struct patch p;
	struct review r;
	patch_parse(&p, m->subject, m->text, m->text_len, m->patch_offset);
	m->text = NULL;
	review_init(&r);
	struct review_input in = { .mail = m, .patch = &p, .config = &config };
	bool reviewed = patch_has_diff(&p) && !(p.subject.is_pull && !p.subject.index);
	if (reviewed)
		reviewers_run(&in, &r);
	fuzz_draft(m, &p, &r, &config, reviewed);
	review_release(&r);
	patch_release(&p);
	mail_list_release(&mails);
	return 0;
}
