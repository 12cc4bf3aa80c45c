#!/bin/sh
# The model reviewer's limits (doc/limits.md): a hostile answer with a
# huge quote and 100,000 findings is placed in bounded time; quotes are
# matched up to their limits only; long comments and answers are cut or
# refused with a note; the draft is always written.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "llm limits" "python3 missing"; exit 0; }
start_server
NET=$MAILS/llm-net.eml
NET_LINE='> +	if (skb->len > sizeof(frame)) {'
use_backend openai
export PATCHREVIEW_CACHE=no

# A 9,000-line patch, in one request (no part, context or budget limit).
python3 - "$T/long.eml" <<'PY'
import sys
n = 9000
with open(sys.argv[1], "w") as f:
    f.write("From: Ada Lovelace <ada@example.org>\nTo: netdev@vger.kernel.org\n"
            "Subject: [PATCH] net: bar: a long table\nMessage-ID: <long@example.org>\n\n"
            "Add the table.\n\nSigned-off-by: Ada Lovelace <ada@example.org>\n---\n"
            "diff --git a/net/bar/table.c b/net/bar/table.c\nnew file mode 100644\n"
            "--- /dev/null\n+++ b/net/bar/table.c\n@@ -0,0 +1,%d @@\n" % n)
    f.write("".join("+\tint v%05d = %d;\n" % (i, i) for i in range(n)))
PY
t0=$(now_s)
PATCHREVIEW_MODEL=scenario:flood PATCHREVIEW_TIMEOUT=120 PATCHREVIEW_PART_BYTES=0 \
	PATCHREVIEW_CONTEXT_TOKENS=0 PATCHREVIEW_TOKEN_BUDGET=0 run_pr_within 60 < "$T/long.eml"
took=$(elapsed_since "$t0")
check "flood: a 1 MiB quote and 100,001 findings on 9,000 lines, placed in bounded time (took $took s)" \
	sh -c "[ $status -eq 0 ] && awk 'BEGIN { exit !($took < 30) }'"
check "flood: a note says how many findings were read" \
	note_is "the model gave 100001 findings; only the first 100 were read"
check "flood: the findings read are in the draft, the rest are not" \
	sh -c "grep -q '^FLOOD-BIG-QUOTE' '$T/out' && grep -q '^FLOOD-98\$' '$T/out' && ! grep -q '^FLOOD-99\$' '$T/out'"

PATCHREVIEW_MODEL=scenario:caps run_pr < "$NET"
# placed TAG: the comment is under the quoted line; general TAG: at the top.
placed() { [ "$(grep -n "^$1" "$T/out" | cut -d: -f1)" -gt "$(grep -n -F -- "$NET_LINE" "$T/out" | cut -d: -f1)" ]; }
general() { [ "$(grep -n "^$1" "$T/out" | cut -d: -f1)" -lt "$(grep -n '^> diff --git' "$T/out" | cut -d: -f1)" ]; }
check "quote limit: the 20th line of a quote is matched" placed CAP-LINES-IN
check "quote limit: the 21st is not" general CAP-LINES-OUT
check "quote limit: a line within the first 4096 bytes is matched" placed CAP-BYTES-IN
check "quote limit: one past them is not" general CAP-BYTES-OUT
check "comment limit: a comment over 4000 bytes is cut, marked [...]" \
	sh -c "grep -q '^CAP-COMMENT: word word' '$T/out' && grep -q -F ' [...]' '$T/out' && ! grep -q END-OF-LONG-COMMENT '$T/out'"
check "limits: the draft is still whole" sh -c "[ $status -eq 0 ] && grep -q 'trailing whitespace' '$T/out'"

PATCHREVIEW_MODEL=scenario:huge run_pr < "$NET"
check "answer limit: an answer over 8 MiB is refused with a note" \
	note_is "model review failed: answer larger than 8 MiB"
check "answer limit: ... and the draft is still written" \
	sh -c "[ $status -eq 0 ] && grep -q 'trailing whitespace' '$T/out'"

# What a review sends is bounded (doc/model.md): a patch of one file too
# large for a request goes in parts cut between its hunks, and a hunk too
# large inside it, and no request is larger than context_tokens with
# max_tokens kept for the answer, as the stand-in received them.
python3 - "$T/big.eml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("From: Ada Lovelace <ada@example.org>\nTo: list@example.org\n"
            "Subject: [PATCH] lib: a table and many small changes\nMessage-ID: <big@example.org>\n\n"
            "Add the table.\n\nSigned-off-by: Ada Lovelace <ada@example.org>\n---\n"
            "diff --git a/lib/many.c b/lib/many.c\n--- a/lib/many.c\n+++ b/lib/many.c\n")
    for h in range(200):
        at = 10 + 20 * h
        f.write("@@ -%d,7 +%d,7 @@ int f%03d(void)\n \tint a = 0;\n \tint b = 1;\n \tint c = 2;\n"
                "-\treturn old_%03d(a, b, c);\n+\treturn new_%03d(a, b, c);\n \t/* end */\n }\n"
                % (at, at, h, h, h))
    f.write("diff --git a/lib/table.c b/lib/table.c\nnew file mode 100644\n--- /dev/null\n"
            "+++ b/lib/table.c\n@@ -0,0 +1,4000 @@\n")
    f.write("".join("+\tint v%04d = %d;\n" % (i, i) for i in range(4000)))
