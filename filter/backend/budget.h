/*
 * budget.h: how much a run may send to the model. No request is larger
 * than the model's context (context_tokens, less max_tokens kept for the
 * answer); the requests of one run together stay within token_budget;
 * and at most model_patches patches of a run go to the model. The first
 * request that does not fit the budget spends it: nothing is sent after
 * it, so what the model did not see is the tail of the run, in order.
 * Sizes are estimated from bytes, cautiously, since no tokenizer is at
 * hand: code runs near 3 bytes a token, prose near 4.
 */
#ifndef BACKEND_BUDGET_H
#define BACKEND_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/wire.h"
#include "config/config.h"

#define TOKEN_BYTES 3

/* Tokens of text this many bytes long, estimated (rounded up). */
static inline long tokens_of(size_t bytes)
{
	return (long)((bytes + TOKEN_BYTES - 1) / TOKEN_BYTES);
}

/* The bytes of a request's text: its instructions and its messages. */
size_t wire_request_bytes(const struct wire_request *rq);

/* The largest request c allows, in bytes (SIZE_MAX with context_tokens = 0). */
size_t budget_request_bytes(const struct config *c);

struct budget {
	long tokens;		/* left to send, or -1: no limit */
	long patches;		/* left to give the model, or -1: no limit */
	long sent;		/* tokens sent so far */
	bool spent;		/* a request did not fit: nothing more is sent */
};

/* A run's budget, from token_budget and model_patches. */
void budget_init(struct budget *b, const struct config *c);

/*
 * May a request of this many bytes go? Yes takes its tokens; no spends
 * the budget for the rest of the run.
 */
bool budget_take(struct budget *b, size_t bytes);

/* May one more patch go to the model? Yes counts it. */
bool budget_take_patch(struct budget *b);

#endif
