#!/bin/sh
# A whole list on the same path (issue 26): a list archive built with
# public-inbox 1.9 (public-inbox-init, messages delivered by
# public-inbox-mda), followed into a Maildir with `lei q` and `lei up`, no
# network; `patchreview consume --out DIR` over that Maildir reviews each
# series once and writes one file a series (an mbox of drafts, or JSON),
# and a second run, after one new message, reads and reviews only that one
# (the stand-in's requests counted). An mbox grown by one message, a
# Maildir as the output, two runs at once, the state pruned by age; and
# the delivery agents maildrop and fdm piping to the hook (procmail is
# t45's). Each part skips, saying so, when its tool is missing.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
for p in flock python3; do
	command -v $p >/dev/null || { skip "list" "$p is not installed"; exit 0; }
done
start_server
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok
export XDG_STATE_HOME=$T/state XDG_RUNTIME_DIR=$T/run
STATE=$T/state/patchreview
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
# lei starts a daemon of its own: stopped with the test.
trap 'command -v lei >/dev/null && lei daemon-kill >/dev/null 2>&1; kill $SERVER 2>/dev/null; rm -rf "$T"' EXIT
settle() { flock "$STATE/worker.lock" true; }
# The list's mails: v1 of a series (cover letter, 2 patches, a reply) and a lone patch.
mkdir "$T/mails"
python3 - "$MAILS/series-v2.mbox" "$T/mails" <<'PY'
import re, sys
for m in re.split(r"(?m)^From .*\n", open(sys.argv[1]).read())[1:]:
    mid = re.search(r"(?mi)^Message-ID: <([^>]*)>", m).group(1)
    if mid.startswith("v1-") or mid == "r1@example.org":
        open(sys.argv[2] + "/" + mid.split("@")[0], "w").write(m.rstrip("\n") + "\n")
PY
cp "$MAILS/llm-net.eml" "$T/mails/lone"
sed 's/^Message-ID: <.*/Message-ID: <late@example.org>/; s/^Subject: \[PATCH net\]/Subject: [PATCH net-next]/' \
	"$MAILS/llm-net.eml" >"$T/mails/late"
# summary: the numbers of the last run's summary line, "queued known seen placed ...".
summary() { sed -n 's/.*consume: \([0-9]*\) queued (\([0-9]*\) known, \([0-9]*\) seen before), \([0-9]*\) placed.* \([0-9]*\) series reviewed.*/\1 \2 \3 \4 \5/p' "$T/err"; }

