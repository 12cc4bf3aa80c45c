#!/bin/sh
# Edges of the patch and mail parsers, each on a small mail made here and
# read back through tests/tools/dump (what the parsers saw) or from the
# draft. Each case pins a rule that a mutant of tests/mutate.py broke with
# the rest of the suite passing.
. "$(dirname "$0")/lib.sh"
DUMP=${DUMP:-$ROOT/build/asan/dump}
[ -x "$DUMP" ] || { fail "edges" "$DUMP is missing (make build/asan/dump)"; exit 0; }

# patch_mail: a patch mail whose diff is stdin, in $T/mail.
patch_mail() {
	{
		printf 'From: Ann Author <ann@example.org>\nSubject: [PATCH] x: y\n'
		printf 'Message-ID: <1@example.org>\n\nWhy.\n\nSigned-off-by: Ann Author <ann@example.org>\n---\n'
		cat
	} >"$T/mail"
}
# dumped PATTERN: the dump of $T/mail has a line matching PATTERN (grep -E);
# undumped PATTERN: it has none.
dumped() { "$DUMP" <"$T/mail" >"$T/dump" 2>&1 && grep -q -E -- "$1" "$T/dump"; }
undumped() { "$DUMP" <"$T/mail" >"$T/dump" 2>&1 && ! grep -q -E -- "$1" "$T/dump"; }

# --- the diff
printf 'diff --git "a/old name.c" "b/new name.c"\nsimilarity index 100%%\nrename from "old name.c"\nrename to "new name.c"\n' |
	patch_mail
check "diff: a rename without hunks takes its names from the rename lines, unquoted" \
	dumped '^file 0: renamed old name\.c -> new name\.c '

# git writes \ooo with three octal digits; "\1z2" is none, so the name is
# not git's quoting and stays as written.
printf 'diff --git "a/x\\1z2.c" "b/x\\1z2.c"\n--- "a/x\\1z2.c"\n+++ "b/x\\1z2.c"\n@@ -1 +1 @@\n-a\n+b\n' |
	patch_mail
check "diff: a quoted name whose \\ is not followed by three octal digits is kept as written" \
	dumped '^file 0: modified x\\\\1z2\.c -> '

printf 'diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ x1 +1 @@\n-a\n+b\n' | patch_mail
check "diff: a hunk header with no '-' before its old start is no hunk" undumped '^hunk'

# A body of 16 lines, the size the line array starts with, and no diff:
# the diff's start is looked for up to the last line and no further.
for i in $(seq 12); do printf 'line %d\n' "$i"; done | patch_mail
check "diff: a body of exactly 16 lines and no diff is read to its end" sh -c "
	[ \$(sed '1,/^\$/d' '$T/mail' | wc -l) -eq 16 ] && '$DUMP' <'$T/mail' >/dev/null 2>&1"

"$DUMP" --findings <"$MAILS/modes.eml" >"$T/found" 2>&1
check "diff: a finding on a mode line belongs to that line's file" \
	grep -q "^exec-bit	src/frob.c: new mode 100755	This makes src/frob.c executable" "$T/found"

printf 'Binary files of both builds differ\n' | patch_mail
check "diff -r: a Binary files line with no ' and ' in its names is prose, no file" \
	undumped '^file '

printf 'Binary files a/x and  differ\n' | patch_mail
check "diff -r: a Binary files line with an empty second name keeps the first" \
	dumped '^file 0: binary x -> '

# --- the mail
# A text/plain body of over 1000 "Name: value" lines (a table, a log) is
# body, kept whole: only a message/rfc822 part's body starts with headers,
# and a Content-Type with an "m" somewhere (format=flowed) is none.
{
	printf 'From: Ann Author <ann@example.org>\nSubject: [PATCH] x: y\nMessage-ID: <1@example.org>\n'
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; format=flowed; charset=utf-8\n\n'
	for i in $(seq 1001); do printf 'key-%d: value\n' "$i"; done
	printf '\nSigned-off-by: Ann Author <ann@example.org>\n'
} >"$T/mail"
check "mail: a text body of 1001 lines like header fields is kept whole" dumped '^message: 0\.\.1003 '

# --- the subject
# subject_is SUBJECT LINE: the dump's subject line of a mail with SUBJECT.
subject_is() {
	printf 'From: A <a@example.org>\nSubject: %s\n\nbody\n' "$1" | "$DUMP" >"$T/dump" 2>&1
	[ "$(sed -n 1p "$T/dump")" = "$2" ]
}
check "subject: patchbomb's 'N of M' with N past M is a tag, not an index" \
	subject_is '[PATCH 3 of 2] x' 'subject: patch=1 pull=0 rfc=0 version=1 index=0/0 tags="3 of 2" title="x"'
