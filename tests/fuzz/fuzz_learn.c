/*
 * fuzz_learn.c: what patchreview dismiss and patchreview learn read. The
 * first byte picks the command, the rest is its standard input: 0 lists
 * the findings a draft names (dismiss), 1 dismisses them all (dismiss
 * --all), 2 learns from a sent reply, after a record of the fixed patch's
 * draft was kept for the mail it answers (<fuzz@example.org>). Each run
 * starts from an empty store. Heap at the peak: at most 64 bytes a byte
 * of input, plus 4 MiB.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "fuzz.h"
#include "learn/learn.h"
#include "learn/record.h"

static struct config config;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	config_init(&config);
	fuzz_fixed_patch();
	/* The commands print their lists; libFuzzer reports on stderr. */
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, 1) < 0)
		abort();
	close(null);
	return 0;
}

/* What a run leaves in the store, so that every run starts from nothing. */
static void empty_store(void)
{
	static const char *const leaves[] = { "dismissed", "learned" };
	for (size_t i = 0; i < sizeof(leaves) / sizeof(*leaves); i++) {
		char *path = learn_path(leaves[i]);
		if (path)
			unlink(path);
		free(path);
	}
}

/* The record of the draft patchreview would have written for <fuzz@example.org>. */
static void keep_record(void)
{
	const struct fuzz_patch *fp = fuzz_fixed_patch();
	struct mail m = fp->mails.v[0];
	struct review r;
	review_init(&r);
	m.message_id = "fuzz@example.org";
	for (size_t i = fp->patch.diff_begin; i < fp->patch.nlines && r.nfindings < 3; i++)
		if (fp->patch.lines[i].kind == LINE_ADDED)
			review_add(&r, i, SEVERITY_WARNING, "fuzz", "is this allocation ever freed");
	record_write(&m, &fp->patch, &r, &config);
	review_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (!len)
		return 0;
	int fd = fuzz_fd(data + 1, len - 1);
	if (dup2(fd, 0) < 0)
		abort();
	close(fd);
	empty_store();
	fuzz_mem_start();
	optind = 0;
	switch (data[0] % 3) {
	case 0:
		dismiss_main(1, (char *[]){ "dismiss", NULL });
		break;
	case 1:
		dismiss_main(2, (char *[]){ "dismiss", "--all", NULL });
		break;
	default:
		keep_record();
		learn_main(1, (char *[]){ "learn", NULL });
		break;
	}
	fuzz_mem_check("dismiss and learn", len, 64, 4 << 20);
	return 0;
}
