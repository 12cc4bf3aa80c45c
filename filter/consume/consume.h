/*
 * consume.h: patchreview consume, the review at delivery. As a pipe
 * target (procmail, maildrop, fdm, Sieve's pipe, lei, korgalore) it reads
 * one message, queues it and starts the worker in the background, and
 * exits 0 at once whatever happened: delivery never waits for the model,
 * never bounces, and the message is never changed. Given Maildirs or
 * mboxes, it queues their messages and runs the worker itself.
 */
#ifndef CONSUME_H
#define CONSUME_H

int consume_main(int argc, char **argv);

#endif
