/*
 * thread.h: what the thread already said. Replies in the input (or in the
 * --thread Maildir or mbox) are read for review comments: a reviewer's
 * own text right under a quoted diff line is a comment on that line.
 * Each comment is kept with the patch it answers (its title and version),
 * so that a finding on the same line is not repeated, the model hears what
 * was said, and a later version can tell which comments it addressed.
 */
#ifndef THREAD_H
#define THREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "mail/mail.h"
#include "patch/patch.h"
#include "review/review.h"

/* Comments kept from the whole thread, and from one reply; more are left out. */
#define THREAD_MAX_COMMENTS 200
#define THREAD_MAX_PER_REPLY 20
/* Messages read from --thread (a Maildir's files, or an mbox's messages). */
#define THREAD_MAX_MESSAGES 5000
/* Bytes kept of a quoted line, of a comment's first line, of a name. */
#define THREAD_MAX_QUOTE 240
#define THREAD_MAX_TEXT 200
#define THREAD_MAX_WHO 64
/* Of a patch's earlier comments, the most the model's request carries, in bytes. */
#define THREAD_PROMPT_BYTES 4000
/* Notes on a later version: one per earlier comment, at most this many. */
#define THREAD_MAX_ADDRESSED 8

struct thread_comment {
	char *title;		/* of the patch it answers, as subject_parse() gives it */
	unsigned version;	/* of that patch */
	char *who;		/* the display name, the address, or the bot's name; clean */
	char *quote;		/* the quoted diff line, normalised (thread_normalise()) */
	char *text;		/* the first line of the comment; clean, one line */
};

struct thread {
	struct thread_comment *v;
	size_t n;
	size_t left_out;	/* past THREAD_MAX_COMMENTS or THREAD_MAX_PER_REPLY */
};

/* A message of the input or the thread, parsed. */
struct thread_msg {
	const struct mail *mail;
	const struct patch *patch;
};

/*
 * The comments in the replies among v[0..n): a message whose subject is
 * a reply ("Re: ..."), or without a diff that refers to a patch among v.
 * It answers the nearest patch its References (or In-Reply-To) name, else
 * the patch its own subject names once "Re:" is stripped.
 */
void thread_collect(struct thread *t, const struct thread_msg *v, size_t n);
void thread_release(struct thread *t);

/*
 * A diff line as compared: its marker ('+', '-', ' '), then its text with
 * blanks at either end dropped and runs of blanks made one space, at most
 * THREAD_MAX_QUOTE bytes.
 */
void thread_normalise(struct buf *out, const char *s, size_t len);

/*
 * Drops the findings r->findings[from..] on a line of p that a comment on
 * this version of p quotes; pushes the commenters' names onto who (once
 * each). Returns how many were dropped.
 */
size_t thread_drop(const struct thread *t, const struct patch *p, struct review *r,
		   size_t from, struct strvec *who);

/* The note at the top of the draft for the n findings thread_drop() left out. */
void thread_note_dropped(struct review *r, size_t n, const struct strvec *who);

/*
 * For each comment on an earlier version of p (same title, lower
 * version), a note: whether the line it quotes still appears, with the
 * same marker, in p.
 */
void thread_note_addressed(const struct thread *t, const struct patch *p, struct review *r);

/*
 * The comments on p and on its earlier versions as plain untrusted text
 * for the model, at most budget bytes: per comment who, on which version,
 * the quoted line and the comment. NULL when there are none. Caller frees.
 */
char *thread_prompt_text(const struct thread *t, const struct patch *p, size_t budget);

/* The messages of a Maildir (cur/ and new/) or an mbox file, parsed; owned. */
struct thread_source {
	struct mail_list mails;
	struct patch *patches;
	struct thread_msg *msgs;
	size_t n;
};

/* Reads path for --thread. Returns 0, or -1 after one line on stderr. */
int thread_source_load(struct thread_source *src, const char *path);
void thread_source_release(struct thread_source *src);

#endif
