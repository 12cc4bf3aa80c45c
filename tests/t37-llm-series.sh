#!/bin/sh
# A series through the model reviewer (issue 11), asserted on what the
# stand-in received: each patch's request carries the cover letter, every
# subject and the other patches' diffs nearest first within the budget,
# fenced; the series guide comes with it; the cache works per patch; a
# large patch goes in parts whose findings land in one draft.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "llm series" "python3 missing"; exit 0; }
start_server
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok
S=$MAILS/series-v2.mbox
P1='The patch to review is 1/3 ' P2='The patch to review is 2/3 ' P3='The patch to review is 3/3 '

# reqq TEXT EXPR: EXPR holds for the request whose last user message holds
# TEXT (requests go out at once, in no fixed order); u is that message,
# series and patch its two fenced parts, s its system text.
reqq() {
	python3 - "$LOG" "$1" "$2" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def last_user(q):
    m = q["body"]["messages"]
    t = [x["content"] for x in m if x["role"] == "user"][-1]
    return "".join(b.get("text", "") for b in t) if isinstance(t, list) else t
hits = [q for q in r if sys.argv[2] in last_user(q)]
if not hits:
    sys.exit(1)
q = hits[0]
def text(c):
    return "".join(b.get("text", "") for b in c) if isinstance(c, list) else (c or "")
m = q["body"]["messages"]
s = "".join(text(x["content"]) for x in m if x["role"] == "system")
u = [text(x["content"]) for x in m if x["role"] == "user"][-1]
series = u.split("\n<<<SERIES\n", 1)[1].split("\nSERIES>>>\n", 1)[0] if "\n<<<SERIES\n" in u else ""
patch = u.split("\n<<<PATCH\n", 1)[1] if "\n<<<PATCH\n" in u else ""
sys.exit(0 if eval(sys.argv[3]) else 1)
PY
}
# draft N FILE: the N-th draft (from 1) of an mbox.
draft() {
	python3 - "$1" "$2" <<'PY'
import mailbox, sys
m = list(mailbox.mbox(sys.argv[2]))[int(sys.argv[1]) - 1]
sys.stdout.buffer.write(m.as_bytes())
PY
}

run_pr < "$S"
check "series: one request per patch, none for the cover letter" sh -c "[ $status -eq 0 ] && [ $(requests) -eq 3 ]"
check "series: 2/3's request names it and carries the cover letter" \
	reqq "$P2" '"The patch to review is 2/3 of a series of 3 (v2)." in series and "frob() and its first user, and the README." in series'
check "series: ... every subject, its own marked" \
	reqq "$P2" '"  1/3 foo: add frob()\n" in series and "  2/3 foo: bar: show the flags   <- the patch to review\n" in series and "  3/3 foo: README: describe the flags\n" in series'
check "series: ... the other diffs, the one before first" \
	reqq "$P2" '0 < series.index("The diff of 1/3") < series.index("The diff of 3/3") and "+unsigned long frob(unsigned int count)" in series'
check "series: ... and the base commit" reqq "$P2" '"Based on commit 0123456789abcdef0123456789abcdef01234567." in series'
check "series: its own diff only inside the patch fence" \
	reqq "$P2" '"printf(\"%lx\\n\", frob(w->count));" in patch and "frob(w->count)" not in series'
check "series: a fence imitated in the cover letter is replaced" \
	reqq "$P2" 'u.count("\n<<<PATCH\n") == 1 and "(a line imitating the patch fence was removed)" in series'
check "series: the series guide is sent, attribution rule and all" \
	reqq "$P1" '"Attribute a problem to the patch that introduces it" in s and "fixed later in the series" in s'
check "series: the series context is labelled untrusted" \
	reqq "$P3" '"untrusted" in u.split("\n<<<SERIES\n")[0]'
cp "$T/out" "$T/drafts"
draft 3 "$T/drafts" > "$T/p2"
check "series: 2/3's draft has its model comment under its own line" \
	sh -c "grep -A2 -F 'frob(w->count));' '$T/p2' | grep -q STANDIN-ANCHORED"
draft 1 "$T/drafts" > "$T/cover"
check "series: the cover letter's summary counts the model's comments" \
	sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/cover' | grep -q '^- 2/3 foo: bar: show the flags: [1-9] comments\{0,1\}; warning: \"STANDIN'"

