#!/bin/sh
# Offline answering: --requests-out writes each request as the model would
# get it and stops; --answers takes the answers from files instead of a
# server; a missing answer is a failed model review, the draft still written.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "offline" "python3 missing"; exit 0; }
start_server
NET=$MAILS/llm-net.eml
NET_LINE='> +	if (skb->len > sizeof(frame)) {'
REQ=$T/requests
ANS=$T/answers
mkdir -p "$ANS"
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok

# jq-like reads of a request file: rq FILE EXPR, EXPR in Python over r.
rq() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
# answer NAME JSON: what the model would have written.
answer() { printf '%s\n' "$2" > "$ANS/$1.json"; }
ANSWER_OK='{"summary": "OFFLINE-SUMMARY.", "findings": [
 {"file": "net/bar/bar_rx.c", "quote": "if (skb->len > sizeof(frame)) {", "severity": "warning",
  "confidence": 0.9, "comment": "OFFLINE-ANCHORED: is the length the right bound?"},
 {"file": "net/bar/bar_rx.c", "quote": "return bar_deliver(bd, hdr, skb);", "severity": "nit",
  "confidence": 0.9, "comment": "OFFLINE-ELSEWHERE: a second remark."}]}'

# The request as the server would get it, for comparison.
run_pr --no-cache < "$NET"
cp "$LOG" "$T/server.log"
: >"$LOG"

run_pr --requests-out "$REQ" --request-name net1 < "$NET"
check "requests-out: exit 0, no draft, stderr names the file" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/out' ] && grep -q \"^patchreview: request written to '$REQ/net1.json'\$\" '$T/err'"
check "requests-out: nothing sent to the server" sent 0
check "requests-out: the system and user text the server got, and the schema" \
	python3 - "$T/server.log" "$REQ/net1.json" <<'PY'
import json, sys
sent = json.loads(open(sys.argv[1]).readline())["body"]
r = json.load(open(sys.argv[2]))
system = [m["content"] for m in sent["messages"] if m["role"] == "system"][0]
user = [m["content"] for m in sent["messages"] if m["role"] == "user"]
sys.exit(0 if r["system"] == system and [m["content"] for m in r["messages"]] == user
         and r["schema"] == sent["response_format"]["json_schema"]["schema"]
         and r["schema_name"] == "patch_review" and r["answer_file"] == "net1.json"
         and r["model"] == "scenario:ok" else 1)
PY

run_pr --requests-out "$REQ" < "$NET"
first=$(ls "$REQ" | grep '^req-')
run_pr --requests-out "$REQ" < "$NET"
check "requests-out: the default name comes from the request, the same each time" \
	sh -c "echo '$first' | grep -q -E '^req-[0-9a-f]{16}\.json\$' && [ \$(ls '$REQ' | grep -c '^req-') -eq 1 ]"
check "requests-out: the default name is the SHA-256 of system and user text, each with its NUL" \
	python3 - "$REQ/$first" <<'PY'
import hashlib, json, os, sys
r = json.load(open(sys.argv[1]))
text = r["system"] + "\0" + r["messages"][0]["content"] + "\0"
sys.exit(0 if os.path.basename(sys.argv[1]) == "req-%.16s.json" % hashlib.sha256(text.encode()).hexdigest() else 1)
PY
run_pr --requests-out "$REQ" --request-name '../x/y' < "$NET"
check "requests-out: a name cannot leave the directory" test -f "$REQ/_._x_y.json"

answer net1 "$ANSWER_OK"
run_pr --answers "$ANS" --request-name net1 < "$NET"
check "answers: the finding under its line" under "$NET_LINE" "^OFFLINE-ANCHORED"
check "answers: the other finding under its own" \
	under '>  	return bar_deliver(bd, hdr, skb);' "^nit: OFFLINE-ELSEWHERE"
check "answers: the summary and the disclosure" \
	sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/out' | grep -q -x 'OFFLINE-SUMMARY\.' && [ \"\$(tail -n1 '$T/out')\" = 'Assisted-by: patchreview (scenario:ok)' ]"
check "answers: no request sent" sent 0
check "answers: stderr says answered from files, tokens estimated" \
	err_has '^patchreview: model scenario:ok: answered from files, about [0-9]+ prompt \+ [0-9]+ completion tokens \(estimated from bytes\)$'
check "answers: nothing goes into the cache" sh -c "! ls '$XDG_CACHE_HOME/patchreview/' 2>/dev/null | grep -q ."
PATCHREVIEW_BACKEND=none PATCHREVIEW_MODEL= run_pr --answers "$ANS" --request-name net1 < "$NET"
check "answers: no backend needed; the model is called offline" \
	sh -c "grep -q OFFLINE-ANCHORED '$T/out' && [ \"\$(tail -n1 '$T/out')\" = 'Assisted-by: patchreview (offline)' ]"

run_pr --answers "$ANS" --request-name net2 < "$NET"
check "missing answer: exit 0, the draft with the built-in findings" \
	sh -c "[ $status -eq 0 ] && grep -q 'trailing whitespace' '$T/out' && ! grep -q OFFLINE '$T/out'"
