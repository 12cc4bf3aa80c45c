/*
 * offline.h: answering the model's requests from files instead of a
 * server, so that any model anywhere, or a person, can answer them, and
 * runs can be replayed. Each request has a name: --request-name (or one
 * made from its text), with a suffix for the part of a batch (part is 1
 * for the first of several requests asked together, 0 when alone) and for
 * the repair and verify requests.
 * With --answers DIR its answer is the text of DIR/NAME.json; with
 * --requests-out DIR a request with no answer there is written to
 * DIR/NAME.json, as the model would get it, and not sent.
 */
#ifndef OFFLINE_H
#define OFFLINE_H

#include <stdbool.h>

#include "backend/wire.h"
#include "base/buf.h"
#include "config/config.h"

struct usage;

static inline bool offline_enabled(const struct config *c)
{
	return c->answers || c->requests_out;
}

/*
 * Answers rq from the files, appending the answer to *text; the tokens it
 * would have cost are estimated from bytes into *u. Returns 0, or -1 with
 * the reason in *why: no answer file, or the request was written out
 * (counted in u->written).
 */
int offline_ask(const struct config *c, const struct wire_request *rq, size_t part,
		struct buf *text, struct buf *why, struct usage *u);

#endif
