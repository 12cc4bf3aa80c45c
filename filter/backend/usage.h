/* usage.h: what the requests of one review cost, counted by every transport. */
#ifndef BACKEND_USAGE_H
#define BACKEND_USAGE_H

/* What the requests of one review cost. */
struct usage {
	long prompt_tokens, completion_tokens;	/* over all requests sent */
	int requests;		/* sent to the server */
	int recalled;		/* answered from the cache */
	long recalled_prompt_tokens, recalled_completion_tokens;	/* what those cost once */
	int answered;		/* from --answers files; their tokens are estimates */
	int written;		/* to --requests-out, unanswered */
};

#endif
