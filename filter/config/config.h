/*
 * config.h: settings, layered as defaults < config file < environment <
 * command line. Every key has an environment override PATCHREVIEW_<KEY>;
 * the keys and their defaults are one table in config.c.
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <stdbool.h>
#include <stdio.h>

struct config {
	/* the draft */
	char *from;		/* reviewer identity for From:, or NULL */
	char *me;		/* more of the reviewer's addresses, or NULL */
	char *trim;		/* auto, yes, no */
	char *attribution;	/* the line above the quote, with %-escapes */
	char *signature;	/* file appended after "-- ", or NULL */
	bool sig_nodashes;	/* mutt's $sig_dashes unset: no "-- " line (not a key) */
	const char *tag;	/* --tag: end with "TAG: from" (not owned), or NULL */
	bool mutt;		/* add X-Mutt-References */
	/* the built-in checks */
	char *profile;		/* auto, kernel, generic */
	char *skip_checks;	/* rules turned off, by id */
	char *add_checks;	/* rules turned on beyond the profile's, by id */
	char *dismissed;	/* the dismissed-findings file, or NULL for the default */
	bool show_dismissed;	/* list the dismissed findings at the end of the draft */
	/*
	 * header, body: where the notes and closing summaries go, which are for
	 * the maintainer alone (header: X-Patchreview-* fields)
	 */
	char *notes;
	char *fingerprints;	/* header, line, none: where the fingerprints go */
	bool record;		/* keep each draft's findings for patchreview learn */
	long learn_after;	/* deletions before sending that dismiss a finding */
	char *maildir;		/* deliver into this Maildir instead of stdout */
	bool fresh_maildir;	/* --fresh-maildir: earlier drafts of it go to <maildir>-old */
	/* the run */
	bool strict;		/* non-zero exit when the model review fails */
	bool quiet;		/* no progress display */
	bool cache;		/* use the review cache */
	bool explain_prompt;	/* print the prompt selection and stop */
	/* offline answering, set by options only (the strings are not owned) */
	const char *answers;	/* answer requests from files in this directory */
	const char *requests_out;	/* write unanswered requests here instead of sending */
	const char *request_name;	/* the requests' file name; NULL: from their text */
	const char *thread;	/* --thread: a Maildir or mbox of the thread, or NULL */
	const char *output_dir;	/* --output-dir: each draft into DIR/NNNN-<subject>.eml */
	/* the model reviewer */
	char *backend;		/* none (off), openai, anthropic, ollama */
	char *url;
	char *model;
	char *api_key_env;
	char *api_key_command;
	long timeout;		/* seconds for one request */
	long max_tokens;
	double temperature;
	long retries;
	double min_confidence;	/* 0..1 */
	char *low_confidence;	/* drop, section: what becomes of findings below it */
	char *preexisting;	/* hide, section: findings about code the patch does not touch */
	char *verify;		/* no, low, yes: which findings a second pass tries to refute */
	char *prompts_dir;
	char *disclosure;	/* closing line, or "none"; "%s" becomes the model name */
	/* the maintainer's tree */
	char *tree;		/* a git work tree to read the code around the patch from */
	long context_budget;	/* bytes of that code in the prompt */
	bool checkpatch;	/* run the tree's scripts/checkpatch.pl: trusting its code */
	char *list_folder;	/* the list's mail, where prerequisites are looked for (prereq/) */
	long series_context_bytes;	/* of the other patches' diffs, in each request of a series */
	long part_bytes;	/* a patch with a larger diff is reviewed in parts */
	long jobs;		/* model requests sent at once */
	long context_tokens;	/* the model's context: no request is larger (0: no limit) */
	long token_budget;	/* tokens one run may send to the model (0: no limit) */
	long model_patches;	/* patches one run gives the model (0: no limit) */
	/* patchreview consume */
	long consume_wait;	/* seconds a series waits for its missing patches */
	long consume_queue;	/* messages queued at most; past it they are left */
	long consume_tokens;	/* tokens consume may send in a day (UTC) */
	char *consume_out;	/* a directory or maildir:PATH for each series' review, or NULL */
	char *consume_format;	/* draft, json: what consume_out gets */
	long consume_keep;	/* days a reviewed series and a seen message stay (0: forever) */
	char **origin;		/* per key: where it was last set, or NULL */
};

void config_init(struct config *c);
void config_release(struct config *c);

/* Sets one key from text. Returns 0, or -1 after one line on stderr naming origin. */
int config_set(struct config *c, const char *key, const char *value,
	       const char *origin);

/*
 * Where key got its value, for messages: "file:line", "PATCHREVIEW_KEY",
 * "--option", or "the default".
 */
const char *config_origin(const struct config *c, const char *key);

/*
 * Reads the config file (path, or $PATCHREVIEW_CONFIG, or
 * $XDG_CONFIG_HOME/patchreview/config) and then the environment.
 * A missing default file is fine; a missing explicit one is an error.
 * Returns 0 or -1.
 */
int config_load(struct config *c, const char *path);

/*
 * The keys, one a line: "INDENT<key> <default> <meaning>", the default a
 * word, "unset", or a value in double quotes when it holds blanks; for
 * --help, --list-keys and doc/configuration.md.
 */
void config_print_keys(FILE *f, const char *indent);

#endif
