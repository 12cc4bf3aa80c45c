/*
 * fuzz_thread.c: an mbox of a thread -> its messages parsed -> the review
 * comments of its replies (thread/replies.c) -> what the model is told of
 * them for each patch, and for the fixed patch the findings they leave
 * out and the notes on an earlier version. The text for the model stays
 * within its budget. Heap at the peak: at most 64 bytes a byte of input
 * (messages, patches and comments), plus 4 MiB.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "fuzz.h"
#include "patch/parse.h"
#include "thread/thread.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	fuzz_fixed_patch();
	return 0;
}

/* What the model would be told for p: within the budget, with the line saying how many were left out. */
static void told(const struct thread *t, const struct patch *p)
{
	char *text = thread_prompt_text(t, p, THREAD_PROMPT_BYTES);
	if (text && strlen(text) > THREAD_PROMPT_BYTES + 64)
		abort();
	free(text);
}

/* A finding on each diff line of the fixed patch, then the ones the thread already made dropped. */
static void drop(const struct thread *t, const struct patch *p)
{
	struct review r;
	struct strvec who = STRVEC_INIT;
	review_init(&r);
	for (size_t i = p->diff_begin; i < p->nlines; i++)
		review_add(&r, i, SEVERITY_NIT, "fuzz", "a finding");
	size_t before = r.nfindings, n = thread_drop(t, p, &r, 0, &who);
	if (r.nfindings + n != before)
		abort();
	thread_note_dropped(&r, n, &who);
	thread_note_addressed(t, p, &r);
	strvec_clear(&who);
	review_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct mail_list mails;
	int fd = fuzz_fd(data, len);
	fuzz_mem_start();
	int ret = mail_read_all(fd, &mails);
	close(fd);
	if (ret < 0)
		return 0;
	const struct fuzz_patch *fixed = fuzz_fixed_patch();
	struct patch *patches = xcalloc(mails.n + 1, sizeof(*patches));
	struct thread_msg *v = xcalloc(mails.n + 2, sizeof(*v));
	for (size_t i = 0; i < mails.n; i++) {
		struct mail *m = &mails.v[i];
		patch_parse(&patches[i], m->subject, m->text, m->text_len, m->patch_offset);
		m->text = NULL;
		v[i] = (struct thread_msg){ m, &patches[i] };
	}
	v[mails.n] = (struct thread_msg){ &fixed->mails.v[0], &fixed->patch };
	struct thread t;
	thread_collect(&t, v, mails.n + 1);
	for (size_t i = 0; i < mails.n; i++)
		told(&t, &patches[i]);
	told(&t, &fixed->patch);
	drop(&t, &fixed->patch);
	fuzz_mem_check("the thread's replies", len, 64, 4 << 20);
	thread_release(&t);
	for (size_t i = 0; i < mails.n; i++)
		patch_release(&patches[i]);
	free(patches);
	free(v);
	mail_list_release(&mails);
	return 0;
}