# The list archive, the lei folder, the runs over it.
if command -v public-inbox-init >/dev/null && command -v public-inbox-mda >/dev/null &&
	command -v lei >/dev/null; then
	export PI_CONFIG=$T/pi-config
	public-inbox-init -V2 -L medium list "$T/inbox" http://example.org/list list@example.org \
		>"$T/pi.log" 2>&1
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
	mda() { ORIGINAL_RECIPIENT=list@example.org public-inbox-mda --no-precheck <"$T/mails/$1"; }
	for m in v1-2 lone v1-0 r1 v1-1; do
		mda $m || fail "public-inbox-mda" "did not take $m"
	done
	lei q -q -I "$T/inbox" -o "$T/lei" 'd:1970-01-01..' >>"$T/pi.log" 2>&1
	check "lei q keeps the list's 5 messages in a Maildir" \
		test "$(find "$T/lei/new" "$T/lei/cur" -type f | grep -c .)" -eq 5
	before=$(requests)
	run_pr consume --out "$T/reviews" "$T/lei"
	check "consume over the lei folder: 3 patches to the model (the cover and the reply not)" \
		test "$status" -eq 0 -a "$(($(requests) - before))" -eq 3
	check "its summary: 5 queued, 5 placed (the reply kept for its thread), 2 series reviewed" \
		test "$(summary)" = "5 0 0 5 2"
	check "one file a series in --out" test "$(ls "$T/reviews" | grep -c '^[0-9a-f]\{16\}\.mbox$')" -eq 2
	series=$(grep -l 'PATCH 0/2' "$T/reviews"/*.mbox)
	check "the series' file: its 3 drafts as an mbox" \
		test "$(grep -c '^From patchreview ' "$series")" -eq 3
	check "(each a reply to one of its messages)" \
		test "$(grep -c '^In-Reply-To: <v1-[012]@example.org>' "$series")" -eq 3
	check "and no draft for the reply" test -z "$(grep -l 'r1@example.org' "$T/reviews"/*)"
	check "drafts written for a list leave no learning record behind" \
		test "$(find "$XDG_DATA_HOME/patchreview/drafts" -type f 2>/dev/null | wc -l)" -eq 0
	ls -l --time-style=+%s "$T/reviews" >"$T/reviews.before"

	# One new message on the list: lei up brings it, the next run reads it alone.
	mda late
	lei up -q "$T/lei" >>"$T/pi.log" 2>&1
	before=$(requests)
	run_pr consume --out "$T/reviews" "$T/lei"
	check "after lei up, the run reviews only the new message: 1 request" \
		test "$status" -eq 0 -a "$(($(requests) - before))" -eq 1
	check "and reads only it: 1 queued, the 5 others passed by name" test "$(summary)" = "1 0 5 1 1"
	check "its series has a file of its own, the others are untouched" \
		test "$(ls "$T/reviews" | grep -c '\.mbox$')" -eq 3
	run_pr consume --out "$T/reviews" "$T/lei"
	check "a rerun with nothing new: nothing read, nothing written" \
		test "$(summary)" = "0 0 6 0 0" -a "$(ls "$T/reviews" | grep -c .)" -eq 3

	# Two runs at once over the folder, from a new state: each series once.
	export XDG_STATE_HOME=$T/state2
	before=$(requests)
	PATCHREVIEW_CACHE=no "$PR" consume -q --out "$T/reviews2" "$T/lei" 2>"$T/err1" &
	PATCHREVIEW_CACHE=no "$PR" consume -q --out "$T/reviews2" "$T/lei" 2>"$T/err2"
	wait $!
	check "two runs at once review each series once: 4 requests" \
		test "$(($(requests) - before))" -eq 4 -a "$(ls "$T/reviews2" | grep -c .)" -eq 3
	export XDG_STATE_HOME=$T/state
else
	skip "list archive" "public-inbox 1.9 (public-inbox-init, public-inbox-mda, lei) is not installed"
fi

# An mbox the list's archive grows: a run reads what was added since the last.
cat_mbox() { for m in "$@"; do echo "From list Thu Jan  1 00:00:00 1970"; cat "$T/mails/$m"; echo; done; }
export XDG_STATE_HOME=$T/state3 XDG_CACHE_HOME=$T/cache3
STATE=$T/state3/patchreview
cat_mbox v1-0 v1-1 v1-2 lone >"$T/list.mbox"
run_pr consume --out "$T/json" --format json "$T/list.mbox"
check "consume MBOX --format json: one JSON file a series" \
	test "$status" -eq 0 -a "$(ls "$T/json" | grep -c '^[0-9a-f]\{16\}\.json$')" -eq 2
check "each the --format json of its series" python3 - "$T/json" <<'PY'
import json, os, sys
d = [json.load(open(os.path.join(sys.argv[1], f))) for f in os.listdir(sys.argv[1])]
s = sorted(sorted(p["subject"].split("]")[0] + "]" for p in x["patches"]) for x in d)
sys.exit(0 if s == [["[PATCH 0/2]", "[PATCH 1/2]", "[PATCH 2/2]"], ["[PATCH net]"]] else 1)
PY
cat_mbox late >>"$T/list.mbox"
before=$(requests)
run_pr consume --out "$T/json" --format json "$T/list.mbox"
check "the grown mbox: only the message appended is read and reviewed" \
	test "$(summary)" = "1 0 0 1 1" -a "$(($(requests) - before))" -eq 1
# Rewritten (lei q overwrites its mbox): read whole, nothing placed twice.
cat_mbox late v1-0 v1-1 v1-2 lone >"$T/list.mbox"
before=$(requests)
run_pr consume --out "$T/json" --format json "$T/list.mbox"
check "a rewritten mbox is read again, and nothing is reviewed twice" \
	test "$(summary)" = "5 0 0 0 0" -a "$(requests)" -eq "$before"

# A Maildir as the output: each draft a message of new/, named by its series.
export XDG_STATE_HOME=$T/state4
run_pr consume --out "maildir:$T/drafts" "$T/list.mbox"
check "--out maildir:PATH: a message a draft (cover letter and 2 patches, 2 lone patches)" \
	test "$(ls "$T/drafts/new" | grep -c '^patchreview-[0-9a-f]\{16\}\.[0-9]\{4\}$')" -eq 5
rm -rf "$T/state4"
run_pr consume --out "maildir:$T/drafts" "$T/list.mbox"
check "the same series again replaces its drafts: still 5" test "$(ls "$T/drafts/new" | grep -c .)" -eq 5

# Pruning: a series not pending and a seen entry untouched for consume_keep
# days go, at most once an hour, under the worker's lock.
STATE=$T/state3/patchreview
export XDG_STATE_HOME=$T/state3
nseries=$(ls "$STATE/series" | grep -c .)
old=$(ls "$STATE/series" | head -1)
waiting=$(ls "$STATE/series" | sed -n 2p)
date +%s >"$STATE/pending/$waiting"
touch -d '31 days ago' "$STATE/series/$old" "$STATE/series/$waiting" "$STATE/pruned"
zeros=0000000000000000000000000000000000000000000000000000000000000000
touch -d '31 days ago' "$STATE/seen/$zeros"
nseen=$(ls "$STATE/seen" | grep -c .)
run_pr consume "$T/list.mbox"
check "a series 31 days old is pruned, the others stay" \
	test ! -e "$STATE/series/$old" -a "$(ls "$STATE/series" | grep -c .)" -eq $((nseries - 1))
check "(not one pending, however old)" test -d "$STATE/series/$waiting"
check "and one seen entry" test ! -e "$STATE/seen/$zeros" -a "$(ls "$STATE/seen" | grep -c .)" -eq $((nseen - 1))
check "the log says so" grep -q "pruned 1 series, 0 threads and 1 seen entries" "$STATE/log"
touch -d '31 days ago' "$STATE/series"/*
run_pr consume "$T/list.mbox"
check "not again within the hour" test "$(ls "$STATE/series" | grep -c .)" -eq $((nseries - 1))
cat_mbox lone v1-2 v1-1 v1-0 late >"$T/list.mbox"
run_pr consume "$T/list.mbox"
check "the pruned series' messages read again are known by their Message-ID: none placed" \
	test "$(summary)" = "5 0 0 0 0"

# maildrop and fdm pipe each message to the hook and deliver it unchanged.
mkdir -p "$T/in/cur" "$T/in/new" "$T/in/tmp"
chmod -R 700 "$T/in"
export XDG_STATE_HOME=$T/state5 XDG_CACHE_HOME=$T/cache5
STATE=$T/state5/patchreview
if command -v maildrop >/dev/null; then
	# maildrop keeps the environment, but sets HOME from the password file.
	cat >"$T/mailfilter" <<M
HOME="$HOME"
DEFAULT="$T/in/"
cc "| $PR consume"
M
	chmod 600 "$T/mailfilter"
	before=$(requests)
	maildrop "$T/mailfilter" <"$T/mails/lone"
	check "maildrop delivers, the hook exits 0" test "$?" -eq 0 -a "$(ls "$T/in/new" | grep -c .)" -eq 1
	settle
	check "the message is reviewed at delivery" test "$(($(requests) - before))" -eq 1
	run_pr <"$T/mails/lone"
	check "then the key sends nothing" test "$(($(requests) - before))" -eq 1
	check "the delivered message is the one sent" cmp -s "$T/in/new/$(ls "$T/in/new")" "$T/mails/lone"
else
	skip "maildrop" "maildrop is not installed"
fi
if command -v fdm >/dev/null; then
	cat >"$T/fdm.conf" <<F
set lock-file "$T/fdm.lock"
account "stdin" stdin
action "review" pipe "$PR consume"
action "inbox" maildir "$T/in"
match "^Subject:.*\\\\[PATCH" in headers actions { "review" "inbox" }
match all action "inbox"
F
	before=$(requests)
	n=$(ls "$T/in/new" | grep -c .)
	fdm -q -f "$T/fdm.conf" -a stdin fetch <"$T/mails/late"
	check "fdm delivers, the hook exits 0" test "$?" -eq 0 -a "$(ls "$T/in/new" | grep -c .)" -eq $((n + 1))
	settle
	check "the message is reviewed at delivery" test "$(($(requests) - before))" -eq 1
	run_pr <"$T/mails/late"
	check "then the key sends nothing" test "$(($(requests) - before))" -eq 1
	fdm -q -f "$T/fdm.conf" -a stdin fetch <"$T/mails/r1"
	settle
	check "a reply goes to the hook, is kept nowhere and costs nothing" \
		test "$(($(requests) - before))" -eq 1 -a "$(ls "$T/in/new" | grep -c .)" -eq $((n + 2))
else
	skip "fdm" "fdm is not installed"
fi
