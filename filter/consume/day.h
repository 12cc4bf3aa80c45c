/*
 * day.h: the tokens consume sent to the model today (UTC), kept in
 * STATE/day as "YYYY-MM-DD N"; only the worker, which holds the lock,
 * writes it, atomically. A new day starts from zero.
 */
#ifndef CONSUME_DAY_H
#define CONSUME_DAY_H

struct day {
	char date[16];		/* YYYY-MM-DD */
	long used;		/* tokens sent that day, estimated */
};

/* Today's count from the state; 0 when the file is missing, unreadable or of another day. */
void day_read(struct day *d, const char *state);

/* Adds tokens to today's count and writes it back; a failure only warns. */
void day_charge(struct day *d, const char *state, long tokens);

#endif