check "missing answer: a failed model review, named" note_is "model review failed: no answer file '$ANS/net2.json'"
run_pr --strict --answers "$ANS" --request-name net2 < "$NET"
check "missing answer: --strict exits 4" exit_is 4

answer net3 'I think this patch is fine.'
run_pr --answers "$ANS" --request-name net3 < "$NET"
check "not JSON: the repair answer is looked for" \
	note_is "model review failed: the answer was not the JSON asked for, and there is no '$ANS/net3.repair.json'"
run_pr --answers "$ANS" --requests-out "$REQ" --request-name net3 < "$NET"
check "not JSON: ... or its request written, with the answer to repair" \
	rq "$REQ/net3.repair.json" '[m["role"] for m in r["messages"]] == ["user", "assistant", "user"] and r["messages"][1]["content"].startswith("I think")'

# verify = yes: the second request gets its own name, answered the same way.
answer net4 "$ANSWER_OK"
PATCHREVIEW_VERIFY=yes run_pr --answers "$ANS" --requests-out "$REQ" --request-name net4 < "$NET"
check "verify: the review answered, the verify request written, no draft yet" \
	sh -c "[ ! -s '$T/out' ] && [ -f '$REQ/net4.finding_verdicts.json' ] && [ ! -f '$REQ/net4.json' ]"
answer net4.finding_verdicts '{"verdicts": [{"id": 1, "verdict": "keep", "reason": "r"}, {"id": 2, "verdict": "drop", "reason": "r"}]}'
PATCHREVIEW_VERIFY=yes run_pr --answers "$ANS" --request-name net4 < "$NET"
check "verify: the verdicts from a file drop what they refute" \
	sh -c "grep -q OFFLINE-ANCHORED '$T/out' && ! grep -q OFFLINE-ELSEWHERE '$T/out' && grep -q 'verify dropped 1' '$T/err'"

# A fix owns its completeness: a finding that the patch does not do all it
# claims stays under its line, far from the change and marked preexisting too.
answer ctx1 '{"summary": "S.", "findings": [
 {"file": "lib/qux.c", "quote": "qux_touch(q, e);", "severity": "warning", "confidence": 0.9,
  "preexisting": true, "comment": "OFFLINE-OLD: a problem older than the patch."},
 {"file": "lib/qux.c", "quote": "qux_account(q, e);", "severity": "error", "confidence": 0.9,
  "preexisting": true, "incomplete_fix": true, "comment": "OFFLINE-INCOMPLETE: the claim is not met here."}]}'
run_pr --answers "$ANS" --request-name ctx1 < "$MAILS/llm-context.eml"
check "incomplete fix: kept under its line with preexisting = hide; the old problem hidden" \
	sh -c "grep -A2 -F 'qux_account(q, e);' '$T/out' | grep -q '^OFFLINE-INCOMPLETE' && ! grep -q OFFLINE-OLD '$T/out'"

# verify = low, and verdicts that are no JSON: the finding below min_confidence
# goes as min_confidence would have dropped it, the sure one stays.
answer net5 "$(printf '%s' "$ANSWER_OK" | sed 's/"confidence": 0.9, "comment": "OFFLINE-ELSEWHERE/"confidence": 0.3, "comment": "OFFLINE-ELSEWHERE/')"
answer net5.finding_verdicts 'I cannot decide.'
PATCHREVIEW_VERIFY=low run_pr --answers "$ANS" --request-name net5 < "$NET"
check "verify low: a failed pass drops the unsure finding, keeps the sure one, says so" \
	sh -c "grep -q OFFLINE-ANCHORED '$T/out' && ! grep -q OFFLINE-ELSEWHERE '$T/out' &&
	       grep -q 'model findings not verified: the verdicts were not valid JSON' '$T/err' &&
	       grep -q '1 below min_confidence' '$T/err'"

# One line in two files: each finding goes under the line of the file it
# names, not under whichever copy the index gives last.
answer dup '{"summary": "S.", "findings": [
 {"file": "drivers/misc/frob.h", "quote": "#endif", "severity": "warning", "confidence": 0.9,
  "comment": "OFFLINE-DUP-H: the header guard."},
 {"file": "drivers/misc/frob.c", "quote": "#endif", "severity": "warning", "confidence": 0.9,
  "comment": "OFFLINE-DUP-C: the source conditional."}]}'
run_pr --answers "$ANS" --request-name dup < "$MAILS/kernel-code.eml"
check "one quote in two files: each finding under the copy in the file it names" \
	sh -c "grep -B4 '^OFFLINE-DUP-H' '$T/out' | grep -q -F '> +#define FROB_REG_CTRL 0x10' &&
	       grep -B3 '^OFFLINE-DUP-C' '$T/out' | grep -q -x -F '> +}'"

# Several requests asked together (a series, a patch in parts) under one
# --request-name: each its own file, none written over another.
PATCHREVIEW_PART_BYTES=400 run_pr --requests-out "$T/parts" --request-name parts < "$MAILS/series-gap.mbox"
check "one name, several requests: a file each, numbered" \
	sh -c "[ \$(grep -c \"request written to '$T/parts/parts.part[0-9]*.json'\" '$T/err') -eq 3 ] &&
	       [ \$(ls '$T/parts' | wc -l) -eq 3 ]"
