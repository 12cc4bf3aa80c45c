#!/bin/sh
# Review at delivery (issue 26): a real delivery agent (procmail) pipes
# each message to `patchreview consume`, which queues it and reviews it in
# the background; the key press later gives the draft with no model
# request, the same draft a review now makes; a series delivered out of
# order, one message twice, is reviewed once, as a series, and the key on
# any of its messages answers with the series in view; a series is its
# sender's; v2 is reviewed with the replies to v1; a worker killed
# mid-review leaves a state the next run and the key press use; a flood
# past consume_tokens stops there. The worker's end is waited for through
# its lock (flock), never slept on.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
for p in procmail flock python3; do
	command -v $p >/dev/null || { skip "consume" "$p is not installed"; exit 0; }
done
start_server
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok
export XDG_STATE_HOME=$T/state
STATE=$T/state/patchreview
mkdir -p "$HOME" "$T/Maildir/cur" "$T/Maildir/new" "$T/Maildir/tmp"
# procmail clears the environment (-p keeps it: the test's backend and key);
# HOME comes from the password file unless the rc sets it.
cat >"$T/procmailrc" <<P
HOME=$HOME
XDG_STATE_HOME=$XDG_STATE_HOME
XDG_CACHE_HOME=$XDG_CACHE_HOME
XDG_CONFIG_HOME=$XDG_CONFIG_HOME
MAILDIR=$T/Maildir
DEFAULT=$T/Maildir/
LOGFILE=$T/procmail.log
:0 wc
| $PR consume
P
deliver() { procmail -p -m "$T/procmailrc" <"$1"; }
# The worker started by the last delivery is done once its lock is free.
settle() { flock "$STATE/worker.lock" true; }
# same A B: two drafts alike but for their Date fields.
same() { ! diff "$1" "$2" | grep "^[<>]" | grep -qv "^[<>] Date:"; }

# One patch: delivered, reviewed in the background, the key answers from the cache.
deliver "$MAILS/llm-net.eml"
check "procmail delivers, consume exits 0" test "$?" -eq 0 -a -n "$(ls "$T/Maildir/new")"
settle
check "the message is reviewed at delivery: one request" sent 1
check "the log says so" grep -q "reviewed: about [1-9]" "$STATE/log"
records() { find "$XDG_DATA_HOME/patchreview/drafts" -type f 2>/dev/null | wc -l; }
check "no learning record before the key press" test "$(records)" -eq 0
run_pr <"$MAILS/llm-net.eml"
check "the key press sends no request" sent 1
check "the key press keeps the draft's learning record" test "$(records)" -eq 1
cp "$T/out" "$T/keyed"
PATCHREVIEW_CACHE=no "$PR" <"$MAILS/llm-net.eml" >"$T/direct" 2>/dev/null
check "the key press gives the draft a review now gives" same "$T/keyed" "$T/direct"
deliver "$MAILS/llm-net.eml"
settle
check "the same message again costs nothing" sent 2

# A series out of order, one patch twice, and v1 of it with a reply: v1 and
# v2 are two series, each reviewed once, as a whole; the reply is not.
# A series is its sender's: v2 2/3, sent in the mbox from another address
# of Ada's (for the series' author check), comes here from her usual one,
# in capitals (the key lowercases it); a "[PATCH v2 2/3]" from Mallory in
# reply to the same cover letter, before it, is a series of its own, not
# part of Ada's, and does not complete it early.
mkdir "$T/split"
python3 - "$MAILS/series-v2.mbox" "$T/split" <<'PY'
import re, sys
for m in re.split(r"(?m)^From .*\n", open(sys.argv[1]).read())[1:]:
    mid = re.search(r"(?mi)^Message-ID: <([^>]*)>", m).group(1)
    if mid == "v2-2@example.org":
        mallory = m.replace("From: Ada Lovelace <ada@work.example.com>", "From: Mallory <mallory@example.net>")
        mallory = mallory.replace("<v2-2@example.org>", "<mallory@example.net>")
        mallory = mallory.replace("print the flags instead.", "print the flags instead. MALLORY-WAS-HERE")
        open(sys.argv[2] + "/mallory", "w").write(mallory.rstrip("\n") + "\n")
        m = m.replace("<ada@work.example.com>", "<ADA@Example.org>")
    open(sys.argv[2] + "/" + re.sub(r"[<>@.]", "", mid), "w").write(m.rstrip("\n") + "\n")
