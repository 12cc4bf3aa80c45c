/*
 * report.h: the figures of a run, per model, from the result files: recall
 * of the known bugs (on the line, in the hunk; over all bug cases and over
 * those located in the diff), findings per patch, tokens and time per
 * patch; each case; and the findings a person has to judge, with their
 * hints. As text, or as one JSON document holding every result.
 */
#ifndef EVAL_REPORT_H
#define EVAL_REPORT_H

#include <stdio.h>

#include "eval/run.h"

enum report_format { REPORT_TEXT, REPORT_JSON };

struct report;

/* Reads the results of the run and tallies them; report_close() it. */
struct report *report_open(const struct eval_run *run);
void report_close(struct report *r);

/* Over all models: the cases reviewed (well or not), and those waiting for an answer. */
size_t report_answered(const struct report *r);
size_t report_pending(const struct report *r);

/* Writes the report to out. Returns 0, or -1 when writing failed. */
int report_write(FILE *out, const struct report *r, enum report_format format);

#endif
