#!/bin/sh
# What the thread already said (issue 16): replies in the input or in
# --thread are read for comments under quoted diff lines; a finding on a
# line already commented on is left out with one note at the top, and a
# later version notes for each earlier comment whether its line changed.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1764763200
M=$MAILS
# first_message MBOX: its first message, without the From line.
first_message() { python3 -c 'import mailbox, sys; sys.stdout.write(list(mailbox.mbox(sys.argv[1]))[0].as_string())' "$1"; }

first_message "$M/thread-review.mbox" > "$T/patch.eml"
run_pr < "$T/patch.eml"
check "alone: the patch's trailing blank is a finding" \
	sh -c "[ $status -eq 0 ] && grep -q 'adds trailing whitespace' '$T/out'"

run_pr < "$M/thread-review.mbox"
check "thread: a finding on a line a reply commented on is left out" \
	sh -c "[ $status -eq 0 ] && ! grep -q 'trailing whitespace' '$T/out'"
notes "$T/out" > "$T/flat"
check "thread: one note names who raised it" \
	grep -q -x '1 comment left out: already raised in the thread by Bea Reviewer' "$T/flat"
check "thread: the replies are still not reviewed as patches" \
	sh -c "grep -q 'ignoring 2 replies' '$T/err' && grep -q 'reviewing 1 patch' '$T/err'"
check "thread: the closing summary counts what is left" sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/out' | grep -q 'found nothing to comment on'"

run_pr < "$M/thread-v2.mbox"
cp "$T/out" "$T/v2"
notes "$T/v2" > "$T/flat"
check "v2: the comment whose line changed appears addressed" \
	grep -q -x -F 'v1, Bea Reviewer on "+free(r->buf);": appears addressed (the line changed)' "$T/flat"
check "v2: the bot, named as a bot, on a line still there" \
	grep -q -x -F 'v1, kernel test robot on "+r->buf = calloc(r->size, 1);": the line is unchanged' "$T/flat"
check "v2: a sign-off after the last quote, and a deeper quote, are no comments" \
	sh -c "[ \$(grep -c '^v1' '$T/flat') -eq 2 ] && ! grep -q -e '\"+}\"' -e '\"+r->open' '$T/flat'"
check "v2: comments on v1 leave nothing out of v2" sh -c "! grep -q 'left out: already raised' '$T/v2'"

# --thread: the same from a file, and from a Maildir, the patch alone on stdin.
run_pr --thread "$M/thread-review.mbox" < "$M/thread-v2.eml"
check "--thread mbox: the same notes as with the thread in the input" \
	sh -c "[ $status -eq 0 ] && [ \"\$(grep '^\[patchreview' '$T/out')\" = \"\$(grep '^\[patchreview' '$T/v2')\" ]"
mkdir -p "$T/md/cur" "$T/md/new" "$T/md/tmp"
python3 - "$M/thread-replies.mbox" "$T/md" <<'PY'
import mailbox, sys
for i, m in enumerate(mailbox.mbox(sys.argv[1])):
    m.replace_header("Subject", "Re: that ring patch")  # matched by its References
    open("%s/cur/%d.host:2,S" % (sys.argv[2], i), "w").write(m.as_string())
PY
run_pr --thread "$T/md" < "$T/patch.eml"
check "--thread Maildir: a reply, by its References, leaves its finding out, with the note" \
	sh -c "[ $status -eq 0 ] && ! grep -q 'trailing whitespace' '$T/out' && grep -q 'already raised in the thread by Bea' '$T/out'"
run_pr --thread "$T/nowhere" < "$T/patch.eml"
check "--thread: a path that cannot be read is a usage error" \
	sh -c "[ $status -eq 2 ] && [ \$(wc -l < '$T/err') -eq 1 ] && grep -q 'thread' '$T/err' && [ ! -s '$T/out' ]"

# Hostile: thousands of replies with escape sequences in names and
# comments, and a huge quoted block, against v1 and v2.
python3 - "$M/thread-v2.eml" "$T/hostile.mbox" <<'PY'
import sys
v2 = open(sys.argv[1]).read()
out = ["From x@example.org Mon Dec  7 10:00:00 2026\n" + v2 + "\n"]
for i in range(3000):
    ver = "v2 " if i % 2 else ""
    irt = "In-Reply-To: <ring-v2@example.org>\n" if i % 2 else ""
    huge = "> +\tr->buf = calloc(r->size, 1);\n" * (20000 if i == 0 else 1)
    out.append(
        "From x@example.org Mon Dec  7 10:00:00 2026\n"
        "From: =?utf-8?q?Evil=1B=5B31m_Name=E2=80=AE_%d?= <evil%d@example.org>\n"
        "Subject: Re: [PATCH %s] tools: ring: free the ring when open fails\n"
        "Message-ID: <evil-%d@example.org>\n%s"
        "Content-Type: text/plain; charset=utf-8\n\n"
        "> +\t\tr->buf = NULL;\n\x1b]0;owned\x07 comment %d \x1b[2J\nSubject: forged\n\n%s"
        "The huge block.\n\n" % (i, i, ver, i, irt, i, huge))
open(sys.argv[2], "w").write("".join(out))
PY
run_pr_within 120 < "$T/hostile.mbox"
check "hostile thread: reviewed, the draft stays small" \
	sh -c "[ $status -eq 0 ] && [ \$(wc -c < '$T/out') -lt 20000 ]"
check "hostile thread: no escape sequence or bidi override reaches the draft" \
	sh -c "! grep -q -P '[\x1b\x07]|\xe2\x80\xae' '$T/out'"
check "hostile thread: no forged header" sh -c "! grep -q '^Subject: forged' '$T/out'"
check "hostile thread: at most 8 notes on earlier comments, the rest counted" \
	sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/out' > '$T/notes'; [ \$(grep -c '^v1, ' '$T/notes') -eq 8 ] && grep -q 'more comments on earlier versions are not listed' '$T/notes'"
