/* clock.h: seconds on a monotonic clock, for timeouts and elapsed times. */
#ifndef CLOCK_H
#define CLOCK_H

double clock_now(void);

#endif
