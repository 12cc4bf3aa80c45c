/*
 * batch.h: the review requests of a run, one per patch or per part of a
 * large patch, answered together: from the cache where it can, else from
 * the backend, with one repair request for an answer that is not the
 * JSON asked for. Answers are cached one request at a time.
 */
#ifndef BATCH_H
#define BATCH_H

#include <stdbool.h>

#include "answer/answer.h"
#include "backend/backend.h"
#include "base/buf.h"
#include "prompt/prompt.h"

struct model_request {
	struct prompt prompt;	/* filled in by the caller */
	struct usage *usage;	/* whose accounting the request counts into */
	struct model_answer answer;	/* the review, when answered */
	struct buf why;		/* why it failed, when it did */
	struct buf raw;		/* an answer that never became JSON */
	bool answered;
};

void model_request_init(struct model_request *q, struct usage *u);
void model_request_release(struct model_request *q);

/* Answers the n requests on backend b; each ends answered or with its why. */
void batch_answer(struct backend *b, struct model_request *v, size_t n);

#endif
