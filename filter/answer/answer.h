/*
 * answer.h: reading what a model wrote. The answer is untrusted text: it
 * is parsed as JSON leniently (code fences and chatter around the object
 * are tolerated) and every string meant for the draft is cleaned first.
 */
#ifndef ANSWER_H
#define ANSWER_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "review/finding.h"

/* Longest comment kept; a model that rambles further is cut. */
#define ANSWER_MAX_COMMENT 4000
/* Findings read from one answer; the rest are counted, not kept. */
#define ANSWER_MAX_FINDINGS 100

struct model_finding {
	char *file;		/* as the model wrote it, or "" */
	char *function;		/* the function the quote is in, as the model says, or "" */
	char *quote;
	char *comment;		/* cleaned */
	enum severity severity;
	double confidence;	/* 0..1; 1 when the model gave none */
	bool preexisting;	/* "preexisting": true, about code the patch does not touch */
	/* "incomplete_fix": true, the patch does not do all its message claims: never pre-existing */
	bool incomplete_fix;
};

struct model_answer {
	char *summary;		/* cleaned, or NULL */
	struct model_finding *findings;
	size_t nfindings;
	size_t beyond;		/* findings past ANSWER_MAX_FINDINGS, not read */
};

/* The JSON object in text, or NULL. Caller deletes it. */
cJSON *answer_json(const char *text);

/*
 * Parses a review: {"summary": ..., "findings": [...]}. Findings without a
 * comment are skipped. Returns 0, or -1 when text holds no object with a
 * "findings" array. Release a either way.
 */
int answer_parse(struct model_answer *a, const char *text);
void answer_release(struct model_answer *a);

/*
 * s made fit for the draft: terminal escape sequences removed, CR LF as
 * LF, trimmed, cut after max bytes, and then text_clean()ed (controls and
 * bidirectional overrides neutralised, valid UTF-8). Caller frees.
 */
char *answer_clean(const char *s, size_t max);

#endif
