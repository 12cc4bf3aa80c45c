/*
 * place.h: inside output/: what the format writers share: where each
 * finding is, in reading order, and their JSON printer.
 */
#ifndef OUTPUT_PLACE_H
#define OUTPUT_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "base/buf.h"

struct config;
struct finding;
struct output_patch;
struct patch_line;

struct placed {
	const struct finding *finding;
	const struct patch_line *line;	/* NULL for the whole patch */
	const char *file;	/* the file's path as in the mail, or NULL */
	unsigned long new_no;	/* new-side line number, 0 when none */
	unsigned long old_no;	/* old-side line number, 0 when none */
	const char *kind;	/* "added", "message"...; NULL for the whole patch */
};

/*
 * The findings of op: those about the whole patch first, then by line,
 * each in the order found. Returns an array of *no entries; caller frees.
 */
struct placed *place_findings(const struct output_patch *op, size_t *no);

/*
 * Appends where f is, made one safe line: "path:12" (new-side line),
 * "path" (a removed or header line), "commit message", "notes" (below
 * "---"), or nothing for the whole patch.
 */
void place_where(struct buf *out, const struct placed *f);

/* Is the finding the model's? The b4-check format gives it its own column. */
bool place_is_model(const struct placed *f);

/* Prints root and a newline to out, indented when pretty, and deletes root. */
void output_print_json(FILE *out, cJSON *root, bool pretty);

#endif
