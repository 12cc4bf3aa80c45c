/* budget.c: what a run may still send to the model. */
#include <stdint.h>
#include <string.h>

#include "backend/budget.h"

size_t wire_request_bytes(const struct wire_request *rq)
{
	size_t n = strlen(rq->system);
	for (size_t i = 0; i < rq->nmessages; i++)
		n += strlen(rq->messages[i].text);
	return n;
}

size_t budget_request_bytes(const struct config *c)
{
	if (!c->context_tokens)
		return SIZE_MAX;
	if (c->max_tokens >= c->context_tokens)
		return 0;
	return (size_t)(c->context_tokens - c->max_tokens) * TOKEN_BYTES;
}

void budget_init(struct budget *b, const struct config *c)
{
	*b = (struct budget){
		.tokens = c->token_budget ? c->token_budget : -1,
		.patches = c->model_patches ? c->model_patches : -1,
	};
}

bool budget_take(struct budget *b, size_t bytes)
{
	long tokens = tokens_of(bytes);
	if (!b->spent && b->tokens >= 0 && tokens > b->tokens)
		b->spent = true;
	if (b->spent)
		return false;
	if (b->tokens >= 0)
		b->tokens -= tokens;
	b->sent += tokens;
	return true;
}

bool budget_take_patch(struct budget *b)
{
	if (!b->patches)
		return false;
	if (b->patches > 0)
		b->patches--;
	return true;
}