PY
before=$(requests)
for m in v2-3exampleorg v1-1exampleorg v2-1exampleorg r1exampleorg mallory v2-2exampleorg \
	v1-0exampleorg v2-3exampleorg v1-2exampleorg v2-0exampleorg; do
	deliver "$T/split/$m"
done
settle
check "two series reviewed once each" test "$(grep -c 'reviewed: about' "$STATE/log")" -eq 3
check "a third party's patch in reply to the series is not part of it" \
	logq 'not any("MALLORY-WAS-HERE" in json.dumps(q) for q in r)'
# What the same series gives reviewed at once, from an mbox of its messages.
for m in v2-0 v2-1 v2-2 v2-3; do
	cat "$T/split/${m}exampleorg"; printf '\001\001\001\001\n'
done >"$T/v2.mbox"
series_sent=$(($(requests) - before))
check "the series' patches went to the model once: 5 requests" test "$series_sent" -eq 5
run_pr <"$T/split/v2-2exampleorg"
check "the key on a patch of the series sends nothing" test "$(requests)" -eq $((before + 5))
check "and says it answers with the series" err_has "reviewed at delivery"
check "the draft is of that patch" grep -q '^Subject: Re: \[PATCH v2 2/3\]' "$T/out"
cp "$T/out" "$T/keyed"
"$PR" <"$T/v2.mbox" >"$T/all" 2>/dev/null
python3 - "$T/all" "$T/direct" <<'PY'
import re, sys
drafts = re.split(r"(?m)^From [^\n]*\n", open(sys.argv[1]).read())
d = [x for x in drafts if "[PATCH v2 2/3]" in x.split("\n\n")[0]][0]
open(sys.argv[2], "w").write(d.replace("\n>From ", "\nFrom ").rstrip("\n") + "\n")
PY
check "the same draft as the series reviewed whole" same "$T/keyed" "$T/direct"
# v2 is reviewed with the comments on v1 its thread had: Bea's reply to v1
# 1/2 came before either series was reviewed, and went to the model with
# v1 1/2 and with v2 1/3; the key on v2 1/3 sends nothing and gives the
# note on it.
check "v1's comment went to the model with v1 1/2 and with v2 1/3" \
	logq 'sum("What happens for count >= 64" in user_of(q) for q in r) == 2'
n=$(requests)
run_pr <"$T/split/v2-1exampleorg"
check "the key on v2 1/3 sends nothing" sent "$n"
check "and its draft says whether v1's comment was addressed" \
	note_is 'v1, Bea Reviewer on "+unsigned long frob(unsigned int count)"'
run_pr <"$T/split/mallory"
check "the key on Mallory's patch answers it alone" test "$status" -eq 0 -a -s "$T/out"
check "(not with Ada's series in view)" test -z "$(grep 'reviewed at delivery' "$T/err")"

# A reply the review had in view never stands for a patch that did not
# come: w1 (v1 again, under other ids) without its 2/2, with Bea's reply to
# that 2/2, is reviewed as it came (consume_wait 0); 1/2 sent again makes
# it pending, and it waits for 2/2 as before.
for m in v1-0 v1-1; do
	sed 's/<v1-/<w1-/g' "$T/split/${m}exampleorg" >"$T/w$m"
done
sed 's/<v1-1@/<w1-2@/g; s/<v1-0@/<w1-0@/g; s/<r1@/<rw@/; s|\[PATCH 1/2\] foo: add frob()|[PATCH 2/2] foo: bar: show the flags|' \
	"$T/split/r1exampleorg" >"$T/wreply"
for m in wreply wv1-0 wv1-1; do
	deliver "$T/$m"
done
settle
PATCHREVIEW_CONSUME_WAIT=0 "$PR" consume </dev/null
settle
reviewed=$(grep -c 'reviewed: about' "$STATE/log")
w1=$(dirname "$(grep -l '^Message-ID: <w1-1@' "$STATE"/series/*/*.eml)")
check "a series without its 2/2 is reviewed as it came, the reply to 2/2 in view" \
	test -f "$w1/done" -a -n "$(ls "$w1/thread")"
