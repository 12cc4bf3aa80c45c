/* summary.h: what the review of each patch found, for the cover letter's draft. */
#ifndef SERIES_SUMMARY_H
#define SERIES_SUMMARY_H

#include "review/review.h"
#include "series/series.h"

/* Of a finding quoted in the summary, at most this many bytes. */
#define SUMMARY_QUOTE 70

/*
 * Adds to cover, the review of s's cover letter, a summary paragraph: per
 * patch (rs[k] is the review of s->patches[k]) its number of comments and
 * the first line of the most severe, the patches the input lacks, and the
 * base the series names. Nothing for a series without patches.
 */
void series_summarise(struct review *cover, const struct series *s, const struct review *rs);

#endif