PY
CTX=16384 ANSWER=1024
export PATCHREVIEW_CONTEXT_TOKENS=$CTX PATCHREVIEW_MAX_TOKENS=$ANSWER PATCHREVIEW_MODEL=scenario:ok
# sent_q EXPR: EXPR holds where p is the list of the patch fences the stand-in received.
sent_q() { logq "$(printf '[user_of(q).split("<<<PATCH\\n", 1)[1] for q in r] and (lambda p: %s)([user_of(q).split("<<<PATCH\\n", 1)[1] for q in r])' "$1")"; }
: > "$LOG"
PATCHREVIEW_TOKEN_BUDGET=0 run_pr < "$T/big.eml"
check "context: a 150 KB patch goes in several requests" sh -c "[ $status -eq 0 ] && [ $(requests) -ge 4 ]"
check "context: no request is larger than context_tokens less max_tokens, at 3 bytes a token" \
	logq "all(len((sys_of(q) + user_of(q)).encode()) <= ($CTX - $ANSWER) * 3 for q in r)"
check "context: many.c is cut between its hunks: each of its 200 hunks whole in one request" \
	sent_q 'all(sum(("@@ -%d,7 +%d,7 @@ int f%03d(void)\n \tint a = 0;\n \tint b = 1;\n \tint c = 2;\n-\treturn old_%03d(a, b, c);\n+\treturn new_%03d(a, b, c);\n" % (10 + 20 * h, 10 + 20 * h, h, h, h)) in x for x in p) == 1 for h in range(200))'
check "context: table.c's one hunk is cut inside, each piece under a header of its own" \
	sent_q 'sum("@@ -0,0 +1," in x for x in p) == 1 and sum(x.count("+++ b/lib/table.c\n@@ -0,0 +") for x in p) >= 2'
check "context: every added line of table.c went in exactly once" \
	sent_q 'all(sum(x.count("+\tint v%04d = %d;\n" % (i, i)) for x in p) == 1 for i in range(4000))'
check "context: the findings of every part land in one draft" \
	sh -c "[ \$(grep -c '^STANDIN-ANCHORED' '$T/out') -ge 4 ]"

# The token budget: what fits goes; the draft names what the model did not
# review and how to review it; a second run reviews the rest from there.
export PATCHREVIEW_CACHE=yes
# left_out_note: the draft's note on what the model did not review, on one line.
left_out_note() { notes "$T/out" | grep '^the model did not review'; }
left_out_says() { left_out_note | grep -q -E -- "$1"; }
# left_out_count: how many parts the note says were not reviewed, 0 without one.
left_out_count() { n=$(left_out_note | sed -n 's/.*did not review \([0-9]*\) of the.*/\1/p'); echo "${n:-0}"; }
: > "$LOG"
PATCHREVIEW_TOKEN_BUDGET=30000 run_pr --full < "$T/big.eml"
first=$(requests)
check "budget: no more than token_budget is sent" \
	logq "0 < sum(-(-len((sys_of(q) + user_of(q)).encode()) // 3) for q in r) <= 30000"
check "budget: the draft says how many parts the model did not review, and why" \
	note_is "the model did not review "
check "budget: ... names the files and hunks left out" \
	left_out_says 'token_budget \(30000\) was spent\. Not reviewed: (lib/many\.c \(hunks [0-9]+-200 of 200, lines [0-9]+-[0-9]+\), )?lib/table\.c'
check "budget: ... and how to review them" \
	left_out_says 'run patchreview on the mail again: what was reviewed comes from the cache'
check "budget: stderr says so once" grep -q '^patchreview: token_budget (30000) spent: the model did not review [0-9]* requests of 1 patch' "$T/err"
check "budget: the draft is still whole, exit 0" sh -c "[ $status -eq 0 ] && grep -q '^> +	int v3999 = 3999;' '$T/out'"
left=$(left_out_count)
cp "$LOG" "$T/first.log"
: > "$LOG"
PATCHREVIEW_TOKEN_BUDGET=30000 run_pr --full < "$T/big.eml"
check "budget: run again: the parts reviewed come from the cache, the budget goes to the next" \
	sh -c "[ $(requests) -gt 0 ] && ! grep -q -F -f '$T/first.log' '$LOG'"
check "budget: ... so fewer are left out" \
	sh -c "[ $(left_out_count) -lt $left ]"
