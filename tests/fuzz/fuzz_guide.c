/*
 * fuzz_guide.c: a prompt guide file -> guide_parse() -> trigger_match()
 * against a fixed real patch. A guide it takes has a title and text; one
 * it refuses says why.
 */
#include <stdlib.h>

#include "base/msg.h"
#include "fuzz.h"
#include "prompt/guide.h"
#include "prompt/trigger.h"

static struct trigger_input triggers;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	trigger_input_init(&triggers, &fuzz_fixed_patch()->patch);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct guide g = { .name = xstrdup("fuzz") };
	struct buf why = BUF_INIT, reason = BUF_INIT;
	if (guide_parse(&g, (const char *)data, len, &why) == 0) {
		if (!g.title || !g.text || !*g.text)
			abort();
		trigger_match(&g, &triggers, &reason);
	} else if (!why.len) {
		abort();
	}
	guide_release(&g);
	buf_release(&why);
	buf_release(&reason);
	return 0;
}