: > "$LOG"
run_pr < "$MAILS/demo.eml"
check "one mail: no series fence, no series guide" \
	reqq "<<<PATCH" '"<<<SERIES" not in u and "Attribute a problem to the patch that introduces it" not in s'

# The budget: with room for none of the other diffs, they are named instead.
: > "$LOG"
PATCHREVIEW_SERIES_CONTEXT_BYTES=100 PATCHREVIEW_CACHE=no run_pr < "$S"
check "budget: the diffs that do not fit are named as left out" \
	reqq "$P2" '"The diffs of 1/3, 3/3 are left out for size." in series and "The diff of" not in series'
: > "$LOG"
PATCHREVIEW_SERIES_CONTEXT_BYTES=800 PATCHREVIEW_CACHE=no run_pr < "$S"
check "budget: the nearest that fits goes in first" \
	reqq "$P3" '"The diff of 2/3" in series and "The diff of 1/3" not in series and "1/3 are left out" in series'

# The cache, per patch: the same series again asks nothing.
: > "$LOG"
run_pr < "$S"
check "cache: the same series again sends nothing" sh -c "[ $(requests) -eq 0 ] && [ $(grep -c 'cached review' "$T/err") -eq 3 ]"

# A large patch in parts: one request per group of files, findings merged.
: > "$LOG"
PATCHREVIEW_PART_BYTES=300 PATCHREVIEW_CACHE=no run_pr < "$MAILS/series-gap.mbox"
check "parts: 1/3 (two files over part_bytes) goes in two requests" sh -c "[ $(requests) -eq 3 ]"
check "parts: each part says which it is and names the files of the other" \
	reqq "this is part 1." '"this is part 1." in u and "[part 1 of 2 of this patch; the diffs of these files are in the other parts: tools/foo/foo.h]" in patch and "+++ b/tools/foo/foo.h" not in patch'
check "parts: the second part holds the other file, with the commit message" \
	reqq "this is part 2." '"+++ b/tools/foo/foo.h" in patch and "+++ b/tools/foo/foo.c" not in patch and "frob() turns a widget" in patch'
draft 2 "$T/out" > "$T/p1"
check "parts: one draft with the findings of both parts; the same summary once" \
	sh -c "grep -A2 -F '> +unsigned long frob(unsigned int count);' '$T/p1' | grep -q STANDIN-ANCHORED &&
		[ \$(grep -c '^STANDIN-ANCHORED' '$T/p1') -eq 2 ] && python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/p1' > '$T/p1.sum' &&
		grep -q '^Part 1 of 2: STANDIN-SUMMARY' '$T/p1.sum' && ! grep -q '^Part 2 of 2: STANDIN-SUMMARY' '$T/p1.sum'"
check "parts: stderr says so" grep -q 'in 2 parts' "$T/err"

# Requests at once: up to jobs of them in flight, each with its own retries,
# one failing stops none of the others.
stop_server() { kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -f "$T/port"; }
stop_server
start_server --delay 1
use_backend openai
export PATCHREVIEW_MODEL=scenario:fail-readme PATCHREVIEW_CACHE=no
run_pr -j 3 < "$S"
check "jobs: exit 0 with one patch's review failed" test "$status" -eq 0
check "jobs: with -j 3 the three requests were answered at the same time" \
	logq 'max(q["inflight"] for q in r) == 3'
check "jobs: the failing request was retried on its own" \
	logq 'len(r) == 4 and sum("README" in user_of(q).split("<<<PATCH")[-1] for q in r) == 2'
cp "$T/out" "$T/drafts"
draft 3 "$T/drafts" > "$T/p2"
draft 4 "$T/drafts" > "$T/p3"
check "jobs: the others were reviewed; the failed one says why" \
	sh -c "grep -q STANDIN-ANCHORED '$T/p2' && python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/p3' | grep -q '^model review failed: HTTP 500 after 1 retry' &&
		! grep -q STANDIN '$T/p3'"
: > "$LOG"
run_pr -j 1 < "$S"
check "jobs: with -j 1 one request at a time" logq 'len(r) == 4 and max(q["inflight"] for q in r) == 1'