unset PATCHREVIEW_CONTEXT_TOKENS PATCHREVIEW_MAX_TOKENS
export PATCHREVIEW_CACHE=no

# A line larger than any request: that part is not sent, and the draft says so.
python3 - "$T/wide.eml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("From: Ada Lovelace <ada@example.org>\nTo: list@example.org\n"
            "Subject: [PATCH] data: a wide line\nMessage-ID: <wide@example.org>\n\nAdd it.\n---\n"
            "diff --git a/data/a.txt b/data/a.txt\n--- a/data/a.txt\n+++ b/data/a.txt\n"
            "@@ -1,2 +1,2 @@\n one\n-two\n+two\n"
            "diff --git a/data/b.txt b/data/b.txt\n--- a/data/b.txt\n+++ b/data/b.txt\n"
            "@@ -1 +1 @@\n-x\n+" + "y" * 200000 + "\n")
PY
: > "$LOG"
PATCHREVIEW_CACHE=no run_pr < "$T/wide.eml"
check "context: a line no request can hold is not sent" \
	sh -c "[ $(requests) -eq 1 ] && ! grep -q yyyyyyyyyy '$LOG'"
check "context: ... and the draft names it" \
	note_is "the model did not review 1 of the 2 parts of this patch: it holds a line larger than any request may be (context_tokens). Not reviewed: data/b.txt"

# model_patches: a run gives the model that many patches; the others are checked only.
: > "$LOG"
PATCHREVIEW_MODEL_PATCHES=2 PATCHREVIEW_CACHE=no run_pr < "$MAILS/series-v2.mbox"
python3 -c 'import mailbox, sys; sys.stdout.buffer.write(list(mailbox.mbox(sys.argv[1]))[3].as_bytes())' "$T/out" > "$T/third"
check "model_patches: two requests for a series of three" sh -c "[ $status -eq 0 ] && [ $(requests) -eq 2 ]"
check "model_patches: the third patch's draft says the model did not review it, and how to" \
	sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/third' | grep -q -F 'the model did not review this patch: a run gives it at most 2 patches (model_patches). To review it, run patchreview on this patch alone'"
check "model_patches: stderr says so once" grep -q '^patchreview: the model was given 2 patches (model_patches); 1 more is only checked$' "$T/err"

# A series of 5,000 patches is built into requests as they are sent, each
# with a bounded list of the others: peak memory grows with the input, not
# with its square (measured on the release binary, against 500 patches,
# with no patch limit and the model unreachable).
gen_series() {
	python3 - "$1" > "$2" <<'PY'
import sys
n = int(sys.argv[1])
out = ["From x Mon Sep 17 00:00:00 2001\nFrom: Ada <ada@example.org>\nTo: list@example.org\n"
       "Subject: [PATCH 0/%d] a long series\nMessage-ID: <s0@example.org>\n\nMany.\n\n" % n]
for k in range(1, n + 1):
    out.append("From x Mon Sep 17 00:00:00 2001\nFrom: Ada <ada@example.org>\nTo: list@example.org\n"
               "Subject: [PATCH %d/%d] foo: change value %d\nMessage-ID: <s%d@example.org>\n"
               "In-Reply-To: <s0@example.org>\nReferences: <s0@example.org>\n\n"
               "Change it.\n\nSigned-off-by: Ada <ada@example.org>\n---\n"
               "diff --git a/foo/v%d.c b/foo/v%d.c\n--- a/foo/v%d.c\n+++ b/foo/v%d.c\n"
               "@@ -1,3 +1,3 @@\n int a;\n-int v = %d;\n+int v = %d;\n int b;\n"
               % (k, n, k, k, k, k, k, k, k, k + 1))
sys.stdout.write("".join(out))
PY
}
peak_of() {
	python3 - "$ROOT/patchreview" "$1" <<'PY'
import resource, subprocess, sys
with open(sys.argv[2], "rb") as f:
    subprocess.run([sys.argv[1], "-q"], stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
if [ -x "$ROOT/patchreview" ]; then
	gen_series 500 "$T/s500.mbox"
	gen_series 5000 "$T/s5000.mbox"
	export PATCHREVIEW_URL=http://127.0.0.1:$(closed_port)/v1 PATCHREVIEW_RETRIES=0 \
		PATCHREVIEW_CACHE=no PATCHREVIEW_MODEL_PATCHES=0 PATCHREVIEW_TOKEN_BUDGET=0
	small=$(peak_of "$T/s500.mbox") large=$(peak_of "$T/s5000.mbox")
	check "series: 10 times the patches, at most 4 times the peak memory ($small KiB, then $large KiB)" \
		sh -c "[ $small -gt 0 ] && [ $large -le \$(($small * 4)) ]"
else
	skip "series memory" "no release binary ./patchreview (make)"
fi
