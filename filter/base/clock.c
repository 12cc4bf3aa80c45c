/* clock.c: the monotonic clock as a double. */
#include <time.h>

#include "base/clock.h"

double clock_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