sed 's/^Message-ID: <w1-1@/Message-ID: <w1-1-resent@/' "$T/wv1-1" >"$T/wv1-1b"
deliver "$T/wv1-1b"
settle
check "then a patch sent again makes it wait for 2/2, not the reply to it" \
	test "$(grep -c 'reviewed: about' "$STATE/log")" -eq "$reviewed" -a -f "$STATE/pending/$(basename "$w1")"

# A worker killed mid-review (kill -9 of its process group, the model not
# answered yet) leaves the message in its series and the series pending: the
# key still works, and the next run reviews it.
sed 's/^Message-ID: <.*/Message-ID: <killed@example.org>/; s/^Subject: \[PATCH net\]/Subject: [PATCH net-next]/' \
	"$MAILS/llm-net.eml" >"$T/killed.eml"
before=$(requests)
PATCHREVIEW_MODEL=scenario:slow deliver "$T/killed.eml"
for _ in $(seq 100); do
	[ "$(requests)" -gt "$before" ] && break
	sleep 0.1
done
kill -9 -- "-$(cat "$STATE/worker.lock")" 2>/dev/null
settle
killed=$(dirname "$(grep -l '^Message-ID: <killed@' "$STATE"/series/*/*.eml)")
check "the killed review left its series pending" test -f "$STATE/pending/$(basename "$killed")"
check "and not marked done" test ! -f "$killed/done"
run_pr <"$T/killed.eml"
check "the key press still reviews it" test "$status" -eq 0 -a -s "$T/out"
"$PR" consume </dev/null
settle
check "the next run reviews the pending series" test ! -f "$STATE/pending/$(basename "$killed")"
n=$(requests)
run_pr <"$T/killed.eml"
check "then the key press sends nothing" sent "$n"

# A flood past consume_tokens: the series that fit are reviewed, one at a
# time here; the others are left for the key press, each with a log line.
# Each run may send a little more than one review takes (u, from the first
# review's log line); the day has room for two such runs from now on.
u=$(sed -n 's/.*reviewed: about \([0-9]*\) tokens.*/\1/p' "$STATE/log" | head -1)
run=$((u + u / 4))
before=$(requests)
limit=$((2 * run + $(cut -d' ' -f2 "$STATE/day")))
for i in 1 2 3 4 5 6 7 8 9 10; do
	sed "s/^Message-ID: <.*/Message-ID: <flood-$i@example.org>/; s/^Subject: \[PATCH net\]/Subject: [PATCH net $i]/" \
		"$MAILS/llm-net.eml" >"$T/flood-$i.eml"
	PATCHREVIEW_JOBS=1 PATCHREVIEW_TOKEN_BUDGET=$run PATCHREVIEW_CONSUME_TOKENS=$limit \
		deliver "$T/flood-$i.eml"
done
settle
flood_sent=$(($(requests) - before))
check "the flood stops at the day's budget: 2 of 10 reviewed" test "$flood_sent" -eq 2
check "the rest are left for the key press, each said in the log" \
	test "$(grep -c 'left for the key press: consume_tokens' "$STATE/log")" -eq 8

# The folder run (cron, a timer, lei): an mbox's messages reviewed before
# it returns; the key on one of them sends nothing.
for i in 1 2; do
	echo "From list Thu Jan  1 00:00:00 1970"
	sed "s/^Message-ID: <.*/Message-ID: <mbox-$i@example.org>/; s/^Subject: \[PATCH net\]/Subject: [PATCH net-mbox $i]/" \
		"$MAILS/llm-net.eml"
	echo
done >"$T/list.mbox"
before=$(requests)
run_pr consume -q "$T/list.mbox"
check "consume MBOX reviews its patches and returns 0" test "$status" -eq 0 -a "$(requests)" -eq $((before + 2))
python3 - "$T/list.mbox" "$T/mbox-2.eml" <<'PY'
import re, sys
m = re.split(r"(?m)^From list .*\n", open(sys.argv[1]).read())[2]
open(sys.argv[2], "w").write(m.rstrip("\n") + "\n")
PY
run_pr <"$T/mbox-2.eml"
check "the key on a message of the mbox sends nothing" sent $((before + 2))
