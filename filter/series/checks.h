/* checks.h: the built-in checks of a whole series. */
#ifndef SERIES_CHECKS_H
#define SERIES_CHECKS_H

#include "review/review.h"
#include "series/series.h"

/*
 * Adds to r, as findings about the whole cover letter (or the first
 * patch, when there is none), what is wrong with the series as a whole.
 * Each finding's source is its rule id: series-gap, series-versions,
 * series-author, series-signoff, series-diffstat.
 */
void series_check(const struct series *s, struct review *r);

#endif
