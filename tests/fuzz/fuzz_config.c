/*
 * fuzz_config.c: a configuration file -> config_load(). A file it takes
 * holds values the rest of the program can use as they are; one it
 * refuses leaves nothing behind (ASan and LeakSanitizer would say).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "draft/draft.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char path[64];
	int fd = fuzz_fd(data, len);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct config c;
	config_init(&c);
	if (config_load(&c, path) == 0) {
		if (c.timeout < 0 || c.max_tokens < 0 || c.retries < 0 || c.context_tokens < 0 ||
		    c.token_budget < 0 || c.model_patches < 0 ||
		    !isfinite(c.temperature) || c.temperature < 0 ||
		    !isfinite(c.min_confidence) || c.min_confidence < 0)
			abort();
		draft_check_config(&c);
	}
	config_release(&c);
	close(fd);
	return 0;
}
