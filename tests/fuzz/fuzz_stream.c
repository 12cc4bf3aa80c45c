/*
 * fuzz_stream.c: streamed bytes -> SSE/NDJSON splitting -> wire parsers ->
 * the model reviewer -> draft of a fixed real patch, through a fake
 * transport (fake_http.c) instead of libcurl. The first byte picks the
 * backend and whether the verify pass runs; the rest is the server's
 * answer to every request (see fake_http.c).
 */
#include "fake_http.h"
#include "fuzz.h"
#include "model/model.h"

static struct config configs[6];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const backends[] = { "openai", "anthropic", "ollama" };
	(void)argc, (void)argv;
	fuzz_init();
	fuzz_fixed_patch();
	for (size_t i = 0; i < 6; i++) {
		struct config *c = &configs[i];
		config_init(c);
		config_set(c, "backend", backends[i % 3], "fuzz");
		/* Loopback: no key is needed, and none is sent. */
		config_set(c, "url", "http://127.0.0.1:9/v1", "fuzz");
		config_set(c, "model", "fuzz", "fuzz");
		c->cache = false;
		c->quiet = true;
		c->retries = 0;
		config_set(c, "verify", i >= 3 ? "yes" : "no", "fuzz");
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (!len)
		return 0;
	const struct fuzz_patch *fp = fuzz_fixed_patch();
	const struct config *c = &configs[data[0] % 6];
	fake_http_data = data + 1;
	fake_http_len = len - 1;
	struct review r;
	review_init(&r);
	struct review_input in = { .mail = &fp->mails.v[0], .patch = &fp->patch, .config = c };
	model_review(&in, &r, 1);
	fuzz_draft(in.mail, in.patch, &r, c, true);
	review_release(&r);
	return 0;
}
