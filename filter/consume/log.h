/*
 * log.h: consume's log, STATE/log: one line an event, with the time, so a
 * delivery agent's own log and the user's terminal stay quiet.
 */
#ifndef CONSUME_LOG_H
#define CONSUME_LOG_H

/* The log is started again (the old one kept as log.old) past this size. */
#define CONSUME_LOG_MAX ((long)1 << 20)

/* Opens STATE/log for appending on fd 2, rotating it past CONSUME_LOG_MAX. Returns 0 or -1. */
int consume_log_open(const char *state);

/* "TIME consume: ..." on stderr (the log once consume_log_open() made it so). */
void consume_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
