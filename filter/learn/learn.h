/*
 * learn.h: the commands that learn from the maintainer: which findings
 * they dismiss, which they delete before sending, and how many of each
 * kind they keep.
 *
 *     patchreview dismiss [FINGERPRINT | N]... [< draft]
 *     patchreview learn [PATH]... [< sent mail]
 *     patchreview stats
 */
#ifndef LEARN_H
#define LEARN_H

/* Each returns the exit status. argv[0] is the command's name. */
int dismiss_main(int argc, char **argv);
int learn_main(int argc, char **argv);
int stats_main(int argc, char **argv);

#endif
